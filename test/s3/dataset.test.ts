/**
 * A Hive dataset DuckDB writes, uploaded to an S3 server, read through
 * `s3://` as DuckDB reads it from disk, by the library and the CLI; and the
 * requests a pruned read makes: only the partition's prefix listed, only its
 * objects opened. Listing past one page of 1,000 keys.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDataset, type Filter } from '../../src/node/index.js';
import { listObjects } from '../../src/io/s3/list.js';
import { assertAgrees, SALES } from '../dataset/helpers.js';
import { DuckFiles } from '../reader/helpers.js';
import { canonText, duckText } from '../interop/duck-compare.js';
import { describeLog, startS3, uploadDir, type S3Test } from './server.js';
import { runCli } from './cli.js';

let duckFiles: DuckFiles;
let duck: DuckDBConnection;
let s3: S3Test;
let local = '';
/** The dataset's files, relative to its directory. */
let files: string[] = [];

before(async () => {
  duckFiles = await DuckFiles.create();
  duck = duckFiles.duck;
  s3 = await startS3(['lake']);
  local = join(duckFiles.dir, 'sales');
  await duck.run(`COPY (${SALES}) TO '${local}' (FORMAT PARQUET, PARTITION_BY (region, cat))`);
  files = await uploadDir(s3, 'lake', 'sales', local);
});
after(async () => {
  await s3?.close();
  duckFiles?.close();
});

const duckSql = (where: string) => `SELECT * FROM read_parquet('${local}/**/*.parquet', hive_partitioning = true)${where ? ` WHERE ${where}` : ''}`;

test('the dataset read from s3:// gives DuckDB\'s rows of the files on disk, whole and filtered on partitions and statistics', async () => {
  const ds = await openDataset('s3://lake/sales/', { s3: s3.settings });
  assert.equal(ds.files.length, files.length);
  assert.equal(await assertAgrees(duck, ds, {}, duckSql('')), 200);
  const cases: [Filter, string][] = [
    [{ column: 'region', op: '=', value: 1 }, 'region = 1'],
    [{ and: [{ column: 'region', op: '=', value: 2 }, { column: 'cat', op: 'is null' }] }, 'region = 2 AND cat IS NULL'],
    [{ column: 'qty', op: '>', value: 90 }, 'qty > 90'],
    [{ and: [{ column: 'cat', op: '=', value: 'x/y' }, { column: 'id', op: '<', value: 50 }] }, `cat = 'x/y' AND id < 50`],
  ];
  for (const [filter, where] of cases) await assertAgrees(duck, ds, { filter }, duckSql(where));
  // A glob under the bucket.
  await assertAgrees(duck, await openDataset('s3://lake/sales/region=0/**/*.parquet', { s3: s3.settings }), {}, `SELECT * FROM read_parquet('${local}/region=0/**/*.parquet', hive_partitioning = true)`);
});

test('parquetry cat --where on s3:// prints DuckDB\'s rows', async () => {
  const where = "region = 1 AND qty > 30";
  const r = await runCli(s3.env, 'cat', '--json', '--where', where, 's3://lake/sales/');
  assert.equal(r.code, 0, r.err);
  const printed = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const want = await duck.runAndReadAll(duckSql(where));
  const types = want.columnTypes();
  assert.equal(printed.length, want.getRows().length);
  want.getRows().forEach((row, i) => want.columnNames().forEach((name, c) => assert.equal(canonText(types[c]!, printed[i]![name], row[c]!), duckText(types[c]!, row[c]!), `row ${i} ${name}`)));
});

/** The objects a stretch of the log opened (GET of a key) and the prefixes it listed. */
function traffic(from: number): { opened: Set<string>; listed: string[]; bytes: number; requests: number } {
  const got = s3.log.slice(from);
  return {
    opened: new Set(got.filter((r) => r.method === 'GET' && r.key !== '').map((r) => r.key)),
    listed: got.filter((r) => r.method === 'GET' && r.key === '' && r.query['list-type'] === '2').map((r) => r.query.prefix ?? ''),
    bytes: got.reduce((n, r) => n + r.bytes, 0),
    requests: got.length,
  };
}

test('a read of one partition lists only its prefix and opens only its objects; a --where read of the whole prefix opens only its objects', async () => {
  const mine = files.filter((f) => f.startsWith('region=2/')).map((f) => `sales/${f}`);
  assert.ok(mine.length > 1 && mine.length < files.length);
  // Through a glob: the listing is of the partition's prefix.
  let from = s3.log.length;
  const glob = await openDataset('s3://lake/sales/region=2/**/*.parquet', { s3: s3.settings });
  let n = 0;
  for await (const _ of glob.rows()) n++;
  let t = traffic(from);
  assert.ok(t.listed.every((p) => p.startsWith('sales/region=2/')), describeLog(s3.log, from));
  assert.deepEqual([...t.opened].sort(), [...mine].sort(), describeLog(s3.log, from));
  const [[count]] = (await duck.runAndReadAll(`SELECT count(*) FROM (${duckSql('region = 2')})`)).getRows();
  assert.equal(n, Number(count));
  // Through a filter on the whole dataset, given at open: the schema is read from a file the filter keeps, so only the partition's objects are opened.
  from = s3.log.length;
  const filter: Filter = { column: 'region', op: '=', value: 2 };
  const ds = await openDataset('s3://lake/sales', { s3: s3.settings, filter });
  assert.ok(!mine.includes(`sales/${[...files].sort()[0]}`), 'the first file in path order is of another partition');
  for await (const _ of ds.rows({ filter })) n--;
  assert.equal(n, 0);
  t = traffic(from);
  assert.deepEqual([...t.opened].sort(), [...mine].sort(), describeLog(s3.log, from));
  // No request (GET or HEAD) touches another partition's object.
  const objects = new Set(files.map((f) => `sales/${f}`));
  assert.deepEqual(s3.log.slice(from).filter((q) => objects.has(q.key) && !mine.includes(q.key)), [], describeLog(s3.log, from));
  // The CLI's --where likewise, its rows DuckDB's.
  from = s3.log.length;
  const r = await runCli(s3.env, 'cat', '--json', '--where', 'region = 2', 's3://lake/sales/');
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.trim().split('\n').length, Number(count));
  assert.deepEqual([...traffic(from).opened].sort(), [...mine].sort(), describeLog(s3.log, from));
  // The full scan, for comparison: every object.
  from = s3.log.length;
  for await (const _ of (await openDataset('s3://lake/sales', { s3: s3.settings })).rows()) n++;
  const full = traffic(from);
  assert.equal(full.opened.size, files.length);
  assert.ok(full.bytes > t.bytes, `a pruned read (${t.bytes} bytes) moves less than the full scan (${full.bytes})`);
});

test('listing goes past a page of 1,000 keys', async () => {
  const body = readFileSync(join(local, files[0]!));
  const keys = Array.from({ length: 1005 }, (_, i) => `many/part-${String(i).padStart(4, '0')}.parquet`);
  for (let i = 0; i < keys.length; i += 16) {
    await Promise.all(keys.slice(i, i + 16).map((key) => s3.client.request({ bucket: 'lake', key }, { method: 'PUT', body })));
  }
  const from = s3.log.length;
  const listed: string[] = [];
  for await (const o of listObjects(s3.client, 'lake', 'many/')) listed.push(o.key);
  assert.deepEqual(listed, keys);
  assert.equal(traffic(from).listed.length, 2, 'two pages');
  const ds = await openDataset('s3://lake/many/', { s3: s3.settings });
  assert.equal(ds.files.length, 1005);
});
