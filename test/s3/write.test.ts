/**
 * Writes to an S3 server: a CSV converted to `s3://` and read back; 100 MiB
 * through a multipart upload with one part in flight; a writer that throws
 * and one killed by SIGKILL leave no object and, once the next write to the
 * key has run, no upload; a dataset under a prefix is invisible until its
 * commit; wrong credentials and a missing bucket are typed errors that never
 * carry the secret.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { ObjectStoreError, openDataset, openParquet, writeDataset, writeParquet, writeSummaryFiles, field, defineSchema } from '../../src/node/index.js';
import { objectExists } from '../../src/io/s3/source.js';
import { listObjects } from '../../src/io/s3/list.js';
import { describeLog, startS3, type S3Test } from './server.js';
import { runCli } from './cli.js';

let s3: S3Test;
let tmp = '';
before(async () => {
  s3 = await startS3(['lake']);
  tmp = mkdtempSync(join(tmpdir(), 'parquetry-s3-write-'));
});
after(async () => {
  await s3?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const exists = (key: string) => objectExists(s3.client, { bucket: 'lake', key });
const uploadsOf = (key: string) => s3.uploads('lake').filter((u) => u.key === key);

test('parquetry convert writes a local CSV to s3://, and cat reads it back', async () => {
  const rows = Array.from({ length: 500 }, (_, i) => ({ id: i, name: `name ${i}, "quoted"`, score: i / 4 }));
  const csv = join(tmp, 'in.csv');
  writeFileSync(csv, 'id,name,score,grp\n' + rows.map((r) => `${r.id},"${r.name.replace(/"/g, '""')}",${r.score},${r.id % 4}`).join('\n') + '\n');
  const c = await runCli(s3.env, 'convert', '--quiet', csv, 's3://lake/csv/out.parquet');
  assert.equal(c.code, 0, c.err);
  const r = await runCli(s3.env, 'cat', '--json', 's3://lake/csv/out.parquet');
  assert.equal(r.code, 0, r.err);
  const back = r.out.trim().split('\n').map((l) => JSON.parse(l) as { id: number; name: string; score: number });
  assert.deepEqual(back.map((b) => [Number(b.id), b.name, Number(b.score)]), rows.map((x) => [x.id, x.name, x.score]));
  // check and recover, s3:// to s3://.
  const recovered = await runCli(s3.env, 'recover', '--json', 's3://lake/csv/out.parquet', 's3://lake/csv/recovered.parquet');
  assert.equal(recovered.code, 0, recovered.err);
  assert.equal((JSON.parse(recovered.out) as { rowsRecovered: number }).rowsRecovered, 500);
  assert.equal(await exists('csv/recovered.parquet'), true);
  // And back out to a CSV on disk, from s3://.
  const again = await runCli(s3.env, 'convert', '--quiet', 's3://lake/csv/out.parquet', join(tmp, 'back.csv'));
  assert.equal(again.code, 0, again.err);
  // A dataset under a prefix, partitioned, then its summary files; a second write without --append is refused.
  const ds = await runCli(s3.env, 'convert', '--quiet', csv, 's3://lake/csv-ds/', '--partition-by', 'grp', '--max-rows-per-file', '50');
  assert.equal(ds.code, 0, ds.err);
  const summary = await runCli(s3.env, 'summary', '--json', 's3://lake/csv-ds/');
  assert.equal(summary.code, 0, summary.err);
  const meta = JSON.parse((await runCli(s3.env, 'meta', '--json', 's3://lake/csv-ds/')).out) as { files: number; numRows: number };
  assert.deepEqual([meta.files, meta.numRows], [12, 500]);
  const twice = await runCli(s3.env, 'convert', '--quiet', csv, 's3://lake/csv-ds/', '--partition-by', 'grp');
  assert.equal(twice.code, 1);
  assert.match(twice.err, /already holds objects/);
});

const blobSchema = defineSchema({ i: field.int32().required(), b: field.binary().required() });
const ROW = 64 * 1024;

/** `n` rows of 64 KiB random bytes, hashed as they go. */
async function* blobs(n: number, hash: ReturnType<typeof createHash>, fail?: number): AsyncGenerator<{ i: number; b: Uint8Array }> {
  for (let i = 0; i < n; i++) {
    if (i === fail) throw new Error('the records gave out');
    const b = randomBytes(ROW);
    hash.update(b);
    yield { i, b };
  }
}

