/**
 * Parquet to CSV, TSV and JSON Lines from column vectors (text-columns.ts)
 * prints what the row path prints, byte for byte: the row path (rows read
 * with ISO temporal values, each printed by write-text.ts's line) is still
 * the library's for datasets, JSON arrays, VARIANT columns and row groups
 * read in windows, so it is the reference here. Every corpus file, and
 * generated files of the values whose text has edge cases (integers at
 * 2^53 and past it, non-finite and negative-zero floats, strings with
 * quotes, delimiters, controls and non-ASCII, invalid UTF-8, nulls,
 * dictionaries, nested fields, integer-like column names).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BufferSink, ParquetryError, ParquetWriter, defineSchema, field as f, openParquet } from '../../src/node/index.js';
import { convert } from '../../src/node/entries/convert.js';
import { countingSink } from '../../src/convert/output.js';
import { textOutput } from '../../src/convert/write-text.js';
import type { ColumnPath } from '../../src/schema/tree.js';
import { runConvert, sinkOutput, sourceInput } from '../../src/convert/convert.js';
import { parquetText, TextPieceWriter, type TextPieceJob, type TextPieceSetup, type TextWriters } from '../../src/convert/text-columns.js';
import { csvWorkers } from '../../src/node/csv-workers.js';
import { textWriters } from '../../src/node/text-workers.js';

const CORPUS = join('..', 'shared', 'corpus');

type Form = { to: 'csv' | 'tsv' | 'jsonl'; delimiter?: string };
const FORMS: Form[] = [{ to: 'csv' }, { to: 'tsv' }, { to: 'jsonl' }, { to: 'csv', delimiter: ';' }, { to: 'csv', delimiter: '§' }, { to: 'csv', delimiter: ':' }, { to: 'csv', delimiter: '-' }];

/** The row path's text: rows, then write-text.ts's line per row. */
async function rowText(input: Uint8Array, form: Form, columns?: readonly ColumnPath[]): Promise<Uint8Array> {
  const reader = await openParquet(input);
  const sink = new BufferSink();
  const delimiter = form.delimiter ?? (form.to === 'tsv' ? '\t' : ',');
  const out = await textOutput(form.to === 'jsonl' ? 'jsonl' : 'csv', countingSink(sink, 'reference'), { columns: reader.plan(columns).fields.map((x) => x.name), delimiter, header: true });
  for await (const batch of reader.rowBatches({ columns, temporal: 'iso' })) for (const row of batch) await out.write(row);
  await out.close();
  return sink.bytes();
}

async function converted(input: Uint8Array, form: Form, columns?: readonly ColumnPath[]): Promise<Uint8Array> {
  const sink = new BufferSink();
  await convert(input, sink, { from: 'parquet', to: form.to, ...(form.delimiter ? { delimiter: form.delimiter } : {}), ...(columns ? { columns } : {}) });
  return sink.bytes();
}

/** Same bytes, or (where the row path fails) a typed error too. */
async function same(input: Uint8Array, form: Form, what: string, columns?: readonly ColumnPath[]): Promise<'same' | 'error'> {
  let want: Uint8Array;
  try {
    want = await rowText(input, form, columns);
  } catch (e) {
    assert.ok(e instanceof ParquetryError, `${what}: the row path failed untyped: ${e}`);
    await assert.rejects(converted(input, form, columns), (err) => err instanceof ParquetryError, `${what}: the row path fails, the column path must too`);
    return 'error';
  }
  const got = await converted(input, form, columns);
  if (Buffer.compare(Buffer.from(got), Buffer.from(want)) !== 0) {
    const a = Buffer.from(got).toString('utf8');
    const b = Buffer.from(want).toString('utf8');
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    assert.fail(`${what} ${form.to}${form.delimiter ?? ''}: differs at ${i}: ${JSON.stringify(a.slice(Math.max(0, i - 60), i + 60))} vs ${JSON.stringify(b.slice(Math.max(0, i - 60), i + 60))}`);
  }
  return 'same';
}

function parquetFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.parquet') && statSync(join(dir, p)).isFile()).map((p) => join(dir, p)).sort();
}

test('every corpus file: the column path prints the row path’s text, or fails typed where it fails', { timeout: 300_000 }, async () => {
  const files = parquetFiles(CORPUS);
  assert.ok(files.length > 100, `${files.length} corpus files`);
  let compared = 0;
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(file));
    for (const form of [FORMS[0]!, FORMS[2]!]) if ((await same(bytes, form, file)) === 'same') compared++;
  }
  assert.ok(compared > 150, `${compared} conversions compared`);
});

/** A file of edge-case values in several row groups (dictionary and plain chunks). */
async function edgeFile(rows: number, dictionary: boolean, rowGroupRows = Math.ceil(rows / 3)): Promise<Uint8Array> {
  const schema = defineSchema({
    i32: f.int32(),
    i64: f.int64().required(),
    u32: f.uint32(),
    u64: f.uint64(),
    d: f.double(),
    fl: f.float(),
    s: f.string(),
    bin: f.binary(),
    b: f.boolean(),
    day: f.date(),
    ts: f.timestamp('MICROS'),
    ms: f.timestamp('MILLIS', { utc: false }),
    ns: f.timestamp('NANOS'),
    dec: f.decimal(12, 3),
    '1': f.string(),
    clean: f.string(),
    'a "q",b': f.int32(),
    list: f.list(f.string()),
    st: f.struct({ x: f.int64(), y: f.list(f.double()) }),
    flat: f.struct({ a: f.int32(), b: f.string(), c: f.date() }),
    m: f.map(f.string().required(), f.int32()),
  });
  const i64s = [0n, -1n, 2n ** 53n - 1n, -(2n ** 53n - 1n), 2n ** 53n, -(2n ** 53n), 2n ** 63n - 1n, -(2n ** 63n), 4294967296n, -4294967297n, 1234567890123n];
  const doubles = [0, -0, 1.5, -2.25e-7, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, NaN, Infinity, -Infinity, 0.1 + 0.2, 123456789012345680000];
  // Milliseconds: the epoch, just before it, the years 0000 and 9999 at their edges, past them, 2^52 µs and beyond.
  const times = [0n, -1n, -62167219200000n, -62167219200001n, 253402300799999n, 253402300800000n, 4503599627370n, 4503599627371n, -4503599627371n, 1234567890123n, -1234567890123n];
  const strings = ['', 'plain', 'a,b', 'a;b', 'tab\there', 'q"uote', 'line\nbreak', 'cr\rx', 'back\\slash', 'ctl\u0001\u001f\u007f', 'é accent', '§ sect', '😀 emoji', '\ufeffbom', 'x'.repeat(100), '{"json": 1}'];
  const rowOf = (i: number) => ({
    i32: i % 7 === 0 ? null : [0, -1, 2147483647, -2147483648, 10, 99, 100, 1e9][i % 8],
    i64: i64s[i % i64s.length],
    u32: i % 5 === 0 ? null : [0, 4294967295, 2147483648, 7][i % 4],
    u64: i % 6 === 0 ? null : [0n, 18446744073709551615n, 9223372036854775808n, 42n][i % 4],
    d: i % 9 === 0 ? null : doubles[i % doubles.length],
    fl: i % 4 === 0 ? null : [0.1, -3.5, 1e30, NaN][i % 4],
    s: i % 11 === 0 ? null : strings[i % strings.length] + (dictionary ? '' : String(i)),
    bin: i % 3 === 0 ? null : i % 3 === 1 ? new Uint8Array([0xff, 0xfe, 0x22, 0x2c]) : new Uint8Array(0),
    b: i % 3 === 0 ? null : i % 2 === 0,
    day: i % 4 === 0 ? null : i % 4 === 1 ? [0, -1, -719528, -719529, 2932896, 2932897, -25_000][i % 7] ?? 5 : 18_000 + i,
    ts: i % 5 === 0 ? null : i % 7 === 1 ? times[i % times.length]! * 1000n : 1_600_000_000_000_000n + BigInt(i) * 1_000_001n,
    ms: times[i % times.length],
    ns: i % 2 ? BigInt.asIntN(64, times[i % times.length]! * 1_000_000n) : BigInt(i) * 86_399_999_999_999n - 20n * 86_400_000_000_000n,
    dec: i % 6 === 0 ? null : `${i - 50}.${String(i % 1000).padStart(3, '0')}`,
    '1': `one ${i % 3}`,
    // Strings that need no escape in CSV (comma, tab) or JSON, the empty one among them: a chunk's bytes copied as they are.
    clean: i % 13 === 0 ? null : i % 4 === 0 ? '' : ['plain', 'two words', '~!@#$%^&*()'][i % 3] + (dictionary ? '' : String(i)),
    'a "q",b': i,
    list: i % 4 === 0 ? null : i % 4 === 1 ? [] : ['a', null, strings[i % strings.length]!],
    st: i % 5 === 0 ? null : { x: i % 2 ? null : BigInt(i), y: i % 3 ? [i / 3, -0] : null },
    // A struct of leaves, written from their cells: nulls at either level, strings to escape inside it.
    flat: i % 7 === 3 ? null : { a: i % 2 ? null : i - 300, b: i % 5 === 1 ? null : strings[i % strings.length]!, c: i % 3 ? 18_000 + i : null },
    m: i % 3 === 0 ? null : [{ key: `k${i % 4}`, value: i % 2 ? null : i }],
  });
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { rowGroupRows, dictionary });
  await w.writeMany(Array.from({ length: rows }, (_, i) => rowOf(i)));
  await w.close();
  return sink.bytes();
}

