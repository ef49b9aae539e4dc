/**
 * `convert` in code, on data made elsewhere: parquet-testing's CSVs (checked
 * against DuckDB reading the same CSV) and corpus Parquet files (checked
 * against the corpus's expected rows), from paths, Web ReadableStreams,
 * Blobs and bytes, into paths and in-memory sinks.
 */
import { after, before, test } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BufferSink, InvalidArgumentError, openParquet } from '../../src/node/index.js';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { convert, readJsonLines, type BadRow, type ConvertProgress } from '../../src/node/entries/convert.js';
import { DuckFiles } from '../reader/helpers.js';

const DATA = join('..', 'shared', 'corpus', 'parquet-testing', 'data');
const EXPECTED = join('..', 'shared', 'corpus', 'expected', 'parquet-testing', 'data');
/** Quoted cells, empty cells (nulls), a header name with a leading space; and 64-bit integers at their extremes. */
const CSVS = ['delta_encoding_optional_column_expect.csv', 'delta_binary_packed_expect.csv'];

let files: DuckFiles;
before(async () => {
  files = await DuckFiles.create();
});
after(() => files.close());

/** DuckDB's rows of a query, every value as text (null kept), keyed by column. */
async function duckRows(sql: string): Promise<Record<string, string | null>[]> {
  const rows = (await files.duck.runAndReadAll(sql)).getRowObjectsJson();
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])));
}

/** Our JSON Lines, every value as text; names trimmed, as DuckDB trims a header's names (" c_customer_id"). */
function textRows(jsonl: string): Record<string, string | null>[] {
  return jsonl.trim().split('\n').map((line) => {
    const o = JSON.parse(line) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k.trim(), v === null ? null : String(v)]));
  });
}

function webStream(bytes: Uint8Array, size = 4096): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + size)); // chunks cut anywhere, mid-line and mid-cell
      at += size;
    },
  });
}

const sqlPath = (p: string) => `'${p.replaceAll("'", "''")}'`;

test('CSV → Parquet → JSON Lines gives the rows DuckDB reads from the same CSV, from a path, a Web stream and a Blob', { timeout: 120_000 }, async () => {
  for (const name of CSVS) {
    const csv = join(DATA, name);
    const expected = await duckRows(`SELECT * FROM read_csv(${sqlPath(csv)})`);
    assert.ok(expected.length >= 100, `${name}: DuckDB reads ${expected.length} rows`);
    const bytes = readFileSync(csv);
    const sources = { path: csv, 'web stream': webStream(bytes), blob: new Blob([bytes]) };
    for (const [how, source] of Object.entries(sources)) {
      const parquet = join(files.dir, `${name}.${how.replace(' ', '-')}.parquet`);
      const report = await convert(source, parquet, { from: 'csv' });
      assert.equal(report.numRows, expected.length, `${name} from a ${how}`);
      assert.equal(report.badRows, 0);
      const jsonl = new BufferSink();
      const back = await convert(parquet, jsonl, { to: 'jsonl' });
      assert.equal(back.rowsRead, expected.length);
      assert.deepEqual(textRows(new TextDecoder().decode(jsonl.bytes())), expected, `${name} from a ${how}`);
    }
  }
});

test('rows that do not fit a given type are counted as bad rows, each with its line and column, as DuckDB finds them', { timeout: 60_000 }, async () => {
  const csv = join(DATA, 'delta_encoding_optional_column_expect.csv');
  // int16 holds up to 32767: the rows with larger addresses cannot be written; the header is line 1, one row a line.
  const over = await duckRows(`SELECT line FROM (SELECT row_number() OVER () + 1 AS line, c_current_addr_sk FROM read_csv(${sqlPath(csv)})) WHERE c_current_addr_sk > 32767`);
  const total = (await duckRows(`SELECT count(*) AS n FROM read_csv(${sqlPath(csv)})`))[0]!.n;
  assert.ok(over.length > 0 && over.length < Number(total));
  const told: BadRow[] = [];
  const sink = new BufferSink();
  const report = await convert(webStream(readFileSync(csv)), sink, { from: 'csv', to: 'parquet', types: ['c_current_addr_sk=int16'], onBadRow: (b) => told.push(b) });
  assert.equal(report.badRows, over.length);
  assert.equal(report.numRows, Number(total) - over.length);
  assert.equal(report.rowsRead, Number(total));
  assert.deepEqual(told.map((b) => String(b.line)), over.map((r) => r.line));
  assert.ok(told.every((b) => b.column === 'c_current_addr_sk' && /INT16|int16|range|fit/i.test(b.reason)), JSON.stringify(told[0]));
  const reader = await openParquet(sink.bytes());
  assert.equal(reader.numRows, report.numRows);
  await reader.close();
});

