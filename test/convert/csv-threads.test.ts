/**
 * CSV read by worker threads (src/convert/csv-parallel.ts) writes the same
 * Parquet file, byte for byte, as the main thread alone, and reports the same
 * rows and bad rows: on inputs whose block cuts fall next to quoted line
 * breaks, stray quotes that mislead the quote-parity cut (so blocks are read
 * again from where the one before ended), malformed records, nulls, decimals,
 * dates, timestamps, CRLF line breaks, TSV and invalid UTF-8.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert, type ConvertOptions } from '../../src/node/entries/convert.js';
import { convertCsvLines, xorshift } from '../../bench/convert-data.js';
import { CsvBlocks } from '../../src/convert/csv-blocks.js';
import { CsvBlockReader } from '../../src/convert/csv-block-read.js';
import { csvTokenizer } from '../../src/convert/read-csv.js';
import { CsvShaper } from '../../src/convert/shape.js';
import type { CsvToken } from '../../src/convert/csv-tokenizer.js';
import type { ParquetryWarning } from '../../src/warnings.js';
import { BufferSink, openParquet } from '../../src/node/index.js';
import { runConvert, sinkOutput, sourceInput } from '../../src/convert/convert.js';
import { csvWorkers } from '../../src/node/csv-workers.js';
import type { CsvBlockReaders } from '../../src/convert/csv-parallel.js';

const dir = mkdtempSync(join(tmpdir(), 'csv-threads-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

/** Rows with a quoted cell of many lines, some crossing any cut, and (in TSV) stray quotes that make quote parity lie. */
function multiline(rows: number, seed: number, tsv: boolean, crlf: boolean): string {
  const next = xorshift(seed);
  const d = tsv ? '\t' : ',';
  const nl = crlf ? '\r\n' : '\n';
  const out = [['id', 'price', 'day', 'note', 'size'].join(d)];
  for (let i = 0; i < rows; i++) {
    const r = next();
    const price = r % 9 === 0 ? '' : `${r % 10_000}.${String(r % 100).padStart(2, '0')}`;
    const day = r % 7 === 0 ? '' : new Date(Date.UTC(2000, 0, 1) + (r % 9000) * 86_400_000).toISOString().slice(0, 10);
    const lines = 1 + (r % 40 === 0 ? 200 : r % 5);
    const note = r % 3 === 0 ? `"${Array.from({ length: lines }, (_, k) => `${WORDS[(r >>> k) % 8]} ""${k}""`).join('\n')}"` : WORDS[r % 8]!;
    // TSV reads a quote inside an unquoted cell as data: one quote, which tips the parity.
    const size = tsv && r % 4 === 0 ? `${r % 90}" screen` : String(r % 90);
    out.push([i + 1, price, day, note, size].join(d));
  }
  return out.join(nl) + nl;
}

/** The bench's rows with malformed records (a quote inside an unquoted cell, text after a closing quote) and short rows among them. */
function malformed(rows: number): string {
  const lines = [...convertCsvLines(rows, 7)];
  for (let i = 1; i < lines.length; i += 97) lines[i] = lines[i]!.replace(',', i % 2 ? ',ab"c' : ',"x"y');
  for (let i = 5; i < lines.length; i += 131) lines[i] = '1,2\n';
  for (let i = 9; i < lines.length; i += 173) lines[i] = lines[i]!.replace(/^\d+/, 'not-a-number');
  return lines.join('');
}

async function run(input: Uint8Array, name: string, options: ConvertOptions): Promise<{ bytes: Buffer; report: unknown; warnings: ParquetryWarning[] }> {
  const out = join(dir, `${name}-${options.threads}.parquet`);
  const warnings: ParquetryWarning[] = [];
  const report = await convert(input, out, { from: 'csv', ...options, onWarning: (w) => warnings.push(w) });
  return { bytes: readFileSync(out), report: { ...report, output: undefined }, warnings };
}

async function sameAcrossThreads(input: Uint8Array, name: string, options: ConvertOptions = {}): Promise<void> {
  const one = await run(input, name, { ...options, threads: 1 });
  for (const threads of [2, 3]) {
    const many = await run(input, name, { ...options, threads });
    assert.deepEqual(many.report, one.report, `${name}: the report with ${threads} threads`);
    assert.deepEqual(many.warnings, one.warnings, `${name}: the warnings with ${threads} threads`);
    assert.ok(many.bytes.equals(one.bytes), `${name}: the Parquet file with ${threads} threads differs from one thread's`);
  }
}

