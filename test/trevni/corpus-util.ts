/**
 * Shared access to ../shared/trevni-corpus (and ../shared/ancestors/trevni-v1,
 * in the same form) and its JSON conventions for the Trevni tests.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TrevniReader } from '../../src/trevni/reader.js';
import { metaText, type TrevniType, type TrevniValue } from '../../src/trevni/types.js';

export const TREVNI_CORPUS = join('..', 'shared', 'trevni-corpus');
export const TREVNI_V1_CORPUS = join('..', 'shared', 'ancestors', 'trevni-v1');

export interface ExpectedMeta {
  key: string;
  utf8: string | null;
  hex: string;
}

export interface ExpectedBlock {
  rowCount: number;
  uncompressedSize: number;
  compressedSize: number;
  offset: number;
  checksum: string;
  firstValue?: unknown;
}

export interface ExpectedColumn {
  index: number;
  name: string;
  type: TrevniType;
  array: boolean;
  parent: string | null;
  hasIndexValues: boolean;
  codec: string;
  checksum: string;
  metadata: ExpectedMeta[];
  start: number;
  blockCount: number;
  blocks: ExpectedBlock[];
  values: unknown[];
}

export interface ExpectedFile {
  magic: string;
  fileLength: number;
  rowCount: number;
  columnCount: number;
  metadata: ExpectedMeta[];
  columns: ExpectedColumn[];
}

export function corpusFiles(dir = TREVNI_CORPUS): string[] {
  return readdirSync(dir).sort();
}

export function trvFiles(dir = TREVNI_CORPUS): string[] {
  return corpusFiles(dir).filter((f) => f.endsWith('.trv'));
}

export function corpusBytes(name: string, dir = TREVNI_CORPUS): Uint8Array {
  return new Uint8Array(readFileSync(join(dir, name)));
}

const cache = new Map<string, ExpectedFile>();

export function expected(trv: string, dir = TREVNI_CORPUS): ExpectedFile {
  const path = join(dir, `${trv}.expected.json`);
  let e = cache.get(path);
  if (!e) {
    e = JSON.parse(readFileSync(path, 'utf8')) as ExpectedFile;
    cache.set(path, e);
  }
  return e;
}

export function hexOf(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

export function fromHex(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'hex'));
}

/**
 * A value in a comparable form: the corpus JSON conventions, with floats as
 * numbers rounded to the column's precision (special values as strings).
 */
export function normalizeActual(type: TrevniType, v: TrevniValue): unknown {
  switch (type) {
    case 'long':
    case 'fixed64': return (v as bigint).toString();
    case 'float':
    case 'double': {
      const n = v as number;
      return Number.isNaN(n) ? 'NaN' : n === Infinity ? 'Infinity' : n === -Infinity ? '-Infinity' : n;
    }
    case 'bytes': return hexOf(v as Uint8Array);
    default: return v;
  }
}

export function normalizeExpected(type: TrevniType, v: unknown): unknown {
  if (type === 'float' && typeof v === 'number') return Math.fround(v);
  return v;
}

/** Maps a column-shaped value (scalar, list, list of lists) through `f`. */
export function mapShape(v: unknown, depth: number, f: (x: unknown) => unknown): unknown {
  if (depth === 0) return f(v);
  return (v as unknown[]).map((x) => mapShape(x, depth - 1, f));
}

/** How deep a column's per-row value nests: 0 plain, 1 array or child, 2 array child. */
export function shapeDepth(c: { array: boolean; parent: string | null }): number {
  return (c.array ? 1 : 0) + (c.parent !== null ? 1 : 0);
}

/** A corpus JSON value back into a Trevni value (the writer test's input). */
export function toValue(type: TrevniType, v: unknown): TrevniValue {
  switch (type) {
    case 'long':
    case 'fixed64': return BigInt(v as string);
    case 'float':
    case 'double': {
      const n = v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : (v as number);
      return type === 'float' ? Math.fround(n) : n;
    }
    case 'bytes': return fromHex(v as string);
    default: return v as TrevniValue;
  }
}

const MAX_SAFE = 2n ** 53n - 1n;

/** Canonical text of a corpus JSON value, derived here independently of src/trevni/assemble. */
export function canonicalFromExpected(type: TrevniType, v: unknown): string {
  if (v === null) return 'null';
  switch (type) {
    case 'long':
    case 'fixed64': {
      const b = BigInt(v as string);
      return b <= MAX_SAFE && b >= -MAX_SAFE ? b.toString() : JSON.stringify(b.toString());
    }
    case 'float':
    case 'double': {
      if (typeof v === 'string') return JSON.stringify(v);
      const n = type === 'float' ? Math.fround(v as number) : (v as number);
      return Object.is(n, -0) ? '0' : JSON.stringify(n);
    }
    case 'bytes': return `{"$binary":"${v as string}"}`;
    default: return JSON.stringify(v);
  }
}

