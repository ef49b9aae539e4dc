/**
 * DuckDB -> parquetry -> DuckDB.
 *
 * DuckDB writes a table of many types and nesting forms (nulls and empties
 * at every level, extremes) with PARQUET_VERSION V1 and V2 and every codec
 * it offers. For each file:
 *
 * 1. parquetry reads it exactly as DuckDB reads it (value by value, see
 *    oracles.ts for the comparison forms);
 * 2. parquetry rewrites it (rows from `openParquet`, written by `openWriter`
 *    with the file's own SchemaElement list, under varied writer options),
 *    and DuckDB reads the rewrite equal to the original: the same row count,
 *    `EXCEPT ALL` empty both ways, and the same schema (parquet_schema);
 * 3. parquetry reads the rewrite back to exactly the rows it read from the
 *    original.
 *
 * Left out of the table: DuckDB types that are not Parquet types of their
 * own and that parquetry cannot write back as they were read (VARIANT,
 * UNION, BIT, BIGNUM), and NULL fixed-size ARRAYs (DuckDB writes invalid
 * levels for them, duckdb#24731).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openParquet, openWriter, type WriterOptions } from '../../src/node/index.js';
import { Duck, checkDuckValues, deepSame, show, sqlString } from './oracles.js';

const ROWS = 5000;
const CODECS = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'ZSTD', 'BROTLI', 'LZ4', 'LZ4_RAW'];
const VERSIONS = ['V1', 'V2'];

const nul = (k: number, expr: string, phase = 1) => `CASE WHEN i % ${k} = ${phase % k} THEN NULL ELSE ${expr} END`;
const pick = (k: number, extremes: string[], otherwise: string) => `CASE i % ${k} ${extremes.map((e, j) => `WHEN ${j} THEN ${e}`).join(' ')} ELSE ${otherwise} END`;

/** [name, SQL over i]. */
const COLUMNS: [string, string][] = [
  ['id', 'i::INTEGER'],
  ['b', nul(7, 'i % 3 = 0')],
  ['i8', nul(11, `(${pick(10, ['-128', '127', '0'], '(i % 200) - 100')})::TINYINT`)],
  ['i16', nul(13, `(${pick(10, ['-32768', '32767'], 'i * 7 % 60000 - 30000')})::SMALLINT`)],
  ['i32', nul(9, `(${pick(10, ['-2147483648', '2147483647'], 'i * 7919 - 20000000')})::INTEGER`)],
  ['i64', nul(8, `(${pick(12, ['-9223372036854775808', '9223372036854775807', '9007199254740993', '-9007199254740993'], 'i::BIGINT * 1000000007 - 2000000000000')})::BIGINT`)],
  ['u8', nul(6, `(${pick(10, ['0', '255', '128'], 'i % 256')})::UTINYINT`)],
  ['u16', nul(6, `(${pick(10, ['0', '65535', '32768'], 'i * 13 % 65536')})::USMALLINT`)],
  ['u32', nul(6, `(${pick(10, ['0', '4294967295', '2147483648'], 'i::BIGINT * 858993 % 4294967296')})::UINTEGER`)],
  ['u64', nul(6, `(${pick(10, ['0', '18446744073709551615', '9223372036854775808'], 'i::UBIGINT * 3689348814741910')})::UBIGINT`)],
  ['hi', nul(5, `(${pick(5, ['170141183460469231731687303715884105727::HUGEINT'], 'i::HUGEINT * 1234567890123456789012345')})`)],
  ['f32', nul(10, `(${pick(14, ["'NaN'::FLOAT", "'Infinity'::FLOAT", "'-Infinity'::FLOAT", '(-0.0)::FLOAT', '3.4028235e38::FLOAT', "'1.4e-45'::FLOAT"], '(i * 0.1 - 200)::FLOAT')})::FLOAT`)],
  ['f64', nul(10, `(${pick(14, ["'NaN'::DOUBLE", "'Infinity'::DOUBLE", "'-Infinity'::DOUBLE", '(-0.0)::DOUBLE', '1.7976931348623157e308', "'5e-324'::DOUBLE"], 'i / 3 - 700')})::DOUBLE`)],
  ['dec4', nul(7, `(${pick(10, ["'99.99'", "'-99.99'", "'0.01'"], '(((i * 37) % 19999 - 9999) / 100.0)')})::DECIMAL(4,2)`)],
  ['dec9', nul(7, `(${pick(10, ["'999999.999'", "'-999999.999'"], '(((i::BIGINT * 7919) % 1999999999 - 999999999) / 1000.0)')})::DECIMAL(9,3)`)],
  ['dec18', nul(7, `(${pick(10, ["'999999999999.999999'", "'-999999999999.999999'"], "((i::BIGINT * 1000003 - 2500000000)::VARCHAR || '.' || lpad((i * 7 % 1000000)::VARCHAR, 6, '0'))")})::DECIMAL(18,6)`)],
  ['dec38', nul(7, `(${pick(10, ["'9999999999999999999999999999.9999999999'", "'-9999999999999999999999999999.9999999999'"], "((i - 2500)::VARCHAR || '12345678901234567890123.' || lpad((i::BIGINT * 7919 % 10000000000)::VARCHAR, 10, '0'))")})::DECIMAL(38,10)`)],
  ['s', nul(5, `['apple', '', 'ünïcødé 😀 ✓', 'quote" back\\\\slash', chr(0) || 'nul', repeat('long', 30) || i][1 + i % 6]`)],
  ['s_hi', nul(9, `'row-' || i || repeat('x', i % 40)`)],
  ['bl', nul(9, `${pick(4, ["''::BLOB", "unhex('00ff80')"], "encode('b' || i)")}`)],
  ['dt', nul(8, `${pick(12, ["DATE '0001-01-01'", "DATE '9999-12-31'", "DATE '1969-12-31'", "DATE '0044-03-15 (BC)'"], "DATE '1970-01-01' + (i * 37 - 90000)::INTEGER")}`)],
  ['tm', nul(8, `${pick(10, ["TIME '00:00:00'", "TIME '23:59:59.999999'"], "TIME '00:00:00' + to_microseconds((i::BIGINT * 17287001) % 86400000000)")}`)],
  ['tmtz', nul(8, `${pick(10, ["'12:34:56.789+05:30'::TIMETZ", "'00:00:00-08'::TIMETZ"], "(TIME '00:00:00' + to_microseconds((i::BIGINT * 17287001) % 86400000000))::TIMETZ")}`)],
  ['tmns', nul(8, `printf('%02d:%02d:%02d.%09d', i % 24, i * 7 % 60, i * 13 % 60, i::BIGINT * 987654321 % 1000000000)::TIME_NS`)],
  ['ts', nul(8, `${pick(12, ["TIMESTAMP '0001-01-01 00:00:00'", "TIMESTAMP '9999-12-31 23:59:59.999999'", "TIMESTAMP '1969-12-31 23:59:59.999999'"], "TIMESTAMP '1970-01-01' + to_microseconds(i::BIGINT * 2500000000017 - 6000000000000000)")}`)],
  ['ts_ms', nul(7, `(TIMESTAMP '1970-01-01' + to_microseconds(i::BIGINT * 2500000000017 - 6000000000000000))::TIMESTAMP_MS`)],
  ['ts_s', nul(7, `(TIMESTAMP '1970-01-01' + to_microseconds(i::BIGINT * 2500000000017 - 6000000000000000))::TIMESTAMP_S`)],
  ['ts_ns', nul(7, `make_timestamp_ns((i::BIGINT - 2500) * 3600000000000017 + i * 7)`)],
  ['tstz', nul(7, `(TIMESTAMP '1970-01-01' + to_microseconds(i::BIGINT * 2500000000017 - 6000000000000000))::TIMESTAMPTZ`)],
  ['iv', nul(7, `${pick(10, ["INTERVAL '0 seconds'", 'to_months(2147483647)', 'to_days(2147483647)'], 'to_months(i % 25) + to_days(i % 40) + to_milliseconds(i::BIGINT * 1001 % 86400000)')}`)],
  ['uu', nul(7, `${pick(10, ["'00000000-0000-0000-0000-000000000000'::UUID", "'ffffffff-ffff-ffff-ffff-ffffffffffff'::UUID"], "md5(i::VARCHAR)::UUID")}`)],
  ['en', nul(6, `(['red', 'green', 'blue'][1 + i % 3])::ENUM('red', 'green', 'blue')`)],
  ['js', nul(6, `('{"i":' || i || ',"s":"é"}')::JSON`)],
  ['allnull', 'NULL::INTEGER'],
  ['st', `(CASE WHEN i % 13 = 0 THEN NULL ELSE {'a': ${nul(5, 'i::INTEGER', 0)}, 'b': ${nul(3, "'s' || i", 0)}, 'c': CASE WHEN i % 7 = 0 THEN NULL ELSE {'d': ${nul(4, 'i / 4', 0)}} END} END)::STRUCT(a INTEGER, b VARCHAR, c STRUCT(d DOUBLE))`],
  ['li', `(CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN [] WHEN 2 THEN [NULL] ELSE list_transform(range(i % 9), x -> CASE WHEN x % 4 = 3 THEN NULL ELSE (x * i)::INTEGER END) END)::INTEGER[]`],
  ['ls', `(CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE list_transform(range(i % 4), x -> CASE WHEN x = 1 THEN NULL ELSE {'x': CASE WHEN x = 2 THEN NULL ELSE x::INTEGER END, 'y': 'v' || x} END) END)::STRUCT(x INTEGER, y VARCHAR)[]`],
  ['ll', `(CASE i % 5 WHEN 0 THEN NULL ELSE list_transform(range(i % 4), x -> CASE WHEN x = 2 THEN NULL WHEN x = 1 THEN [] ELSE list_transform(range(x + 1), y -> CASE WHEN y = 1 THEN NULL ELSE y * i END) END) END)::BIGINT[][]`],
  ['mp', `(CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN MAP {} ELSE map_from_entries(list_transform(range(i % 4), x -> {'k': 'k' || x, 'v': CASE WHEN x = 1 THEN NULL ELSE (x * i)::INTEGER END})) END)::MAP(VARCHAR, INTEGER)`],
  ['mpl', `(CASE i % 4 WHEN 0 THEN NULL ELSE map_from_entries(list_transform(range(i % 4), x -> {'k': x::INTEGER, 'v': CASE x WHEN 1 THEN NULL WHEN 2 THEN [] ELSE ['a' || i, NULL] END})) END)::MAP(INTEGER, VARCHAR[])`],
  ['mps', `(CASE i % 4 WHEN 0 THEN NULL ELSE map_from_entries(list_transform(range(i % 3), x -> {'k': 'k' || x, 'v': CASE x WHEN 1 THEN NULL ELSE {'p': CASE WHEN i % 2 = 0 THEN NULL ELSE x::INTEGER END, 'q': 'q' || i} END})) END)::MAP(VARCHAR, STRUCT(p INTEGER, q VARCHAR))`],
  ['stl', `(CASE WHEN i % 9 = 0 THEN NULL ELSE {'tags': CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE ['t' || i, NULL, 'u'] END, 'n': i::INTEGER} END)::STRUCT(tags VARCHAR[], n INTEGER)`],
  ['arr3', `[i, NULL, -i]::INTEGER[3]`],
  ['lm', `(CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE [MAP {'a': i::INTEGER}, NULL, MAP {}] END)::MAP(VARCHAR, INTEGER)[]`],
  ['ldec', `(CASE i % 3 WHEN 0 THEN NULL ELSE [(i / 100.0)::DECIMAL(9,2), NULL, (-i / 7.0)::DECIMAL(9,2)] END)::DECIMAL(9,2)[]`],
  ['deep', `(CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN {'l': NULL} WHEN 2 THEN {'l': []} ELSE {'l': [NULL, {'m': NULL}, {'m': MAP {}}, {'m': MAP {'z': [i::INTEGER, NULL], 'y': NULL, 'x': []}}]} END)::STRUCT(l STRUCT(m MAP(VARCHAR, INTEGER[]))[])`],
];