const enc = (s: string) => new TextEncoder().encode(s);

test('one thread and several write the same file from the bench\'s rows (quotes, embedded line breaks, nulls, decimals, dates, timestamps)', { timeout: 240_000 }, async () => {
  await sameAcrossThreads(enc([...convertCsvLines(40_000, 3)].join('')), 'bench');
  await sameAcrossThreads(enc([...convertCsvLines(30_000, 4)].join('')), 'bench-decimal', { types: ['price=decimal(9,2)', 'amount=decimal(12,3)'], codec: 'ZSTD' });
});

test('quoted cells of many lines across block cuts, CRLF, and TSV whose stray quotes mislead the parity cut', { timeout: 240_000 }, async () => {
  for (const [tsv, crlf] of [[false, false], [false, true], [true, false], [true, true]] as const) {
    const text = multiline(30_000, tsv ? 5 : 6, tsv, crlf);
    await sameAcrossThreads(enc(text), `multiline-${tsv ? 'tsv' : 'csv'}-${crlf ? 'crlf' : 'lf'}`, tsv ? { from: 'tsv' } : {});
  }
});

test('TSV whose every row has a stray quote and a quoted cell of several lines: the parity cut lands inside quotes, and the blocks after are read again', { timeout: 240_000 }, async () => {
  const next = xorshift(11);
  const rows = ['id\tsize\tnote'];
  for (let i = 0; i < 150_000; i++) {
    const r = next();
    rows.push(`${i + 1}\t${r % 90}" screen\t"${Array.from({ length: 2 + (r % 4) }, (_, k) => WORDS[(r >>> k) % 8]).join('\n')}"`);
  }
  await sameAcrossThreads(enc(rows.join('\n') + '\n'), 'parity-lies', { from: 'tsv' });
});

test('bad rows (malformed, short, cells that do not fit) are the same rows, in the same order, and strict stops at the same one', { timeout: 240_000 }, async () => {
  const input = enc(malformed(40_000));
  await sameAcrossThreads(input, 'malformed');
  const failures = [];
  for (const threads of [1, 3]) {
    failures.push(await convert(input, join(dir, `strict-${threads}.parquet`), { from: 'csv', strict: true, threads, sample: 50_000 }).then(() => 'no error', (e: Error) => e.message));
  }
  assert.match(failures[0]!, /:\d+: /);
  assert.equal(failures[1], failures[0]);
});

test('row groups cut by rows and by bytes, bad rows at their edges, are the same whatever the threads, and hold the input\'s good rows in order', { timeout: 240_000 }, async () => {
  const input = enc(malformed(30_000));
  for (const [name, options] of [['rows', { rowGroupRows: 2_999, pageSize: 4_096 }], ['bytes', { rowGroupSize: 100_000 }], ['rows-zstd-v2', { rowGroupRows: 4_096, codec: 'ZSTD', pageVersion: 2 }]] as const) {
    await sameAcrossThreads(input, `groups-${name}`, options);
    const reader = await openParquet(readFileSync(join(dir, `groups-${name}-3.parquet`)));
    const groups = reader.file.metadata.rowGroups;
    assert.ok(groups.length > 5, `${name}: ${groups.length} row groups`);
    if ('rowGroupRows' in options) assert.ok(groups.slice(0, -1).every((g) => Number(g.numRows) === options.rowGroupRows), `${name}: full row groups of ${options.rowGroupRows} rows`);
    // The id column is text (a row's id is "not-a-number" in the sample): the others are the input's row numbers, from 1.
    const ids: number[] = [];
    for await (const row of reader.rows()) if (row.id !== 'not-a-number') ids.push(Number(row.id));
    // The good rows, in input order: the bad rows left out, no row twice.
    assert.ok(ids.length > 25_000 && ids.length < 30_000, `${name}: ${ids.length} rows`);
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${name}: row ${ids[i]} after ${ids[i - 1]}`);
    assert.ok(ids[0]! >= 1 && ids.at(-1)! <= 30_000);
  }
});

test('a quote the input never closes, the cut after its last line break: one bad row at the line it opens (strict: the error), whatever the threads', { timeout: 240_000 }, async () => {
  for (const rows of [1_000, 20_000]) {
    // Line breaks inside the open quote: none, or more than the parity cut steps back over.
    for (const inner of [0, 40]) {
      const head = ['id,name', ...Array.from({ length: rows }, (_, i) => `${i},r${i}`)].join('\n');
      const input = enc(`${head}\n${rows},"open ${'x\n'.repeat(inner)}${'y'.repeat(3 << 20)}\n`);
      const line = rows + 2;
      for (const threads of [1, 2, 3]) {
        const what = `${rows} rows, ${inner} line breaks in the quote, ${threads} threads`;
        const { report } = await run(input, `unclosed-${rows}-${inner}`, { threads, sample: 100 });
        const r = report as { numRows: number; badRows: number; firstBadRows: { line: number; reason: string }[] };
        assert.equal(r.numRows, rows, what);
        assert.equal(r.badRows, 1, what);
        assert.equal(r.firstBadRows[0]!.line, line, what);
        assert.match(r.firstBadRows[0]!.reason, /Quote Not Closed/, what);
        await assert.rejects(convert(input, join(dir, 'unclosed-strict.parquet'), { from: 'csv', strict: true, threads, sample: 100 }), new RegExp(`:${line}: malformed CSV: Quote Not Closed`), what);
      }
    }
  }
});

