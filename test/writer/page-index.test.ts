/**
 * The writer's page index, size statistics and bloom filters, checked from
 * the bytes: every ColumnIndex and OffsetIndex is decoded where the footer
 * points and compared with the page headers (walked from the file) and with
 * the records each page holds (its row range, found by decoding its
 * repetition levels); bloom filters are parsed where the footer points and
 * probed with every value written. DuckDB reads the files exactly, its
 * parquet_metadata shows our bloom filter offsets and lengths, and its
 * parquet_bloom_probe agrees with our filters.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { decodeRleHybrid, decodeRleHybridPrefixed } from '../../src/encodings/rle.js';
import { bitWidth } from '../../src/encodings/bits.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { defineSchema, field as f, openParquet, openWriter, type WriterOptions } from '../../src/node/index.js';
import { bloomHash, loadBloomHasher, optimalBloomBytes, parseBloomFilter, type SplitBlockBloomFilter } from '../../src/parquet/bloom/index.js';
import {
  decodeColumnIndex, decodeFileMetaData, decodeOffsetIndex, decodePageHeader,
  type ColumnChunk, type ColumnIndex, type FileMetaData, type OffsetIndex,
} from '../../src/parquet/metadata/index.js';
import { buildSchema, type LeafNode } from '../../src/schema/tree.js';
import { chunkPages, type PageInfo } from './pages.js';
import { Duck, sqlString } from './oracles.js';
import { readColumnIndex, readOffsetIndex } from 'hyparquet';

let dir = '';
let duck: Duck;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-page-index-'));
  duck = await Duck.create();
  await loadBloomHasher();
});

after(() => {
  duck?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ------------------------------------------------------------------ reading what we wrote

function readMeta(file: Uint8Array): FileMetaData {
  const len = new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);
  return decodeFileMetaData(file.subarray(file.length - 8 - len, file.length - 8));
}

function decodeAt<T>(file: Uint8Array, offset: number | undefined, length: number | undefined, decode: (c: ByteCursor) => T): T {
  assert.ok(offset !== undefined && length !== undefined, 'offset and length set');
  const c = new ByteCursor(file, offset, offset + length);
  const v = decode(c);
  assert.equal(c.pos, offset + length, 'the struct fills exactly its recorded length');
  return v;
}

interface Indexes {
  ci?: ColumnIndex;
  oi?: OffsetIndex;
}

function indexesOf(file: Uint8Array, chunk: ColumnChunk): Indexes {
  const out: Indexes = {};
  if (chunk.columnIndexOffset !== undefined) out.ci = decodeAt(file, chunk.columnIndexOffset, chunk.columnIndexLength, decodeColumnIndex);
  if (chunk.offsetIndexOffset !== undefined) out.oi = decodeAt(file, chunk.offsetIndexOffset, chunk.offsetIndexLength, decodeOffsetIndex);
  return out;
}

/** The repetition and definition levels of a data page (v1 pages must be uncompressed; v2 levels never are). */
function levelsOf(file: Uint8Array, page: PageInfo, bodyStart: number, leaf: LeafNode): { rep: Int32Array; def: Int32Array; n: number } {
  const h = page.header;
  const n = h.dataPageHeader?.numValues ?? h.dataPageHeaderV2!.numValues;
  const rep = new Int32Array(n);
  const def = new Int32Array(n).fill(leaf.defLevel);
  if (h.type === 'DATA_PAGE') {
    const c = new ByteCursor(file, bodyStart);
    if (leaf.repLevel > 0) decodeRleHybridPrefixed(c, bitWidth(leaf.repLevel), n, rep);
    if (leaf.defLevel > 0) decodeRleHybridPrefixed(c, bitWidth(leaf.defLevel), n, def);
  } else {
    const v2 = h.dataPageHeaderV2!;
    if (leaf.repLevel > 0) decodeRleHybrid(new ByteCursor(file, bodyStart, bodyStart + v2.repetitionLevelsByteLength), bitWidth(leaf.repLevel), n, rep);
    const ds = bodyStart + v2.repetitionLevelsByteLength;
    if (leaf.defLevel > 0) decodeRleHybrid(new ByteCursor(file, ds, ds + v2.definitionLevelsByteLength), bitWidth(leaf.defLevel), n, def);
  }
  return { rep, def, n };
}

/** Where each page's body starts: after its header. */
function bodyStarts(file: Uint8Array, pages: PageInfo[]): number[] {
  return pages.map((p) => {
    const c = new ByteCursor(file, p.offset);
    decodePageHeader(c);
    return c.pos;
  });
}

const utf8 = new TextEncoder();

function cmpBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** PLAIN bytes of a JS value as written for these tests' column kinds. */
function plain(kind: 'i32' | 'i64' | 'f64' | 'str', v: unknown): Uint8Array {
  const b = new Uint8Array(kind === 'i32' ? 4 : 8);
  const dv = new DataView(b.buffer);
  switch (kind) {
    case 'i32': dv.setInt32(0, v as number, true); return b;
    case 'i64': dv.setBigInt64(0, v as bigint, true); return b;
    case 'f64': dv.setFloat64(0, v as number, true); return b;
    case 'str': return utf8.encode(v as string);
  }
}

function compareAs(kind: 'i32' | 'i64' | 'f64' | 'str', a: unknown, b: unknown): number {
  if (kind === 'str') return cmpBytes(utf8.encode(a as string), utf8.encode(b as string));
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

// ------------------------------------------------------------------ data

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    this.s ^= this.s << 13;
    this.s ^= this.s >>> 17;
    this.s ^= this.s << 5;
    return (this.s >>> 0) / 2 ** 32;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

const { elements: MAIN_ELEMENTS } = defineSchema({
  id: f.int64().required(),
  neg: f.int32(),
  r: f.double(),
  s: f.string(),
  long: f.string(),
  tags: f.list(f.string()),
});

function mainRecords(n: number): Record<string, unknown>[] {
  const rng = new Rng(42);
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const tagsN = rng.int(5);
    out.push({
      id: BigInt(i),
      neg: i % 13 === 5 ? null : 0 - i,
      r: i % 11 === 3 ? null : i % 97 === 0 ? NaN : rng.next() * 1000 - 500,
      s: i % 7 === 0 ? null : `cat-${rng.int(40)}-ü`,
      long: i % 5 === 0 ? null : 'x'.repeat(rng.int(100)) + String.fromCharCode(65 + rng.int(26)) + 'é'.repeat(rng.int(40)),
      tags: tagsN === 0 ? null : tagsN === 1 ? [] : Array.from({ length: tagsN - 1 }, (_, k) => (k === 1 ? null : `t${rng.int(1000)}`)),
    });
  }
  return out;
}

async function writeFile(name: string, elements: typeof MAIN_ELEMENTS, records: unknown[], options: WriterOptions): Promise<{ path: string; file: Uint8Array; meta: FileMetaData }> {
  const path = join(dir, name);
  const w = await openWriter<unknown>(path, elements, options);
  await w.writeMany(records);
  await w.close();
  const file = new Uint8Array(readFileSync(path));
  return { path, file, meta: readMeta(file) };
}

/** The values a page of a flat column holds, from the records of its row range. */
function flatValues(records: Record<string, unknown>[], name: string, from: number, to: number): unknown[] {
  return records.slice(from, to).map((r) => r[name]);
}

/**
 * Checks one chunk's page index against the page headers, the levels in
 * the pages, and (for flat columns) the records of each page's rows.
 */