/** Writer options for the rewrites, varied across files. */
const REWRITE_OPTIONS: WriterOptions[] = [
  {},
  { codec: 'ZSTD', pageVersion: 2, checksums: true, pageSize: 4096, rowGroupRows: 1500 },
  { codec: 'GZIP', dictionary: false, pageRowLimit: 300, rowGroupSize: 64 * 1024 },
  { codec: 'UNCOMPRESSED', pageVersion: 2, dictionaryPageSize: 1024, pageSize: 8192 },
  { codec: 'LZ4_RAW', checksums: true, rowGroupRows: 999, statistics: false },
  { codec: 'BROTLI', compressionLevel: 3, pageVersion: 2, dictionary: false, pageRowLimit: 777 },
  { codec: 'SNAPPY', pageSize: 1024, rowGroupRows: 2500, columns: { i64: { encoding: 'DELTA_BINARY_PACKED', dictionary: false }, s_hi: { encoding: 'DELTA_BYTE_ARRAY', dictionary: false }, f64: { encoding: 'BYTE_STREAM_SPLIT', dictionary: false } } },
];

let dir = '';
let duck: Duck;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-writer-rewrite-'));
  duck = await Duck.create();
  await duck.run(`CREATE TABLE t AS SELECT ${COLUMNS.map(([n, e]) => `${e} AS "${n}"`).join(',\n  ')} FROM range(${ROWS}) r(i) ORDER BY i`);
});

