/**
 * The CSV reader's byte paths against its text paths, which are the cell
 * readers and the writer's coercion the conversion used before: a cell read
 * from its bytes (digits, dates, timestamps parsed there; strings copied) must
 * give the value the text path gives, and refuse what it refuses with the
 * same message; records found in the bytes must be the tokenizer's records,
 * up to the first it leaves to the tokenizer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineFromNodes, parseTypeOverride } from '../../src/convert/types.js';
import { addByteCells, addTextCells, cellColumns } from '../../src/convert/csv-cells.js';
import type { BuiltColumn } from '../../src/convert/column-builders.js';
import { scanCsvBytes, ScannedCells } from '../../src/convert/csv-byte-scan.js';
import { CsvTokenizer, type CsvToken } from '../../src/convert/csv-tokenizer.js';
import { Rng } from '../writer/gen.js';

const TYPES = ['int32', 'int64', 'double', 'date', 'timestamp(MICROS,local)', 'timestamp(MICROS,utc)', 'timestamp(MILLIS,local)', 'boolean', 'string', 'decimal(9,2)', 'int16!'];

const FIXED = [
  '0', '-0', '+5', '007', '2147483647', '2147483648', '-2147483648', '-2147483649', '123456789012345', '-999999999999999', '1234567890123456',
  '9223372036854775807', '9223372036854775808', '-9223372036854775808', '1.5', 'abc', '-', '+', ' 1', '1 ', '1e3', '1E-3',
  '0.5', '-0.0', '5.', '.5', '00.5', '0.', '123456789.123456', '12345678901.2345', '1234567890.1234567', '0.000000000000001', 'nan', 'NaN', 'inf', '-Infinity', '1.2.3', '--1', '+-1',
  '2024-02-29', '2023-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '0000-01-01', '9999-12-31', '+012345-01-01', '2024-1-01', '2024-01-01x', '2024/01/01',
  '2024-01-31 10:00:00', '2024-01-31T10:00:00.123456', '2024-01-31t10:00:00.1', '2024-01-31 24:00:00', '2024-01-31 10:60:00', '2024-01-31 10:00',
  '2024-01-31 10:00:00Z', '2024-01-31 10:00:00+02:00', '2024-01-31 10:00:00.1234567', '2024-01-31 10:00:00.1234560', '2024-01-31 10:00:00.', '2024-01-31 10:00:00.123',
  '1500-01-01 00:00:00', '2300-01-01 00:00:00', '1969-12-31 23:59:59.999999', '2024-01-31', '2024-01-31 1:00:00',
  'true', 'false', 'TRUE', 'False', 't', '1', 'yes', 'é', 'a"b', '"', '€uro', '12.345', '-12.34', '99999999.99',
];

function generated(r: Rng): string[] {
  const out: string[] = [];
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  for (let i = 0; i < 400; i++) {
    const digits = r.int(1, 19);
    let d = '';
    for (let k = 0; k < digits; k++) d += String(r.int(0, 9));
    const sign = ['', '-', '+'][r.int(0, 2)]!;
    out.push(sign + d);
    out.push(`${sign}${d.slice(0, r.int(1, digits))}.${d.slice(0, r.int(0, 8))}`);
    const date = `${pad(r.int(0, 9999), 4)}-${pad(r.int(0, 13), 2)}-${pad(r.int(0, 32), 2)}`;
    out.push(date);
    out.push(`${date}${' Tt'[r.int(0, 2)]}${pad(r.int(0, 24), 2)}:${pad(r.int(0, 60), 2)}:${pad(r.int(0, 60), 2)}${r.int(0, 1) ? '.' + d.slice(0, r.int(1, 7)) : ''}`);
  }
  return out;
}

/** A column's values as plain data, for comparing. */
function values(c: BuiltColumn): unknown[] {
  const v = c.values;
  const present = v.t === 'typed' ? [...v.values] : v.t === 'any' ? v.values.map((x) => (x instanceof Uint8Array ? [...x] : x)) : Array.from({ length: v.offsets.length - 1 }, (_, i) => [...v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!)]);
  let k = 0;
  return Array.from({ length: c.rows }, (_, i) => (c.valid && c.valid[i] === 0 ? null : present[k++]));
}

const encoder = new TextEncoder();