function checkChunk(
  file: Uint8Array, chunk: ColumnChunk, leaf: LeafNode, rowGroupRows: number, firstRecord: number, records: Record<string, unknown>[],
  kind: 'i32' | 'i64' | 'f64' | 'str' | undefined, truncate: number,
): { ci?: ColumnIndex; oi: OffsetIndex } {
  const meta = chunk.metaData!;
  const { ci, oi } = indexesOf(file, chunk);
  assert.ok(oi, 'offset index');
  const pages = chunkPages(file, meta).filter((p) => p.header.type !== 'DICTIONARY_PAGE');
  const starts = bodyStarts(file, pages);
  // OffsetIndex: every data page, at its offset, its size with the header
  assert.equal(oi.pageLocations.length, pages.length);
  const rowsBefore: number[] = [];
  let rows = 0;
  const repTotal = new Array<number>(leaf.repLevel + 1).fill(0);
  const defTotal = new Array<number>(leaf.defLevel + 1).fill(0);
  let unencodedTotal = 0;
  pages.forEach((p, k) => {
    const loc = oi.pageLocations[k]!;
    assert.equal(loc.offset, p.offset, `page ${k} offset`);
    assert.equal(loc.compressedPageSize, starts[k]! - p.offset + p.header.compressedPageSize, `page ${k} size`);
    const { rep, def, n } = levelsOf(file, p, starts[k]!, leaf);
    assert.equal(rep[0], 0, `page ${k} starts at a record boundary`);
    rowsBefore.push(rows);
    assert.equal(loc.firstRowIndex, rows, `page ${k} first_row_index`);
    let pageRows = 0;
    const repH = new Array<number>(leaf.repLevel + 1).fill(0);
    const defH = new Array<number>(leaf.defLevel + 1).fill(0);
    let nulls = 0;
    for (let i = 0; i < n; i++) {
      if (rep[i] === 0) pageRows++;
      repH[rep[i]!]!++;
      defH[def[i]!]!++;
      if (def[i]! < leaf.defLevel) nulls++;
    }
    if (p.header.dataPageHeaderV2) assert.equal(p.header.dataPageHeaderV2.numRows, pageRows);
    rows += pageRows;
    repH.forEach((c, i) => (repTotal[i]! += c));
    defH.forEach((c, i) => (defTotal[i]! += c));
    if (ci) {
      assert.equal(ci.nullCounts![k], nulls, `page ${k} null count`);
      assert.equal(ci.nullPages[k], nulls === n, `page ${k} null page`);
      if (leaf.repLevel > 0) assert.deepEqual(ci.repetitionLevelHistograms!.slice(k * (leaf.repLevel + 1), (k + 1) * (leaf.repLevel + 1)), repH);
      else assert.equal(ci.repetitionLevelHistograms, undefined);
      if (leaf.defLevel > 0) assert.deepEqual(ci.definitionLevelHistograms!.slice(k * (leaf.defLevel + 1), (k + 1) * (leaf.defLevel + 1)), defH);
      else assert.equal(ci.definitionLevelHistograms, undefined);
    }
    // the records of the page's rows: bounds, nulls and byte sizes from the data itself
    const recs = records.slice(firstRecord + rowsBefore[k]!, firstRecord + rows);
    const vals: unknown[] = leaf.repLevel === 0 ? flatValues(recs, leaf.path[0]!, 0, recs.length) : recs.flatMap((r) => ((r[leaf.path[0]!] as unknown[] | null) ?? []));
    const present = vals.filter((v) => v !== null && v !== undefined);
    if (leaf.physicalType === 'BYTE_ARRAY') {
      const bytes = present.reduce((s: number, v) => s + utf8.encode(v as string).length, 0);
      assert.equal(oi.unencodedByteArrayDataBytes![k], bytes, `page ${k} unencoded bytes`);
      unencodedTotal += bytes;
    } else assert.equal(oi.unencodedByteArrayDataBytes, undefined);
    if (ci && kind) {
      const ordered = present.filter((v) => !(typeof v === 'number' && Number.isNaN(v)));
      if (ordered.length === 0) {
        assert.equal(ci.minValues[k]!.length, 0);
        assert.equal(ci.maxValues[k]!.length, 0);
      } else {
        const min = ordered.reduce((a, b) => (compareAs(kind, b, a) < 0 ? b : a));
        const max = ordered.reduce((a, b) => (compareAs(kind, b, a) > 0 ? b : a));
        const minB = plain(kind, min);
        const maxB = plain(kind, max);
        if (kind === 'str' && minB.length > truncate) {
          assert.ok(ci.minValues[k]!.length <= truncate && cmpBytes(ci.minValues[k]!, minB) <= 0, `page ${k} truncated min is a lower bound`);
          assert.deepEqual(ci.minValues[k], minB.subarray(0, ci.minValues[k]!.length), 'a prefix');
        } else assert.deepEqual(ci.minValues[k], minB, `page ${k} min`);
        if (kind === 'str' && maxB.length > truncate) {
          assert.ok(ci.maxValues[k]!.length <= truncate && cmpBytes(ci.maxValues[k]!, maxB) > 0, `page ${k} truncated max is an upper bound`);
        } else if (kind === 'f64') {
          // zero rule aside, the value itself
          assert.equal(new DataView(ci.maxValues[k]!.buffer, ci.maxValues[k]!.byteOffset).getFloat64(0, true), max);
        } else assert.deepEqual(ci.maxValues[k], maxB, `page ${k} max`);
      }
    }
  });
  assert.equal(rows, rowGroupRows, 'pages cover the row group');
  // SizeStatistics of the chunk: the pages' sums
  const ss = meta.sizeStatistics;
  if (leaf.physicalType === 'BYTE_ARRAY') assert.equal(ss?.unencodedByteArrayDataBytes, unencodedTotal);
  if (leaf.repLevel > 0) assert.deepEqual(ss?.repetitionLevelHistogram, repTotal);
  if (leaf.defLevel > 0) assert.deepEqual(ss?.definitionLevelHistogram, defTotal);
  return { ci, oi };
}

// ------------------------------------------------------------------ tests

