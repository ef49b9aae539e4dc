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
import { ALL_TYPES_COLUMNS, EDGE_COLUMNS, selectColumns } from '../interop/duckdb-tables.js';
import { Duck, checkDuckValues, deepSame, show, sqlString } from './oracles.js';

const ROWS = 5000;
const CODECS = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'ZSTD', 'BROTLI', 'LZ4', 'LZ4_RAW'];
const VERSIONS = ['V1', 'V2'];

/** DuckDB's interop table and its BC dates, without the types parquetry cannot write back as they were read (above). */
const LEFT_OUT = new Set(['un', 'bit', 'bignum']);
const COLUMNS = [...ALL_TYPES_COLUMNS.filter(([n]) => !LEFT_OUT.has(n)), ...EDGE_COLUMNS.filter(([n]) => n === 'date_bc')];

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
  await duck.run(`CREATE TABLE t AS ${selectColumns(COLUMNS, ROWS)}`);
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