test('strict mode stops at the first bad row, and leaves nothing at the destination path', async () => {
  const csv = join(DATA, 'delta_encoding_optional_column_expect.csv');
  const out = join(files.dir, 'strict.parquet');
  const before = readdirSync(files.dir).length;
  await assert.rejects(convert(csv, out, { types: ['c_current_addr_sk=int16'], strict: true }), /delta_encoding_optional_column_expect\.csv:\d+: column c_current_addr_sk: .*without strict, bad rows are skipped and counted/);
  assert.equal(existsSync(out), false);
  assert.equal(readdirSync(files.dir).length, before, 'no temporary file left');
});

test('Parquet → Trevni → Parquet keeps the corpus rows, from bytes and into memory', { timeout: 60_000 }, async () => {
  for (const name of ['nested_lists.snappy.parquet', 'list_columns.parquet', 'nulls.snappy.parquet', 'delta_encoding_optional_column.parquet']) {
    const expected = readFileSync(join(EXPECTED, `${name}.jsonl`), 'utf8').trim().split('\n');
    const trevni = new BufferSink();
    const there = await convert(readFileSync(join(DATA, name)), trevni, { to: 'trevni', codec: 'deflate', trevniChecksum: 'crc32' });
    assert.equal(there.numRows, expected.length, name);
    const parquet = new BufferSink();
    await convert(trevni.bytes(), parquet, { to: 'parquet' }); // Trevni by its magic
    const reader = await openParquet(parquet.bytes());
    const plan = reader.plan();
    const rows: string[] = [];
    for await (const row of reader.rows()) rows.push(canonicalRow(plan, row));
    await reader.close();
    assert.deepEqual(rows, expected, name);
  }
});

test('an aborted conversion rejects and leaves nothing at the destination path', async () => {
  const controller = new AbortController();
  const bytes = readFileSync(join(DATA, 'delta_binary_packed_expect.csv'));
  let pulls = 0;
  // The input aborts the conversion once it is under way.
  const source = new ReadableStream<Uint8Array>({
    pull(c) {
      if (++pulls === 2) controller.abort(new Error('stop'));
      const at = (pulls - 1) * 4096;
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + 4096));
    },
  });
  const out = join(files.dir, 'aborted.parquet');
  const before = readdirSync(files.dir).length;
  await assert.rejects(convert(source, out, { from: 'csv', signal: controller.signal }), { name: 'IOError', message: /the conversion was aborted/ });
  assert.equal(existsSync(out), false);
  assert.equal(readdirSync(files.dir).length, before, 'no temporary file left');
});

/** The rows of Parquet bytes in canonical form. */
async function canonical(bytes: Uint8Array): Promise<string[]> {
  const reader = await openParquet(bytes);
  const plan = reader.plan();
  const rows: string[] = [];
  for await (const row of reader.rows()) rows.push(canonicalRow(plan, row));
  await reader.close();
  return rows;
}

