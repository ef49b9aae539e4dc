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