test('100 MiB goes up in 8 MiB parts, one in flight, and reads back byte for byte', async () => {
  const key = 'big/blobs.parquet';
  const rows = 1600; // 100 MiB of values
  const wrote = createHash('sha256');
  const from = s3.log.length;
  const rss = process.memoryUsage().rss;
  await writeParquet(`s3://lake/${key}`, blobs(rows, wrote), { schema: blobSchema, codec: 'UNCOMPRESSED', rowGroupSize: 16 * 1024 * 1024, s3: s3.settings });
  const grew = process.memoryUsage().rss - rss;
  const parts = s3.log.slice(from).filter((r) => r.method === 'PUT' && r.query.partNumber !== undefined);
  assert.ok(parts.length >= 12, describeLog(s3.log, from));
  assert.ok(parts.every((p) => p.partsInFlight === 1), 'one part in flight at a time');
  assert.deepEqual(uploadsOf(key), []);
  const read = createHash('sha256');
  const reader = await openParquet(`s3://lake/${key}`, { s3: s3.settings });
  let n = 0;
  for await (const row of reader.rows()) {
    assert.equal(row.i, n++);
    read.update(row.b as Uint8Array);
  }
  await reader.close();
  assert.equal(n, rows);
  assert.equal(read.digest('hex'), wrote.digest('hex'));
  // Generous: the writer's 16 MiB row group and two 8 MiB parts, on a shared machine.
  assert.ok(grew < 200 * 1024 * 1024, `RSS grew by ${grew} bytes while writing 100 MiB`);
});

test('a writer that throws leaves no object and no parts, for a single PUT and a multipart upload', async () => {
  for (const [key, fail] of [['fail/small.parquet', 10], ['fail/large.parquet', 300]] as const) {
    const from = s3.log.length;
    await assert.rejects(writeParquet(`s3://lake/${key}`, blobs(1000, createHash('sha256'), fail), { schema: blobSchema, codec: 'UNCOMPRESSED', rowGroupSize: 4 * 1024 * 1024, s3: s3.settings }), /the records gave out/);
    assert.equal(await exists(key), false, key);
    assert.deepEqual(uploadsOf(key), [], key);
    const log = s3.log.slice(from);
    if (fail === 300) {
      assert.ok(log.some((r) => r.method === 'PUT' && r.query.partNumber !== undefined), 'parts went up before the failure');
      assert.ok(log.some((r) => r.method === 'DELETE' && r.query.uploadId !== undefined), 'and the upload was aborted');
    } else {
      assert.ok(!log.some((r) => r.method === 'PUT' && r.key === key), 'a small object is sent only at close');
    }
  }
});

