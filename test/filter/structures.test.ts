/**
 * The page index and bloom filters as other readers see them: every corpus
 * file with a page index has its offset index checked against the pages
 * actually in the chunk (offsets, sizes, rows counted by repetition level 0,
 * null counts, bounds around the page's values), and bloom filters answer as
 * DuckDB's parquet_bloom_probe does, on corpus files and on files DuckDB and
 * parquetry wrote.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { openParquet, type ParquetReader } from '../../src/node/index.js';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { decodePageHeader } from '../../src/parquet/metadata/index.js';
import type { Values } from '../../src/encodings/types.js';
import { CORPUS, DATA, DuckFiles } from '../reader/helpers.js';
import { written } from './fixtures.js';

function pageIndexFiles(): string[] {
  const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as { files: { path: string; tags: string[] }[] };
  return manifest.files.filter((m) => m.tags.includes('page-index') && !/encrypt|bad_data|corrupt/.test(m.path)).map((m) => join(CORPUS, m.path));
}

interface ActualPage {
  offset: number;
  size: number;
  numValues: number;
}

/** The data pages of a chunk, walked from its first page header. */
function actualPages(bytes: Uint8Array, start: number, end: number): ActualPage[] {
  const out: ActualPage[] = [];
  let at = start;
  while (at < end) {
    const c = new ByteCursor(bytes, at, end, 0);
    const h = decodePageHeader(c);
    const size = c.pos - at + h.compressedPageSize;
    const n = h.dataPageHeader?.numValues ?? h.dataPageHeaderV2?.numValues;
    if (n !== undefined) out.push({ offset: at, size, numValues: n });
    at += size;
  }
  return out;
}

function valueAt(values: Values, i: number, text: boolean): unknown {
  if ('offsets' in values) {
    const b = values.data.subarray(values.offsets[i]!, values.offsets[i + 1]!);
    return text ? Buffer.from(b).toString('utf8') : b;
  }
  return values[i];
}

function before(a: unknown, b: unknown): boolean {
  if (typeof a === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b as string)) <= 0;
  return (a as number) <= (b as number);
}

async function checkFile(path: string): Promise<number> {
  const reader = await openParquet(path);
  const bytes = new Uint8Array(readFileSync(path));
  let checked = 0;
  try {
    for (let rg = 0; rg < reader.file.metadata.rowGroups.length; rg++) {
      const group = reader.file.metadata.rowGroups[rg]!;
      for (const leaf of reader.schema.leaves) {
        const oi = await reader.file.readOffsetIndex(rg, leaf.path);
        const ci = await reader.file.readColumnIndex(rg, leaf.path);
        const pages = await reader.file.pageIndex(rg, leaf.path);
        if (!oi) {
          assert.equal(pages, null);
          continue;
        }
        const meta = group.columns[leaf.columnIndex]!.metaData!;
        const start = meta.dictionaryPageOffset && meta.dictionaryPageOffset < meta.dataPageOffset ? meta.dictionaryPageOffset : meta.dataPageOffset;
        const actual = actualPages(bytes, start, start + meta.totalCompressedSize);
        const where = `${basename(path)} rg ${rg} ${leaf.path.join('.')}`;
        assert.deepEqual(oi.pageLocations.map((p) => [p.offset, p.compressedPageSize]), actual.map((p) => [p.offset, p.size]), `${where}: page locations`);
        assert.equal(pages!.length, actual.length);
        if (ci) assert.equal(ci.nullPages.length, actual.length, `${where}: column index pages`);
        assert.equal(pages!.reduce((n, p) => n + p.numRows, 0), group.numRows, `${where}: rows`);
        // Rows, nulls and bounds of each page, from the decoded chunk.
        let data;
        for await (const b of reader.columns({ columns: [leaf.path], rowGroups: [rg] })) data = b.data;
        let entry = 0;
        let value = 0;
        const kind = leaf.kind.kind;
        // Indexes that mark every page null although the chunk has values (parquet-mr without statistics,
        // arrow-rs on list columns) are placeholders: the reader does not prune with them.
        const placeholder = ci !== null && ci.nullPages.every(Boolean) && data!.valueCount > 0;
        const comparable = (kind === 'int' && leaf.kind.kind === 'int' && leaf.kind.signed) || kind === 'float' || kind === 'string';
        actual.forEach((page, i) => {
          let rows = 0;
          let nulls = 0;
          let min: unknown;
          let max: unknown;
          for (let e = entry; e < entry + page.numValues; e++) {
            if (!data!.rep || data!.rep[e] === 0) rows++;
            if (data!.def && data!.def[e] !== leaf.defLevel) {
              nulls++;
              continue;
            }
            if (comparable) {
              const v = data!.indices ? valueAt(data!.dictionary!, data!.indices[value]!, kind === 'string') : valueAt(data!.values!, value, kind === 'string');
              if (!(typeof v === 'number' && Number.isNaN(v))) {
                if (min === undefined || before(v, min)) min = v;
                if (max === undefined || before(max, v)) max = v;
              }
            }
            value++;
          }
          entry += page.numValues;
          const p = pages![i]!;
          assert.equal(p.numRows, rows, `${where}: page ${i} rows`);
          if (p.nullCount !== undefined && !placeholder) {
            assert.equal(p.nullCount, nulls, `${where}: page ${i} null count`);
          }
          if (comparable && min !== undefined && !p.nullPage && p.min !== undefined) {
            assert.ok(before(p.min, min) && before(max, p.max), `${where}: page ${i} bounds ${String(p.min)}..${String(p.max)} around ${String(min)}..${String(max)}`);
            if (kind !== 'string') assert.ok(p.min === min && p.max === max || typeof min === 'bigint', `${where}: page ${i} bounds exact`);
          }
          checked++;
        });
      }
    }
  } finally {
    await reader.close();
  }
  return checked;
}

