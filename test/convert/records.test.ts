/** readCsv / readJsonLines in code: text, bytes, a Web ReadableStream and a Node stream; inferred and given schemas; bad rows. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { InvalidArgumentError } from '../../src/index.js';
import { readCsv, readJsonLines, readJsonArray } from '../../src/entries/convert.js';

const CSV = 'id,name,price\n1,a,1.5\n2,,2.25\n';

async function all(it: AsyncIterable<Record<string, unknown>>): Promise<Record<string, unknown>[]> {
  const out = [];
  for await (const r of it) out.push(r);
  return out;
}

function webStream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(c) {
      for (let i = 0; i < bytes.length; i += 5) c.enqueue(bytes.subarray(i, i + 5)); // chunks cut mid-line
      c.close();
    },
  });
}

test('readCsv infers the same schema and rows from text, bytes, a Web stream and a Node stream', async () => {
  const inputs = [CSV, new TextEncoder().encode(CSV), webStream(CSV), Readable.from([Buffer.from(CSV.slice(0, 7)), Buffer.from(CSV.slice(7))])];
  for (const input of inputs) {
    const { schema, records } = await readCsv(input);
    assert.deepEqual(schema.schema.leaves.map((l) => l.path.join('.')), ['id', 'name', 'price']);
    assert.deepEqual(await all(records), [{ id: 1n, name: 'a', price: 1.5 }, { id: 2n, name: null, price: 2.25 }]);
  }
});

test('readCsv with a given schema and --type overrides', async () => {
  const { schema, records } = await readCsv(CSV, { schema: { id: 'int32!', name: 'string', price: 'double' }, types: ['price=decimal(9,2)'] });
  assert.equal(schema.schema.leaves[0]!.repetition, 'REQUIRED');
  assert.equal(schema.schema.leaves[2]!.kind.kind, 'decimal');
  assert.equal((await all(records)).length, 2);
});

test('bad rows: skipped and counted by default, or (strict) an error naming the line', async () => {
  const text = 'id,name\n1,a\n2,b,extra\n3,c\n';
  await assert.rejects(async () => all((await readCsv(text, { name: 'x.csv', strict: true })).records), /x\.csv:3: .*without strict, bad rows are skipped and counted/);
  const told: number[] = [];
  const r = await readCsv(text, { onBadRow: (b) => told.push(b.line) });
  assert.deepEqual((await all(r.records)).map((x) => x.id), [1n, 3n]);
  assert.equal(r.bad.count, 1);
  assert.equal(r.bad.first[0]!.line, 3);
  assert.deepEqual(told, [3]);
});

test('rows that do not fit the given types are bad rows with their line and column, not a throw', async () => {
  // id fits int8 only up to 127; "abc" is no number; a required column cannot be empty.
  const csv = 'id,price,name\n1,1.5,a\n300,2.5,b\n3,abc,c\n4,4.5,\n5,5.5,e\n';
  const r = await readCsv(csv, { name: 'p.csv', types: ['id=int8', 'price=decimal(9,2)', 'name=string!'] });
  assert.deepEqual((await all(r.records)).map((x) => x.id), [1, 5]);
  assert.equal(r.bad.count, 3);
  assert.deepEqual(r.bad.first.map((b) => [b.line, b.column]), [[3, 'id'], [4, 'price'], [5, 'name']]);
  assert.match(r.bad.first[0]!.text, /^p\.csv:3: column id: /);
  await assert.rejects(async () => all((await readCsv(csv, { name: 'p.csv', strict: true, types: ['id=int8'] })).records), /^InvalidArgumentError: p\.csv:3: column id: /);
  // JSON Lines: a field of the wrong type against a given schema.
  const lines = '{"n":1,"s":"a"}\n{"n":"x","s":"b"}\n{"n":3,"s":{"k":1}}\n{"n":4,"s":"d"}\n';
  const j = await readJsonLines(lines, { schema: { n: 'int32', s: 'string' } });
  assert.deepEqual((await all(j.records)).map((x) => x.n), [1, 4]);
  assert.deepEqual(j.bad.first.map((b) => [b.line, b.column]), [[2, 'n'], [3, 's']]);
});

test('readJsonLines and readJsonArray: big integers exact, from a Web stream', async () => {
  const lines = '{"id":9007199254740993,"tags":["a"]}\n{"id":1,"tags":[]}\n';
  const { schema, records } = await readJsonLines(webStream(lines));
  assert.deepEqual(schema.schema.leaves.map((l) => l.path[0]), ['id', 'tags']);
  assert.deepEqual((await all(records)).map((r) => r.id), [9007199254740993n, 1]);
  const arr = await readJsonArray('[{"a":1},{"a":2}]');
  assert.deepEqual((await all(arr.records)).map((r) => r.a), [1, 2]);
});

test('an input that cannot be read on is an error naming the input and line, as convert names it', async () => {
  // Thrown while sampling (the first row) and while iterating (past the sample): both say where.
  await assert.rejects(readCsv('a,"b\n1,2\n', { name: 'h.csv' }), /^InvalidArgumentError: h\.csv:\d+: the first row cannot be read: malformed CSV/);
  await assert.rejects(readJsonArray('[{"a":1},\n{"a":2', { name: 'x.json' }), /^InvalidArgumentError: x\.json:2: the input ends inside the JSON array/);
  const late = await readJsonArray((async function* () {
    yield '[{"a":1},\n{"a":2},\n';
    yield '{"a":3}] x';
  })(), { name: 'y.json', sample: 1 });
  await assert.rejects(all(late.records), /^InvalidArgumentError: y\.json:3: text after the end of the JSON array/);
});

test('a delimiter or sample the readers cannot use is refused as the command refuses it, not read into nonsense', async () => {
  // A quote or a line break as the delimiter split the text into garbage; '' leaked csv-parse's own error class.
  for (const delimiter of ['', '"', '\n', ';;']) {
    await assert.rejects(readCsv('a;b\n1;2\n', { delimiter }), (e: unknown) => e instanceof InvalidArgumentError && /delimiter must be one character/.test(e.message), JSON.stringify(delimiter));
  }
  for (const sample of [0, -1, 1.5, NaN]) {
    await assert.rejects(readJsonLines('{"a":1}\n', { sample }), (e: unknown) => e instanceof InvalidArgumentError && /sample must be a positive integer/.test(e.message), String(sample));
  }
  assert.deepEqual(await all((await readCsv('a\tb\n1\t2\n', { delimiter: '\t' })).records), [{ a: 1n, b: 2n }]);
});

test('a quote never closed is named at the line its record starts on, not the end of the input csv-parse reached', async () => {
  const rows = Array.from({ length: 50 }, (_, i) => `${i},r${i}`).join('\r\n');
  // Line 1 the header, 2-3 records, 4-5 empty, 6 the open quote, then 50 more lines (CR and LF inside a quote counted twice by csv-parse).
  const text = `id,name\r\n1,a\r\n2,b\r\n\r\n\r\n3,"c\r\n${rows}\r\n`;
  await assert.rejects(async () => all((await readCsv(text, { name: 'q.csv', strict: true })).records), /^InvalidArgumentError: q\.csv:6: malformed CSV: Quote Not Closed/);
  const skipped = await readCsv(text, { name: 'q.csv' });
  assert.deepEqual((await all(skipped.records)).map((r) => r.id), [1n, 2n]);
  assert.deepEqual(skipped.bad.first.map((b) => b.line), [6]);
});

/** A Web stream of a header and `rows` CSV rows, a row per pull (row `ragged` one field short), that records whether it was cancelled. */
function rowStream(rows: number, ragged = -1): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let i = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (i > rows) return c.close();
      c.enqueue(new TextEncoder().encode(i === 0 ? 'a,b\n' : i === ragged ? `${i}\n` : `${i},x\n`));
      i++;
    },
    cancel: () => void (cancelled = true),
  }, { highWaterMark: 0 });
  return { stream, cancelled: () => cancelled };
}