test('a writer killed mid-upload leaves no object; the next write to the key completes and aborts the stale upload', async () => {
  const key = 'killed/out.parquet';
  const script = join(tmp, 'slow-writer.mts');
  writeFileSync(script, `
    import { writeParquet, field, defineSchema } from ${JSON.stringify(join(import.meta.dirname, '../../src/node/index.ts'))};
    import { randomBytes } from 'node:crypto';
    async function* rows() { for (let i = 0; ; i++) { yield { i, b: randomBytes(65536) }; if (i % 16 === 0) await new Promise((r) => setTimeout(r, 20)); } }
    await writeParquet(${JSON.stringify(`s3://lake/${key}`)}, rows(), { schema: defineSchema({ i: field.int32().required(), b: field.binary().required() }), codec: 'UNCOMPRESSED', rowGroupSize: 4 * 1024 * 1024 });
  `);
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...s3.env }, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  while (!uploadsOf(key).some((u) => u.parts >= 1)) {
    assert.ok(Date.now() < deadline, 'the writer uploaded no part within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  await exited;
  assert.equal(await exists(key), false);
  assert.equal(uploadsOf(key).length, 1, 'the killed writer left its upload');
  await writeParquet(`s3://lake/${key}`, [{ i: 1, b: new Uint8Array([1, 2]) }], { schema: blobSchema, s3: s3.settings });
  assert.deepEqual(uploadsOf(key), [], 'the next write aborted it');
  const reader = await openParquet(`s3://lake/${key}`, { s3: s3.settings });
  assert.equal(reader.numRows, 1);
  await reader.close();
});

test('writeDataset to a prefix: nothing visible until the commit, then every part; writeSummaryFiles over it', async () => {
  const prefix = 's3://lake/ds';
  let seenMidWrite = -1;
  async function* records() {
    for (let i = 0; i < 120; i++) {
      // After several parts have closed (10 rows a file), a reader listing the prefix still sees nothing.
      if (i === 100) {
        seenMidWrite = 0;
        for await (const _ of listObjects(s3.client, 'lake', 'ds/')) seenMidWrite++;
      }
      yield { id: i, k: i % 3 };
    }
  }
  const report = await writeDataset(prefix, records(), { partitionBy: ['k'], maxRowsPerFile: 10, s3: s3.settings });
  assert.equal(seenMidWrite, 0);
  assert.equal(report.rows, 120);
  const ds = await openDataset(`${prefix}/`, { s3: s3.settings });
  assert.equal(ds.files.length, report.parts.length);
  const ids: number[] = [];
  for await (const row of ds.rows()) ids.push(Number(row.id));
  assert.deepEqual(ids.sort((a, b) => a - b), Array.from({ length: 120 }, (_, i) => i));
  assert.equal(s3.uploads('lake').filter((u) => u.key.startsWith('ds/')).length, 0);
  const summary = await writeSummaryFiles(prefix, { s3: s3.settings });
  assert.deepEqual(summary.written, [`${prefix}/_common_metadata`, `${prefix}/_metadata`]);
  const planned = await openDataset(`${prefix}/`, { s3: s3.settings });
  assert.equal(planned.metadataFile, `${prefix}/_metadata`);
  assert.equal((await planned.fileStats()).reduce((n, f) => n + f.numRows, 0), 120);
  // Without append, a prefix that holds objects is refused.
  await assert.rejects(writeDataset(prefix, [{ id: 1, k: 0 }], { partitionBy: ['k'], s3: s3.settings }), /already holds objects/);
});

test('wrong credentials and a missing bucket: typed errors with the store\'s code, never the secret', async () => {
  const secret = 'sEcReT/never-shown+42';
  const wrong = { ...s3.settings, credentials: { accessKeyId: 'AKIAWRONGKEY', secretAccessKey: secret } };
  const e: unknown = await openParquet('s3://lake/big/blobs.parquet', { s3: wrong }).then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof ObjectStoreError, String(e));
  assert.equal(e.status, 403);
  assert.match(e.message, /AKIAWRONGKEY/);
  assert.ok(!e.message.includes(secret) && !JSON.stringify(e).includes(secret));
  const missing: unknown = await openDataset('s3://no-such-bucket/x/', { s3: s3.settings }).then(() => undefined, (x: unknown) => x);
  assert.ok(missing instanceof ObjectStoreError, String(missing));
  assert.equal(missing.status, 404);
  assert.equal(missing.storeCode, 'NoSuchBucket');
  // The CLI: one line, the key id named, the secret not.
  const r = await runCli({ ...s3.env, AWS_ACCESS_KEY_ID: 'AKIAWRONGKEY', AWS_SECRET_ACCESS_KEY: secret }, 'meta', '--json', 's3://lake/big/blobs.parquet');
  assert.equal(r.code, 1);
  assert.match(r.err, /^parquetry: HEAD s3:\/\/lake\/big\/blobs\.parquet: the store answered 403 \w+ .*AKIAWRONGKEY/);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  assert.ok(!r.err.includes(secret) && !r.out.includes(secret));
});
