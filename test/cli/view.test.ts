/**
 * `parquetry view` as a server, without a browser: the FILE argument
 * checked as the other commands check it, and the file served with Range
 * requests as the page (httpSource) reads it. The page itself is tested in
 * Chromium by test/browser/viewer.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalRow } from '../../src/entries/inspect.js';
import { httpSource, ParquetReader } from '../../src/index.js';
import { BufferSink, defineSchema, field, openWriter } from '../../src/node/index.js';
import { parseRange } from '../../src/cli/view.js';
import { CLI } from './bin.js';

const FILE = join('..', 'shared', 'corpus', 'parquet-testing', 'data', 'alltypes_plain.parquet');
const VIEW = [...CLI, 'view'];
let server: ChildProcess;
let fileUrl: string;
let origin: string;

before(async () => {
  const built = spawnSync(process.execPath, ['scripts/build-viewer.mjs'], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  server = spawn(process.execPath, [...VIEW, FILE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const printed = await new Promise<string>((resolve, reject) => {
    let text = '';
    server.stdout!.on('data', (b: Buffer) => {
      text += b;
      if (text.includes('\n')) resolve(text);
    });
    server.on('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
  });
  const m = /^parquetry view: (http:\/\/127\.0\.0\.1:\d+)\/\?url=(\S+)\n/.exec(printed);
  assert.ok(m, printed);
  origin = m[1]!;
  fileUrl = origin + decodeURIComponent(m[2]!);
});

after(() => {
  server?.kill('SIGINT');
});

test('serves the page, and the file to range reads: the library reads it through httpSource as from disk', async () => {
  const page = await fetch(origin + '/');
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<script type="module" src="js\/main\.js">/);
  assert.equal((await fetch(origin + '/js/main.js')).status, 200);
  assert.equal((await fetch(origin + '/js/../../package.json')).status, 404);
  const local = await ParquetReader.open(new Uint8Array(readFileSync(FILE)));
  const remote = await ParquetReader.fromSource(await httpSource(fileUrl));
  const rows = async (r: ParquetReader) => (await r.readRows()).map((row) => canonicalRow(r.plan(), row));
  assert.deepEqual(await rows(remote), await rows(local));
});

test('Range answers: 206 with Content-Range, suffix ranges, 416 past the end', async () => {
  const bytes = readFileSync(FILE);
  const head = await fetch(fileUrl, { method: 'HEAD' });
  assert.equal(head.headers.get('content-length'), String(bytes.length));
  assert.equal(head.headers.get('accept-ranges'), 'bytes');
  const first = await fetch(fileUrl, { headers: { Range: 'bytes=0-3' } });
  assert.equal(first.status, 206);
  assert.equal(first.headers.get('content-range'), `bytes 0-3/${bytes.length}`);
  assert.equal(Buffer.from(await first.arrayBuffer()).toString('latin1'), 'PAR1');
  const tail = await fetch(fileUrl, { headers: { Range: 'bytes=-4' } });
  assert.equal(Buffer.from(await tail.arrayBuffer()).toString('latin1'), 'PAR1');
  const past = await fetch(fileUrl, { headers: { Range: `bytes=${bytes.length}-` } });
  assert.equal(past.status, 416);
  assert.equal(past.headers.get('content-range'), `bytes */${bytes.length}`);
  assert.deepEqual(parseRange('bytes=5-', 10), { start: 5, end: 9 });
  assert.deepEqual(parseRange('bytes=2-100', 10), { start: 2, end: 9 });
  assert.deepEqual(parseRange('bytes=-3', 10), { start: 7, end: 9 });
  for (const bad of ['bytes=-', 'bytes=5-2', 'items=0-1', 'bytes=0-1,3-4']) assert.equal(parseRange(bad, 10), null, bad);
});

test('a FILE that cannot be served is refused at once, as other commands refuse it', () => {
  const missing = spawnSync(process.execPath, [...VIEW, 'no-such-file.parquet'], { encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /^parquetry: cannot read no-such-file\.parquet: /);
  // A directory is a dataset: one without Parquet files is refused as `head` refuses it.
  const dir = spawnSync(process.execPath, [...VIEW, 'test'], { encoding: 'utf8' });
  assert.equal(dir.status, 1);
  assert.match(dir.stderr, /^parquetry: no Parquet file in test/);
});

test('a dataset directory: its files listed for the page, each served under its path below the root, nothing else', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-view-dataset-'));
  const parts: Record<string, Uint8Array> = {};
  for (const year of [2023, 2024]) {
    mkdirSync(join(dir, `year=${year}`));
    const sink = new BufferSink();
    const w = await openWriter(sink, defineSchema({ id: field.int64().required() }));
    await w.writeMany([{ id: BigInt(year) }]);
    await w.close();
    writeFileSync(join(dir, `year=${year}`, 'part 0.parquet'), sink.bytes());
    parts[`year=${year}/part 0.parquet`] = sink.bytes();
  }
  writeFileSync(join(dir, 'notes.txt'), 'not part of the dataset');
  const { child, printed } = await startView([dir]);
  try {
    const m = /^parquetry view: (http:\/\/127\.0\.0\.1:\d+)\/\?dataset=%2Fdataset\.json\n/.exec(printed);
    assert.ok(m, printed);
    const list = await (await fetch(`${m[1]}/dataset.json`)).json() as { name: string; files: string[]; size: number };
    assert.deepEqual(list.files, ['/file/year=2023/part%200.parquet', '/file/year=2024/part%200.parquet']);
    assert.equal(list.size, Object.values(parts).reduce((n, b) => n + b.length, 0));
    for (const [i, [, bytes]] of Object.entries(parts).entries()) {
      const got: Response = await fetch(m[1] + list.files[i]!, { headers: { Range: 'bytes=0-3' } });
      assert.equal(got.status, 206);
      assert.equal(got.headers.get('content-range'), `bytes 0-3/${bytes.length}`);
    }
    for (const other of ['/file/notes.txt', '/file/year=2023', `/file/${encodeURIComponent(dir)}/notes.txt`]) assert.equal((await fetch(m[1] + other)).status, 404, other);
    // The bare address leads to the page showing the dataset.
    const bare = await fetch(`${m[1]}/`, { redirect: 'manual' });
    assert.equal(bare.headers.get('location'), '/?dataset=%2Fdataset.json');
    assert.equal((await fetch(`${m[1]}/?dataset=%2Fdataset.json`)).status, 200);
  } finally {
    child.kill('SIGINT');
  }
  // A glob: the files it matches, under their paths below its part before the first pattern.
  const glob = await startView([join(dir, 'year=*', '*.parquet')]);
  try {
    const origin = /^parquetry view: (http:\/\/127\.0\.0\.1:\d+)\//.exec(glob.printed)![1]!;
    const list = await (await fetch(`${origin}/dataset.json`)).json() as { files: string[] };
    assert.deepEqual(list.files, ['/file/year=2023/part%200.parquet', '/file/year=2024/part%200.parquet']);
  } finally {
    glob.child.kill('SIGINT');
  }
});

/** A free port on 127.0.0.1, found by binding port 0 and letting it go. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Runs `view` with `args` until it prints its address; returns it and the process. */
async function startView(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; printed: string }> {
  const child = spawn(process.execPath, [...VIEW, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b));
  const printed = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (b: Buffer) => {
      text += b;
      if (text.includes('\n')) resolve(text);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${text}${err}`)));
  });
  return { child, printed };
}

