/**
 * The code examples of README.md and the guides run, each in a fresh
 * working directory holding the files it reads (made here with the library
 * as the example expects them: the columns it names, a damaged file for
 * recovery, an encrypted one with the keys the example gives). An example
 * with a comment line that shows an error (`// NameError: message`) must throw
 * exactly that. `s3://lake/...` is s3rver on 127.0.0.1 (test/s3/server.ts).
 * Examples that fetch from a web page or import the AWS SDK are left out by
 * page, and that list is checked too, so it cannot grow quietly.
 * Output is not compared here; the `console` blocks' is, in test/cli/readme.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BufferSink, defineSchema, encryptParquet, field as f, fileSink, writeParquet, writeRecords } from '../../src/node/index.js';
import { writeDataset } from '../../src/node/entries/dataset.js';
import { TrevniWriter } from '../../src/node/entries/trevni.js';
import { REDELM_CORPUS } from '../redelm/corpus-util.js';
import { startS3, uploadDir, type S3Test } from '../s3/server.js';
import { examples } from './examples.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** What an example needs that a test cannot give it here. */
const LEFT_OUT = (code: string) => (/\bfetch\(/.test(code) ? 'a network' : /@aws-sdk\//.test(code) ? 'the AWS SDK' : undefined);

let work = '';
/** s3rver on 127.0.0.1 with a bucket `lake`, for the `s3://lake/...` examples. */
let s3: S3Test;
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'parquetry-examples-run-'));
  // Beside the example files, so what they import from other packages (apache-arrow) resolves.
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
  const dir = join(work, 'fixtures');
  const at = (p: string) => join(dir, p);
  mkdirSync(at('examples/fixtures'), { recursive: true });
  copyFileSync(join(ROOT, 'examples/fixtures/sample.parquet'), at('examples/fixtures/sample.parquet'));
  const cities = ['Lima', 'Oslo', 'Pune'];
  await writeParquet(at('data.parquet'), Array.from({ length: 300 }, (_, i) => ({ id: BigInt(i % 50), address: { city: cities[i % 3] }, price: i / 4 })));
  const orders = defineSchema({ id: f.int64().required(), user: f.string(), country: f.string(), address: f.struct({ city: f.string() }), price: f.decimal(9, 2), at: f.timestamp('MICROS', { utc: true }) });
  await writeParquet(at('orders.parquet'), Array.from({ length: 100 }, (_, i) => ({ id: BigInt(i * 20_000), user: `u${i}`, country: ['PE', 'IN', 'US'][i % 3], address: i % 4 ? { city: cities[i % 3] } : null, price: (i / 2).toFixed(2), at: new Date(Date.UTC(2023, 6, 1 + i)) })), { schema: orders });
  await writeParquet(at('events.parquet'), Array.from({ length: 30 }, (_, i) => ({ id: BigInt(i), user: { name: `n${i}` }, kind: i % 2 ? 'click' : 'view' })));
  await writeParquet(at('sales.parquet'), Array.from({ length: 30 }, (_, i) => ({ day: new Date(Date.UTC(2024, 0, 1 + i)), amount: i * 1.5 })), { schema: defineSchema({ day: f.date(), amount: f.double() }) });
  writeFileSync(at('data.csv'), 'id,price\n1,2.5\n2,3\n');
  const parts = Array.from({ length: 20 }, (_, i) => ({ id: BigInt(i), year: 2023 + (i % 2) }));
  await writeDataset(at('sales'), parts, { partitionBy: ['year'] });
  await writeDataset(at('data'), parts, { partitionBy: ['year'] });
  // Damaged files: a Trevni file cut short, a Parquet file with a page's bytes overwritten.
  const tw = await TrevniWriter.open(await fileSink(at('whole.trv')), [{ name: 'n', type: 'long' }]);
  for (let i = 0; i < 1000; i++) await tw.writeRow([BigInt(i)]);
  await tw.close();
  const whole = readFileSync(at('whole.trv'));
  writeFileSync(at('broken.trv'), whole.subarray(0, whole.length - 10));
  rmSync(at('whole.trv'));
  await writeParquet(at('whole.parquet'), Array.from({ length: 5000 }, (_, i) => ({ id: i, s: `v${i}` })), { rowGroupSize: 16 * 1024 });
  const pq = readFileSync(at('whole.parquet'));
  pq.fill(0xff, 200, 260);
  writeFileSync(at('broken.parquet'), pq);
  rmSync(at('whole.parquet'));
  copyFileSync(join(REDELM_CORPUS, 'paper_gzip.redelm'), at('paper.redelm'));
  s3 = await startS3(['lake']);
  const lake = join(work, 'lake');
  mkdirSync(join(lake, 'sales'), { recursive: true });
  await writeParquet(join(lake, 'sales', '2024.parquet'), parts);
  await uploadDir(s3, 'lake', 'sales', join(lake, 'sales'));
  // The keys docs/encryption.md builds, and an AAD prefix the file does not store.
  const key = (text: string) => new TextEncoder().encode(text);
  const plain = new BufferSink();
  await writeRecords(plain, [{ a: { b: 1 }, ssn: '123', other: 'x' }]);
  writeFileSync(at('data.parquet.encrypted'), await encryptParquet(plain.bytes(), { footerKey: key('0123456789012345'), columnKeys: { 'a.b': key('1234567890123450'), ssn: key('2345678901234501') }, aadPrefix: 'tester', storeAadPrefix: false }));
});
after(async () => {
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
});