/** 'ok', or the message `add` threw. */
function outcome(add: () => void): string {
  try {
    add();
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

test('a cell read from its bytes gives the value and the refusal its text gives, for every type the reader parses from bytes and some it does not', () => {
  const cells = [...FIXED, ...generated(new Rng(7))];
  for (const type of TYPES) {
    const schema = defineFromNodes([parseTypeOverride(`c=${type}`)]);
    const advice = ['give its type with --type'];
    const fromBytes = cellColumns(schema.schema.leaves, advice);
    const fromText = cellColumns(schema.schema.leaves, advice);
    for (const cell of cells) {
      const b = encoder.encode(cell);
      const viaBytes = outcome(() => addByteCells(fromBytes, b, Int32Array.of(0), Int32Array.of(b.length), Uint8Array.of(0)));
      const viaText = outcome(() => addTextCells(fromText, [cell]));
      assert.equal(viaBytes, viaText, `${type}: ${JSON.stringify(cell)}`);
      // The same cell quoted, its quotes doubled.
      const quoted = encoder.encode(`"${cell.replaceAll('"', '""')}"`);
      const viaQuoted = outcome(() => addByteCells(fromBytes, quoted, Int32Array.of(1), Int32Array.of(quoted.length - 1), Uint8Array.of(cell.includes('"') ? 1 : 0)));
      const again = outcome(() => addTextCells(fromText, [cell]));
      assert.equal(viaQuoted, again, `${type}: quoted ${JSON.stringify(cell)}`);
    }
    // Empty cells: null, or the required column's refusal.
    assert.equal(outcome(() => addByteCells(fromBytes, new Uint8Array(0), Int32Array.of(0), Int32Array.of(0), Uint8Array.of(0))), outcome(() => addTextCells(fromText, [''])));
    const [a] = fromBytes.map((c) => c.builder.take());
    const [t] = fromText.map((c) => c.builder.take());
    assert.equal(a!.rows, t!.rows, type);
    assert.deepEqual(values(a!), values(t!), type);
    assert.ok(a!.rows > 5, `${type}: some cells fit`);
  }
});

test('a row with a cell that does not fit adds nothing to any column', () => {
  const schema = defineFromNodes([parseTypeOverride('a=string'), parseTypeOverride('b=int64'), parseTypeOverride('c=date')]);
  const columns = cellColumns(schema.schema.leaves, [undefined, undefined, undefined]);
  addTextCells(columns, ['x', '1', '2024-01-01']);
  assert.throws(() => addTextCells(columns, ['y', '2', 'not a date']));
  const b = encoder.encode('z,3,2024-13-01');
  assert.throws(() => addByteCells(columns, b, Int32Array.of(0, 2, 4), Int32Array.of(1, 3, 14), Uint8Array.of(0, 0, 0)));
  addTextCells(columns, ['w', '4', '']);
  const built = columns.map((c) => c.builder.take());
  assert.deepEqual(built.map(values), [[[120], [119]], [1n, 4n], [19723, null]]);
});

/** Random CSV text over an alphabet that makes every kind of record: quotes, stray quotes, both line breaks, non-ASCII, invalid UTF-8. */
function randomCsv(r: Rng, crlf: boolean, header: string): Uint8Array {
  const parts: number[] = [...encoder.encode(header + (crlf ? '\r\n' : '\n'))];
  const pieces = ['a', 'bc', ',', ',', '"', '""', '\n', '\r\n', '\r', 'é', '\t', '12'];
  const n = r.int(0, 60);
  for (let i = 0; i < n; i++) {
    if (r.int(0, 200) === 0) parts.push(0xff);
    else if (r.int(0, 8) === 0) parts.push(...encoder.encode(`"${'x,\n'.slice(0, r.int(0, 3))}"`));
    else parts.push(...encoder.encode(pieces[r.int(0, pieces.length - 1)]!));
  }
  return Uint8Array.from(parts);
}

test('records found in the bytes are the tokenizer\'s records, up to the first the scan leaves to it, which starts where the scan says', () => {
  const r = new Rng(11);
  const decoder = new TextDecoder();
  let whole = 0;
  for (let round = 0; round < 3000; round++) {
    const crlf = r.int(0, 1) === 1;
    const delimiter = r.int(0, 3) === 0 ? '\t' : ',';
    const relax = delimiter === '\t';
    const final = r.int(0, 3) > 0;
    // A header of one cell (empty lines are then records of one empty cell) or of two (they are skipped).
    const oneColumn = r.int(0, 1) === 1;
    const header = oneColumn ? 'h' : `h${delimiter}i`;
    const bytes = randomCsv(r, crlf, header);
    const head = header.length + (crlf ? 2 : 1);
    const scanned: Array<{ line: number; last: number; cells: string[] }> = [];
    const end = scanCsvBytes(bytes, head, 2, { delimiter: delimiter.charCodeAt(0), relaxQuotes: relax, crlf, final, emptyLineRecords: oneColumn }, new ScannedCells(), (c, line, last) => {
      const cells: string[] = [];
      for (let i = 0; i < c.count; i++) {
        const s = decoder.decode(bytes.subarray(c.starts[i]!, c.ends[i]!));
        cells.push(c.escaped[i] ? s.replaceAll('""', '"') : s);
      }
      scanned.push({ line, last, cells });
      return true;
    });
    // The tokenizer on the whole text: its first records are the scan's (after a header of one cell, empty lines are records of one empty cell to both).
    const tokens: CsvToken[] = [];
    const t = new CsvTokenizer({ delimiter, relaxQuotes: relax });
    t.feed(decoder.decode(bytes), tokens);
    if (final) t.finish(tokens);
    const what = `round ${round}: ${JSON.stringify(decoder.decode(bytes))} (${final ? 'final' : 'not final'})`;
    const rest = tokens.slice(1);
    for (let i = 0; i < scanned.length; i++) assert.deepEqual(scanned[i], rest[i], what);
    if (end.at === bytes.length) {
      whole++;
      if (final) assert.equal(rest.length, scanned.length, what);
    } else {
      // The record the scan left starts where it said: a tokenizer from there gives the same records as the one from the start.
      const from = new CsvTokenizer({ delimiter, relaxQuotes: relax, resume: t.startState(end.line) });
      const again: CsvToken[] = [];
      from.feed(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(end.at)), again);
      if (final) from.finish(again);
      assert.deepEqual(again, rest.slice(scanned.length), what);
    }
  }
  assert.ok(whole > 200, `some inputs are scanned whole (${whole})`);
});

test('an empty cell in a required column is a bad row named by its line and column, in the sample and past it (read as blocks), and strict stops there', async () => {
  const { convert } = await import('../../src/entries/convert.js');
  const { BufferSink } = await import('../../src/index.js');
  const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `${k + from === 2500 ? '' : k + from},n${k + from}\n`).join('');
  // The first chunk is the header and the sample, the next settles the schema, and the last is read as blocks past it.
  async function* chunks() {
    yield encoder.encode('id,name\n,a\n0,b\n');
    yield encoder.encode(rows(0, 1000));
    yield encoder.encode(rows(1000, 3000));
  }
  const report = await convert(chunks(), new BufferSink(), { from: 'csv', to: 'parquet', types: ['id=int64!'], sample: 1 });
  assert.equal(report.numRows, 3000);
  assert.deepEqual(report.firstBadRows.map((b) => [b.line, b.column, b.reason]), [[2, 'id', 'expected a value (the column is required)'], [2504, 'id', 'expected a value (the column is required)']]);
  await assert.rejects(convert(chunks(), new BufferSink(), { from: 'csv', to: 'parquet', types: ['id=int64!'], sample: 1, strict: true }), /input:2: column id: expected a value/);
});