describe('page index', () => {
  const records = mainRecords(3000);
  const kinds: Record<string, 'i32' | 'i64' | 'f64' | 'str' | undefined> = { id: 'i64', neg: 'i32', r: 'f64', s: 'str', long: 'str', element: 'str' };
  const variants: [string, WriterOptions][] = [
    ['v1, dictionary', { codec: 'UNCOMPRESSED', pageRowLimit: 170, rowGroupRows: 1300 }],
    ['v1, plain, small pages by size', { codec: 'UNCOMPRESSED', dictionary: false, pageSize: 2000, rowGroupRows: 2000 }],
    ['v2, snappy, truncation at 16', { codec: 'SNAPPY', pageVersion: 2, pageRowLimit: 333, rowGroupRows: 2500, columnIndexTruncateLength: 16 }],
  ];
  for (const [name, options] of variants) {
    test(`${name}: ColumnIndex and OffsetIndex match the pages and their rows; DuckDB and parquetry read the file exactly`, async () => {
      const { path, file, meta } = await writeFile(`main-${name.replace(/\W+/g, '_')}.parquet`, MAIN_ELEMENTS, records, options);
      const schema = buildSchema(meta.schema);
      let first = 0;
      // The structures sit after the last row group and before the footer: all ColumnIndexes, then all OffsetIndexes.
      const lastChunkEnd = Math.max(...meta.rowGroups.flatMap((g) => g.columns.map((c) => (c.metaData!.dictionaryPageOffset ?? c.metaData!.dataPageOffset) + c.metaData!.totalCompressedSize)));
      const ciOffsets = meta.rowGroups.flatMap((g) => g.columns.map((c) => c.columnIndexOffset!));
      const oiOffsets = meta.rowGroups.flatMap((g) => g.columns.map((c) => c.offsetIndexOffset!));
      assert.ok(Math.min(...ciOffsets) >= lastChunkEnd);
      assert.ok(Math.max(...ciOffsets) < Math.min(...oiOffsets), `${ciOffsets} / ${oiOffsets}`);
      assert.ok(meta.rowGroups.length > 1);
      for (const g of meta.rowGroups) {
        g.columns.forEach((c, j) => {
          const leaf = schema.leaves[j]!;
          const { ci } = checkChunk(file, c, leaf, g.numRows, first, records, kinds[leaf.name], options.columnIndexTruncateLength ?? 64);
          assert.ok(ci, `${leaf.name} has a column index`);
          if (leaf.name === 'id') assert.equal(ci.boundaryOrder, 'ASCENDING');
          if (leaf.name === 'neg') assert.equal(ci.boundaryOrder, 'DESCENDING');
          if (leaf.name === 'r') assert.equal(ci.boundaryOrder, 'UNORDERED');
        });
        first += g.numRows;
      }
      // parquetry reads it back exactly
      const back = await (await openParquet(path)).readRows();
      assert.equal(back.length, records.length);
      for (let i = 0; i < records.length; i += 97) assert.deepEqual(back[i], records[i]);
      // DuckDB reads it exactly: every value compared through a per-row text form
      const duckRows = await duck.objects(
        `SELECT id::VARCHAR AS id, neg, r::VARCHAR AS r, s, long, to_json(tags)::VARCHAR AS tags FROM read_parquet(${sqlString(path)}) t ORDER BY t.id`,
      );
      assert.equal(duckRows.length, records.length);
      records.forEach((rec, i) => {
        const d = duckRows[i]!;
        assert.equal(d.id, String(rec.id));
        assert.equal(d.neg, rec.neg);
        if (rec.r === null) assert.equal(d.r, null);
        else if (Number.isNaN(rec.r)) assert.equal(d.r, 'nan');
        else assert.equal(Number(d.r), rec.r);
        assert.equal(d.s, rec.s);
        assert.equal(d.long, rec.long);
        assert.equal(d.tags, rec.tags === null ? null : JSON.stringify(rec.tags));
      });
      // and filters on it the same way
      const [hit] = await duck.objects(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlString(path)}) WHERE id BETWEEN 1000 AND 1099 AND s IS NOT NULL`);
      assert.equal(hit!.n, records.slice(1000, 1100).filter((r) => r.s !== null).length);
    });
  }

  test('pages of only nulls are null pages with empty bounds; boundary order skips them', async () => {
    const { elements } = defineSchema({ v: f.int32() });
    const recs = Array.from({ length: 1000 }, (_, i) => ({ v: i < 250 || (i >= 600 && i < 700) ? null : i }));
    const { file, meta } = await writeFile('nulls.parquet', elements, recs, { pageRowLimit: 100 });
    const { ci, oi } = indexesOf(file, meta.rowGroups[0]!.columns[0]!);
    assert.equal(oi!.pageLocations.length, 10);
    assert.deepEqual(ci!.nullPages, [true, true, false, false, false, false, true, false, false, false]);
    assert.deepEqual(ci!.nullCounts, [100, 100, 50, 0, 0, 0, 100, 0, 0, 0]);
    ci!.nullPages.forEach((isNull, k) => {
      if (isNull) {
        assert.equal(ci!.minValues[k]!.length, 0);
        assert.equal(ci!.maxValues[k]!.length, 0);
      }
    });
    assert.deepEqual(ci!.minValues[2], plain('i32', 250));
    assert.deepEqual(ci!.maxValues[9], plain('i32', 999));
    assert.equal(ci!.boundaryOrder, 'ASCENDING');
    assert.deepEqual(ci!.definitionLevelHistograms!.slice(0, 6), [100, 0, 100, 0, 50, 50]);
    // hyparquet's own Thrift decoder reads the same structures
    const chunk = meta.rowGroups[0]!.columns[0]!;
    const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
    const hci = readColumnIndex({ view, offset: chunk.columnIndexOffset! }, meta.schema[1] as never);
    assert.deepEqual(hci.null_pages, ci!.nullPages);
    assert.equal(hci.boundary_order, 'ASCENDING');
    assert.deepEqual(hci.null_counts?.map(Number), ci!.nullCounts);
    assert.deepEqual(hci.min_values.filter((_, k) => !ci!.nullPages[k]), [250, 300, 400, 500, 700, 800, 900]);
    assert.deepEqual(hci.max_values.filter((_, k) => !ci!.nullPages[k]), [299, 399, 499, 599, 799, 899, 999]);
    const hoi = readOffsetIndex({ view, offset: chunk.offsetIndexOffset! });
    assert.deepEqual(hoi.page_locations.map((l) => Number(l.first_row_index)), [0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    assert.deepEqual(hoi.page_locations.map((l) => Number(l.offset)), oi!.pageLocations.map((l) => l.offset));
  });

  test('binary bounds truncate to columnIndexTruncateLength, the max rounded up (UTF-8 kept whole, 0xff carried)', async () => {
    const { elements } = defineSchema({ s: f.string(), b: f.binary() });
    const recs = [
      { s: 'abcdefghij-1', b: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10) },
      { s: 'abcdefghij-9', b: Uint8Array.of(1, 2, 3, 4, 5, 6, 0xff, 0xff, 0xff, 0xff) },
      { s: 'abcdeféé', b: Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff) },
    ];
    const { file, meta } = await writeFile('trunc.parquet', elements, recs, { columnIndexTruncateLength: 7, statisticsTruncateLength: 1000 });
    const s = indexesOf(file, meta.rowGroups[0]!.columns[0]!).ci!;
    assert.deepEqual(s.minValues[0], utf8.encode('abcdefg'));
    // max 'abcdeféé' (é is c3 a9): 7 bytes would split the first é, so the cut is at 6, then 'f' -> 'g'
    assert.deepEqual(s.maxValues[0], utf8.encode('abcdeg'));
    const b = indexesOf(file, meta.rowGroups[0]!.columns[1]!).ci!;
    assert.deepEqual(b.minValues[0], Uint8Array.of(1, 2, 3, 4, 5, 6, 7));
    // all 0xff: no shorter upper bound exists, so the max stays whole
    assert.deepEqual(b.maxValues[0], Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
    // the chunk statistics keep their own (longer) limit
    assert.deepEqual(meta.rowGroups[0]!.columns[0]!.metaData!.statistics!.maxValue, utf8.encode('abcdeféé'));
  });

  test('a page of only NaN values drops the ColumnIndex (it has no bounds to give); the OffsetIndex stays', async () => {
    const { elements } = defineSchema({ d: f.double(), i: f.int32() });
    const recs = Array.from({ length: 300 }, (_, i) => ({ d: i < 100 ? NaN : i, i }));
    const { file, meta } = await writeFile('nan.parquet', elements, recs, { pageRowLimit: 100 });
    const [d, i] = meta.rowGroups[0]!.columns;
    assert.equal(d!.columnIndexOffset, undefined);
    assert.equal(indexesOf(file, d!).oi!.pageLocations.length, 3);
    assert.ok(indexesOf(file, i!).ci);
  });

  test('pageIndex: false writes none; statistics: false on a column leaves only its OffsetIndex', async () => {
    const { elements } = defineSchema({ a: f.int32(), b: f.string() });
    const recs = Array.from({ length: 50 }, (_, i) => ({ a: i, b: `x${i}` }));
    const off = await writeFile('off.parquet', elements, recs, { pageIndex: false });
    for (const c of off.meta.rowGroups[0]!.columns) {
      assert.equal(c.columnIndexOffset, undefined);
      assert.equal(c.offsetIndexOffset, undefined);
    }
    // the footer follows the last chunk directly
    const last = off.meta.rowGroups[0]!.columns[1]!.metaData!;
    const footerLen = new DataView(off.file.buffer).getUint32(off.file.length - 8, true);
    assert.equal((last.dictionaryPageOffset ?? last.dataPageOffset) + last.totalCompressedSize, off.file.length - 8 - footerLen);
    const some = await writeFile('nostats.parquet', elements, recs, { columns: { b: { statistics: false } } });
    const [a, b] = some.meta.rowGroups[0]!.columns;
    assert.ok(indexesOf(some.file, a!).ci);
    assert.equal(b!.columnIndexOffset, undefined);
    assert.ok(indexesOf(some.file, b!).oi);
    assert.equal((await duck.objects(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlString(some.path)})`))[0]!.n, 50);
  });

  test('boundary order of strings and of unsigned integers follows the column order', async () => {
    const { elements } = defineSchema({ s: f.string(), u: f.uint32(), d: f.string() });
    // u crosses 2^31: ascending as unsigned (negative as signed int32 bits)
    const recs = Array.from({ length: 400 }, (_, i) => ({ s: `k${String(i).padStart(4, '0')}`, u: 2 ** 31 - 200 + i, d: `k${String(1000 - i).padStart(4, '0')}` }));
    const { file, meta } = await writeFile('order.parquet', elements, recs, { pageRowLimit: 50 });
    const [s, u, d] = meta.rowGroups[0]!.columns.map((c) => indexesOf(file, c).ci!);
    assert.equal(s!.boundaryOrder, 'ASCENDING');
    assert.equal(u!.boundaryOrder, 'ASCENDING');
    assert.equal(d!.boundaryOrder, 'DESCENDING');
  });
});