test('http(s) URLs: a CSV streamed by fetch, a Parquet file read with Range requests, formats from the URL', { timeout: 60_000 }, async () => {
  const served: Record<string, Uint8Array> = {
    '/data/customers.csv': readFileSync(join(DATA, 'delta_encoding_optional_column_expect.csv')),
    '/data/lists.parquet': readFileSync(join(DATA, 'list_columns.parquet')),
  };
  const ranges: string[] = [];
  const server = createServer((req, res) => {
    const body = served[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (req.method === 'HEAD') return void res.writeHead(200, { 'content-length': body.length }).end();
    if (!m) return void res.writeHead(200, { 'content-length': body.length }).end(body);
    ranges.push(req.headers.range!);
    const part = body.subarray(Number(m[1]), Number(m[2]) + 1);
    res.writeHead(206, { 'content-length': part.length, 'content-range': `bytes ${m[1]}-${m[2]}/${body.length}` }).end(part);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const fromUrl = new BufferSink();
    const report = await convert(`${base}/data/customers.csv`, fromUrl, { to: 'parquet' });
    const fromBytes = new BufferSink();
    await convert(served['/data/customers.csv']!, fromBytes, { from: 'csv', to: 'parquet' });
    assert.equal(report.numRows, 100);
    assert.deepEqual(await canonical(fromUrl.bytes()), await canonical(fromBytes.bytes()));

    const rewritten = new BufferSink();
    await convert(new URL(`${base}/data/lists.parquet`), rewritten, { to: 'parquet', codec: 'gzip' });
    assert.ok(ranges.length > 0, 'read with Range requests');
    const expected = readFileSync(join(EXPECTED, 'list_columns.parquet.jsonl'), 'utf8').trim().split('\n');
    assert.deepEqual(await canonical(rewritten.bytes()), expected);
  } finally {
    server.close();
  }
});

test('a Node Writable, a Web WritableStream and a BufferSink get the same bytes; progress ends at every row', async () => {
  const source = readFileSync(join(DATA, 'delta_byte_array.parquet'));
  const expected = readFileSync(join(EXPECTED, 'delta_byte_array.parquet.jsonl'), 'utf8').trim().split('\n');
  const memory = new BufferSink();
  const progress: ConvertProgress[] = [];
  const report = await convert(source, memory, { to: 'jsonl', onProgress: (p) => progress.push(p) });
  assert.equal(report.numRows, expected.length);
  assert.equal(progress.at(-1)!.numRows, expected.length);
  assert.equal(progress.at(-1)!.fraction, 1);
  const node = new PassThrough();
  const nodeChunks: Buffer[] = [];
  node.on('data', (b: Buffer) => nodeChunks.push(b));
  await convert(source, node, { to: 'jsonl' });
  const webChunks: Uint8Array[] = [];
  await convert(source, new WritableStream<Uint8Array>({ write: (b) => void webChunks.push(b) }), { to: 'jsonl' });
  const text = new TextDecoder().decode(memory.bytes());
  assert.equal(Buffer.concat(nodeChunks).toString(), text);
  assert.equal(Buffer.concat(webChunks).toString(), text);
  assert.equal(text.trim().split('\n').length, expected.length);
});

test('a codec the output format does not have is refused before anything is written', async () => {
  const source = readFileSync(join(DATA, 'list_columns.parquet'));
  const out = join(files.dir, 'codec.trv');
  await assert.rejects(convert(source, out, { codec: 'ZSTD' }), (e: unknown) => e instanceof InvalidArgumentError && /not a Trevni codec/.test(e.message));
  await assert.rejects(convert(source, new BufferSink(), { to: 'parquet', codec: 'deflate' }), /not a Parquet codec/);
  assert.equal(existsSync(out), false);
});

test('a source object ({ byteLength, read }) is read in order for a CSV, its size giving the progress, and at any offset for Parquet', async () => {
  const object = (bytes: Uint8Array) => ({ byteLength: bytes.length, read: (offset: number, length: number) => bytes.subarray(offset, offset + length) });
  const csv = readFileSync(join(DATA, 'delta_binary_packed_expect.csv'));
  const progress: ConvertProgress[] = [];
  const sink = new BufferSink();
  const report = await convert(object(csv), sink, { from: 'csv', to: 'parquet', onProgress: (p) => progress.push(p) });
  assert.equal(report.bytesRead, csv.length);
  assert.equal(progress.at(-1)!.fraction, 1);
  const fromBytes = new BufferSink();
  await convert(csv, fromBytes, { from: 'csv', to: 'parquet' });
  assert.deepEqual(await canonical(sink.bytes()), await canonical(fromBytes.bytes()));
  const again = new BufferSink();
  await convert(object(sink.bytes()), again, { to: 'parquet' }); // Parquet by its magic
  assert.deepEqual(await canonical(again.bytes()), await canonical(fromBytes.bytes()));
});

test('a CSV delimiter or sample size convert cannot use is refused before anything is written', async () => {
  const out = join(files.dir, 'delimiter.parquet');
  const csv = new TextEncoder().encode('a"b\n1"2\n');
  await assert.rejects(convert(csv, out, { from: 'csv', delimiter: '"' }), (e: unknown) => e instanceof InvalidArgumentError && /delimiter must be one character/.test(e.message));
  await assert.rejects(convert(csv, out, { from: 'csv', sample: -5 }), (e: unknown) => e instanceof InvalidArgumentError && /sample must be a positive integer/.test(e.message));
  assert.equal(existsSync(out), false);
});

test('an option the formats at hand do not have is refused, as the command refuses its flag, not silently ignored', async () => {
  const csv = new TextEncoder().encode('id,name\n1,a\n');
  const parquet = new BufferSink();
  await convert(csv, parquet, { from: 'csv', to: 'parquet' });
  const refused = async (source: Uint8Array, options: Parameters<typeof convert>[2], message: RegExp) => {
    const out = join(files.dir, 'inapplicable.out');
    await assert.rejects(convert(source, out, options), (e: unknown) => e instanceof InvalidArgumentError && message.test(e.message), JSON.stringify(options));
    assert.equal(existsSync(out), false);
  };
  // columns: ['id'] on a CSV input wrote every column.
  await refused(csv, { from: 'csv', to: 'parquet', columns: ['id'] }, /^options\.columns applies to Parquet, Trevni and RedElm inputs only, not from csv to parquet$/);
  await refused(parquet.bytes(), { to: 'csv', codec: 'ZSTD', pageSize: 1024 }, /^options\.codec applies to Parquet output only/);
  await refused(parquet.bytes(), { to: 'csv', pageSize: 1024, rowGroupRows: 10 }, /^options\.rowGroupRows, options\.pageSize apply to Parquet output only/);
  await refused(parquet.bytes(), { to: 'parquet', types: ['id=int32'] }, /^options\.types applies to CSV and JSON inputs only/);
  await refused(parquet.bytes(), { to: 'jsonl', delimiter: ';' }, /^options\.delimiter applies to CSV input or output only/);
  await refused(csv, { from: 'csv', to: 'parquet', trevniChecksum: 'crc32' }, /^options\.trevniChecksum applies to Trevni output only/);
});

test('JSON numbers written as floats are DOUBLE even when whole (1.0, 1e2), as DuckDB infers them; integers stay INT64', async () => {
  // Python's json.dumps writes the float 3 as 3.0: such a column was INT64, and a later 2.5 a bad row.
  const lines = [
    '{"f":1.0,"e":1e2,"i":1,"n":{"g":-0.0},"l":[2.0,3.0],"s":"v1.0"}',
    '{"f":2.00,"e":1.5E3,"i":2,"n":{"g":4.0},"l":[],"s":"1.0"}',
  ];
  const path = join(files.dir, 'floats.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  const duck = (await files.duck.runAndReadAll(`DESCRIBE SELECT * FROM read_json(${sqlPath(path)})`)).getRowObjectsJson();
  assert.deepEqual(duck.map((r) => [r.column_name, r.column_type]), [
    ['f', 'DOUBLE'], ['e', 'DOUBLE'], ['i', 'BIGINT'], ['n', 'STRUCT(g DOUBLE)'], ['l', 'DOUBLE[]'], ['s', 'VARCHAR'],
  ]);
  const out = join(files.dir, 'floats.parquet');
  await convert(path, out, { sample: 1 });
  const reader = await openParquet(out);
  assert.deepEqual(reader.schema.leaves.map((l) => [l.path.join('.'), l.physicalType]), [
    ['f', 'DOUBLE'], ['e', 'DOUBLE'], ['i', 'INT64'], ['n.g', 'DOUBLE'], ['l.list.element', 'DOUBLE'], ['s', 'BYTE_ARRAY'],
  ]);
  const rows = [];
  for await (const r of reader.rows()) rows.push(r);
  await reader.close();
  assert.deepEqual(rows, [
    { f: 1, e: 100, i: 1n, n: { g: -0 }, l: [2, 3], s: 'v1.0' },
    { f: 2, e: 1500, i: 2n, n: { g: 4 }, l: [], s: '1.0' },
  ]);
  // Past the sample, a fraction fits the column the whole floats gave.
  const { schema, records, bad } = await readJsonLines('{"p":1.0}\n{"p":2.5}\n', { sample: 1 });
  assert.equal(schema.schema.leaves[0]!.physicalType, 'DOUBLE');
  const got = [];
  for await (const r of records) got.push(r);
  assert.deepEqual(got, [{ p: 1 }, { p: 2.5 }]);
  assert.equal(bad.count, 0);
});

test('a conversion that fails before its writer opens aborts a stream or Sink destination too, as one that fails later does', async () => {
  const csv = new TextEncoder().encode('a,b\n1,2\n3\n');
  // Sampling 1000 rows, the bad row is met before the schema is settled and a writer opens; sampling 1, after.
  for (const sample of [1000, 1]) {
    let aborted: unknown;
    const web = new WritableStream<Uint8Array>({ abort: (reason) => void (aborted = reason) });
    await assert.rejects(convert(csv, web, { from: 'csv', to: 'parquet', strict: true, sample }), /input:3: expected 2 fields, got 1/);
    assert.ok(aborted instanceof Error, `the Web stream was aborted (sample ${sample})`);
    const node = new PassThrough();
    await assert.rejects(convert(csv, node, { from: 'csv', to: 'parquet', strict: true, sample }), /input:3/);
    assert.equal(node.destroyed, true, `the Node stream was destroyed (sample ${sample})`);
  }
  // A failure before the input is even read (a Parquet input that is not one).
  let aborted = false;
  const web = new WritableStream<Uint8Array>({ abort: () => void (aborted = true) });
  await assert.rejects(convert(new TextEncoder().encode('not parquet at all'), web, { from: 'parquet', to: 'csv' }), /magic/);
  assert.equal(aborted, true);
});