test('every example of the README and the guides runs (or throws the error it shows)', { timeout: 300_000 }, () => {
  const run: { where: string; file: string; writes: string[]; expect?: { name: string; message: string } }[] = [];
  const leftOut: string[] = [];
  for (const { where, lang, code } of examples()) {
    const why = LEFT_OUT(code);
    if (why) {
      leftOut.push(`${where.replace(/:\d+$/, '')} (${why})`);
      continue;
    }
    const file = join(work, `${where.replace(/[^\w]+/g, '_')}.${lang === 'ts' ? 'mts' : 'mjs'}`);
    // The package's specifiers to its Node entry points in src/.
    writeFileSync(file, code.replace(/from '(parquetry(?:\/(\w+))?)'/g, (_, _s, sub?: string) => `from ${JSON.stringify(join(ROOT, 'src', 'node', sub ? `entries/${sub}.ts` : 'index.ts'))}`));
    const shown = /^\/\/ (\w+Error): (.*)$/m.exec(code);
    // A path the example writes to is not among its fixtures: it writes anew.
    const writes = [...code.matchAll(/\b(?:writeParquet|writeDataset|openWriter|writeFile)\('([^'/]+)/g)].map((m) => m[1]!);
    run.push({ where, file, writes, ...(shown ? { expect: { name: shown[1]!, message: shown[2]! } } : {}) });
  }
  writeFileSync(join(work, 'list.json'), JSON.stringify(run));
  const out = join(work, 'outcomes.json');
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'docs', 'run-examples.ts'), join(work, 'list.json'), join(work, 'fixtures'), out], { cwd: ROOT, encoding: 'utf8', timeout: 280_000, env: { ...process.env, ...s3.env } });
  assert.equal(r.status, 0, r.stderr.slice(-2000));
  const outcomes = JSON.parse(readFileSync(out, 'utf8')) as Record<string, { ok: boolean; name?: string; message?: string }>;
  const failures = run.flatMap(({ where, expect }) => {
    const o = outcomes[where];
    if (!o) return [`${where}: did not run`];
    if (expect) return o.ok ? [`${where}: ran, but shows ${expect.name}`] : o.name === expect.name && o.message === expect.message ? [] : [`${where}: ${o.name}: ${o.message} (shows ${expect.name}: ${expect.message})`];
    return o.ok ? [] : [`${where}: ${o.name}: ${o.message}`];
  });
  assert.deepEqual(failures, []);
  assert.deepEqual(leftOut, ['docs/conversion.md (a network)', 'docs/s3.md (the AWS SDK)', 'docs/s3.md (a network)']);
  assert.ok(run.length >= 28, `${run.length} examples run`);
});