// ------------------------------------------------------------------ bloom filters

describe('bloom filters', () => {
  const { elements: BLOOM_ELEMENTS } = defineSchema({
    i32: f.int32(),
    i64: f.int64(),
    d: f.double(),
    fl: f.float(),
    s: f.string(),
    dt: f.date(),
    dec9: f.decimal(9, 2),
    dec18: f.decimal(18, 3),
    dec30: f.decimal(30, 2),
    ts: f.timestamp('MICROS'),
    bl: f.binary(),
  });
  const COLS = ['i32', 'i64', 'd', 'fl', 's', 'dt', 'dec9', 'dec18', 'dec30', 'ts', 'bl'] as const;
  type Col = (typeof COLS)[number];

  /** Row i's value of each column (null on some rows); present values repeat, so dictionaries and distinct counts differ from row counts. */
  function value(c: Col, i: number): unknown {
    if (i % 17 === 3) return null;
    return valueOf(c, (i * 7) % 900); // 900 distinct values
  }
  function centsText(cents: number): string {
    const a = Math.abs(cents);
    return `${cents < 0 ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
  }
  /** The k-th distinct value of a column. */
  function valueOf(c: Col, k: number): unknown {
    switch (c) {
      case 'i32': return k * 1000 - 300000;
      case 'i64': return BigInt(k) * 10_000_000_000n - 1n;
      case 'd': return k / 8 - 50;
      case 'fl': return k / 4;
      case 's': return `str-${k}-ñ`;
      case 'dt': return 18000 + k;
      case 'dec9': return centsText((k - 450) * 100 + (k % 100));
      case 'dec18': return `${k * 1000}.5`;
      case 'dec30': return `${k}123456789012345.25`;
      case 'ts': return 1_700_000_000_000_000n + BigInt(k) * 1_000_003n;
      case 'bl': return Uint8Array.of(k & 0xff, k >> 8, 7);
    }
  }
  /** A value of the column's type that no row has. */
  function absent(c: Col, j: number): unknown {
    const k = 2000 + j;
    switch (c) {
      case 'i32': return k * 1000 + 1;
      case 'i64': return BigInt(k) * 10_000_000_000n + 5n;
      case 'd': return k / 8 + 0.0625;
      case 'fl': return k / 4 + 0.5;
      case 's': return `absent-${j}`;
      case 'dt': return 18000 + k;
      case 'dec9': return `${k}.01`;
      case 'dec18': return `${k}.001`;
      case 'dec30': return `${k}999.99`;
      case 'ts': return 1_600_000_000_000_000n + BigInt(j);
      case 'bl': return Uint8Array.of(j & 0xff, 99, 99, 99);
    }
  }
  /** The value as a DuckDB SQL literal of the column's type. */
  function sql(c: Col, v: unknown): string {
    switch (c) {
      case 'i32': return `${v}::INTEGER`;
      case 'i64': return `${v}::BIGINT`;
      case 'd': return `${v}::DOUBLE`;
      case 'fl': return `${v}::FLOAT`;
      case 's': return sqlString(v as string);
      case 'dt': return `(DATE '1970-01-01' + ${v}::INTEGER)`;
      case 'dec9': return `${sqlString(v as string)}::DECIMAL(9,2)`;
      case 'dec18': return `${sqlString(v as string)}::DECIMAL(18,3)`;
      case 'dec30': return `${sqlString(v as string)}::DECIMAL(30,2)`;
      case 'ts': return `make_timestamp(${v}::BIGINT)`;
      case 'bl': return `from_hex('${Buffer.from(v as Uint8Array).toString('hex')}')`;
    }
  }

  const ROWS = 6000;
  let path = '';
  let file: Uint8Array;
  let meta: FileMetaData;
  const filters = new Map<string, SplitBlockBloomFilter>();
  const leafOf = (c: string) => buildSchema(meta.schema).leaves.find((l) => l.name === c)!;

  before(async () => {
    const recs = Array.from({ length: ROWS }, (_, i) => Object.fromEntries(COLS.map((c) => [c, value(c, i)])));
    const options: WriterOptions = {
      rowGroupRows: 3000,
      pageRowLimit: 500,
      bloomFilters: { ...Object.fromEntries(COLS.map((c) => [c, true])), i64: { ndv: 5000, fpp: 0.001 }, s: { fpp: 0.05 } },
      columns: { d: { dictionary: false }, bl: { dictionary: false } },
    };
    ({ path, file, meta } = await writeFile('bloom.parquet', BLOOM_ELEMENTS as never, recs, options));
    meta.rowGroups.forEach((g, gi) =>
      g.columns.forEach((c) => {
        const m = c.metaData!;
        const { filter, byteLength } = parseBloomFilter(file.subarray(m.bloomFilterOffset!, m.bloomFilterOffset! + m.bloomFilterLength!), { offset: m.bloomFilterOffset! });
        assert.equal(byteLength, m.bloomFilterLength);
        filters.set(`${gi}/${m.pathInSchema.join('.')}`, filter);
      }),
    );
  });

  test('every value written is in its row group\'s filter; absent values are mostly ruled out', () => {
    for (const [gi, g] of meta.rowGroups.entries()) {
      const first = meta.rowGroups.slice(0, gi).reduce((n, x) => n + x.numRows, 0);
      for (const c of COLS) {
        const filter = filters.get(`${gi}/${c}`)!;
        const leaf = leafOf(c);
        for (let i = first; i < first + g.numRows; i++) {
          const v = value(c, i);
          if (v !== null) assert.ok(filter.mightContain(bloomHash(leaf, v)), `${c} row ${i}`);
        }
        let ruledOut = 0;
        for (let j = 0; j < 200; j++) if (!filter.mightContain(bloomHash(leaf, absent(c, j)))) ruledOut++;
        assert.ok(ruledOut >= 180, `${c}: ${ruledOut}/200 absent values ruled out`);
      }
    }
  });

  test('filters are sized from the distinct values seen, or the ndv given, at the fpp given', () => {
    for (const [gi, g] of meta.rowGroups.entries()) {
      const first = meta.rowGroups.slice(0, gi).reduce((n, x) => n + x.numRows, 0);
      for (const c of COLS) {
        const distinct = new Set<string>();
        for (let i = first; i < first + g.numRows; i++) {
          const v = value(c, i);
          if (v !== null) distinct.add(v instanceof Uint8Array ? Buffer.from(v).toString('hex') : String(v));
        }
        const want = c === 'i64' ? optimalBloomBytes(5000, 0.001) : optimalBloomBytes(distinct.size, c === 's' ? 0.05 : 0.01);
        assert.equal(filters.get(`${gi}/${c}`)!.bitset.length, want, c);
      }
    }
  });

  test('DuckDB: parquet_metadata shows our bloom filter offsets and lengths', async () => {
    const rows = await duck.objects(
      `SELECT row_group_id::INTEGER AS g, path_in_schema AS p, bloom_filter_offset::BIGINT::VARCHAR AS o, bloom_filter_length::BIGINT::VARCHAR AS l FROM parquet_metadata(${sqlString(path)})`,
    );
    assert.equal(rows.length, COLS.length * meta.rowGroups.length);
    for (const r of rows) {
      const m = meta.rowGroups[r.g as number]!.columns.find((c) => c.metaData!.pathInSchema.join('.') === r.p)!.metaData!;
      assert.equal(r.o, String(m.bloomFilterOffset));
      assert.equal(r.l, String(m.bloomFilterLength));
    }
  });

  // DuckDB 1.5's probe misreads INT32/INT64 DECIMAL and BLOB columns even in files DuckDB wrote itself
  // (it reports present values as excluded); those types are checked the other way below. It never
  // excludes a FIXED_LEN_BYTE_ARRAY decimal (it writes no filters for them): only checked as conservative.
  const PROBED: Col[] = ['i32', 'i64', 'd', 'fl', 's', 'dt', 'ts', 'dec30'];
  const NEVER_EXCLUDED: Col[] = ['dec30'];
  test(`DuckDB's parquet_bloom_probe agrees with our filters, present and absent values (${PROBED.join(', ')})`, async () => {
    let checked = 0;
    for (const c of PROBED) {
      const leaf = leafOf(c);
      const probes = [...Array.from({ length: 12 }, (_, j) => value(c, j * 431 + 1)), ...Array.from({ length: 12 }, (_, j) => absent(c, j))].filter((v) => v !== null);
      for (const v of probes) {
        const rows = await duck.objects(
          `SELECT row_group_id::INTEGER AS g, bloom_filter_excludes AS x FROM parquet_bloom_probe(${sqlString(path)}, '${c}', ${sql(c, v)}) ORDER BY 1`,
        );
        assert.equal(rows.length, meta.rowGroups.length);
        for (const r of rows) {
          const ours = filters.get(`${r.g}/${c}`)!.mightContain(bloomHash(leaf, v));
          if (NEVER_EXCLUDED.includes(c)) assert.equal(r.x, false);
          else assert.equal(r.x, !ours, `${c} = ${String(v)} in row group ${r.g}: DuckDB excludes ${r.x}, ours might contain ${ours}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 300);
  });

  test('our hashing reads the bloom filters DuckDB writes, for every type above (decimals and blobs included)', async () => {
    const duckPath = join(dir, 'duck-bloom.parquet');
    const n = 10000;
    // DuckDB writes a bloom filter for dictionary-encoded chunks: values repeat.
    await duck.run(
      `COPY (SELECT (k * 1000 - 300000)::INTEGER AS i32, (k::BIGINT * 10000000000 - 1) AS i64, (k / 8 - 50)::DOUBLE AS d, (k / 4)::FLOAT AS fl,
         'str-' || k || '-ñ' AS s, DATE '1970-01-01' + (18000 + k)::INTEGER AS dt, (((k - 450) * 100 + k % 100)::DECIMAL(18,0) / 100)::DECIMAL(9,2) AS dec9,
         (k * 1000 + 0.5)::DECIMAL(18,3) AS dec18, make_timestamp(1700000000000000 + k * 1000003) AS ts,
         from_hex(lpad(to_hex(k % 256), 2, '0') || lpad(to_hex(k // 256), 2, '0') || '07') AS bl
       FROM (SELECT ((i * 7) % 900)::BIGINT AS k FROM range(${n}) t(i))) TO ${sqlString(duckPath)} (FORMAT parquet)`,
    );
    const df = new Uint8Array(readFileSync(duckPath));
    const dm = readMeta(df);
    const leaves = buildSchema(dm.schema).leaves;
    let withFilters = 0;
    for (const c of dm.rowGroups[0]!.columns) {
      const m = c.metaData!;
      const name = m.pathInSchema.join('.') as Col;
      if (m.bloomFilterOffset === undefined) continue;
      withFilters++;
      const { filter } = parseBloomFilter(df.subarray(m.bloomFilterOffset, m.bloomFilterLength ? m.bloomFilterOffset + m.bloomFilterLength : df.length));
      const leaf = leaves.find((l) => l.name === name)!;
      for (let k = 0; k < 900; k++) {
        const v = valueOf(name, k);
        assert.ok(filter.mightContain(bloomHash(leaf, v)), `DuckDB's ${name} filter holds ${String(v)}`);
      }
      let ruledOut = 0;
      for (let j = 0; j < 100; j++) if (!filter.mightContain(bloomHash(leaf, absent(name, j)))) ruledOut++;
      assert.ok(ruledOut >= 80, `${name}: ${ruledOut}/100 absent values ruled out by DuckDB's filter`);
    }
    assert.ok(withFilters >= 8, `DuckDB wrote ${withFilters} filters`);
  });

  test('bad bloom filter options are InvalidArgumentErrors at open', async () => {
    const { elements } = defineSchema({ a: f.int32() });
    await assert.rejects(openWriter(join(dir, 'bad1.parquet'), elements, { bloomFilters: { nope: true } }), InvalidArgumentError);
    await assert.rejects(openWriter(join(dir, 'bad2.parquet'), elements, { bloomFilters: { a: { fpp: 1.5 } } }), InvalidArgumentError);
    await assert.rejects(openWriter(join(dir, 'bad3.parquet'), elements, { bloomFilters: { a: { ndv: -3 } } }), InvalidArgumentError);
  });

  test('bloom filters sit after the row groups and before the page index, for nested columns too', async () => {
    const { elements } = defineSchema({ tags: f.list(f.string()), n: f.int32() });
    const recs = Array.from({ length: 500 }, (_, i) => ({ tags: i % 4 ? [`a${i % 30}`, `b${i}`] : null, n: i }));
    const { file: nf, meta: nm } = await writeFile('nested-bloom.parquet', elements, recs, { bloomFilters: { 'tags.list.element': true } });
    const c = nm.rowGroups[0]!.columns[0]!;
    const m = c.metaData!;
    const lastChunkEnd = Math.max(...nm.rowGroups[0]!.columns.map((x) => (x.metaData!.dictionaryPageOffset ?? x.metaData!.dataPageOffset) + x.metaData!.totalCompressedSize));
    assert.equal(m.bloomFilterOffset, lastChunkEnd);
    assert.ok(m.bloomFilterOffset! + m.bloomFilterLength! <= c.columnIndexOffset!);
    const { filter } = parseBloomFilter(nf.subarray(m.bloomFilterOffset!, m.bloomFilterOffset! + m.bloomFilterLength!));
    const leaf = buildSchema(nm.schema).leaves[0]!;
    for (let i = 0; i < 500; i++) if (i % 4) assert.ok(filter.mightContain(bloomHash(leaf, `b${i}`)));
    assert.equal(nm.rowGroups[0]!.columns[1]!.metaData!.bloomFilterOffset, undefined);
    assert.equal(filter.bitset.length, optimalBloomBytes(30 + 375, 0.01));
  });
});
