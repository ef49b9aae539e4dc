/**
 * Structure-aware mutations: decode the footer (or a page header) with the
 * project's own thrift codec, change one field (a count, offset, size, enum,
 * or a list's items), and encode it back. Byte flips rarely produce a footer
 * that still decodes; these reach the checks behind the decoder: sizes and
 * offsets that lie, counts that disagree, types that do not fit.
 */
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { decodeFileMetaData, decodePageHeader } from '../../src/parquet/metadata/index.js';
import { encodeFileMetaData, encodePageHeader } from '../../src/parquet/metadata/encode.js';
import type { FileMetaData, PageHeader } from '../../src/parquet/metadata/index.js';
import type { Rng } from './mutate.js';

export type FieldPath = (string | number)[];

export type FieldEdit =
  | { op: 'set'; path: FieldPath; value: number | string | boolean }
  | { op: 'delete'; path: FieldPath }
  | { op: 'dropItem'; path: FieldPath; index: number }
  | { op: 'dupItem'; path: FieldPath; index: number }
  | { op: 'swapItems'; path: FieldPath; i: number; j: number };

export type StructuredMutation =
  | ({ kind: 'footerField' } & FieldEdit)
  | ({ kind: 'pageHeaderField'; at: number } & FieldEdit);

const ENUMS: Record<string, string[]> = {
  type: ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY', 'UNKNOWN_99'],
  repetitionType: ['REQUIRED', 'OPTIONAL', 'REPEATED', 'UNKNOWN_7'],
  codec: ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW', 'UNKNOWN_42'],
  convertedType: ['UTF8', 'MAP', 'MAP_KEY_VALUE', 'LIST', 'ENUM', 'DECIMAL', 'DATE', 'TIME_MILLIS', 'TIME_MICROS', 'TIMESTAMP_MILLIS', 'TIMESTAMP_MICROS',
    'UINT_8', 'UINT_16', 'UINT_32', 'UINT_64', 'INT_8', 'INT_16', 'INT_32', 'INT_64', 'JSON', 'BSON', 'INTERVAL', 'UNKNOWN_77'],
  encoding: ['PLAIN', 'PLAIN_DICTIONARY', 'RLE', 'BIT_PACKED', 'DELTA_BINARY_PACKED', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'RLE_DICTIONARY', 'BYTE_STREAM_SPLIT', 'UNKNOWN_33'],
  definitionLevelEncoding: ['RLE', 'BIT_PACKED', 'PLAIN', 'UNKNOWN_3'],
  repetitionLevelEncoding: ['RLE', 'BIT_PACKED', 'PLAIN', 'UNKNOWN_3'],
  unit: ['MILLIS', 'MICROS', 'NANOS'],
};
ENUMS.encodings = ENUMS.encoding!;

const NUMBERS = [0, 1, -1, 2, 3, 7, 8, 12, 16, 31, 32, 33, 64, 127, 128, 255, 256, 1000, 4096, 65535, 65536, 1 << 20, 2 ** 31 - 1, -(2 ** 31), 2 ** 32, 2 ** 53 - 1, -(2 ** 53 - 1)];

interface Leaf {
  path: FieldPath;
  value: unknown;
}

function walk(v: unknown, path: FieldPath, leaves: Leaf[], arrays: Leaf[]): void {
  if (v instanceof Uint8Array) return void leaves.push({ path, value: v });
  if (Array.isArray(v)) {
    arrays.push({ path, value: v });
    v.forEach((x, i) => walk(x, [...path, i], leaves, arrays));
    return;
  }
  if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) walk(x, [...path, k], leaves, arrays);
    return;
  }
  leaves.push({ path, value: v });
}

function fieldName(path: FieldPath): string {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return path[i] as string;
  return '';
}