/** The canonical rows of a file, assembled from its expected per-column values. */
export function canonicalRowsFromExpected(e: ExpectedFile): string[] {
  const cols = e.columns;
  const children = new Map<string, ExpectedColumn[]>();
  for (const c of cols) if (c.parent !== null) children.set(c.parent, [...(children.get(c.parent) ?? []), c]);
  const rows: string[] = [];
  for (let r = 0; r < e.rowCount; r++) {
    /** All of column c's values in row r, flattened, as element texts. */
    const memo = new Map<string, string[]>();
    const flat = (c: ExpectedColumn): unknown[] => {
      const v = c.values[r];
      if (c.parent === null) return c.array ? (v as unknown[]) : [v];
      return c.array ? (v as unknown[][]).flat() : (v as unknown[]);
    };
    const elements = (c: ExpectedColumn): string[] => {
      const m = memo.get(c.name);
      if (m) return m;
      const kids = children.get(c.name) ?? [];
      const vals = flat(c);
      const out = vals.map((v, j) => {
        if (kids.length === 0) return canonicalFromExpected(c.type, v);
        const parts: string[] = [];
        if (c.type !== 'null') parts.push(`"$value":${canonicalFromExpected(c.type, v)}`);
        for (const k of kids) {
          const ke = elements(k);
          if (!k.array) parts.push(`${JSON.stringify(k.name)}:${ke[j]}`);
          else {
            const seqs = k.values[r] as unknown[][];
            let off = 0;
            for (let i = 0; i < j; i++) off += seqs[i]!.length;
            parts.push(`${JSON.stringify(k.name)}:[${ke.slice(off, off + seqs[j]!.length).join(',')}]`);
          }
        }
        return `{${parts.join(',')}}`;
      });
      memo.set(c.name, out);
      return out;
    };
    const fields = cols
      .filter((c) => c.parent === null)
      .map((c) => {
        const el = elements(c);
        return `${JSON.stringify(c.name)}:${c.array ? `[${el.join(',')}]` : el[0]}`;
      });
    rows.push(`{${fields.join(',')}}`);
  }
  return rows;
}

/** Compares a file's structure and values with its .expected.json (the Java reader's dump). */
export async function checkTrevniFile(r: TrevniReader, e: ExpectedFile, bytes: Uint8Array): Promise<void> {
  assert.equal(hexOf(r.magic), e.magic);
  assert.equal(r.fileLength, e.fileLength);
  assert.equal(bytes.length, e.fileLength);
  assert.equal(r.numRows, e.rowCount);
  assert.equal(r.columns.length, e.columnCount);
  assert.deepEqual(
    r.metadata.map((m) => ({ key: m.key, utf8: metaText(m.value), hex: hexOf(m.value) })),
    e.metadata,
  );
  for (const ec of e.columns) {
    const c = r.column(ec.name);
    const where = `column ${ec.name}`;
    assert.deepEqual(
      { index: c.index, name: c.name, type: c.type, array: c.array, parent: c.parent, hasIndexValues: c.hasIndexValues, codec: c.codec, checksum: c.checksum, start: c.start },
      { index: ec.index, name: ec.name, type: ec.type, array: ec.array, parent: ec.parent, hasIndexValues: ec.hasIndexValues, codec: ec.codec, checksum: ec.checksum, start: ec.start },
      where,
    );
    assert.deepEqual(
      c.metadata.map((m) => ({ key: m.key, utf8: metaText(m.value), hex: hexOf(m.value) })),
      ec.metadata,
      where,
    );
    const blocks = await r.blocks(ec.name);
    assert.equal(blocks.length, ec.blockCount, where);
    const actualBlocks = [];
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i]!;
      const o: Record<string, unknown> = {
        rowCount: b.numRows,
        uncompressedSize: b.uncompressedSize,
        compressedSize: b.compressedSize,
        offset: b.offset,
        checksum: hexOf(await r.storedChecksum(ec.name, i)),
      };
      if (c.hasIndexValues) o.firstValue = normalizeActual(c.type, b.firstValue!);
      actualBlocks.push(o);
    }
    assert.deepEqual(actualBlocks, ec.blocks.map((b) => ('firstValue' in b ? { ...b, firstValue: normalizeExpected(ec.type, b.firstValue) } : b)), where);
    const depth = shapeDepth(ec);
    const actual = (await r.readColumn(ec.name)).map((v) => mapShape(v, depth, (x) => normalizeActual(c.type, x as never)));
    const want = ec.values.map((v) => mapShape(v, depth, (x) => normalizeExpected(ec.type, x)));
    assert.equal(actual.length, want.length, where);
    for (let row = 0; row < want.length; row++) assert.deepStrictEqual(actual[row], want[row], `${where}, row ${row}`);
  }
  // Canonical rows, against rows assembled here from the expected columns.
  const rows: string[] = [];
  for await (const line of r.canonicalRows()) rows.push(line);
  const want = canonicalRowsFromExpected(e);
  assert.equal(rows.length, want.length);
  for (let i = 0; i < want.length; i++) assert.equal(rows[i], want[i], `canonical row ${i}`);
}