test('edge-case values, dictionary and plain chunks, several row groups: the same text in every form', { timeout: 120_000 }, async () => {
  for (const dictionary of [true, false]) {
    const bytes = await edgeFile(600, dictionary);
    for (const form of FORMS) assert.equal(await same(bytes, form, `dictionary ${dictionary}`), 'same');
    for (const columns of [['s', 'st.x', 'list'], ['1', 'a "q",b', 'm'], ['d']]) {
      for (const form of [FORMS[0]!, FORMS[2]!]) assert.equal(await same(bytes, form, `columns ${columns}`, columns), 'same');
    }
  }
});

test('row groups of several blocks (4,096 rows each, each block’s text a buffer of its own) give the row path\'s text', { timeout: 120_000 }, async () => {
  for (const dictionary of [true, false]) {
    const bytes = await edgeFile(9_000, dictionary, 9_000);
    for (const form of [FORMS[0]!, FORMS[2]!]) assert.equal(await same(bytes, form, `dictionary ${dictionary}`), 'same');
  }
});

test('invalid UTF-8 in a string column prints as the row path decodes it (U+FFFD)', async () => {
  const schema = defineSchema({ s: f.string(), n: f.int32() });
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { dictionary: false });
  // The writer takes a string column's bytes as they are when given bytes.
  await w.writeMany([{ s: new Uint8Array([0x61, 0xff, 0x62]) as never, n: 1 }, { s: 'ok', n: 2 }, { s: new Uint8Array([0xc3]) as never, n: 3 }]);
  await w.close();
  for (const form of FORMS) assert.equal(await same(sink.bytes(), form, 'invalid UTF-8'), 'same');
});

test('a row group read in windows (too dense to decode whole) goes through the row path with the same text', { timeout: 120_000 }, async () => {
  const N = 1_100_000;
  const schema = defineSchema({ a: f.int32() });
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { pageSize: 1 << 30, pageRowLimit: 1 << 30, pageIndex: false, rowGroupRows: 1 << 21 });
  const a = Array.from({ length: N }, (_, i) => (i % 100_000 === 7 ? i : null));
  await w.writeColumns({ a });
  await w.close();
  const reader = await openParquet(sink.bytes());
  let batches = 0;
  for await (const b of reader.columns({ columns: ['a'] })) batches += b.rows < b.numRows ? 1 : 0;
  assert.ok(batches > 1, 'the row group comes in windows');
  assert.equal(await same(sink.bytes(), { to: 'csv' }, 'windows'), 'same');
});