test('invalid UTF-8 past the sample is told once, with its line and column, whatever the threads', { timeout: 240_000 }, async () => {
  const text = enc([...convertCsvLines(30_000, 8)].join(''));
  // An invalid byte in a name cell far into the input.
  const at = text.indexOf(enc('\n25000,')[0]!, Math.floor(text.length * 0.8));
  const cell = text.indexOf(44, text.indexOf(44, text.indexOf(44, text.indexOf(44, at + 1) + 1) + 1) + 1) + 2;
  text[cell] = 0xff;
  await sameAcrossThreads(text, 'utf8');
  const { warnings } = await run(text, 'utf8-check', { threads: 3 });
  assert.deepEqual(warnings.map((w) => [w.code, w.column]), [['INVALID_UTF8', 'name']]);
});

/** `text`'s tokens by one tokenizer, and a shaper with the header and the schema of the records `sample` picks. */
function tokenized(text: string, delimiter: string, sample: (records: string[][]) => string[][]) {
  const whole: CsvToken[] = [];
  const one = csvTokenizer(delimiter);
  one.feed(text, whole);
  one.finish(whole);
  const shaper = new CsvShaper({ fields: undefined, overrides: [] });
  shaper.setHeader((whole[0] as { cells: string[] }).cells);
  const schema = shaper.schema(sample(whole.slice(1).flatMap((t) => ('cells' in t ? [t.cells] : []))));
  return { whole, one, shaper, schema };
}

test('the first invalid UTF-8 byte is told at its line (the line breaks before it, counted here) and column, wherever it is: in the sample, past it, at a block\'s start, near the end, a sequence the input ends inside; whatever the threads', { timeout: 240_000 }, async () => {
  const base = enc([...convertCsvLines(30_000, 9)].join(''));
  const starts: number[] = []; // where each line of the input starts
  for (let i = 0; i < base.length; i = base.indexOf(10, i) + 1 || base.length) starts.push(i);
  // The `name` cell (the fifth) of the record starting at line `line`, and the byte to spoil in it.
  const nameCell = (line: number) => {
    let at = starts[line - 1]!;
    for (let k = 0; k < 4; k++) at = base.indexOf(44, at) + 1;
    return at + 1;
  };
  const lineOf = (b: Uint8Array, at: number) => 1 + b.subarray(0, at).filter((c) => c === 10).length;
  const recordAt = (l: number) => !/^\d+,/.test(new TextDecoder().decode(base.subarray(starts[l - 1]!, starts[l - 1]! + 8))) ? l + 1 : l;
  const spots = [600, 1_100, 11_000, 20_000, starts.length - 3].map(recordAt);
  for (const line of spots) {
    const text = base.slice();
    const at = nameCell(line);
    text[at] = 0xff;
    await sameAcrossThreads(text, `utf8-${line}`);
    const { warnings } = await run(text, `utf8-${line}-check`, { threads: 1 });
    assert.deepEqual(warnings.map((w) => [w.code, w.line, w.column]), [['INVALID_UTF8', lineOf(text, at), 'name']], `the byte at line ${lineOf(text, at)}`);
  }
  // A sequence the input ends inside: a lead byte after the last line's value, told at the last line.
  const cut = Uint8Array.from([...base.subarray(0, base.length - 1), 0xe2, 0x82]);
  await sameAcrossThreads(cut, 'utf8-end');
  const { warnings } = await run(cut, 'utf8-end-check', { threads: 1 });
  assert.deepEqual(warnings.map((w) => [w.code, w.line]), [['INVALID_UTF8', lineOf(cut, base.length - 1)]]);
});

