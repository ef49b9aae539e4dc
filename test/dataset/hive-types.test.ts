/**
 * Hive partition values DuckDB 1.5 types beyond plain dates, timestamps and
 * integers: `epoch`, `infinity` and `-infinity` as DATE, timestamps with a
 * UTC offset as TIMESTAMP (the wall time kept), and text typed before it is
 * URL-decoded (`10%3A00` is VARCHAR). Each key's type and rows are DuckDB's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDataset } from '../../src/node/index.js';
import { assertAgrees, useDuck } from './helpers.js';

let dir = '';
let duck: DuckDBConnection;
useDuck((files) => ({ dir, duck } = files));

/** A dataset with one `k=VALUE` directory per value; its type and rows checked against DuckDB's. */
async function agrees(name: string, values: readonly string[]): Promise<void> {
  const root = join(dir, name);
  for (const v of values) {
    mkdirSync(join(root, `k=${v}`), { recursive: true });
    await duck.run(`COPY (SELECT 1 AS id) TO '${join(root, `k=${v}`, 'p.parquet')}'`);
  }
  const sql = `read_parquet('${root}/*/*.parquet', hive_partitioning = true)`;
  const [[type]] = (await duck.runAndReadAll(`SELECT DISTINCT typeof(k) FROM ${sql}`)).getRows() as string[][];
  const ds = await openDataset(root);
  assert.equal(ds.partitionColumns[0]!.type, type, `k=${values.map((v) => JSON.stringify(v)).join(', ')}`);
  await assertAgrees(duck, ds, {}, `SELECT * FROM ${sql}`);
}

test('epoch and infinity are DATEs, as DuckDB types them', async () => {
  const single = ['epoch', 'EPOCH', 'Epoch', ' epoch ', 'infinity', 'Infinity', ' infinity', '-infinity', '-Infinity', '+infinity', 'infinit', 'epochs'];
  for (const [i, v] of single.entries()) await agrees(`d${i}`, [v]);
  await agrees('dm1', ['2024-01-02', 'infinity', '-infinity', 'epoch']);
  // A TIMESTAMP key does not take them (DuckDB's autocast), so it becomes VARCHAR.
  await agrees('dm2', ['2024-01-02 10:00:00', 'epoch']);
  await agrees('dm3', ['2024-01-02 10:00:00', 'infinity']);
});

test('timestamps with a UTC offset are TIMESTAMPs at their wall time, as DuckDB reads them', async () => {
  const single = ['2024-01-02 10:00:00+02', '2024-01-02 10:00:00-05:00', '2024-01-02 10:00:00+0200', '2024-01-02 10:00:00-0530', '2024-01-02 10:00:00+02:30:59',
    '2024-01-02 10:00:00+99', '2024-01-02 10:00:00Z', '2024-01-02T10:00:00Z', '2024-01-02 10:00:00.5Z', '2024-01-02 10:00:00 UTC', '2024-01-02 10:00:00 utc',
    '2024-01-02 10:00:00.123456789+01', '2024-01-02 10:00:00.123+0100',
    // Not offsets DuckDB takes: VARCHAR.
    '2024-01-02 10:00+02', '2024-01-02 10:00Z', '2024-01-02 10:00 UTC', '2024-01-02 10:00:00z', '2024-01-02 10:00:00UTC', '2024-01-02 10:00:00  UTC',
    '2024-01-02 10:00:00 GMT', '2024-01-02 10:00:00+2', '2024-01-02 10:00:00+0', '2024-01-02 10:00:00 +02:00', '2024-01-02 10:00:00+02:3', '2024-01-02 10:00:00+12345',
    '2024-01-02 10:00:00+02:3000', '2024-01-02 10:00:00+02:30:5', '2024-01-02Z', '2024-01-02+02'];
  for (const [i, v] of single.entries()) await agrees(`t${i}`, [v]);
  await agrees('tm1', ['2024-01-02 10:00:00', '2024-01-03 10:00:00+02', '2024-01-04 10:00:00Z']);
  await agrees('tm2', ['2024-01-02', '2024-01-03 10:00:00+02']);
});

test('values are typed before URL-decoding, as DuckDB types them', async () => {
  for (const [i, v] of ['2024-01-02 10%3A00%3A00', '1%30', '2024-01-02 10:00:00%2B02', '2024%2D01%2D02', 'infinity%20'].entries()) await agrees(`u${i}`, [v]);
  await agrees('um', ['7', '1%30']);
});

test('a filter at open types a key by the directories it lists: the rows are DuckDB\'s, the type the kept values\' where DuckDB\'s sees the unlisted ones too', async () => {
  const root = join(dir, 'typed-by-listing');
  // Under g=1 the key k holds integers, under g=2 text: DuckDB, listing both, types k VARCHAR.
  for (const [g, k, id] of [[1, '5', 1], [1, '6', 2], [2, 'x', 3], [2, '05', 4]] as const) {
    mkdirSync(join(root, `g=${g}`, `k=${k}`), { recursive: true });
    await duck.run(`COPY (SELECT ${id} AS id) TO '${join(root, `g=${g}`, `k=${k}`, 'p.parquet')}'`);
  }
  const sql = (where: string) => `SELECT * FROM read_parquet('${root}/*/*/*.parquet', hive_partitioning = true) WHERE ${where}`;
  assert.equal((await openDataset(root)).partitionColumns.find((c) => c.name === 'k')!.type, 'VARCHAR');
  // g = 1 lists g=1's directories alone: k is BIGINT there, its rows DuckDB's (k compared as text by DuckDB, as an integer here: the same rows).
  const g1 = await openDataset(root, { filter: { column: 'g', op: '=', value: 1 } });
  assert.equal(g1.partitionColumns.find((c) => c.name === 'k')!.type, 'BIGINT');
  assert.deepEqual((await g1.readRows({ filter: { column: 'g', op: '=', value: 1 } })).map((r) => [r.id, r.k]), [[1, 5n], [2, 6n]]);
  // partitionTypes pins it, and then the rows are DuckDB's column for column.
  const pinned = await openDataset(root, { filter: { column: 'g', op: '=', value: 1 }, partitionTypes: { k: 'VARCHAR' } });
  await assertAgrees(duck, pinned, { filter: { column: 'g', op: '=', value: 1 } }, sql('g = 1'));
  // A test of k itself rules out a directory only when its value fails both as its own type and as VARCHAR: k = '05' keeps k=05 (VARCHAR '05') and k=5 (BIGINT 5 = '05'), not k=x or k=6.
  const k05 = await openDataset(root, { filter: { column: 'k', op: '=', value: '05' } });
  assert.deepEqual(k05.files.map((f) => f.path.slice(root.length + 1)).sort(), ['g=1/k=5/p.parquet', 'g=2/k=05/p.parquet']);
  // Listed together, k is VARCHAR (`05` is no BIGINT: a leading zero), as DuckDB's, and only k=05 matches.
  assert.equal(k05.partitionColumns.find((c) => c.name === 'k')!.type, 'VARCHAR');
  await assertAgrees(duck, k05, { filter: { column: 'k', op: '=', value: '05' } }, sql(`k = '05'`));
});