/** Converted with `threads` through runConvert, the text written by `writers` (worker threads, or a stand-in). */
async function threaded(input: Uint8Array, form: Form, threads: number, writers?: TextWriters): Promise<Uint8Array> {
  const sink = new BufferSink();
  const ends = { ...sourceInput(input, {}), output: sinkOutput(() => sink), to: undefined, ...(writers ? { textWriters: writers } : {}), csvReaders: csvWorkers };
  await runConvert(ends, { from: 'parquet', to: form.to, threads, ...(form.delimiter ? { delimiter: form.delimiter } : {}) });
  return sink.bytes();
}

/** Text writers in this thread (TextPieceWriter as a worker runs it), counting the pieces they write; `fail`: every piece fails, so the calling thread writes it. */
function inThread(fail: boolean): TextWriters & { pieces: number } {
  const writers = {
    pieces: 0,
    start(_count: number, setup: TextPieceSetup) {
      const writer = new TextPieceWriter(structuredClone(setup));
      return {
        async write(job: TextPieceJob) {
          writers.pieces++;
          if (fail) throw new Error('a lost worker');
          return writer.write(structuredClone(job));
        },
        async close() {},
      };
    },
  };
  return writers;
}

test('threads: row groups cut into pieces written by worker threads (or a failing stand-in) give the one thread’s bytes', { timeout: 240_000 }, async () => {
  // Two row groups of 33,000 rows: each is cut in two.
  const bytes = await edgeFile(66_000, true, 33_000);
  for (const form of [FORMS[0]!, FORMS[2]!]) {
    const one = await threaded(bytes, form, 1, textWriters);
    if (form.to === 'jsonl') assert.equal(await same(bytes, form, 'one thread'), 'same');
    assert.ok(Buffer.from(await threaded(bytes, form, 2, textWriters)).equals(Buffer.from(one)), `${form.to} with 2 threads`);
    for (const fail of [false, true]) {
      const writers = inThread(fail);
      assert.ok(Buffer.from(await threaded(bytes, form, 3, writers)).equals(Buffer.from(one)), `${form.to} with pieces written ${fail ? 'after failing' : 'by the stand-in'}`);
      assert.equal(writers.pieces, 2, 'a piece of each row group went to the writers');
    }
  }
});

test('nested fields whose keys an object would reorder (integer-like, __proto__) print as the row path prints them', async () => {
  // Fields as [name, field] pairs: integer-like names after others, as an object literal could not order them.
  const schema = defineSchema([
    ['s', f.struct([['b', f.int32()], ['2', f.string()], ['10', f.list(f.int64())], ['__proto__', f.double()]])],
    ['p', f.struct([['__proto__', f.string()], ['z', f.struct([['y', f.boolean()], ['0', f.int32()]])]])],
    ['l', f.list(f.struct([['k', f.string()], ['v', f.list(f.list(f.int32()))]]))],
    ['m', f.map(f.string().required(), f.struct([['a', f.string()], ['1', f.int32()]]))],
    ['plain', f.struct([['x', f.int32()], ['y', f.list(f.string())]])],
  ]);
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { rowGroupRows: 7 });
  const own = <T extends object>(o: T, k: string, value: unknown): T => Object.defineProperty(o, k, { value, enumerable: true });
  await w.writeMany(Array.from({ length: 40 }, (_, i) => ({
    s: i % 5 === 0 ? null : own({ b: i, '2': i % 3 ? `t${i}` : null, '10': i % 4 ? [BigInt(i), 2n ** 60n] : [] }, '__proto__', i / 7),
    p: i % 6 === 0 ? null : own({ z: i % 2 ? null : { y: i % 3 === 0, '0': i } }, '__proto__', `q"${i}`),
    l: i % 4 === 0 ? null : [{ k: 'a,b', v: [[i, null], [], null] }, { k: null, v: null }],
    m: i % 3 === 0 ? null : [{ key: `k${i}`, value: i % 2 ? null : { '1': i, a: 'x' } }],
    plain: { x: i, y: ['é', 'a"b'] },
  }) as never));
  await w.close();
  const reader = await openParquet(sink.bytes());
  assert.deepEqual(reader.schema.root.children.map((c) => c.isLeaf ? [] : c.children.map((x) => x.name)).slice(0, 2), [['b', '2', '10', '__proto__'], ['__proto__', 'z']]);
  for (const form of FORMS) assert.equal(await same(sink.bytes(), form, 'reordered keys'), 'same');
});