test('an input given as one large chunk is read as blocks past the sample: the main thread reads about 256 KiB of it as text, not all', async () => {
  const { parallelCsv } = await import('../../src/convert/csv-parallel.js');
  const { CsvShaper, schemaChoiceOf } = await import('../../src/convert/shape.js');
  const { inputBytes } = await import('../../src/convert/input-bytes.js');
  const n = 200_000;
  const text = 'id,name\n' + Array.from({ length: n }, (_, i) => `${i},n${i % 7}\n`).join('');
  const shaper = new CsvShaper(schemaChoiceOf({}));
  const p = parallelCsv(inputBytes(encoder.encode(text), 'input'), shaper, { delimiter: ',', header: true, skipBad: true, threads: 1 });
  let head = 0;
  for await (const items of p.items) {
    for (const item of items) {
      if (item.error !== undefined) assert.fail(item.error);
      if (head++ === 0) shaper.setHeader(item.record);
    }
    // Settled after the first batch, as the pipeline settles after the sample.
    if (head > 1 && head - 1 < n) p.tail.settled(shaper.schema([]), true);
  }
  let tail = 0;
  for await (const block of p.tail.blocks()) tail += block.rows;
  assert.equal(head - 1 + tail, n);
  assert.ok(text.length > 4 * (1 << 18) && (head - 1) * 12 < 2 * (1 << 18), `${head - 1} rows read as text, of ${n}`);
});
