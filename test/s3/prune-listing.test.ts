/**
 * Discovery pruned by the filter, counted at the S3 server: a Hive dataset
 * of two partition levels (a: 20 values × b: 10, one object each) written by
 * DuckDB and uploaded, then read whole and filtered on its partitions. Each
 * read's ListObjectsV2 requests, the entries (keys and common prefixes) they
 * gave, the objects opened and the bytes received come from the server's
 * log; its rows are DuckDB's from the same files on disk.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDataset, parseWhere } from '../../src/node/index.js';
import { listObjects } from '../../src/io/s3/list.js';
import { assertAgrees } from '../dataset/helpers.js';
import { DuckFiles } from '../reader/helpers.js';
import { describeLog, startS3, uploadDir, type S3Test } from './server.js';

let duckFiles: DuckFiles;
let duck: DuckDBConnection;
let s3: S3Test;
let local = '';
let keys: string[] = [];

before(async () => {
  duckFiles = await DuckFiles.create();
  duck = duckFiles.duck;
  s3 = await startS3(['lake']);
  local = join(duckFiles.dir, 't');
  await duck.run(`COPY (SELECT i AS id, i % 20 AS a, (i // 20) % 10 AS b, 'v' || (i * 7 % 13) AS s FROM range(4000) r(i)) TO '${local}' (FORMAT PARQUET, PARTITION_BY (a, b))`);
  keys = (await uploadDir(s3, 'lake', 't', local)).map((f) => `t/${f}`);
  assert.equal(keys.length, 200);
});
after(async () => {
  await s3?.close();
  duckFiles?.close();
});

interface Traffic {
  lists: number;
  /** Keys and common prefixes the listings gave. */
  listed: number;
  /** The prefixes listed, with `/` when delimited. */
  prefixes: string[];
  opened: number;
  heads: number;
  requests: number;
  bytes: number;
}

function traffic(from: number): Traffic {
  const got = s3.log.slice(from);
  const lists = got.filter((r) => r.method === 'GET' && r.key === '' && r.query['list-type'] === '2');
  return {
    lists: lists.length,
    listed: lists.reduce((n, r) => n + (r.listed ?? 0), 0),
    prefixes: lists.map((r) => `${r.query.prefix ?? ''}${r.query.delimiter ? ' (delimited)' : ''}${r.query['max-keys'] === '1' ? ' (max-keys 1)' : ''}`),
    opened: new Set(got.filter((r) => r.method === 'GET' && r.key !== '').map((r) => r.key)).size,
    heads: got.filter((r) => r.method === 'HEAD').length,
    requests: got.length,
    bytes: got.reduce((n, r) => n + r.bytes, 0),
  };
}

const duckSql = (where: string) => `SELECT * FROM read_parquet('${local}/**/*.parquet', hive_partitioning = true)${where ? ` WHERE ${where}` : ''}`;

/** Opens the dataset with the filter, reads it with the same, checks DuckDB's rows, and gives the traffic. */
async function measured(address: string, where: string): Promise<Traffic> {
  const from = s3.log.length;
  const filter = where ? parseWhere(where) : undefined;
  const ds = await openDataset(address, { s3: s3.settings, ...(filter ? { filter } : {}) });
  const at = s3.log.length;
  await assertAgrees(duck, ds, filter ? { filter } : {}, duckSql(where));
  const t = traffic(from);
  assert.equal(traffic(at).lists, 0, 'reading lists nothing more');
  console.log(`${address} ${where || '(full scan)'}: ${JSON.stringify(t)}`);
  return t;
}

test('a filtered read of one partition out of 200 lists only the prefixes on the way to it and opens only its object; rows as DuckDB\'s', async () => {
  const full = await measured('s3://lake/t/', '');
  // The prefix's kind (one key), then one flat page of its 200 keys.
  assert.deepEqual(full.prefixes, ['t/ (max-keys 1)', 't/'], describeLog(s3.log));
  assert.equal(full.listed, 1 + 200);
  assert.equal(full.opened, 200);

  const one = await measured('s3://lake/t/', 'a = 7 AND b = 3');
  // The root's level (20 prefixes), a=7's level (10 prefixes), a=7/b=3's (its one object).
  assert.deepEqual(one.prefixes, ['t/ (max-keys 1)', 't/ (delimited)', 't/a=7/ (delimited)', 't/a=7/b=3/ (delimited)']);
  assert.equal(one.listed, 1 + 20 + 10 + 1);
  assert.equal(one.opened, 1);
  assert.ok(one.bytes * 20 < full.bytes, `pruned ${one.bytes} bytes, full ${full.bytes}`);

  // A filter on the first level: below a=7 nothing is named, so its subtree is listed flat (one page, not a page a directory).
  const level1 = await measured('s3://lake/t/', 'a = 7 AND id > 100');
  assert.deepEqual(level1.prefixes, ['t/ (max-keys 1)', 't/ (delimited)', 't/a=7/ (delimited)', 't/a=7/']);
  assert.equal(level1.listed, 1 + 20 + 10 + 10);
  assert.equal(level1.opened, 10);

  // A filter on the second level only: the root's directories are not named by it, so the tree is listed flat, and only b=3's objects are opened.
  const level2 = await measured('s3://lake/t/', 'b = 3');
  assert.deepEqual(level2.prefixes, ['t/ (max-keys 1)', 't/ (delimited)', 't/']);
  assert.equal(level2.opened, 20);

  // Several values of both keys; a glob walks the same way below its fixed prefix.
  const some = await measured('s3://lake/t/', 'a IN (1, 2) AND b >= 8');
  assert.equal(some.opened, 4);
  assert.equal(some.lists, 1 + 1 + 2 + 4);
  const glob = await measured('s3://lake/t/**/*.parquet', 'a = 7 AND b = 3');
  assert.equal(glob.opened, 1);
  assert.ok(glob.prefixes.includes('t/a=7/b=3/ (delimited)') && glob.lists <= 4 + 1, glob.prefixes.join(', '));

  // A filter no partition passes still reads a schema: the first object found, and no rows.
  const none = await measured('s3://lake/t/', 'a = 99');
  assert.equal(none.opened, 1);
});

test('a delimited listing pages its common prefixes past max-keys', async () => {
  const whole: unknown[] = [];
  for await (const e of listObjects(s3.client, 'lake', 't/', { delimiter: '/' })) whole.push(e);
  assert.equal(whole.length, 20);
  const from = s3.log.length;
  const paged: unknown[] = [];
  for await (const e of listObjects(s3.client, 'lake', 't/', { delimiter: '/', maxKeys: 7 })) paged.push(e);
  assert.deepEqual(paged, whole);
  assert.equal(traffic(from).lists, 3);
});
