/**
 * http(s) inputs with `--http-header` and `--byte-length`: a URL signed for
 * GET only (the server refuses HEAD) and guarded by a header reads like the
 * local file, through every kind of command (rows, footer, raw pages,
 * checks), with no HEAD request and the header on every request.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { run } from './run-cli.js';

const FILE = '../shared/corpus/parquet-testing/data/alltypes_tiny_pages.parquet';
const bytes = readFileSync(FILE);

let server: Server;
let url = '';
const requests: { method: string; headers: IncomingHttpHeaders }[] = [];

before(async () => {
  server = createServer((req, res) => {
    requests.push({ method: req.method!, headers: req.headers });
    if (req.method !== 'GET') {
      res.writeHead(405, { Allow: 'GET' }).end();
      return;
    }
    if (req.headers['x-token'] !== 's3cret') {
      res.writeHead(403).end();
      return;
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m) {
      res.writeHead(200, { 'Content-Length': bytes.length }).end(bytes);
      return;
    }
    const [start, end] = [Number(m[1]), Math.min(Number(m[2]), bytes.length - 1)];
    if (start >= bytes.length) {
      res.writeHead(416, { 'Content-Range': `bytes */${bytes.length}` }).end();
      return;
    }
    res.writeHead(206, { 'Content-Range': `bytes ${start}-${end}/${bytes.length}`, 'Content-Length': end - start + 1 }).end(bytes.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/signed/alltypes_tiny_pages.parquet?sig=abc`;
});
after(() => server?.close());

const signed = ['--http-header', 'X-Token: s3cret', '--byte-length', String(bytes.length)];

describe('a URL signed for GET', () => {
  const commands: string[][] = [
    ['cat', '--json', '--limit', '20', '--where', 'id > 100'],
    ['schema', '--json'],
    ['meta', '--json'],
    ['footer', '--json'],
    ['pages', '--column', 'id'],
    ['column-index', '--column', 'string_col'],
    ['dictionary', '--column', 'string_col', '--json'],
    ['check-stats', '--json'],
    ['column-size', '--json'],
    ['size-stats', '--column', 'id', '--json'],
  ];
  for (const [name, ...opts] of commands) {
    test(`${name} reads it as it reads the local file, without HEAD, the header on every request`, async () => {
      requests.length = 0;
      const [remote, local] = await Promise.all([await run(name!, url, ...opts, ...signed), await run(name!, FILE, ...opts)]);
      assert.equal(remote.code, 0, remote.err);
      const normalise = (s: string) => (name === 'meta' ? s.replace(/"file": "[^"]*"/, '') : s);
      assert.equal(normalise(remote.out), normalise(local.out));
      assert.ok(requests.length > 0);
      assert.deepEqual(requests.filter((r) => r.method !== 'GET' || r.headers['x-token'] !== 's3cret'), []);
    });
  }

  test('the options may come before the command, and scan reads it whole', async () => {
    const r = await run(...signed, 'scan', url, '--json');
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).rows, 7300);
  });

  test('without --byte-length the refused HEAD is the error', async () => {
    const r = await run('cat', url, '--http-header', 'X-Token: s3cret');
    assert.equal(r.code, 1);
    assert.match(r.err, /^parquetry: cannot read .*: the server answered 405 Method Not Allowed\n$/);
  });

  test('a --byte-length other than the file\'s: the size the server gives is named', async () => {
    for (const wrong of [bytes.length + 100, bytes.length * 2]) {
      const r = await run('footer', url, '--http-header', 'X-Token: s3cret', '--byte-length', String(wrong));
      assert.equal(r.code, 1);
      assert.match(r.err, new RegExp(`is ${bytes.length} bytes \\(the server's Content-Range\\), not the ${wrong} given as its length`));
    }
  });

  test('without the header the server refuses the read', async () => {
    const r = await run('cat', url, '--byte-length', String(bytes.length));
    assert.equal(r.code, 1);
    assert.match(r.err, /403/);
  });

  test('a header not of the form Name: value is a usage error', async () => {
    const r = await run('cat', url, '--http-header', 'no colon here');
    assert.equal(r.code, 1);
    assert.match(r.err, /--http-header.*'Name: value'/);
  });
});
