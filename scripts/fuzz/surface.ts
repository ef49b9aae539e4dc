/**
 * What a fuzz surface is: one kind of input the library takes (a Parquet
 * file, an encrypted one, a damaged file handed to recovery, a dataset, a
 * CSV text...), with its seeds, its structure-aware mutations, and how a
 * case is read and judged. The campaign, pool and worker know nothing
 * else about a surface; each surface is one module of surfaces/.
 */
import type { Rng } from './mutate.js';
import type { ReadLimits, ReadOutcome } from './read.js';

export const SURFACE_NAMES = [
  'parquet', 'trevni', 'trevni-v1', 'trevni-draft', 'redelm', 'parquet-encrypted', 'parquet-recover', 'trevni-recover', 'dataset', 'csv', 'jsonl', 'json',
] as const;
export type SurfaceName = (typeof SURFACE_NAMES)[number];

/** A seed: a file from a corpus or one a writer made (`writer:<surface>:<seed>:<index>`), with its parts for a dataset. */
export interface SeedFile {
  name: string;
  surface: SurfaceName;
  bytes: Uint8Array;
  /** A dataset's files by path under its root. */
  files?: Record<string, Uint8Array>;
}

/** One case as it is read: made in a child from its number, or sent whole (replays, the fixed tests). */
export interface CaseInput {
  /** The surface that reads it (the name is `format` because the first surfaces were the two file formats). */
  format: SurfaceName;
  bytes: Uint8Array;
  verifyChecksums: boolean;
  /** What else the surface's read takes (keys, salvage mode, convert options), as JSON. */
  options?: Record<string, unknown>;
  /** The unmutated file, for invariants that compare with its rows. */
  original?: Uint8Array;
  /** A dataset's files by path under its root. */
  files?: Record<string, Uint8Array>;
}

/** A mutation: plain data (JSON), so a case prints as what makes it again. Each surface knows its own kinds. */
export type AnyMutation = { kind: string };

export interface Surface<M extends AnyMutation = AnyMutation> {
  name: SurfaceName;
  /** The reproducer's file extension (a dataset is saved as a directory). */
  ext: string;
  /** The corpus files and `count` writer-made ones of this seed. */
  seeds(seed: number, count: number): Promise<SeedFile[]>;
  /** What mutation needs to know of a seed, worked out once per process (a file map, a parsed stream). */
  prepare?(f: SeedFile): unknown;
  mutate(rng: Rng, f: SeedFile, prepared: unknown): M;
  /** The case's options (checksums, keys, salvage mode...). */
  options(rng: Rng, f: SeedFile, prepared: unknown): { verifyChecksums: boolean; options?: Record<string, unknown> };
  /** The input from the seed and its mutations; deterministic except for encryption's random nonces. */
  build(f: SeedFile, mutations: readonly M[], o: { verifyChecksums: boolean; options?: Record<string, unknown> }): Promise<CaseInput>;
  /** Reads the case as a user would and checks the surface's invariant. */
  run(input: CaseInput, limits: ReadLimits): Promise<ReadOutcome>;
}