/** One random edit of a decoded struct: a number, enum, name or flag changed, a field deleted, or a list's items dropped, copied or swapped. */
export function randomEdit(rng: Rng, root: unknown): FieldEdit | undefined {
  const leaves: Leaf[] = [];
  const arrays: Leaf[] = [];
  walk(root, [], leaves, arrays);
  const r = rng.next();
  if (r < 0.15 && arrays.length) {
    const a = rng.pick(arrays);
    const n = (a.value as unknown[]).length;
    if (n === 0) return undefined;
    const op = rng.pick(['dropItem', 'dupItem', 'swapItems'] as const);
    if (op === 'swapItems') return { op, path: a.path, i: rng.int(n), j: rng.int(n) };
    return { op, path: a.path, index: rng.int(n) };
  }
  const candidates = leaves.filter((l) => typeof l.value === 'number' || typeof l.value === 'string' || typeof l.value === 'boolean');
  if (!candidates.length) return undefined;
  const leaf = rng.pick(candidates);
  if (r < 0.22) return { op: 'delete', path: leaf.path };
  if (typeof leaf.value === 'boolean') return { op: 'set', path: leaf.path, value: !leaf.value };
  if (typeof leaf.value === 'number') {
    const old = leaf.value;
    const choices = [old + 1, old - 1, old * 2, Math.floor(old / 2), -old, rng.int(2 ** 31), rng.pick(NUMBERS)];
    return { op: 'set', path: leaf.path, value: rng.pick(choices) };
  }
  const name = fieldName(leaf.path);
  const known = ENUMS[name];
  if (known) return { op: 'set', path: leaf.path, value: rng.pick(known) };
  // A name or other text: empty, long, or a different one.
  return { op: 'set', path: leaf.path, value: rng.pick(['', 'x', '__proto__', 'a.b', 'é'.repeat(200), String(leaf.value) + '_']) };
}

/** Applies an edit to a decoded struct in place. */
export function edit(root: Record<string, unknown>, e: FieldEdit): void {
  const parentPath = e.path.slice(0, e.op === 'set' || e.op === 'delete' ? -1 : undefined);
  let target: unknown = root;
  for (const k of parentPath) target = (target as Record<string | number, unknown>)[k];
  if (e.op === 'set' || e.op === 'delete') {
    const key = e.path[e.path.length - 1]!;
    const obj = target as Record<string | number, unknown>;
    if (e.op === 'set') obj[key] = e.value;
    else if (Array.isArray(obj)) obj.splice(key as number, 1);
    else delete obj[key];
    return;
  }
  const arr = target as unknown[];
  if (e.op === 'dropItem') arr.splice(e.index, 1);
  else if (e.op === 'dupItem') arr.splice(e.index, 0, structuredClone(arr[e.index]));
  else [arr[e.i], arr[e.j]] = [arr[e.j], arr[e.i]];
}

function footerBounds(b: Uint8Array): { start: number; len: number } {
  const len = new DataView(b.buffer, b.byteOffset, b.length).getUint32(b.length - 8, true);
  return { start: b.length - 8 - len, len };
}

/** A random structured mutation of this file, or undefined when its footer (or chosen page header) does not decode. */
export function randomStructuredMutation(rng: Rng, bytes: Uint8Array, chunkStarts: number[]): StructuredMutation | undefined {
  try {
    if (rng.next() < 0.6 || chunkStarts.length === 0) {
      const { start, len } = footerBounds(bytes);
      const meta = decodeFileMetaData(bytes.subarray(start, start + len));
      const e = randomEdit(rng, meta);
      return e && { kind: 'footerField', ...e };
    }
    const at = rng.pick(chunkStarts);
    const header = decodePageHeader(new ByteCursor(bytes, at, bytes.length, 0));
    const e = randomEdit(rng, header);
    return e && { kind: 'pageHeaderField', at, ...e };
  } catch {
    return undefined;
  }
}

/** Applies a structured mutation; when the edited struct cannot be encoded (a required field deleted), the bytes are unchanged. */
export function applyStructured(src: Uint8Array, m: StructuredMutation): Uint8Array {
  try {
    if (m.kind === 'footerField') {
      const { start, len } = footerBounds(src);
      const meta = decodeFileMetaData(src.subarray(start, start + len)) as unknown as Record<string, unknown>;
      edit(meta, m);
      return replaceFooter(src, start, len, meta);
    }
    const c = new ByteCursor(src, m.at, src.length, 0);
    const header = decodePageHeader(c) as unknown as Record<string, unknown>;
    const end = c.pos;
    edit(header, m);
    const w = new ByteWriter();
    encodePageHeader(header as unknown as PageHeader, w);
    const enc = w.finish();
    // The header may change length; everything after it moves with it (offsets in the footer then point a little off, which is fair game).
    const out = new Uint8Array(src.length - (end - m.at) + enc.length);
    out.set(src.subarray(0, m.at), 0);
    out.set(enc, m.at);
    out.set(src.subarray(end), m.at + enc.length);
    return out;
  } catch {
    return src.slice();
  }
}

/**
 * A page or a whole column chunk deleted, or duplicated in place (the copy
 * right after the original), or two pages of a chunk swapped (`with`: the
 * later one; the chunk keeps its place and size). With `fixOffsets` the
 * footer follows a delete or duplicate: every offset past the change moves,
 * and the chunk's total_compressed_size grows or shrinks, so the reader gets
 * past the footer's checks to the pages; without, the offsets lie.
 */
