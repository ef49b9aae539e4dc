/**
 * Plain Parquet files: the shared corpus and writer-made files, mutated in
 * their footer fields, page headers, pages and chunks, and bytes, then read
 * fully (read.ts).
 */
import { join } from 'node:path';
import { corpusFiles, writerSeeds } from '../seeds.js';
import { parquetMap } from '../file-map.js';
import { generatedFile } from '../generate.js';
import { applyMutation, randomMutation, type FileMap, type Mutation, type Rng } from '../mutate.js';
import { readFully } from '../read.js';
import { randomRange, randomStructuredMutation } from '../structured.js';
import type { SeedFile, Surface } from '../surface.js';

export const PARQUET_CORPORA = [join('..', 'shared', 'corpus'), join('examples', 'fixtures')];

/** One mutation of a Parquet file: a footer or page header field, a page or chunk moved, or bytes. */
export function parquetMutation(rng: Rng, bytes: Uint8Array, map: FileMap): Mutation {
  const r = rng.next();
  if (r < 0.3) return randomStructuredMutation(rng, bytes, map.chunkStarts) ?? randomMutation(rng, map);
  if (r < 0.45) return randomRange(rng, map.pages ?? [], map.chunks ?? [], map.chunkPages) ?? randomMutation(rng, map);
  return randomMutation(rng, map);
}

export function applyAll(bytes: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  return mutations.reduce((b, m) => applyMutation(b, m), bytes);
}

export const parquetSurface: Surface<Mutation> = {
  name: 'parquet',
  ext: 'parquet',
  async seeds(seed, count) {
    const corpus = corpusFiles(PARQUET_CORPORA, '.parquet').map((f): SeedFile => ({ ...f, surface: 'parquet' }));
    return [...corpus, ...(await writerSeeds('parquet', seed, count, (i) => generatedFile(seed, i, 'parquet')))];
  },
  prepare: (f) => parquetMap(f.bytes),
  mutate: (rng, f, map) => parquetMutation(rng, f.bytes, map as FileMap),
  options: (rng) => ({ verifyChecksums: rng.next() < 0.5 }),
  build: async (f, mutations, o) => ({ format: 'parquet', bytes: applyAll(f.bytes, mutations), verifyChecksums: o.verifyChecksums }),
  run: (input, limits) => readFully(input.bytes, 'parquet', input.verifyChecksums, limits),
};
