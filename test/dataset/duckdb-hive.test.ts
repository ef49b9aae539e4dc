/**
 * Hive datasets DuckDB writes (`COPY ... PARTITION_BY`), read by
 * `openDataset` and by DuckDB's `read_parquet(..., hive_partitioning = true)`:
 * the same rows in the same order, with and without filters, and pruning
 * that leaves whole files unopened.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { IncompatibleFilesError, openDataset, parseWhere, type Filter } from '../../src/node/index.js';
import { assertAgrees, counting, SALES, useDuck } from './helpers.js';

let dir = '';
let duck: DuckDBConnection;
useDuck((files) => ({ dir, duck } = files));


test('a DuckDB PARTITION_BY dataset reads as DuckDB reads it, partition columns typed as DuckDB infers', async () => {
  const out = join(dir, 'sales');
  await duck.run(`COPY (${SALES}) TO '${out}' (FORMAT PARQUET, PARTITION_BY (region, cat, day))`);
  const ds = await openDataset(out);
  // By name, as DuckDB lists them.
  assert.deepEqual(ds.partitionColumns, [{ name: 'cat', type: 'VARCHAR' }, { name: 'day', type: 'DATE' }, { name: 'region', type: 'BIGINT' }]);
  const n = await assertAgrees(duck, ds, {}, `SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)`);
  assert.equal(n, 200);
  // The same through a glob, and projected.
  const glob = await openDataset(`${out}/**/*.parquet`);
  await assertAgrees(duck, glob, { columns: ['cat', 'id'] }, `SELECT id, cat FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)`);
  await assertAgrees(duck, glob, { offset: 37, limit: 50 }, `SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true) LIMIT 50 OFFSET 37`);
  // Partition columns alone (no page read), and offset/limit counting filtered rows across files.
  await assertAgrees(duck, ds, { columns: ['region', 'day'] }, `SELECT day, region FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)`);
  await assertAgrees(duck, ds, { filter: { column: 'qty', op: '>', value: 50 }, offset: 20, limit: 30 },
    `SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true) WHERE qty > 50 LIMIT 30 OFFSET 20`);
});

test('filters on partition columns prune files unopened; statistics prune the rest; rows agree with DuckDB', async () => {
  const out = join(dir, 'sales');
  const cases: [Filter, string][] = [
    [{ column: 'region', op: '=', value: 1 }, 'region = 1'],
    [{ and: [{ column: 'region', op: '=', value: 2 }, { column: 'cat', op: 'is null' }] }, 'region = 2 AND cat IS NULL'],
    [{ or: [{ column: 'cat', op: '=', value: 'x/y' }, { column: 'qty', op: '<', value: 10 }] }, `cat = 'x/y' OR qty < 10`],
    [{ column: 'day', op: '>=', value: '2024-01-02' }, `day >= DATE '2024-01-02'`],
    [{ not: { column: 'cat', op: 'in', values: ['a b', 'p=q'] } }, `NOT (cat IN ('a b', 'p=q'))`],
    [{ and: [{ column: 'region', op: '!=', value: 0 }, { column: 'id', op: '>', value: 150 }] }, 'region <> 0 AND id > 150'],
    // The SQL forms, decided on the partition values as on any column's.
    ...[
      "cat LIKE 'a%'", "cat NOT ILIKE 'X%'", "cat ILIKE '%=Q'", "starts_with(cat, 'p')", "NOT contains(cat, '/')", "lower(cat) IN ('a b', 'P=Q')",
      "upper(cat) > 'P'", "day BETWEEN DATE '2024-01-02' AND DATE '2024-01-05'", "day < TIMESTAMP '2024-01-01 00:00:01'", 'region IS DISTINCT FROM 1',
      'region NOT BETWEEN 1 AND 5 AND cat IS NOT DISTINCT FROM NULL', "NOT (cat LIKE '%b' OR region = 2)",
    ].map((where): [Filter, string] => [parseWhere(where), where]),
  ];
  for (const [filter, where] of cases) {
    const { fs, opened } = counting();
    const ds = await openDataset(out, { fileSystem: fs });
    opened.length = 0; // the first file's footer, read for the schema
    const plan = await ds.scanPlan(filter);
    await assertAgrees(duck, ds, { filter }, `SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true) WHERE ${where}`);
    const read = new Set(opened);
    for (const f of plan.files) if (f.pruned === 'partition') assert.ok(!read.has(f.path), `${where}: ${f.path} was pruned by partition but opened`);
  }
  const ds = await openDataset(out);
  for (const filter of [{ column: 'region', op: '=', value: 1 } as const, parseWhere("cat LIKE 'a%' AND lower(cat) <> 'x'")]) {
    const plan = await ds.scanPlan(filter);
    assert.equal(plan.files.filter((f) => f.pruned === 'partition').length, plan.files.length - plan.filesKept);
    assert.ok(plan.filesKept > 0 && plan.filesKept < plan.files.length);
  }
});

test('a filter given at open reads the schema from a file it keeps: no pruned file is opened, rows as DuckDB\'s', async () => {
  const out = join(dir, 'sales');
  const wheres = [
    'region = 2 AND qty > 50', 'region = 0 OR region = 2', 'NOT (region = 1)', 'cat IS NULL', 'NOT (cat IS NULL) AND id < 100',
    "(region = 1 AND cat = 'x/y') OR (region = 2 AND qty < 20)", 'cat IS NULL OR qty < 5', 'region = 7', 'region = 7 AND qty > 1', 'region = 1 AND region = 2',
  ];
  const firstOfAll = (await openDataset(out)).files[0]!.path;
  for (const where of wheres) {
    const filter = parseWhere(where);
    const { fs, opened } = counting();
    const ds = await openDataset(out, { fileSystem: fs, filter });
    const sql = `SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true) WHERE ${where}`;
    const plan = await ds.scanPlan(filter);
    await assertAgrees(duck, ds, { filter }, sql);
    const pruned = new Set(plan.files.filter((f) => f.pruned === 'partition').map((f) => f.path));
    if (plan.filesKept > 0) assert.deepEqual(opened.filter((p) => pruned.has(p)), [], `${where}: partition-pruned files opened`);
    // A filter that keeps no file still needs a schema: one footer, and no rows.
    else assert.deepEqual(opened, [ds.files[0]!.path], where);
    // The filter prunes discovery: region=2's files alone are listed, the first file in path order (region=0) is not.
    if (where === wheres[0]) {
      assert.deepEqual(ds.files.map((f) => f.partitions.region), ds.files.map(() => 2n), where);
      assert.ok(!ds.files.some((f) => f.path === firstOfAll), where);
    }
  }
  // A non-partition column the dataset lacks is still an error, once the schema is known.
  await assert.rejects(async () => {
    const ds = await openDataset(out, { filter: parseWhere('region = 2 AND nope > 1') });
    for await (const _ of ds.rows({ filter: parseWhere('region = 2 AND nope > 1') }));
  }, /no column "nope"/);
});

test('row-group statistics prune files before their pages are read', async () => {
  const out = join(dir, 'sorted');
  mkdirSync(out);
  for (let k = 0; k < 4; k++) await duck.run(`COPY (SELECT i AS id FROM range(${k * 1000}, ${(k + 1) * 1000}) t(i)) TO '${join(out, `part-${k}.parquet`)}'`);
  const ds = await openDataset(out);
  const plan = await ds.scanPlan({ column: 'id', op: '=', value: 2500 });
  assert.deepEqual(plan.files.map((f) => f.pruned ?? 'kept'), ['statistics', 'statistics', 'kept', 'statistics']);
  await assertAgrees(duck, ds, { filter: { column: 'id', op: 'in', values: [5, 2500, 3999] } }, `SELECT * FROM read_parquet('${out}/*.parquet') WHERE id IN (5, 2500, 3999)`);
});

test('Hive partition types are inferred as DuckDB infers them, values decoded and nulls read as DuckDB reads them', async () => {
  const values = ['1', '01', '-5', '-01', '0', '00', '+3', ' 4', '0x1F', '0b11', '1.5', '1e3', '2024-01-02', '2024-1-2', '2024-02-30', '2024-01-02 10:00:00',
    '2024-01-02T10:00', '2024-01-02 10:00:00.1234567', '2024-01-02 10', 'abc', '__HIVE_DEFAULT_PARTITION__', 'NULL', 'null', 'a%20b', 'x%2Fy', '%zz', '',
    '9223372036854775807', '9223372036854775808', '-9223372036854775808', 'true',
    // Escaped as DuckDB's COPY ... PARTITION_BY writes them: DuckDB types the text before decoding it.
    '2024-01-02%2010%3A00%3A00', '2024%2D01%2D02', '%31'];
  for (const [i, v] of values.entries()) {
    const sub = join(dir, 'types', `t${i}`, `k=${v}`);
    mkdirSync(sub, { recursive: true });
    await duck.run(`COPY (SELECT ${i} AS id) TO '${join(sub, 'p.parquet')}'`);
    const ds = await openDataset(join(dir, 'types', `t${i}`));
    const [[type]] = (await duck.runAndReadAll(`SELECT typeof(k) FROM read_parquet('${join(dir, 'types', `t${i}`)}/*/*.parquet', hive_partitioning = true)`)).getRows() as string[][];
    assert.equal(ds.partitionColumns[0]!.type, type, `k=${JSON.stringify(v)}`);
    await assertAgrees(duck, ds, {}, `SELECT * FROM read_parquet('${join(dir, 'types', `t${i}`)}/*/*.parquet', hive_partitioning = true)`);
  }
  // Mixed values of one key: the first value's type, unless another is not of it.
  for (const [name, vals] of [['m1', ['1', '2.5']], ['m2', ['2024-01-01', '5']], ['m3', ['1', '__HIVE_DEFAULT_PARTITION__', '7']], ['m4', ['2024-01-01', '2024-01-01 10:00:00']]] as const) {
    for (const v of vals) {
      mkdirSync(join(dir, 'mixed', name, `k=${v}`), { recursive: true });
      await duck.run(`COPY (SELECT 1 AS id) TO '${join(dir, 'mixed', name, `k=${v}`, 'p.parquet')}'`);
    }
    const ds = await openDataset(join(dir, 'mixed', name));
    await assertAgrees(duck, ds, {}, `SELECT * FROM read_parquet('${join(dir, 'mixed', name)}/*/*.parquet', hive_partitioning = true)`);
  }
});

test('partition types given by the caller', async () => {
  const out = join(dir, 'sales');
  const ds = await openDataset(out, { partitionTypes: { region: 'VARCHAR', day: 'VARCHAR' } });
  await assertAgrees(duck, ds, { filter: { column: 'region', op: '=', value: '2' } },
    `SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true, hive_types = {'region': VARCHAR, 'day': VARCHAR}) WHERE region = '2'`);
});

test('schemas: by name as DuckDB reads by default; unionByName as union_by_name; incompatible files named', async () => {
  const make = async (name: string, sqls: string[]) => {
    mkdirSync(join(dir, 'schemas', name), { recursive: true });
    for (const [i, sql] of sqls.entries()) await duck.run(`COPY (${sql}) TO '${join(dir, 'schemas', name, `f${i}.parquet`)}'`);
    return join(dir, 'schemas', name);
  };
  const reorder = await make('reorder', [`SELECT 1::INT a, 'x' b`, `SELECT 'y' b, 2::INT a, 9 extra`]);
  await assertAgrees(duck, await openDataset(reorder), {}, `SELECT * FROM read_parquet('${reorder}/*.parquet')`);
  const narrow = await make('narrow', [`SELECT 3000000000::BIGINT a`, `SELECT 1::INT a`, `SELECT 5::UTINYINT a`]);
  await assertAgrees(duck, await openDataset(narrow), {}, `SELECT * FROM read_parquet('${narrow}/*.parquet')`);
  const union = await make('union', [`SELECT 1::INT a, 'x' b`, `SELECT 3000000000::BIGINT a, 7::SMALLINT c`, `SELECT {'p': 1} s, 2::UINTEGER a`]);
  await assertAgrees(duck, await openDataset(union, { unionByName: true }), {}, `SELECT * FROM read_parquet('${union}/*.parquet', union_by_name = true)`);
  await assertAgrees(duck, await openDataset(union, { unionByName: true }), { filter: { or: [{ column: 'b', op: 'is null' }, { column: 'c', op: '=', value: 7 }] } },
    `SELECT * FROM read_parquet('${union}/*.parquet', union_by_name = true) WHERE b IS NULL OR c = 7`);
  // Missing in a later file without unionByName: refused, both files named (DuckDB refuses too).
  const ds = await openDataset(union);
  await assert.rejects(ds.readRows(), (e: unknown) => e instanceof IncompatibleFilesError && /f0\.parquet/.test(e.message) && /f1\.parquet/.test(e.message) && /"b"/.test(e.message));
  // A wider value than the first file's type holds: refused naming the file, as DuckDB refuses it.
  const widen = await make('widen', [`SELECT 1::INT a`, `SELECT 3000000000::BIGINT a`]);
  await assert.rejects((await openDataset(widen)).readRows(), (e: unknown) => e instanceof IncompatibleFilesError && /f1\.parquet/.test(e.message) && /3000000000/.test(e.message));
  await assert.rejects(duck.run(`SELECT * FROM read_parquet('${widen}/*.parquet')`));
  // A string where the first file has a number: refused naming both.
  const strings = await make('strings', [`SELECT 1::INT a`, `SELECT 'z' a`]);
  await assert.rejects((await openDataset(strings)).readRows(), (e: unknown) => e instanceof IncompatibleFilesError && /f0\.parquet/.test(e.message) && /f1\.parquet/.test(e.message));
  await assert.rejects(openDataset(strings, { unionByName: true }), IncompatibleFilesError);
});

test('hidden, temp and non-Parquet files are skipped, or refused when asked', async () => {
  const out = join(dir, 'hidden');
  mkdirSync(join(out, '_temporary'), { recursive: true });
  await duck.run(`COPY (SELECT 1 AS id) TO '${join(out, 'part-0.parquet')}'`);
  for (const name of ['.part-1.parquet', '.part-0.parquet.parquetry-tmp-0a1b2c3d4e5f', '_SUCCESS', '_temporary/part-9.parquet', 'notes.txt', 'part-0.parquet.crc']) writeFileSync(join(out, name), 'not parquet');
  const ds = await openDataset(out);
  assert.deepEqual(ds.files.map((f) => f.path), [join(out, 'part-0.parquet')]);
  assert.deepEqual(ds.skipped.map((s) => s.path).sort(), [join(out, 'notes.txt'), join(out, 'part-0.parquet.crc')]);
  await assertAgrees(duck, ds, {}, `SELECT * FROM read_parquet('${out}/part-0.parquet')`);
  await assert.rejects(openDataset(out, { otherFiles: 'error' }), /notes\.txt is not a Parquet file/);
});

test('files are read in the order of their names\' UTF-8 bytes, as DuckDB orders them, names past U+FFFF included', async () => {
  const out = join(dir, 'order');
  mkdirSync(out);
  // JS's < puts the surrogate pair of U+1F600 before U+FF41; UTF-8 bytes put it after.
  for (const [i, name] of ['\u{1F600}', '\uFF41', 'b', 'a\u{10000}', 'a\uFFFD'].entries()) await duck.run(`COPY (SELECT ${i} AS id) TO '${join(out, `${name}.parquet`)}'`);
  for (const input of [out, `${out}/*.parquet`]) await assertAgrees(duck, await openDataset(input), {}, `SELECT * FROM read_parquet('${out}/*.parquet')`);
});

test('a directory whose name reads as a glob (data[1]) is that directory, not a pattern', async () => {
  const out = join(dir, 'data[1]');
  mkdirSync(out);
  await duck.run(`COPY (SELECT 1 AS id) TO '${join(out, 'p.parquet')}'`);
  assert.deepEqual((await openDataset(out)).files.map((f) => f.path), [join(out, 'p.parquet')]);
});

test('a partition key that is also a file column reads from the path, as DuckDB reads it', async () => {
  const out = join(dir, 'shadow');
  mkdirSync(join(out, 'k=5'), { recursive: true });
  await duck.run(`COPY (SELECT 1 AS id, 99 AS k, 'x' AS s) TO '${join(out, 'k=5', 'p.parquet')}'`);
  await assertAgrees(duck, await openDataset(out), {}, `SELECT * FROM read_parquet('${out}/*/*.parquet', hive_partitioning = true)`);
});

test('columns(): each file\'s column vectors with the file they come from, as many values as DuckDB reads', async () => {
  const out = join(dir, 'sales');
  const ds = await openDataset(out);
  const perFile = new Map<string, number>();
  for await (const b of ds.columns({ columns: ['qty'] })) {
    assert.deepEqual(b.path, ['qty']);
    perFile.set(b.file, (perFile.get(b.file) ?? 0) + b.rows);
  }
  const want = await duck.runAndReadAll(`SELECT filename, count(*) FROM read_parquet('${out}/**/*.parquet', filename = true) GROUP BY ALL ORDER BY 1`);
  assert.deepEqual([...perFile].sort(), want.getRows().map(([f, n]) => [f, Number(n)]));
});
