/**
 * `parquetry dictionary`, `column-size`, `footer`, `scan`, `size-stats` and
 * `schema --json`, run as a user runs them, checked against DuckDB's reading
 * of the same files (parquet_metadata, parquet_schema, the data itself) and
 * against what the data implies (histograms summing to the value counts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ok, run } from './run-cli.js';
import { join } from 'node:path';
import { DuckFiles } from '../reader/helpers.js';
import { writeParquet } from '../../src/node/index.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { ByteWriter } from '../../src/bytes/writer.js';
import { decodeFileMetaData, type FileMetaData } from '../../src/parquet/metadata/index.js';
import * as tables from '../../src/parquet/metadata/tables.js';
import { encodeStruct, T, type FieldTuple, type StructSpec } from '../../src/parquet/thrift/index.js';

const DATA = '../shared/corpus/parquet-testing/data';
const TINY = `${DATA}/alltypes_tiny_pages.parquet`;
const SAMPLE = 'examples/fixtures/sample.parquet';
const NESTED = `${DATA}/nested_structs.rust.parquet`;

const jsonLines = (out: string): any[] => (out.trim() === '' ? [] : out.trim().split('\n').map((l) => JSON.parse(l)));
const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

// DuckDB in memory and a temp files.dir for the files written, removed after (the reader tests' fixture).
let files: DuckFiles;
before(async () => {
  files = await DuckFiles.create();
});
after(() => files?.close());

async function query(sql: string): Promise<Record<string, any>[]> {
  return (await files.duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, any>[];
}

describe('dictionary', () => {
  test("a dictionary-encoded chunk's entries are the column's distinct values, as DuckDB reads them", async () => {
    const [d] = jsonLines(await ok('dictionary', TINY, '--column', 'string_col', '--json'));
    assert.equal(d.dictionary, true);
    const want = (await query(`SELECT DISTINCT string_col AS v FROM read_parquet(${sqlString(TINY)}) WHERE string_col IS NOT NULL`)).map((r) => r.v);
    assert.deepEqual([...d.values].sort(), want.sort());
    assert.equal(new Set(d.values).size, d.values.length, 'entries are distinct');
  });

  test('each row group has its own dictionary; a chunk without one says so', async () => {
    const file = join(files.dir, 'dict.parquet');
    const rows = Array.from({ length: 300 }, (_, i) => ({ rg: i < 150 ? `a${i % 3}` : `b${i % 5}`, id: BigInt(i) * 1_000_003n }));
    await writeParquet(file, rows, { rowGroupRows: 150 } as never);
    const got = jsonLines(await ok('dictionary', file, '--column', 'rg', '--json'));
    assert.deepEqual(got.map((d) => [d.rowGroup, d.values]), [[0, ['a0', 'a1', 'a2']], [1, ['b0', 'b1', 'b2', 'b3', 'b4']]]);
    const one = jsonLines(await ok('dictionary', file, '--column', 'rg', '--row-group', '1', '--json'));
    assert.deepEqual(one.map((d) => d.rowGroup), [1]);
    const text = await ok('dictionary', file, '--column', 'rg', '--row-group', '0');
    assert.equal(text, 'row group 0, column rg: 3 entries\n  0  a0\n  1  a1\n  2  a2\n');
    const plain = jsonLines(await ok('dictionary', `${DATA}/delta_length_byte_array.parquet`, '--column', 'FRUIT', '--json'));
    assert.ok(plain.length > 0 && plain.every((d) => d.dictionary === false && d.values.length === 0));
  });

  test('a group or an unknown column is a one-line error', async () => {
    const r = await run('dictionary', SAMPLE, '--column', 'address');
    assert.equal(r.code, 1);
    assert.match(r.err, /^parquetry: "address" is a group: name one of its leaf columns \(address\.city, address\.zip\)/);
    assert.match((await run('dictionary', SAMPLE, '--column', 'nope')).err, /no column "nope"/);
  });
});

describe('column-size', () => {
  for (const file of [TINY, SAMPLE, NESTED]) {
    test(`bytes per column equal DuckDB's parquet_metadata sums: ${file.split('/').pop()}`, async () => {
      const got = jsonLines(await ok('column-size', file, '--json'));
      const want = await query(`SELECT path_in_schema AS p, sum(total_compressed_size)::BIGINT AS c, sum(total_uncompressed_size)::BIGINT AS u
        FROM parquet_metadata(${sqlString(file)}) GROUP BY path_in_schema, column_id ORDER BY column_id`);
      assert.deepEqual(got.map((s) => [s.column, s.compressed, s.uncompressed]), want.map((r) => [r.p.replaceAll(', ', '.'), Number(r.c), Number(r.u)]));
      const total = got.reduce((a, s) => a + s.compressed, 0);
      for (const s of got) assert.ok(Math.abs(s.compressedShare - s.compressed / total) < 1e-12);
      assert.ok(Math.abs(got.reduce((a, s) => a + s.uncompressedShare, 0) - 1) < 1e-9);
    });
  }
});

describe('footer', () => {
  test("FileMetaData in thrift names: i64 as decimal strings, binary as hex, matching DuckDB's reading", async () => {
    const f = JSON.parse(await ok('footer', SAMPLE));
    const [meta] = await query(`SELECT * FROM parquet_file_metadata(${sqlString(SAMPLE)})`);
    assert.equal(f.num_rows, String(meta!.num_rows));
    assert.equal(f.created_by, meta!.created_by);
    assert.equal(f.version, Number(meta!.format_version));
    assert.deepEqual(f.column_orders[0], { TYPE_ORDER: {} });
    const chunks = await query(`SELECT * FROM parquet_metadata(${sqlString(SAMPLE)}) ORDER BY row_group_id, column_id`);
    const ours = f.row_groups.flatMap((rg: any) => rg.columns);
    assert.equal(ours.length, chunks.length);
    chunks.forEach((c, i) => {
      const m = ours[i].meta_data;
      assert.equal(m.total_compressed_size, String(c.total_compressed_size));
      assert.equal(m.data_page_offset, String(c.data_page_offset));
      assert.equal(m.num_values, String(c.num_values));
      assert.equal(m.codec, c.compression);
    });
    // fruit is a string column: its min_value bytes are the hex of DuckDB's text
    const fruit = chunks.findIndex((c) => c.path_in_schema === 'fruit');
    assert.equal(Buffer.from(ours[fruit].meta_data.statistics.min_value, 'hex').toString('utf8'), chunks[fruit]!.stats_min_value);
    const schema = await query(`SELECT * FROM parquet_schema(${sqlString(SAMPLE)})`);
    assert.deepEqual(f.schema.map((e: any) => e.name), schema.map((e) => e.name));
  });

  test('a footer whose schema does not build (an unknown physical type) is still printed as stored', async () => {
    const f = JSON.parse(await ok('footer', '../shared/corpus/parquet-testing/bad_data/PARQUET-1481.parquet', '--json'));
    assert.deepEqual(f.schema[1], { type: 'UNKNOWN_-7', repetition_type: 'OPTIONAL', name: 'Handle' });
    assert.equal((await run('schema', '../shared/corpus/parquet-testing/bad_data/PARQUET-1481.parquet')).code, 1);
  });

  test("fields a newer parquet.thrift adds are shown where they lie, as field_<id>, in the wire's terms", async () => {
    // The footer re-encoded by tables with fields ours lack: top level, in each row group's chunk metadata, in its statistics.
    const grow = (spec: StructSpec, more: FieldTuple[], swap: Record<string, StructSpec> = {}): StructSpec => T.struct(spec.name, [
      ...spec.fields.map((f): FieldTuple => [f.id, f.thriftName, swap[f.thriftName] ?? (f.type.kind === 'list' && swap[f.thriftName + '[]'] ? T.list(swap[f.thriftName + '[]']!) : f.type), f.required ? 'required' : 'optional']),
      ...more,
    ]);
    const stats = grow(tables.Statistics, [[20, 'future_bytes', T.binary, 'optional']]);
    const meta = grow(tables.ColumnMetaData, [[30, 'future_struct', T.struct('Future', [[1, 'a', T.i32, 'required'], [3, 'b', T.list(T.i64big), 'required']]), 'optional']], { statistics: stats });
    const chunk = grow(tables.ColumnChunk, [], { meta_data: meta });
    const group = grow(tables.RowGroup, [], { 'columns[]': chunk });
    const file = grow(tables.FileMetaData, [[20, 'future_i64', T.i64big, 'optional']], { 'row_groups[]': group });
    const path = join(files.dir, 'future.parquet');
    await writeParquet(path, [{ id: 1n }, { id: 2n }]);
    const b = new Uint8Array(readFileSync(path));
    const len = new DataView(b.buffer, b.byteOffset).getUint32(b.length - 8, true);
    const m = decodeFileMetaData(b.subarray(b.length - 8 - len, b.length - 8)) as FileMetaData & Record<string, unknown>;
    m.futureI64 = 1n << 60n;
    const cmd = m.rowGroups[0]!.columns[0]!.metaData! as unknown as Record<string, unknown> & { statistics: Record<string, unknown> };
    cmd.futureStruct = { a: 7, b: [-1n] };
    cmd.statistics.futureBytes = new Uint8Array([0xca, 0xfe]);
    const w = new ByteWriter();
    encodeStruct(file, m, w);
    const footerBytes = w.finish();
    const out = new Uint8Array(b.length - 8 - len + footerBytes.length + 8);
    out.set(b.subarray(0, b.length - 8 - len));
    out.set(footerBytes, b.length - 8 - len);
    new DataView(out.buffer).setUint32(out.length - 8, footerBytes.length, true);
    out.set(b.subarray(b.length - 4), out.length - 4);
    writeFileSync(path, out);
    const f = JSON.parse(await ok('footer', path, '--json'));
    assert.equal(f.field_20, String(1n << 60n));
    const md = f.row_groups[0].columns[0].meta_data;
    assert.deepEqual(md.field_30, { field_1: 7, field_3: ['-1'] });
    assert.equal(md.statistics.field_20, 'cafe');
    assert.equal(md.statistics.null_count, '0', 'the known fields beside them as before');
  });

  test('--json is the same object on one line', async () => {
    const lines = (await ok('footer', TINY, '--json')).trimEnd().split('\n');
    assert.equal(lines.length, 1);
    assert.deepEqual(JSON.parse(lines[0]!), JSON.parse(await ok('footer', TINY)));
  });
});

describe('scan', () => {
  test('reads every value: rows, level entries and bytes agree with DuckDB', async () => {
    const s = JSON.parse(await ok('scan', NESTED, '--json'));
    const [c] = await query(`SELECT count(*)::BIGINT AS n FROM read_parquet(${sqlString(NESTED)})`);
    const [m] = await query(`SELECT sum(num_values)::BIGINT AS v, sum(total_compressed_size)::BIGINT AS b, count(*)::BIGINT AS k FROM parquet_metadata(${sqlString(NESTED)})`);
    assert.equal(s.rows, Number(c!.n));
    assert.equal(s.values, Number(m!.v));
    assert.equal(s.compressedBytes, Number(m!.b));
    assert.equal(s.columns, Number(m!.k));
    assert.ok(s.seconds > 0 && s.rowsPerSecond > 0);
  });

  test('a row group of no rows, whose chunks point at offset 0, is not read (as DuckDB and cat do not): scan, check-stats, dictionary, size-stats, pages', async () => {
    const empty = `${DATA}/column_chunk_key_value_metadata.parquet`;
    const s = JSON.parse(await ok('scan', empty, '--json'));
    assert.deepEqual([s.rows, s.values], [0, 0]);
    assert.deepEqual(JSON.parse(await ok('check-stats', empty, '--json')).lies, []);
    assert.deepEqual(jsonLines(await ok('dictionary', empty, '--column', 'column1', '--json')), [{ rowGroup: 0, column: 'column1', dictionary: false, values: [] }]);
    assert.deepEqual(jsonLines(await ok('size-stats', empty, '--json')).map((c) => c.column), ['column1', 'column2']);
    assert.deepEqual(jsonLines(await ok('pages', empty, '--json')), []);
    assert.match(await ok('pages', empty), /column column1: 0 pages[^]*column column2: 0 pages/);
  });

  test('--columns reads only those columns; the text report names rows and bytes', async () => {
    const s = JSON.parse(await ok('scan', TINY, '--columns', 'id,string_col', '--json'));
    const [m] = await query(`SELECT sum(num_values)::BIGINT AS v FROM parquet_metadata(${sqlString(TINY)}) WHERE path_in_schema IN ('id', 'string_col')`);
    assert.equal(s.columns, 2);
    assert.equal(s.values, Number(m!.v));
    assert.match(await ok('scan', TINY), /^rows: {7}7300\ncolumns: {4}13 \(94900 values and nulls\)\nbytes: .*\ntime: .* s\nthroughput: \d+ rows\/s/);
  });
});

describe('size-stats', () => {
  test('histograms and unencoded bytes as written, consistent with the data DuckDB reads', async () => {
    const file = join(files.dir, 'sizes.parquet');
    const rows = Array.from({ length: 500 }, (_, i) => ({ s: i % 7 === 0 ? null : `v${i}`, tags: i % 5 === 0 ? null : Array.from({ length: i % 4 }, (_, k) => k) }));
    await writeParquet(file, rows, { pageRowLimit: 100 } as never);
    const got = jsonLines(await ok('size-stats', file, '--json'));
    const s = got.find((c) => c.column === 's')!;
    assert.equal(s.sizeStatistics, true);
    const [d] = await query(`SELECT count(s)::BIGINT AS n, sum(octet_length(encode(s)))::BIGINT AS bytes, count(*)::BIGINT AS rows FROM read_parquet(${sqlString(file)})`);
    assert.equal(s.unencodedByteArrayDataBytes, Number(d!.bytes));
    assert.deepEqual(s.definitionLevelHistogram, [Number(d!.rows) - Number(d!.n), Number(d!.n)]);
    assert.equal(s.pages.length, 5);
    const sum = (hs: number[][]) => hs.reduce((a, h) => a.map((x, i) => x + h[i]!), hs[0]!.map(() => 0));
    assert.deepEqual(sum(s.pages.map((p: any) => p.definitionLevelHistogram)), s.definitionLevelHistogram);
    assert.equal(s.pages.reduce((a: number, p: any) => a + p.unencodedByteArrayDataBytes, 0), s.unencodedByteArrayDataBytes);
    const t = got.find((c) => c.column === 'tags.list.element')!;
    const [l] = await query(`SELECT count(*) FILTER (tags IS NULL)::BIGINT AS nulls, count(*) FILTER (len(tags) = 0)::BIGINT AS empty,
      sum(len(tags))::BIGINT AS elements FROM read_parquet(${sqlString(file)})`);
    // def 0: null list, 1: empty list, 2: null element (none), 3: a value
    assert.deepEqual(t.definitionLevelHistogram, [Number(l!.nulls), Number(l!.empty), 0, Number(l!.elements)]);
    assert.equal(t.repetitionLevelHistogram[0], 500);
    assert.deepEqual(sum(t.pages.map((p: any) => p.repetitionLevelHistogram)), t.repetitionLevelHistogram);
  });

  test('a row group the file does not have is a one-line error', async () => {
    const r = await run('size-stats', TINY, '--row-group', '1');
    assert.equal(r.code, 1);
    assert.equal(r.err, 'parquetry: row group 1 does not exist (the file has 1)\n');
  });

  test('a file without size statistics says so per chunk', async () => {
    assert.equal(await ok('size-stats', SAMPLE, '--column', 'id'), 'row group 0, column id: no size statistics\n');
  });
});

describe('schema --json', () => {
  for (const file of [SAMPLE, NESTED, `${DATA}/alltypes_plain.parquet`, `${DATA}/fixed_length_decimal.parquet`]) {
    test(`the tree agrees with DuckDB's parquet_schema: ${file.split('/').pop()}`, async () => {
      const tree = JSON.parse(await ok('schema', file, '--json'));
      const flat: any[] = [];
      const walk = (n: any) => {
        flat.push(n);
        for (const c of n.children ?? []) walk(c);
      };
      walk(tree);
      const want = await query(`SELECT * FROM parquet_schema(${sqlString(file)})`);
      assert.deepEqual(flat.map((n) => [n.name, n.repetition ?? null, n.physicalType ?? null, n.convertedType ?? null, n.children ? n.children.length : null, n.typeLength ?? null, n.scale ?? null]),
        want.map((e, i) => [e.name, i === 0 ? null : e.repetition_type, e.type, e.converted_type, e.num_children === null ? null : Number(e.num_children), e.type_length === null ? null : Number(e.type_length), e.scale === null ? null : Number(e.scale)]));
    });
  }

  test('logical types with their parameters', async () => {
    const tree = JSON.parse(await ok('schema', `${DATA}/alltypes_tiny_pages.parquet`, '--json'));
    assert.deepEqual(tree.children.find((c: any) => c.name === 'tinyint_col').logicalType, { type: 'INTEGER', bitWidth: 8, isSigned: true });
  });
});