test('a Web stream read in part is cancelled: the caller leaving the records early, or a strict bad row', async () => {
  // A fetch body left uncancelled goes on downloading; for-await over a stream cancels it on a break, and so must the readers.
  const left = rowStream(10_000);
  let n = 0;
  for await (const _ of (await readCsv(left.stream, { sample: 5 })).records) if (++n === 20) break;
  assert.equal(left.cancelled(), true, 'left early');
  const bad = rowStream(10_000);
  await assert.rejects(async () => all((await readCsv(bad.stream, { sample: 5, strict: true, types: ['a=int8'] })).records), /column a/);
  assert.equal(bad.cancelled(), true, 'a bad row past the sample');
  const inSample = rowStream(10_000, 30);
  await assert.rejects(readCsv(inSample.stream, { strict: true }), /input:31: expected 2 fields, got 1/);
  assert.equal(inSample.cancelled(), true, 'a bad row in the sample');
  const whole = rowStream(50);
  assert.equal((await all((await readCsv(whole.stream)).records)).length, 50);
  assert.equal(whole.cancelled(), false, 'read to its end');
});

test('when every sampled record is bad, the refusal to infer a schema from nothing says so, and names the first', async () => {
  // A pretty-printed JSON array read as JSON Lines: every line is bad, so nothing is left to infer from.
  const array = '[\n  {\n    "a": 1\n  }\n]\n';
  await assert.rejects(readJsonLines(array, { name: 'a.jsonl' }), /^InvalidArgumentError: the JSON input has no fields to infer \(.*\): every record read was a bad row \(5\); the first is a\.jsonl:1: not valid JSON/);
  await assert.rejects(readJsonLines(''), /^InvalidArgumentError: the JSON input has no fields to infer \(no records, or records without fields; declare them: the schema option; --schema FILE in convert\)$/);
  await assert.rejects(readJsonLines('{}\n{}\n'), /^InvalidArgumentError: the JSON input has no fields to infer/);
});

test('TSV: a quote inside a cell is data, as DuckDB and Python read it; CSV: a malformed quote is one bad row, not two', async () => {
  const tsv = await readCsv('name\tsize\nTV\t55" screen\nB\t"tab\there"\n', { delimiter: '\t' });
  assert.deepEqual(await all(tsv.records), [{ name: 'TV', size: '55" screen' }, { name: 'B', size: 'tab\there' }]);
  assert.equal(tsv.bad.count, 0);
  // RFC 4180 CSV keeps its rule (a bad row), but csv-parse's second report of the same record counted it twice.
  const csv = await readCsv('a,b\n1,x""y\n2,z\n');
  assert.deepEqual(await all(csv.records), [{ a: 2n, b: 'z' }]);
  assert.deepEqual(csv.bad.first.map((b) => b.line), [2]);
});