test('a block whose cut falls inside a quoted cell is read again from where the block before ended: the records are those of one tokenizer', async () => {
  // Stray TSV quotes make every cut's parity lie; each record's quoted cell spans many lines.
  const text = multiline(3000, 9, true, false);
  const bytes = enc(text);
  const { whole, one, shaper, schema } = tokenized(text, '\t', (records) => records);
  const reader = new CsvBlockReader({ delimiter: '\t', skipBad: true, replica: shaper.replica(schema)!, headerCells: undefined });
  // Blocks from the first record on, cut small so that many cuts fall inside quotes.
  const start = text.indexOf('\n') + 1;
  const chunks = (async function* () {
    for (let i = start; i < bytes.length; i += 4096) yield bytes.subarray(i, Math.min(bytes.length, i + 4096));
  })();
  const blocks = new CsvBlocks(chunks);
  let rows = 0;
  let resumed = 0;
  let resume;
  for (let b = await blocks.next(8192); b; b = await blocks.next(8192)) {
    const r = reader.read({ bytes: b.bytes, start: resume ?? one.startState(b.line + 1), final: b.final, utf8At: undefined });
    if (resume) resumed++;
    resume = r.end;
    rows += r.rows;
    assert.equal(r.bad.length, 0);
  }
  assert.equal(rows, whole.length - 1);
  assert.ok(resumed > 0, 'some cut fell inside quotes');
});

test('a block read from its bytes gives the rows, bad rows (short, long, refused cells) and values the tokenizer gives, strict or not', () => {
  // Records the byte scan reads (a malformed one would leave the rest to the tokenizer), with rows of another width and cells refused.
  const lines = [...convertCsvLines(3_000, 5)];
  for (let i = 5; i < lines.length; i += 131) lines[i] = i % 2 ? '1,2\n' : lines[i]!.replace('\n', ',x\n');
  for (let i = 9; i < lines.length; i += 173) lines[i] = lines[i]!.replace(/^\d+/, 'not-a-number');
  for (let i = 11; i < lines.length; i += 251) lines[i] = lines[i]!.replace(/(true|false)\n$/, 'maybe\n');
  const text = lines.join('');
  // A sample of good rows only: the ids are integers and the flags booleans, so "not-a-number" and "maybe" are refused.
  const { one, shaper, schema } = tokenized(text, ',', (records) => records.filter((c) => c.length === 9 && /^\d+$/.test(c[0]!) && /^(true|false)$/.test(c[8]!)).slice(0, 100));
  const bytes = enc(text.slice(text.indexOf('\n') + 1));
  for (const skipBad of [true, false]) {
    const reader = new CsvBlockReader({ delimiter: ',', skipBad, replica: shaper.replica(schema)!, headerCells: undefined });
    const read = (utf8At: number | undefined) => {
      const r = reader.read({ bytes, start: one.startState(2), final: true, utf8At });
      return { rows: r.rows, bad: r.bad, columns: r.columns, end: r.end };
    };
    // A line of invalid UTF-8 waiting to be told sends the whole block through the tokenizer.
    const fromText = read(1);
    const fromBytes = read(undefined);
    if (skipBad) assert.ok(['id', 'flag', undefined].every((c) => fromText.bad.some((b) => b.column === c)) && fromText.rows > 2_900, 'refused cells and rows of another width');
    else assert.equal(fromText.bad.length, 1);
    assert.deepEqual(fromBytes, fromText, skipBad ? 'skipping bad rows' : 'strict');
  }
});

