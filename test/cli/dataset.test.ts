/**
 * `cat`, `head`, `schema` and `meta` over a directory or a glob: a Hive
 * dataset DuckDB writes, printed as DuckDB reads it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { canonText, duckText } from '../interop/duck-compare.js';
import { useDuck } from '../dataset/helpers.js';
import { ok, run } from './run-cli.js';

let dir = '';
let duck: DuckDBConnection;
useDuck((files) => ({ dir, duck } = files));

async function write(): Promise<string> {
  const out = join(dir, 'ds');
  await duck.run(`COPY (SELECT i AS id, 'v' || i AS s, i % 3 AS a FROM range(50) t(i)) TO '${out}' (FORMAT PARQUET, PARTITION_BY (a), OVERWRITE_OR_IGNORE)`);
  return out;
}

test('cat --json of a directory and of a glob prints DuckDB rows, filtered by --where', async () => {
  const out = await write();
  for (const [input, where, sql] of [
    [out, undefined, ''],
    [`${out}/**/*.parquet`, 'a = 2 AND id > 20', 'WHERE a = 2 AND id > 20'],
  ] as const) {
    const printed = ok('cat', '--json', ...(where ? ['--where', where] : []), input).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const want = await duck.runAndReadAll(`SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true) ${sql}`);
    const types = want.columnTypes();
    assert.equal(printed.length, want.getRows().length);
    want.getRows().forEach((row, r) => want.columnNames().forEach((name, c) => assert.equal(canonText(types[c]!, printed[r]![name], row[c]!), duckText(types[c]!, row[c]!), `row ${r} ${name}`)));
  }
  assert.equal(ok('head', '-n', '3', out).trim().split('\n').length, 2 + 3, 'a header, a rule and 3 rows');
});

test('schema and meta of a dataset: its columns, files, row groups and partitions as DuckDB counts them', async () => {
  const out = await write();
  const schema = JSON.parse(ok('schema', '--json', out)) as { children: { name: string }[] };
  const described = await duck.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)`);
  assert.deepEqual(schema.children.map((c) => c.name), described.getRows().map((r) => r[0]));
  const meta = JSON.parse(ok('meta', '--json', out)) as { files: number; numRows: number; rowGroups: number; compressedBytes: number; partitions: { name: string; distinct: number }[] };
  const [[files, groups, bytes]] = (await duck.runAndReadAll(`SELECT count(DISTINCT file_name), count(DISTINCT (file_name, row_group_id)), sum(total_compressed_size) FROM parquet_metadata('${out}/**/*.parquet')`)).getRows();
  assert.deepEqual([meta.files, meta.rowGroups, meta.compressedBytes, meta.numRows], [Number(files), Number(groups), Number(bytes), 50]);
  assert.deepEqual(meta.partitions.map((p) => [p.name, p.distinct]), [['a', 3]]);
  assert.match(ok('meta', out), /partitions:\n {2}a BIGINT: 0, 1, 2/);
});

test('meta lists DATE partition values as DuckDB prints them, not as days', async () => {
  const out = join(dir, 'dated');
  await duck.run(`COPY (SELECT i AS id, DATE '2024-01-01' + (i % 2)::INT AS d FROM range(4) t(i)) TO '${out}' (FORMAT PARQUET, PARTITION_BY (d), OVERWRITE_OR_IGNORE)`);
  const meta = JSON.parse(ok('meta', '--json', out)) as { partitions: { name: string; values: string[] }[] };
  for (const p of meta.partitions) {
    const want = await duck.runAndReadAll(`SELECT DISTINCT CAST(${p.name} AS VARCHAR) FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true) ORDER BY 1`);
    assert.deepEqual([...p.values].sort(), want.getRows().map((r) => r[0]), p.name);
  }
});

test('--union-by-name reads files of different columns as DuckDB union_by_name does; without it they are refused, both named', async () => {
  const out = join(dir, 'evolving');
  mkdirSync(out);
  await duck.run(`COPY (SELECT 1::INT AS a, 1::SMALLINT AS x) TO '${out}/f1.parquet'`);
  await duck.run(`COPY (SELECT 2::BIGINT AS a, 'z' AS y, 5::UINTEGER AS x) TO '${out}/f2.parquet'`);
  await duck.run(`COPY (SELECT 3::UTINYINT AS a) TO '${out}/f3.parquet'`);
  const want = await duck.runAndReadAll(`SELECT * FROM read_parquet('${out}/*.parquet', union_by_name = true)`);
  const types = want.columnTypes();
  for (const cmd of ['cat', 'head']) {
    const printed = ok(cmd, '--json', '--union-by-name', out).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(printed.length, want.getRows().length);
    want.getRows().forEach((row, r) => want.columnNames().forEach((name, c) => assert.equal(canonText(types[c]!, printed[r]![name], row[c]!), duckText(types[c]!, row[c]!), `${cmd} row ${r} ${name}`)));
  }
  assert.deepEqual((JSON.parse(ok('schema', '--json', '--union-by-name', out)) as { children: { name: string }[] }).children.map((c) => c.name), want.columnNames());
  const refused = run('cat', '--json', out);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /f1\.parquet.*f3\.parquet|f3\.parquet.*f1\.parquet/);
});