export interface RangeMutation {
  kind: 'range';
  op: 'delete' | 'duplicate' | 'swap';
  unit: 'page' | 'chunk';
  start: number;
  end: number;
  with?: { start: number; end: number };
  fixOffsets: boolean;
}

const OFFSET_FIELDS = new Set(['dataPageOffset', 'indexPageOffset', 'dictionaryPageOffset', 'bloomFilterOffset', 'fileOffset', 'offsetIndexOffset', 'columnIndexOffset']);

/** Moves every footer offset at or past `from` by `delta`; the chunk holding `inside` changes size by `delta`. */
function shiftOffsets(v: unknown, from: number, delta: number, inside: number): void {
  if (Array.isArray(v)) return v.forEach((x) => shiftOffsets(x, from, delta, inside));
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return;
  const o = v as Record<string, unknown>;
  if (typeof o.totalCompressedSize === 'number' && typeof o.dataPageOffset === 'number') {
    const start = Math.min(o.dataPageOffset, typeof o.dictionaryPageOffset === 'number' && o.dictionaryPageOffset > 0 ? o.dictionaryPageOffset : Infinity);
    if (inside >= start && inside < start + o.totalCompressedSize) o.totalCompressedSize += delta;
  }
  for (const [k, x] of Object.entries(o)) {
    if (OFFSET_FIELDS.has(k) && typeof x === 'number' && x >= from) o[k] = x + delta;
    else shiftOffsets(x, from, delta, inside);
  }
}

function swapSpans(src: Uint8Array, a: { start: number; end: number }, b: { start: number; end: number }): Uint8Array {
  if (a.start > b.start) [a, b] = [b, a];
  if (a.end > b.start || b.end > src.length) return src.slice();
  const out = src.slice();
  let at = a.start;
  for (const part of [src.subarray(b.start, b.end), src.subarray(a.end, b.start), src.subarray(a.start, a.end)]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function applyRange(src: Uint8Array, m: RangeMutation): Uint8Array {
  if (m.op === 'swap') return m.with ? swapSpans(src, m, m.with) : src.slice();
  const start = Math.max(0, Math.min(m.start, src.length));
  const end = Math.max(start, Math.min(m.end, src.length));
  const len = end - start;
  const out = new Uint8Array(m.op === 'delete' ? src.length - len : src.length + len);
  out.set(src.subarray(0, end - (m.op === 'delete' ? len : 0)), 0);
  if (m.op === 'duplicate') out.set(src.subarray(start, end), end);
  out.set(src.subarray(end), m.op === 'delete' ? start : end + len);
  if (!m.fixOffsets) return out;
  try {
    const { start: fs, len: fl } = footerBounds(out);
    const meta = decodeFileMetaData(out.subarray(fs, fs + fl));
    shiftOffsets(meta, end, m.op === 'delete' ? -len : len, start);
    return replaceFooter(out, fs, fl, meta);
  } catch {
    return out;
  }
}

function replaceFooter(src: Uint8Array, start: number, len: number, meta: unknown): Uint8Array {
  const w = new ByteWriter();
  encodeFileMetaData(meta as FileMetaData, w);
  const footer = w.finish();
  const out = new Uint8Array(start + footer.length + 8);
  out.set(src.subarray(0, start), 0);
  out.set(footer, start);
  new DataView(out.buffer).setUint32(start + footer.length, footer.length, true);
  out.set(src.subarray(start + len + 4), start + footer.length + 4);
  return out;
}

type Spans = readonly { start: number; end: number }[];

/** A page or chunk of the file deleted or duplicated, or two pages of a chunk swapped; undefined when the map has none. */
export function randomRange(rng: Rng, pages: Spans, chunks: Spans, chunkPages: readonly Spans[] = []): RangeMutation | undefined {
  const several = chunkPages.filter((p) => p.length > 1);
  if (several.length && rng.next() < 0.2) {
    const ps = rng.pick(several);
    const i = rng.int(ps.length - 1);
    // Mostly neighbours, as a writer's retried page would be; sometimes any later page.
    const j = rng.next() < 0.7 ? i + 1 : i + 1 + rng.int(ps.length - i - 1);
    return { kind: 'range', op: 'swap', unit: 'page', start: ps[i]!.start, end: ps[i]!.end, with: { ...ps[j]! }, fixOffsets: false };
  }
  const unit = pages.length && (rng.next() < 0.6 || !chunks.length) ? 'page' : 'chunk';
  const spans = unit === 'page' ? pages : chunks;
  if (!spans.length) return undefined;
  const s = rng.pick(spans);
  return { kind: 'range', op: rng.next() < 0.5 ? 'delete' : 'duplicate', unit, start: s.start, end: s.end, fixOffsets: rng.next() < 0.7 };
}