test('each block has a buffer of its own: handing it to a thread (detaching it) leaves the carry and the input whole, whether the input comes as one chunk many blocks long or in small chunks', async () => {
  const input = enc([...convertCsvLines(20_000, 12)].join(''));
  const kept = input.slice();
  for (const size of [input.length, 3000, 70_000]) {
    const chunks = (async function* () {
      for (let i = 0; i < input.length; i += size) yield input.subarray(i, Math.min(input.length, i + size));
    })();
    const blocks = new CsvBlocks(chunks);
    const got: number[] = [];
    let line = 1;
    for (let b = await blocks.next(50_000); b; b = await blocks.next(50_000)) {
      assert.notEqual(b.bytes.buffer, input.buffer, 'the input is not handed over');
      assert.equal(b.line, line);
      got.push(...b.bytes);
      line += b.bytes.filter((x) => x === 10).length;
      // What a worker thread is handed: the buffer, detached here.
      structuredClone(b.bytes, { transfer: [b.bytes.buffer as ArrayBuffer] });
      assert.equal(b.bytes.length, 0);
    }
    assert.ok(Buffer.from(got).equals(Buffer.from(kept)), `chunks of ${size} bytes: the blocks are the input, in order`);
    assert.ok(Buffer.from(input).equals(Buffer.from(kept)));
  }
});

test('blocks read in turn are cut after any LF without counting, in order, the last one final: the reader says where each ended', async () => {
  const input = enc([...convertCsvLines(20_000, 14)].join(''));
  for (const size of [input.length, 3000, 70_000]) {
    const chunks = (async function* () {
      for (let i = 0; i < input.length; i += size) yield input.subarray(i, Math.min(input.length, i + size));
    })();
    const blocks = new CsvBlocks(chunks);
    const first = (await blocks.next(50_000))!;
    assert.equal(first.line, 1);
    blocks.inTurn();
    const got = [...first.bytes];
    const finals = [first.final];
    for (let b = await blocks.next(50_000); b; b = await blocks.next(50_000)) {
      assert.ok(Number.isNaN(b.line), 'no line counted');
      assert.equal(b.bytes.at(-1) === 10 || b.final, true, 'a block ends after an LF, or the input');
      got.push(...b.bytes);
      finals.push(b.final);
    }
    assert.ok(Buffer.from(got).equals(Buffer.from(input)), `chunks of ${size} bytes: the blocks are the input, in order`);
    assert.deepEqual(finals.map((f, i) => f === (i === finals.length - 1)), finals.map(() => true), 'only the last block is final');
  }
});

test('with N threads, N - 1 workers start with the conversion: one encodes the row groups of the blocks the main thread reads, more read and encode; the same bytes', { timeout: 240_000 }, async () => {
  const input = enc([...convertCsvLines(20_000, 13)].join(''));
  const counted = (calls: { started: number[]; read: number; encode: number }): CsvBlockReaders => ({
    start(count) {
      calls.started.push(count);
      const pool = csvWorkers.start(count);
      return { ...pool, read: (job) => (calls.read++, pool.read(job)), encode: (job) => (calls.encode++, pool.encode(job)) };
    },
  });
  const outputs = [];
  for (const threads of [1, 2, 3]) {
    const calls = { started: [] as number[], read: 0, encode: 0 };
    const sink = new BufferSink();
    await runConvert({ ...sourceInput(input, {}), output: sinkOutput(() => sink), to: 'parquet', csvReaders: counted(calls) }, { from: 'csv', to: 'parquet', threads, rowGroupRows: 5_000 });
    assert.deepEqual(calls.started, threads === 1 ? [] : [threads - 1], `${threads} threads: the pools started`);
    if (threads === 2) assert.ok(calls.read === 0 && calls.encode >= 4, `${calls.read} blocks read and ${calls.encode} row groups encoded by the worker`);
    if (threads === 3) assert.ok(calls.read > 1 && calls.encode >= 4, `${calls.read} blocks read and ${calls.encode} row groups encoded by the workers`);
    outputs.push(Buffer.from(sink.bytes()));
  }
  assert.ok(outputs[0]!.equals(outputs[1]!) && outputs[0]!.equals(outputs[2]!));
});
