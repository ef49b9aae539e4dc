/**
 * S3 reads in a real browser: the app (./app.ts, bundled as users bundle it)
 * on one origin reads from an S3 server (s3rver, test/s3/server.ts) on
 * another, its bucket's CORS set as docs/s3.md says. An `s3://` object read
 * with ranged GETs signed in the page from credentials the app hands over
 * through the `credentials` option, the same object unsigned (a public
 * bucket, `credentials: null`) and through a pre-signed URL (no S3 code),
 * and a Hive dataset under a prefix, listed level by level and filtered;
 * each gives the rows Node reads from the same server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AwsV4Signer } from 'aws4fetch';
import { chromiumPath, skipWithoutChromium } from './chromium.js';
import { call, startHarness, type Harness } from './harness.js';
import { BROWSER_CORS, startS3, type S3Test } from '../s3/server.js';
import { BufferSink, openDataset, openParquet, writeRecords, type Filter } from '../../src/node/index.js';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { writeDataset } from '../../src/node/entries/dataset.js';

let harness: Harness;
let s3: S3Test;
const KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const records = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `name ${i % 97}`, score: i / 4, tags: i % 5 ? [`t${i % 3}`] : [], day: `2024-01-0${1 + (i % 3)}`, region: i % 4 }));

before(async () => {
  if (!chromiumPath) return;
  s3 = await startS3(['lake'], { cors: BROWSER_CORS });
  const sink = new BufferSink();
  await writeRecords(sink, records, { rowGroupRows: 1000, codec: 'ZSTD' });
  // two.parquet is never read but with wrong credentials: no answer the browser cached can stand in for the refusal.
  for (const key of ['one.parquet', 'two.parquet']) await s3.client.request({ bucket: 'lake', key }, { method: 'PUT', body: sink.bytes() });
  await writeDataset('s3://lake/ds/', records, { partitionBy: ['day', 'region'], s3: s3.settings });
  harness = await startHarness(chromiumPath);
});

after(async () => {
  await harness?.close();
  await s3?.close();
});

async function nodeRows(address: string): Promise<string[]> {
  const reader = await openParquet(address, { s3: s3.settings });
  const plan = reader.plan();
  const out: string[] = [];
  for await (const row of reader.rows()) out.push(canonicalRow(plan, row));
  await reader.close();
  return out;
}

test('an s3:// object read in the browser, signed from the app\'s credentials, unsigned, and by a pre-signed URL: Node\'s rows', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const expected = await nodeRows('s3://lake/one.parquet');
  assert.equal(expected.length, records.length);
  const page = await harness.open('/');
  const place = { endpoint: s3.endpoint, region: 'us-east-1', key: KEY };
  const from = s3.log.length;
  assert.deepEqual(await call(page, 's3Object', 's3://lake/one.parquet', place), expected);
  // The page's own requests: CORS preflights, a HEAD for the size, signed ranged GETs.
  const got = s3.log.slice(from);
  const gets = got.filter((r) => r.method === 'GET');
  assert.ok(got.some((r) => r.method === 'HEAD') && gets.length > 0, got.map((r) => `${r.method} ${r.key} ${r.status}`).join('\n'));
  console.log(`signed read in the browser: ${got.length} requests (${got.filter((r) => r.method === 'OPTIONS').length} preflights, ${gets.length} GETs), ${got.reduce((n, r) => n + r.bytes, 0)} bytes`);
  assert.ok(gets.every((r) => r.status === 206), 'every GET a range');
  // Unsigned: s3rver serves anyone, as a public bucket does.
  assert.deepEqual(await call(page, 's3Object', 's3://lake/one.parquet', { ...place, key: null }), expected);
  // Pre-signed for GET (a HEAD would not be covered): the size passed in.
  const size = Number((await s3.client.request({ bucket: 'lake', key: 'one.parquet' }, { method: 'HEAD' })).headers.get('content-length'));
  const signer = new AwsV4Signer({ url: `${s3.endpoint}/lake/one.parquet`, method: 'GET', ...KEY, service: 's3', region: 'us-east-1', signQuery: true });
  const { url } = await signer.sign();
  assert.match(url.search, /X-Amz-Signature=/);
  assert.deepEqual(await call(page, 's3Url', url.toString(), size), expected);
  // Credentials the store does not know (s3rver checks the key id, not the signature): its typed refusal, the secret nowhere in it.
  const failure = await call(page, 's3Failure', 's3://lake/two.parquet', { ...place, key: { accessKeyId: 'NOPE', secretAccessKey: 'not-the-secret-xyz' } });
  assert.ok(failure && failure.name === 'ObjectStoreError' && /403/.test(failure.message) && !failure.message.includes('not-the-secret-xyz'), JSON.stringify(failure));
  await page.close();
});

test('a Hive dataset under an s3:// prefix listed and read in the browser, whole and filtered on its partitions: Node\'s rows', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const page = await harness.open('/');
  const place = { endpoint: s3.endpoint, region: 'us-east-1', key: KEY };
  // The one-partition filter first: the browser's cache holds no object yet, so every object read reaches the server.
  const filters: (Filter | undefined)[] = [{ and: [{ column: 'day', op: '=', value: '2024-01-02' }, { column: 'region', op: '=', value: 3 }] }, undefined, { column: 'region', op: '!=', value: 0 }];
  for (const filter of filters) {
    const ds = await openDataset('s3://lake/ds/', { s3: s3.settings, ...(filter ? { filter } : {}) });
    const plan = ds.plan();
    const expected: string[] = [];
    for await (const row of ds.rows(filter ? { filter } : {})) expected.push(canonicalRow(plan, row));
    assert.ok(expected.length > 0);
    const from = s3.log.length;
    const got = await call(page, 's3Dataset', 's3://lake/ds/', place, filter);
    assert.deepEqual(got, { files: ds.files.length, rows: expected }, JSON.stringify(filter));
    if (filter && 'and' in filter) {
      // One partition of 12: its object alone opened, as in Node.
      assert.equal(got.files, 1);
      assert.equal(new Set(s3.log.slice(from).filter((r) => r.method === 'GET' && r.key !== '').map((r) => r.key)).size, 1);
    }
  }
  await page.close();
});
