/**
 * Interop matrix: files parquetry writes, read back by parquetry, DuckDB and
 * hyparquet, value by value (see oracles.ts for the comparison forms).
 *
 * Covered: every type of the schema builder, every nesting form with nulls
 * and empties at every level, every codec, page versions 1 and 2, dictionary
 * on and off, a dictionary that overflows midway, every per-column encoding
 * where valid, several row groups and many pages per chunk, checksums on,
 * alternative input forms (Date, ISO text, numbers for INT64, Map...).
 * DuckDB's statistics (parquet_metadata) and schema (parquet_schema) are
 * checked against the data and the declaration.
 *
 * Every file's page layout is also walked from the bytes (pages tile each
 * chunk, offsets, num_values, encoding_stats, and every page CRC-32 checked
 * by our own CRC code).
 *
 * What each reader is not asked to read, and why:
 * - DuckDB: BSON (it refuses the converted type) and INTERVAL fields of 2^31
 *   or more (it reads them as signed 32-bit integers): both in a
 *   parquetry-only file. Columns written with DELTA_LENGTH_BYTE_ARRAY that
 *   are not strings or blobs (BYTE_ARRAY decimals) and BYTE_STREAM_SPLIT
 *   columns that are not FLOAT/DOUBLE: DuckDB 1.5 refuses those encodings
 *   there, so those columns of those files are compared by parquetry and
 *   hyparquet only. DuckDB reads TIMESTAMP(NANOS, UTC), TIME(NANOS, UTC) and
 *   INT96 as microseconds: compared after the same reduction (oracles.ts).
 * - hyparquet: INTERVAL and BSON columns (it throws "not supported" for
 *   both). Its LZ4_RAW decompressor rejects the 1-byte block of an empty
 *   input, which an all-null DATA_PAGE_V2 holds: oracles.ts works around it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineSchema, field as fb, openParquet, openWriter, type WriterOptions } from '../../src/node/index.js';
import type { ColumnWriteOptions } from '../../src/parquet/write/writer.js';
import type { ValueEncoding } from '../../src/parquet/write/column-writer.js';
import { planRecord } from '../../src/shred/plan.js';
import type { ColumnMetaData } from '../../src/parquet/metadata/index.js';
import { FLAT, NESTED, PARQUETRY_ONLY, encodingsFor, type Fields } from './columns.js';
import { makeRecords, Rng, type GenOptions } from './gen.js';
import { fileBytes, layoutProblems } from './pages.js';
import { Duck, checkDuckSchema, checkDuckStats, checkDuckValues, checkHyparquet, checkParquetry, deepSame, show } from './oracles.js';

const CODECS = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4_RAW'] as const;
/** hyparquet throws "not supported" for these. */
const HYPARQUET_SKIPS = new Set(['iv', 'bs', 'lbs', 'iv_big']);

let dir = '';
let duck: Duck;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-writer-interop-'));
  duck = await Duck.create();
});

