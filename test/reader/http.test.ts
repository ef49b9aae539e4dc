/**
 * HTTP sources against a tiny node:http server on 127.0.0.1 that serves
 * Range requests and counts what it sends: reading one column of a
 * multi-column file must fetch only that column (and the footer).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { IOError, openParquet, type ParquetReader } from '../../src/node/index.js';
import { DuckFiles, lines } from './helpers.js';

interface Hit {
  method: string;
  path: string;
  range?: string;
  sent: number;
  auth?: string;
}

let server: Server;
let base = '';
let files: DuckFiles;
let wide: Uint8Array;
let wideLines: string[];
let hits: Hit[] = [];

/** How each path is served. */
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {};

function rangeServe(data: Uint8Array) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const hit: Hit = { method: req.method!, path: req.url!, range: req.headers.range, sent: 0, auth: req.headers.authorization };
    hits.push(hit);
    if (req.method === 'HEAD') {
      res.writeHead(200, { 'content-length': data.length, 'accept-ranges': 'bytes' });
      res.end();
      return;
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m) {
      hit.sent = data.length;
      res.writeHead(200, { 'content-length': data.length });
      res.end(data);
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), data.length - 1);
    if (start >= data.length || end < start) {
      res.writeHead(416, { 'content-range': `bytes */${data.length}` });
      res.end();
      return;
    }
    const body = data.subarray(start, end + 1);
    hit.sent = body.length;
    res.writeHead(206, { 'content-length': body.length, 'content-range': `bytes ${start}-${end}/${data.length}` });
    res.end(body);
  };
}