after(() => {
  duck?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function count(path: string): Promise<number> {
  return Number((await duck.objects(`SELECT count(*) AS n FROM read_parquet(${sqlString(path)})`))[0]!.n);
}

async function schemaRows(path: string): Promise<Record<string, unknown>[]> {
  const rows = await duck.objects(`SELECT * EXCLUDE (file_name) FROM parquet_schema(${sqlString(path)})`);
  return rows;
}

describe('DuckDB-written files read exactly and survive a parquetry rewrite', () => {
  let n = 0;
  for (const version of VERSIONS) {
    for (const codec of CODECS) {
      const options = REWRITE_OPTIONS[n++ % REWRITE_OPTIONS.length]!;
      const name = `duck_${codec}_${version}`;
      test(`${name} (rewritten with ${JSON.stringify(options)})`, async () => {
        const src = join(dir, `${name}.parquet`);
        const dst = join(dir, `${name}.rewrite.parquet`);
        await duck.run(`COPY (SELECT * FROM t ORDER BY id) TO ${sqlString(src)} (FORMAT PARQUET, COMPRESSION ${codec}, PARQUET_VERSION ${version}, ROW_GROUP_SIZE 2048)`);

        // 1. parquetry reads DuckDB's file as DuckDB reads it.
        const reader = await openParquet(src);
        const rows = await reader.readRows();
        assert.equal(reader.file.metadata.rowGroups.length, 3, 'DuckDB wrote 3 row groups');
        await checkDuckValues(duck, src, name, rows, reader.plan());

        // 2. Rewritten with the file's own schema, DuckDB reads it equal to the original.
        const w = await openWriter(dst, reader.file.metadata.schema, options);
        for await (const row of reader.rows()) await w.write(row);
        await w.close();
        await reader.close();
        assert.equal(await count(dst), ROWS, 'row count of the rewrite');
        assert.equal(await count(src), ROWS, 'row count of the original');
        for (const [a, b] of [[src, dst], [dst, src]] as const) {
          const diff = await duck.objects(`SELECT * FROM read_parquet(${sqlString(a)}) EXCEPT ALL SELECT * FROM read_parquet(${sqlString(b)}) ORDER BY id LIMIT 3`);
          assert.equal(diff.length, 0, `rows of ${a === src ? 'the original' : 'the rewrite'} missing from the other: ${show(diff)}`);
        }
        const [sa, sb] = [await schemaRows(src), await schemaRows(dst)];
        assert.ok(deepSame(sa, sb), `parquet_schema differs:\n  original: ${show(sa)}\n  rewrite:  ${show(sb)}`);

        // 3. parquetry reads the rewrite back to the same rows (-0 and NaN payloads included, which EXCEPT cannot see).
        const back = await openParquet(dst);
        const again = await back.readRows();
        await back.close();
        assert.equal(again.length, rows.length);
        const bad = again.findIndex((r, i) => !deepSame(r, rows[i]));
        assert.equal(bad, -1, bad < 0 ? '' : `row ${bad} of the rewrite:\n  original: ${show(rows[bad])}\n  rewrite:  ${show(again[bad])}`);
      });
    }
  }
});
