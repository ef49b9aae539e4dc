/**
 * Fuzz inputs: the seed files (the shared corpora and files the writers
 * make), where their interesting bytes lie, and the case numbered `id` of a
 * seed: which file, which mutations. A case is a pure function of (seed, id,
 * seed files), so a child process makes its own cases from their numbers and
 * any case can be made again from the numbers alone.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { decodeFileMetaData, decodePageHeader } from '../../src/parquet/metadata/index.js';
import { generatedFile } from './generate.js';
import { Rng, applyMutation, randomMutation, type FileMap, type Mutation } from './mutate.js';
import type { Format } from './read.js';
import { randomRange, randomStructuredMutation } from './structured.js';
import { randomTrevniMutation } from './trevni.js';
import { parseHeader } from '../../src/trevni/metadata.js';

export interface SeedFile {
  /** A path, or `writer:<format>:<seed>:<index>` for a file the writers made. */
  name: string;
  format: Format;
  bytes: Uint8Array;
}

export interface CaseSpec {
  id: number;
  seed: number;
  source: string;
  format: Format;
  verifyChecksums: boolean;
  mutations: Mutation[];
}

/** The shared corpora, relative to the repo root. */
export const CORPORA: Record<Format, string[]> = {
  parquet: [join('..', 'shared', 'corpus'), join('examples', 'fixtures')],
  trevni: [join('..', 'shared', 'trevni-corpus')],
};
const EXT: Record<Format, string> = { parquet: '.parquet', trevni: '.trv' };

function walk(dir: string, ext: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p, ext) : n.endsWith(ext) ? [p] : [];
  });
}

/** Every corpus file of these formats up to `maxBytes` (a bigger file costs more per case than it teaches). */
export function corpusFiles(formats: readonly Format[], maxBytes = 256 * 1024): SeedFile[] {
  return formats.flatMap((format) =>
    CORPORA[format].flatMap((d) => walk(d, EXT[format]))
      .filter((p) => statSync(p).size <= maxBytes)
      .map((p) => ({ name: p, format, bytes: new Uint8Array(readFileSync(p)) })));
}

/** `count` writer-made files of each format for this seed (fewer when the writer refuses a random schema). */
export async function writerFiles(formats: readonly Format[], seed: number, count: number): Promise<SeedFile[]> {
  const out: SeedFile[] = [];
  for (const format of formats) {
    for (let i = 0; i < count; i++) {
      const bytes = await generatedFile(seed, i, format);
      if (bytes) out.push({ name: `writer:${format}:${seed}:${i}`, format, bytes });
    }
  }
  return out;
}

/** Chunks and pages of a Parquet file, from its footer and page headers; as much as decodes. */
function parquetMap(b: Uint8Array): FileMap {
  const size = b.length;
  const footerLength = size >= 8 ? new DataView(b.buffer, b.byteOffset, size).getUint32(size - 8, true) : 0;
  const map: FileMap = { size, footerStart: Math.max(0, size - 8 - footerLength), footerEnd: Math.max(0, size - 8), chunkStarts: [], chunks: [], pages: [] };
  try {
    const meta = decodeFileMetaData(b.subarray(map.footerStart, map.footerEnd));
    for (const g of meta.rowGroups) {
      for (const c of g.columns) {
        const m = c.metaData;
        if (!m) continue;
        const start = Math.min(m.dataPageOffset, m.dictionaryPageOffset && m.dictionaryPageOffset > 0 ? m.dictionaryPageOffset : Infinity);
        const end = Math.min(start + m.totalCompressedSize, map.footerStart);
        map.chunkStarts.push(m.dataPageOffset);
        if (m.dictionaryPageOffset) map.chunkStarts.push(m.dictionaryPageOffset);
        map.chunks!.push({ start, end });
        for (let at = start; at < end && map.pages!.length < 4096;) {
          const cur = new ByteCursor(b, at, end, 0);
          const h = decodePageHeader(cur);
          const pageEnd = cur.pos + h.compressedPageSize;
          if (h.compressedPageSize < 0 || pageEnd > end) break;
          map.pages!.push({ start: at, end: pageEnd });
          at = pageEnd;
        }
      }
    }
  } catch {
    // A bad_data file may not decode: its footer and random places are still fair game.
  }
  return map;
}

/** A Trevni file's header plays the footer's part; its column starts are the chunk starts. */
function trevniMap(b: Uint8Array): FileMap {
  try {
    const h = parseHeader(new ByteCursor(b, 0, b.length, 0), b.length);
    return { size: b.length, footerStart: 0, footerEnd: h.headerLength, chunkStarts: h.columns.map((c) => c.start) };
  } catch {
    return { size: b.length, footerStart: 0, footerEnd: Math.min(b.length, 64), chunkStarts: [] };
  }
}

export function fileMap(f: SeedFile): FileMap {
  return f.format === 'parquet' ? parquetMap(f.bytes) : trevniMap(f.bytes);
}

/** A well-mixed 32-bit seed for case `id` of campaign `seed`. */
function caseSeed(seed: number, id: number): number {
  let h = (Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2d) ^ Math.imul(id + 1, 0x165667b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function oneMutation(rng: Rng, f: SeedFile, map: FileMap): Mutation {
  const r = rng.next();
  if (f.format === 'trevni') return (r < 0.55 ? randomTrevniMutation(rng, f.bytes) : undefined) ?? randomMutation(rng, map);
  if (r < 0.3) return randomStructuredMutation(rng, f.bytes, map.chunkStarts) ?? randomMutation(rng, map);
  if (r < 0.45) return randomRange(rng, map.pages ?? [], map.chunks ?? []) ?? randomMutation(rng, map);
  return randomMutation(rng, map);
}

/** Case `id` of `seed` over these seed files (maps[i] is files[i]'s map). */
export function makeCase(seed: number, id: number, files: readonly SeedFile[], maps: readonly FileMap[]): { spec: CaseSpec; bytes: Uint8Array } {
  const rng = new Rng(caseSeed(seed, id));
  // Each format gets half the cases, however many seed files it has.
  const format = rng.next() < 0.5 ? 'parquet' : 'trevni';
  const ofFormat = files.some((f) => f.format === format) ? files.filter((f) => f.format === format) : files;
  const f = ofFormat[rng.int(ofFormat.length)]!;
  const i = files.indexOf(f);
  // Most cases change one thing; some stack a few, as real damage does.
  const count = rng.next() < 0.8 ? 1 : 2 + rng.int(2);
  const mutations = Array.from({ length: count }, () => oneMutation(rng, f, maps[i]!));
  const spec: CaseSpec = { id, seed, source: f.name, format: f.format, verifyChecksums: rng.next() < 0.5, mutations };
  return { spec, bytes: applyAll(f.bytes, mutations) };
}

export function applyAll(bytes: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  return mutations.reduce((b, m) => applyMutation(b, m), bytes);
}