before(async () => {
  files = await DuckFiles.create();
  // Four columns of about 0.5 MB each, incompressible: one column is a small part of the file.
  const path = await files.write('wide.parquet', `SELECT i AS id, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS a, md5((i * 7)::VARCHAR) || md5(i::VARCHAR || 'x') AS b,
      md5((i * 13)::VARCHAR) || md5(i::VARCHAR || 'y') AS c FROM range(8000) t(i) ORDER BY i`, 'COMPRESSION UNCOMPRESSED');
  wide = new Uint8Array(readFileSync(path));
  const local = await openParquet(path);
  wideLines = await lines(local, { columns: ['b'] });
  await local.close();

  routes['/wide.parquet'] = rangeServe(wide);
  routes['/norange.parquet'] = (req, res) => {
    hits.push({ method: req.method!, path: req.url!, sent: req.method === 'HEAD' ? 0 : wide.length });
    res.writeHead(200, { 'content-length': wide.length });
    res.end(req.method === 'HEAD' ? undefined : wide);
  };
  routes['/short.parquet'] = (req, res) => {
    hits.push({ method: req.method!, path: req.url!, sent: 0 });
    if (req.method === 'HEAD') {
      res.writeHead(200, { 'content-length': wide.length });
      res.end();
      return;
    }
    // A 206 with fewer bytes than asked for.
    res.writeHead(206, { 'content-length': 3 });
    res.end(wide.subarray(0, 3));
  };
  routes['/nolength'] = (req, res) => {
    hits.push({ method: req.method!, path: req.url!, sent: 0 });
    res.writeHead(200, { 'transfer-encoding': 'chunked' });
    res.end();
  };

  server = createServer((req, res) => {
    const route = routes[(req.url ?? '').split('?')[0]!];
    if (route) route(req, res);
    else {
      hits.push({ method: req.method!, path: req.url!, sent: 0 });
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  files.close();
});

describe('a Range-serving server', () => {
  test('the file has four big columns (the premise of the next test)', async () => {
    const reader = await openParquet(wide);
    try {
      const sizes = reader.file.metadata.rowGroups.flatMap((g) => g.columns.map((c) => c.metaData!.totalCompressedSize));
      const total = sizes.reduce((a, b) => a + b, 0);
      for (const s of sizes.slice(1)) assert.ok(s > 64 * 1024 && s < total / 3, `column chunk of ${s} bytes`);
    } finally {
      await reader.close();
    }
  });

  test('reading one column fetches that column and the footer, not the file', async () => {
    hits = [];
    const reader: ParquetReader = await openParquet(`${base}/wide.parquet`);
    try {
      const got = await lines(reader, { columns: ['b'] });
      assert.deepEqual(got, wideLines);
    } finally {
      await reader.close();
    }
    const sent = hits.reduce((a, h) => a + h.sent, 0);
    const gets = hits.filter((h) => h.method === 'GET');
    assert.ok(gets.every((h) => h.range), 'every GET has a Range header');
    assert.ok(hits.filter((h) => h.method === 'HEAD').length <= 1, 'at most one HEAD');
    assert.ok(gets.length <= 4 * reader.file.metadata.rowGroups.length + 3, `${gets.length} GET requests for one column`);
    assert.ok(sent < wide.length * 0.45, `${sent} of ${wide.length} bytes downloaded for one of four columns`);
  });

  test('a URL object, and byteLength to skip the HEAD request, and headers are sent', async () => {
    hits = [];
    const reader = await openParquet(new URL(`${base}/wide.parquet`), { byteLength: wide.length, headers: { authorization: 'Bearer t0k3n' } });
    try {
      assert.deepEqual(await lines(reader, { columns: ['b'], limit: 3 }), wideLines.slice(0, 3));
    } finally {
      await reader.close();
    }
    assert.equal(hits.filter((h) => h.method === 'HEAD').length, 0, 'no HEAD when byteLength is given');
    assert.ok(hits.length > 0 && hits.every((h) => h.auth === 'Bearer t0k3n'), 'headers on every request');
  });

  test('a limit stops fetching: later row groups are not requested', async () => {
    const path = await files.write('groups.parquet', `SELECT i AS id, md5(i::VARCHAR) AS h FROM range(12000) t(i) ORDER BY i`, 'ROW_GROUP_SIZE 2048, COMPRESSION UNCOMPRESSED');
    const data = new Uint8Array(readFileSync(path));
    routes['/groups.parquet'] = rangeServe(data);
    hits = [];
    const reader = await openParquet(`${base}/groups.parquet`);
    try {
      assert.ok(reader.file.metadata.rowGroups.length >= 5);
      const got = await lines(reader, { limit: 10 });
      assert.equal(got.length, 10);
      const firstGroupEnd = Math.max(...reader.file.metadata.rowGroups[0]!.columns.map((c) => c.metaData!.dataPageOffset + c.metaData!.totalCompressedSize));
      const footerStart = data.length - 64 * 1024;
      const far = hits.filter((h) => h.method === 'GET' && h.range).map((h) => Number(/bytes=(\d+)-/.exec(h.range!)![1]))
        .filter((start) => start > firstGroupEnd + 64 * 1024 && start < footerStart);
      assert.deepEqual(far, [], 'no request beyond the first row group (other than the footer)');
    } finally {
      await reader.close();
    }
  });
});

describe('servers that misbehave give IOErrors', () => {
  test('404 on HEAD', async () => {
    // A missing file is not a missing length: the message says what the server answered, and no byteLength hint.
    await assert.rejects(openParquet(`${base}/missing.parquet`), (e: unknown) => e instanceof IOError && /^cannot read .*missing\.parquet: the server answered 404 Not Found/.test(e.message) && !/byteLength/.test(e.message));
  });

  test('a server without Range support', async () => {
    await assert.rejects(async () => {
      const reader = await openParquet(`${base}/norange.parquet`);
      await lines(reader);
    }, (e: unknown) => e instanceof IOError && /range/i.test(e.message));
  });

  test('a 206 with too few bytes', async () => {
    await assert.rejects(openParquet(`${base}/short.parquet`), IOError);
  });

  test('a HEAD with no Content-Length', async () => {
    await assert.rejects(openParquet(`${base}/nolength`), (e: unknown) => e instanceof IOError && /byteLength/.test(e.message));
  });

  test('nothing listening', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await assert.rejects(openParquet(`http://127.0.0.1:${port}/x.parquet`), IOError);
  });
});