test('a struct of leaves whose first leaf makes it null while another leaf holds a value there fails typed, as the row path fails', async () => {
  const schema = defineSchema({ s: f.struct({ a: f.int32(), b: f.int32() }), n: f.int32() });
  // Per column: definition levels of rows 0-2 and the present values; s.b has a value in row 1, where s.a's level (0) makes s null.
  const levels = [[2, 0, 1], [2, 2, 2], [1, 1, 1]];
  const values = [[7], [8, 9, 10], [1, 2, 3]];
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { dictionary: false });
  await w.writeEntries(3, (k, start, end) => {
    const def = Uint16Array.from(levels[k]!.slice(start, end));
    const max = k === 2 ? 1 : 2;
    const before = levels[k]!.slice(0, start).filter((d) => d === max).length;
    return { n: end - start, rep: null, def, values: { t: 'typed', values: Int32Array.from(values[k]!.slice(before, before + def.filter((d) => d === max).length)) } };
  });
  await w.close();
  const bytes = sink.bytes();
  for (const form of [FORMS[0]!, FORMS[2]!]) assert.equal(await same(bytes, form, 'inconsistent struct'), 'error');
});

test('a present struct whose required member has no value (its level says the struct is null) fails typed, as the row path fails', async () => {
  const schema = defineSchema({ s: f.struct({ a: f.int32().required(), b: f.int32().required() }), n: f.int32() });
  // s.a says s is present in every row; s.b's level 0 in row 1 says it is null there.
  const levels = [[1, 1, 1], [1, 0, 1], [1, 1, 1]];
  const values = [[7, 8, 9], [10, 11], [1, 2, 3]];
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { dictionary: false });
  await w.writeEntries(3, (k, start, end) => {
    const def = Uint16Array.from(levels[k]!.slice(start, end));
    const before = levels[k]!.slice(0, start).filter((d) => d === 1).length;
    return { n: end - start, rep: null, def, values: { t: 'typed', values: Int32Array.from(values[k]!.slice(before, before + def.filter((d) => d === 1).length)) } };
  });
  await w.close();
  for (const form of [FORMS[0]!, FORMS[2]!]) assert.equal(await same(sink.bytes(), form, 'struct missing a required member'), 'error');
});

test('empty and null lists, and lists of a leaf, quoted as the row path quotes them whatever the delimiter, brackets included', async () => {
  const schema = defineSchema({ l: f.list(f.int32()), s: f.list(f.string()) });
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema);
  await w.writeMany(Array.from({ length: 30 }, (_, i) => ({ l: i % 3 === 0 ? [] : i % 3 === 1 ? null : [i, null], s: i % 4 === 0 ? [] : [`a${i}`, 'b]c'] })));
  await w.close();
  for (const delimiter of ['[', ']', ',', ';', '|']) assert.equal(await same(sink.bytes(), { to: 'csv', delimiter }, `lists, delimiter ${delimiter}`), 'same');
});

