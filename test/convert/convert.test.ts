/**
 * `convert` in code, on data made elsewhere: parquet-testing's CSVs (checked
 * against DuckDB reading the same CSV) and corpus Parquet files (checked
 * against the corpus's expected rows), from paths, Web ReadableStreams,
 * Blobs and bytes, into paths and in-memory sinks.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { BufferSink, canonicalRow, convert, openParquet, type BadRow } from '../../src/node/index.js';
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
      assert.equal(report.rowsWritten, expected.length, `${name} from a ${how}`);
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
  assert.equal(report.rowsWritten, Number(total) - over.length);
  assert.equal(report.rowsRead, Number(total));
  assert.deepEqual(told.map((b) => String(b.line)), over.map((r) => r.line));
  assert.ok(told.every((b) => b.column === 'c_current_addr_sk' && /INT16|int16|range|fit/i.test(b.reason)), JSON.stringify(told[0]));
  const reader = await openParquet(sink.bytes());
  assert.equal(reader.numRows, report.rowsWritten);
  await reader.close();
});

test('strict mode stops at the first bad row, and leaves nothing at the destination path', async () => {
  const csv = join(DATA, 'delta_encoding_optional_column_expect.csv');
  const out = join(files.dir, 'strict.parquet');
  const before = readdirSync(files.dir).length;
  await assert.rejects(convert(csv, out, { types: ['c_current_addr_sk=int16'], strict: true }), /delta_encoding_optional_column_expect\.csv:\d+: column c_current_addr_sk: .*strict: false skips bad rows/);
  assert.equal(existsSync(out), false);
  assert.equal(readdirSync(files.dir).length, before, 'no temporary file left');
});

test('Parquet → Trevni → Parquet keeps the corpus rows, from bytes and into memory', { timeout: 60_000 }, async () => {
  for (const name of ['nested_lists.snappy.parquet', 'list_columns.parquet', 'nulls.snappy.parquet', 'delta_encoding_optional_column.parquet']) {
    const expected = readFileSync(join(EXPECTED, `${name}.jsonl`), 'utf8').trim().split('\n');
    const trevni = new BufferSink();
    const there = await convert(readFileSync(join(DATA, name)), trevni, { to: 'trevni', codec: 'deflate', trevniChecksum: 'crc32' });
    assert.equal(there.rowsWritten, expected.length, name);
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
