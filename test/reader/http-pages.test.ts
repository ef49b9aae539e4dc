/**
 * What `offset`/`limit` fetch over HTTP, counted by a node:http server on
 * 127.0.0.1: only the pages holding the rows asked for (found with the
 * offset index), and nothing twice that the footer's tail read already holds.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveRanges, type Hit, type RangeServer } from './range-server.js';
import { openParquet, writeParquet } from '../../src/node/index.js';
import { BufferSink } from '../../src/io/sink.js';
import { FORMAT_MAGIC_BYTES } from '../../src/io/format.js';
import { runWith } from '../cli/run-cli.js';

let server: RangeServer;
let base = '';
let hits: Hit[] = [];
const files: Record<string, Uint8Array> = {};

async function written(rows: number, options: Parameters<typeof writeParquet>[2]): Promise<Uint8Array> {
  const sink = new BufferSink();
  const records = Array.from({ length: rows }, (_, i) => ({ id: BigInt(i), name: `name-${i}-${'x'.repeat(i % 37)}` }));
  await writeParquet(sink, records, options);
  return sink.bytes();
}

before(async () => {
  // Many pages of about 1,000 rows in one row group, uncompressed: a column chunk is far more than its first page.
  files['/pages.parquet'] = await written(200_000, { codec: 'UNCOMPRESSED', pageRowLimit: 1000, dictionary: false });
  files['/small.parquet'] = await written(20, { codec: 'UNCOMPRESSED' });
  server = await serveRanges((path) => files[path]);
  hits = server.hits;
  base = server.base;
});

after(() => server.close());

const sentBytes = (): number => server.sent();

describe('offset and limit over HTTP', () => {
  test('the file has many pages per chunk, each with an offset index (the premise)', async () => {
    const reader = await openParquet(files['/pages.parquet']!);
    for (const name of ['id', 'name']) {
      const oi = await reader.file.readOffsetIndex(0, name);
      assert.ok(oi && oi.pageLocations.length >= 100, `${name}: ${oi?.pageLocations.length} pages`);
    }
    assert.ok(files['/pages.parquet']!.length > 4 * 1024 * 1024);
  });

  test('limit 3 fetches the first page of each column and the footer, not the chunks', async () => {
    const local = await openParquet(files['/pages.parquet']!);
    const expected = await local.readRows({ limit: 3 });
    // The most the read needs: the tail read, the first page of each column, and the 4-byte head magic.
    let firstPages = 0;
    for (const name of ['id', 'name']) firstPages += (await local.file.readOffsetIndex(0, name))!.pageLocations[0]!.compressedPageSize;
    hits.length = 0;
    const reader = await openParquet(`${base}/pages.parquet`);
    assert.deepEqual(await reader.readRows({ limit: 3 }), expected);
    const sent = sentBytes();
    assert.ok(sent <= 64 * 1024 + 4 + firstPages, `${sent} bytes sent; tail + first pages = ${64 * 1024 + 4 + firstPages}`);
    assert.ok(hits.length <= 5, `${hits.length} requests`);
  });

  test('an offset deep in the chunk fetches the pages around it, not what comes before', async () => {
    const local = await openParquet(files['/pages.parquet']!);
    const expected = await local.readRows({ offset: 150_500, limit: 1000 });
    hits.length = 0;
    const reader = await openParquet(`${base}/pages.parquet`);
    assert.deepEqual(await reader.readRows({ offset: 150_500, limit: 1000 }), expected);
    // Two pages of ~1,000 rows per column: a tiny part of the 200,000-row chunks.
    assert.ok(sentBytes() < 64 * 1024 + files['/pages.parquet']!.length / 50, `${sentBytes()} bytes sent`);
  });

  test('parquetry head -n 3 on the URL fetches as little', async () => {
    const local = await openParquet(files['/pages.parquet']!);
    let firstPages = 0;
    for (const name of ['id', 'name']) firstPages += (await local.file.readOffsetIndex(0, name))!.pageLocations[0]!.compressedPageSize;
    hits.length = 0;
    const { code, out, err } = await runWith(['head', '-n', '3', '--json', `${base}/pages.parquet`]);
    assert.equal(code, 0, err);
    assert.equal(out.trim().split('\n').length, 3);
    // The footer's tail read, the file's first bytes (which tell its format, and serve the reader's magic check), the first pages.
    assert.ok(sentBytes() <= 64 * 1024 + FORMAT_MAGIC_BYTES + firstPages, `${sentBytes()} bytes sent`);
  });

  test('rows() and rowBatches() with a limit fetch as little', async () => {
    hits.length = 0;
    const reader = await openParquet(`${base}/pages.parquet`);
    const rows: unknown[] = [];
    for await (const r of reader.rows({ limit: 2 })) rows.push(r);
    for await (const b of reader.rowBatches({ limit: 2, offset: 7 })) rows.push(...b);
    assert.equal(rows.length, 4);
    assert.ok(sentBytes() < 64 * 1024 + files['/pages.parquet']!.length / 50, `${sentBytes()} bytes sent`);
  });
});

describe('the footer read serves what it holds', () => {
  test('a file smaller than the tail read is one HEAD and one GET, for the footer and every row', async () => {
    const data = files['/small.parquet']!;
    assert.ok(data.length < 64 * 1024);
    const expected = await (await openParquet(data)).readRows();
    hits.length = 0;
    const reader = await openParquet(`${base}/small.parquet`);
    assert.deepEqual(await reader.readRows(), expected);
    assert.deepEqual(hits.map((h) => h.method), ['HEAD', 'GET']);
    assert.equal(sentBytes(), data.length);
  });

  test('a chunk that runs into the tail fetches only the part before it', async () => {
    const data = files['/pages.parquet']!;
    const local = await openParquet(data);
    const expected = await local.readRows({ columns: ['name'] });
    hits.length = 0;
    const reader = await openParquet(`${base}/pages.parquet`);
    assert.deepEqual(await reader.readRows({ columns: ['name'] }), expected);
    assert.ok(hits.some((h) => h.method === 'GET' && h.start < data.length - 64 * 1024 && h.start > 4), 'the name chunk was fetched');
    const tailStart = data.length - 64 * 1024;
    for (const h of hits.filter((x) => x.method === 'GET' && x.start !== tailStart)) {
      assert.ok(h.start + h.sent <= tailStart, `a request for ${h.start}..${h.start + h.sent} fetched bytes the tail read holds (from ${tailStart})`);
    }
  });
});