describe('page indexes match the pages', () => {
  for (const path of pageIndexFiles()) {
    test(basename(path), async () => {
      assert.ok((await checkFile(path)) > 0);
    });
  }
  test('written by parquet-wasm and parquetry', async () => {
    const w = await written();
    assert.ok((await checkFile(w.wasm)) > 50);
    assert.ok((await checkFile(w.own)) > 50);
  });
});

describe('bloom filters agree with DuckDB parquet_bloom_probe', () => {
  let duck: DuckFiles;
  after(() => duck?.close());

  async function agree(reader: ParquetReader, path: string, column: string, values: unknown[], sql: (v: unknown) => string): Promise<number> {
    duck ??= await DuckFiles.create();
    let hits = 0;
    for (let rg = 0; rg < reader.file.metadata.rowGroups.length; rg++) {
      const meta = reader.file.metadata.rowGroups[rg]!.columns[reader.schema.leaves.find((l) => l.path.join('.') === column)!.columnIndex]!.metaData!;
      const bf = await reader.file.readBloomFilter(rg, column);
      assert.equal(bf !== null, meta.bloomFilterOffset !== undefined);
      if (!bf) continue;
      assert.equal(bf.header.numBytes % 32, 0);
      for (const v of values) {
        const r = await duck.duck.runAndReadAll(`SELECT bloom_filter_excludes FROM parquet_bloom_probe('${path}', '${column}', ${sql(v)}) WHERE row_group_id = ${rg}`);
        const excludes = r.getRows()[0]![0] as boolean;
        assert.equal(bf.mightContain(v), !excludes, `${basename(path)} rg ${rg} ${column} ${String(v)}`);
        if (!excludes) hits++;
      }
    }
    return hits;
  }

  const str = (v: unknown): string => `'${String(v).replaceAll("'", "''")}'`;

  for (const file of ['data_index_bloom_encoding_stats.parquet', 'data_index_bloom_encoding_with_length.parquet']) {
    test(file, async () => {
      const path = join(DATA, file);
      const reader = await openParquet(path);
      const present = (await reader.readRows()).map((r) => r.String);
      const hits = await agree(reader, path, 'String', [...present, 'nope', 'Hello!', '', 'hello', 'dog '], str);
      assert.ok(hits >= present.length);
      const bf = (await reader.file.readBloomFilter(0, 'String'))!;
      for (const v of present) assert.equal(bf.mightContain(v), true);
      assert.equal(bf.mightContain('definitely absent'), false);
      await reader.close();
    });
  }

  test('written by DuckDB and parquetry', async () => {
    const w = await written();
    const absent = ['v500', 'w001', '', 'V001'];
    const strings = [...Array.from({ length: 40 }, (_, i) => 'v' + String(i * 12).padStart(3, '0')), ...absent];
    const d = await openParquet(w.duckdb);
    const u = [...Array.from({ length: 40 }, (_, i) => 'é' + i), ...Array.from({ length: 7 }, (_, i) => '😀' + i), 'é40', '😀7', 'e1'];
    assert.ok((await agree(d, w.duckdb, 'u', u, str)) > 100);
    assert.ok((await agree(d, w.duckdb, 'n', [0, 5, 12, 13, 100, -1], (v) => `${String(v)}::BIGINT`)) > 0);
    await d.close();
    const reader = await openParquet(w.own);
    assert.ok((await agree(reader, w.own, 's', strings, str)) > 100);
    const ints = [0n, 1000000007n - 5000000000000n, 123n, -5000000000000n, 5n];
    await agree(reader, w.own, 'i64', ints, (v) => `${String(v)}::BIGINT`);
    await agree(reader, w.own, 'id', [0, 1, 2, 4000, 5999, 6000, -1], (v) => `${String(v)}::INTEGER`);
    await reader.close();
  });
});