test('a write that fails while the next text is made fails the conversion: one write at a time, the sink aborted, not closed', async () => {
  const bytes = await edgeFile(9_000, false, 9_000);
  for (const form of [FORMS[0]!, FORMS[2]!]) {
    let writes = 0;
    let busy = 0;
    let most = 0;
    const calls: string[] = [];
    const sink = {
      async write() {
        most = Math.max(most, ++busy);
        await new Promise((resolve) => setTimeout(resolve, 5));
        busy--;
        if (++writes === 2) throw new Error('disk full');
      },
      async close() {
        calls.push('close');
      },
      async abort() {
        calls.push('abort');
      },
    };
    await assert.rejects(convert(bytes, sink, { from: 'parquet', to: form.to }), /disk full/);
    assert.deepEqual(calls, ['abort']);
    assert.equal(most, 1);
    assert.equal(writes, 2);
  }
});

test('a list of a leaf read from levels the record assembler rejects fails typed, as the row path fails; levels it takes print its text', async () => {
  const schema = defineSchema({ l: f.list(f.int32()), n: f.int32() });
  // One list column's definition and repetition levels (max 3 and 1) for 3 rows, its values at level 3.
  const file = async (def: number[], rep: number[]) => {
    const sink = new BufferSink();
    const w = await ParquetWriter.open(sink, schema, { dictionary: false });
    await w.writeEntries(3, (k, start, end) => {
      if (k === 1) return { n: end - start, rep: null, def: null, values: { t: 'typed', values: Int32Array.from([1, 2, 3].slice(start, end)) } };
      // Rows start where the repetition level is 0 (a leading 1 stays with row 0).
      const starts = rep.flatMap((r, i) => (r === 0 && i > 0 ? [i] : []));
      const at = [0, ...starts, def.length];
      const [s, e] = [at[start]!, at[end]!];
      const values = def.map((d, i) => (d === 3 ? i * 7 - 5 : null)).slice(s, e).filter((v) => v !== null);
      return { n: e - s, rep: Uint16Array.from(rep.slice(s, e)), def: Uint16Array.from(def.slice(s, e)), values: { t: 'typed', values: Int32Array.from(values) } };
    });
    await w.close();
    return sink.bytes();
  };
  const cases: [number[], number[], 'same' | 'error'][] = [
    [[0, 1, 3, 2, 3], [0, 0, 0, 1, 1], 'same'], // null, [], [v, null, v]
    [[3, 3, 3, 3], [0, 1, 0, 0], 'same'],
    [[3, 1, 3, 3], [0, 1, 0, 0], 'error'], // a list continued by an empty entry
  ];
  for (const [def, rep, want] of cases) {
    let bytes: Uint8Array;
    try {
      bytes = await file(def, rep);
    } catch (e) {
      assert.ok(e instanceof ParquetryError, `the writer refused ${def}/${rep} untyped: ${e}`);
      continue;
    }
    for (const form of [FORMS[0]!, FORMS[2]!]) assert.equal(await same(bytes, form, `levels ${def} / ${rep}`), want);
  }
});

test('one long string in a chunk grows the buffer of its own block only, with the row path\'s text', async () => {
  const schema = defineSchema({ s: f.string(), n: f.int32() });
  const long = 'x'.repeat(300_000);
  for (const dictionary of [false, true]) {
    const sink = new BufferSink();
    const w = await ParquetWriter.open(sink, schema, { dictionary });
    await w.writeMany(Array.from({ length: 20_000 }, (_, i) => ({ s: i === 5 ? long : `ab${i % 50}`, n: i })));
    await w.close();
    const bytes = sink.bytes();
    for (const form of [FORMS[0]!, FORMS[2]!]) assert.equal(await same(bytes, form, `long string, dictionary ${dictionary}`), 'same');
    const reader = await openParquet(bytes);
    let text = 0;
    let held = 0;
    for await (const batch of parquetText(reader, undefined, { format: 'jsonl', delimiter: ',' })!) {
      assert.ok(!Array.isArray(batch));
      text += batch.bytes.length;
      held += batch.bytes.buffer.byteLength;
    }
    // A buffer grows by doubling and the next is sized by the one before: about twice the text, and the long string once (every block held it: 3.4 MB).
    assert.ok(held < 2 * text + long.length, `${held} bytes of buffers for ${text} of text`);
  }
});