test('--port serves at that port, and / leads to the page showing FILE', async () => {
  const port = await freePort();
  const { child, printed } = await startView([FILE, '--port', String(port)]);
  try {
    assert.match(printed, new RegExp(`^parquetry view: http://127\\.0\\.0\\.1:${port}/\\?url=%2Ffile%2Falltypes_plain\\.parquet\\n`));
    const bare = await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' });
    assert.equal(bare.status, 302);
    assert.equal(bare.headers.get('location'), '/?url=%2Ffile%2Falltypes_plain.parquet');
    const page = await fetch(`http://127.0.0.1:${port}/`);
    assert.equal(page.status, 200);
    assert.equal(new URL(page.url).searchParams.get('url'), '/file/alltypes_plain.parquet');
    // Taken: a one-line error, not a crash.
    const taken = spawnSync(process.execPath, [...VIEW, FILE, '--port', String(port)], { encoding: 'utf8' });
    assert.equal(taken.status, 1);
    assert.match(taken.stderr, new RegExp(`^parquetry: port ${port} on 127\\.0\\.0\\.1 is in use`));
  } finally {
    child.kill('SIGINT');
  }
  for (const bad of ['65536', '-1', 'http']) {
    const r = spawnSync(process.execPath, [...VIEW, FILE, '--port', bad], { encoding: 'utf8' });
    assert.equal(r.status, 1, bad);
    assert.match(r.stderr, /^parquetry: option '--port <n>' argument '.*' is invalid: must be a port number from 0 to 65535/);
  }
});

test('--open hands the address to $BROWSER', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-view-open-'));
  const seen = join(dir, 'url.txt');
  const browser = join(dir, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\n`, { mode: 0o755 });
  const { child, printed } = await startView([FILE, '--open'], { ...process.env, BROWSER: browser });
  try {
    const address = /^parquetry view: (\S+)\n/.exec(printed)![1]!;
    for (let i = 0; i < 100 && !existsSync(seen); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(readFileSync(seen, 'utf8'), address);
  } finally {
    child.kill('SIGINT');
  }
});