after(() => {
  duck?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Written {
  path: string;
  label: string;
  expected: Record<string, unknown>[];
  schema: ReturnType<typeof defineSchema>;
}

async function writeFile(label: string, fields: Fields, rows: number, seed: number, options: WriterOptions, gen: GenOptions = {}, records?: { expected: Record<string, unknown>[]; input: Record<string, unknown>[] }): Promise<Written> {
  const schema = defineSchema(fields);
  const data = records ?? makeRecords(fields, rows, seed, gen);
  const path = join(dir, `${label}.parquet`);
  const w = await openWriter(path, schema, options);
  await w.writeMany(data.input);
  await w.close();
  return { path, label, expected: data.expected, schema };
}

/**
 * The file's page layout (and page CRCs, unless `checksums: false`), all
 * three readers, DuckDB's statistics and schema; every check runs, and
 * the test fails with all their reports. `duckSkip`: top-level columns
 * DuckDB cannot decode (said where it is used).
 */
async function checkAll(f: Written, opts: { duckSkip?: Set<string>; checksums?: boolean } = {}): Promise<void> {
  const plan = planRecord(f.schema.schema.root);
  const names = plan.fields.map((x) => x.name);
  const duckColumns = opts.duckSkip?.size ? names.filter((n) => !opts.duckSkip!.has(n)) : undefined;
  const checks: [string, () => Promise<void>][] = [
    ['parquetry', () => checkParquetry(f.path, f.label, f.expected)],
    ['DuckDB values', () => checkDuckValues(duck, f.path, f.label, f.expected, plan, duckColumns)],
    ['DuckDB statistics', () => checkDuckStats(duck, f.path, f.label, f.expected, plan)],
    ['DuckDB schema', () => checkDuckSchema(duck, f.path, f.label, f.schema.elements)],
    ['hyparquet', () => checkHyparquet(f.path, f.label, f.expected, plan, names.filter((n) => !HYPARQUET_SKIPS.has(n)))],
  ];
  const failures: string[] = [];
  const reader = await openParquet(f.path);
  const layout = layoutProblems(fileBytes(f.path), reader.file.metadata, opts.checksums ?? true);
  await reader.close();
  if (layout.length) failures.push(`[layout] ${f.label}: ${layout.slice(0, 8).join('\n  ')}`);
  for (const [name, check] of checks) {
    try {
      await check();
    } catch (e) {
      failures.push(`[${name}] ${(e as Error).message}`);
    }
  }
  if (failures.length) assert.fail(failures.join('\n\n'));
}

function chunks(meta: { rowGroups: { columns: { metaData?: ColumnMetaData }[] }[] }): ColumnMetaData[] {
  return meta.rowGroups.flatMap((g) => g.columns.map((c) => c.metaData!));
}

function dataPages(c: ColumnMetaData): number {
  return (c.encodingStats ?? []).filter((s) => s.pageType !== 'DICTIONARY_PAGE').reduce((n, s) => n + s.count, 0);
}

const ALL: Fields = [...FLAT, ...NESTED];

describe('every type and nesting form, every codec, page v1/v2, dictionary on/off', () => {
  let seed = 1;
  for (const codec of CODECS) {
    for (const pageVersion of [1, 2] as const) {
      for (const dictionary of [true, false]) {
        const label = `types_${codec}_v${pageVersion}_${dictionary ? 'dict' : 'nodict'}`;
        const s = seed++;
        test(label, async () => {
          // Row groups by row count with the dictionary, by bytes without; small pages either way.
          const options: WriterOptions = {
            codec, pageVersion, dictionary, checksums: true, pageSize: 2048, pageRowLimit: 61,
            ...(dictionary ? { rowGroupRows: 400 } : { rowGroupSize: 300 * 1024 }),
          };
          const f = await writeFile(label, ALL, 1000, s, options);
          const reader = await openParquet(f.path);
          const meta = reader.file.metadata;
          await reader.close();
          assert.ok(meta.rowGroups.length >= 3, `${label}: ${meta.rowGroups.length} row groups, want several`);
          const cs = chunks(meta);
          assert.ok(cs.every((c) => c.codec === codec), `${label}: every chunk is ${codec}`);
          assert.ok(cs.filter((c) => dataPages(c) >= 4).length > cs.length / 2, `${label}: many pages per chunk`);
          const dictChunks = cs.filter((c) => c.encodings.includes('RLE_DICTIONARY')).length;
          if (dictionary) assert.ok(dictChunks > cs.length / 4, `${label}: ${dictChunks} of ${cs.length} chunks dictionary-encoded`);
          else assert.equal(dictChunks, 0, `${label}: no dictionary when off`);
          await checkAll(f);
        });
      }
    }
  }
});

describe('every per-column encoding where valid', () => {
  const ENCODINGS: ValueEncoding[] = ['PLAIN', 'RLE', 'DELTA_BINARY_PACKED', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT'];
  let seed = 100;
  for (const encoding of ENCODINGS) {
    for (const pageVersion of [1, 2] as const) {
      const label = `enc_${encoding}_v${pageVersion}`;
      const s = seed++;
      test(label, async () => {
        const schema = defineSchema(ALL);
        const columns: Record<string, ColumnWriteOptions & { encoding?: ValueEncoding }> = {};
        const chosen = new Set<string>();
        for (const leaf of schema.schema.leaves) {
          if (!encodingsFor(leaf).includes(encoding)) continue;
          const p = leaf.path.join('.');
          columns[p] = { encoding, dictionary: false };
          chosen.add(p);
        }
        assert.ok(chosen.size > 0);
        const codec = CODECS[s % CODECS.length];
        const f = await writeFile(label, ALL, 900, s, { codec, pageVersion, checksums: true, pageSize: 1500, pageRowLimit: 211, rowGroupRows: 400, columns: columns as WriterOptions['columns'] });
        const reader = await openParquet(f.path);
        for (const c of chunks(reader.file.metadata)) {
          const p = c.pathInSchema.join('.');
          if (!chosen.has(p)) continue;
          assert.ok(c.encodings.includes(encoding), `${label}: chunk ${p} encodings ${c.encodings.join(',')} lack ${encoding}`);
          const pages = (c.encodingStats ?? []).filter((x) => x.pageType !== 'DICTIONARY_PAGE');
          assert.ok(pages.length > 0 && pages.every((x) => x.encoding === encoding), `${label}: chunk ${p} data pages ${show(pages)}`);
        }
        await reader.close();
        // DuckDB decodes DELTA_LENGTH_BYTE_ARRAY for strings and blobs only (not BYTE_ARRAY decimals),
        // and BYTE_STREAM_SPLIT for FLOAT and DOUBLE only: such columns are left to parquetry and hyparquet.
        const duckSkip = new Set<string>();
        for (const leaf of schema.schema.leaves) {
          if (!chosen.has(leaf.path.join('.'))) continue;
          if ((encoding === 'DELTA_LENGTH_BYTE_ARRAY' && leaf.kind.kind === 'decimal') || (encoding === 'BYTE_STREAM_SPLIT' && leaf.physicalType !== 'FLOAT' && leaf.physicalType !== 'DOUBLE')) duckSkip.add(leaf.path[0]!);
        }
        await checkAll(f, { duckSkip });
      });
    }
  }
});

describe('a dictionary that overflows dictionaryPageSize midway falls back', () => {
  for (const pageVersion of [1, 2] as const) {
    test(`fallback v${pageVersion}`, async () => {
      const cols: Fields = [
        ['s_plain', fb.string()],
        ['s_dlba', fb.string()],
        ['s_dba', fb.string()],
        ['i_delta', fb.int64()],
        ['d_bss', fb.double()],
        ['fx_plain', fb.fixed(8)],
        ['l_str', fb.list(fb.string())],
      ];
      const rows = 3000;
      const r = new Rng(77 + pageVersion);
      const expected: Record<string, unknown>[] = [];
      for (let i = 0; i < rows; i++) {
        // Few distinct values first (the dictionary pays), then all distinct (it overflows).
        const k = i < 400 ? r.int(0, 5) : i;
        const fx = new Uint8Array(8);
        new DataView(fx.buffer).setFloat64(0, k * 1.5);
        expected.push({
          s_plain: i % 17 === 0 ? null : `value-${k}`,
          s_dlba: `dlba-${k}-${'x'.repeat(k % 13)}`,
          s_dba: `prefix-shared-${k}`,
          i_delta: BigInt(k) * 1000003n - 7n,
          d_bss: k / 7,
          fx_plain: fx,
          l_str: i % 11 === 0 ? [] : [`e${k}`, null, `f${k}`],
        });
      }
      const label = `dict_fallback_v${pageVersion}`;
      const f = await writeFile(label, cols, rows, 0, {
        pageVersion, checksums: true, dictionaryPageSize: 2000, pageRowLimit: 100, rowGroupRows: 2000, codec: 'SNAPPY',
        columns: {
          s_dlba: { encoding: 'DELTA_LENGTH_BYTE_ARRAY' },
          s_dba: { encoding: 'DELTA_BYTE_ARRAY' },
          i_delta: { encoding: 'DELTA_BINARY_PACKED' },
          d_bss: { encoding: 'BYTE_STREAM_SPLIT' },
        } as WriterOptions['columns'],
      }, {}, { expected, input: expected });
      const fallback: Record<string, string> = { s_plain: 'PLAIN', s_dlba: 'DELTA_LENGTH_BYTE_ARRAY', s_dba: 'DELTA_BYTE_ARRAY', i_delta: 'DELTA_BINARY_PACKED', d_bss: 'BYTE_STREAM_SPLIT', fx_plain: 'PLAIN', 'l_str.list.element': 'PLAIN' };
      const reader = await openParquet(f.path);
      const first = reader.file.metadata.rowGroups[0]!;
      for (const c of first.columns.map((x) => x.metaData!)) {
        const p = c.pathInSchema.join('.');
        const st = c.encodingStats ?? [];
        const dataType = pageVersion === 1 ? 'DATA_PAGE' : 'DATA_PAGE_V2';
        const count = (type: string, enc: string) => st.filter((x) => x.pageType === type && x.encoding === enc).reduce((n, x) => n + x.count, 0);
        assert.equal(count('DICTIONARY_PAGE', 'PLAIN'), 1, `${p}: one dictionary page (${show(st)})`);
        assert.ok(count(dataType, 'RLE_DICTIONARY') >= 1, `${p}: dictionary-encoded pages first (${show(st)})`);
        assert.ok(count(dataType, fallback[p]!) >= 1, `${p}: ${fallback[p]} pages after the fallback (${show(st)})`);
        assert.ok(c.dictionaryPageOffset !== undefined && c.dictionaryPageOffset < c.dataPageOffset, `${p}: dictionary page first`);
      }
      await reader.close();
      await checkAll(f);
    });
  }
});

test('parquetry-only types: BSON, INTERVAL fields above 2^31 (DuckDB and hyparquet cannot read them)', async () => {
  const f = await writeFile('parquetry_only', PARQUETRY_ONLY, 800, 5, { pageSize: 1024, rowGroupRows: 300, checksums: true, pageVersion: 2, codec: 'ZSTD' }, { intervalSigned: false });
  await checkParquetry(f.path, f.label, f.expected);
  // The schema DuckDB refuses, for the record: if this starts to pass, move BSON into the DuckDB matrix.
  await assert.rejects(duck.rows(`SELECT * FROM read_parquet('${f.path}')`), /converted type/i);
});

test('the comparison oracles tell apart what must differ', async () => {
  // A file whose contents are not what "expected" says must fail every reader's check.
  const fields: Fields = [['a', FLAT.find(([n]) => n === 'ts_ns')![1]], ['b', FLAT.find(([n]) => n === 'd9_fix')![1]], ['c', NESTED.find(([n]) => n === 'mp')![1]]];
  const f = await writeFile('oracle_check', fields, 50, 9, { rowGroupRows: 20 });
  const wrong = f.expected.map((r, i) => (i === 7 ? { ...r, a: r.a === null ? 5n : (r.a as bigint) + 1000n, b: '0.000', c: [{ key: 'zz', value: 1 }] } : r));
  assert.ok(!deepSame(wrong, f.expected));
  const plan = planRecord(f.schema.schema.root);
  await assert.rejects(checkParquetry(f.path, f.label, wrong), /row 7, column a/);
  await assert.rejects(checkDuckValues(duck, f.path, f.label, wrong, plan), /row 7, column a/);
  await assert.rejects(checkHyparquet(f.path, f.label, wrong, plan), /row 7, column (a|b|c)/);
  await assert.rejects(checkDuckStats(duck, f.path, f.label, wrong, plan), /row group 0/);
  await checkAll(f, { checksums: false });
});
