/**
 * JSON Lines read from their bytes into columns (src/convert/json-columns.ts:
 * the sample again after inference, then every line past it) against the
 * general reader (JSON.parse and the writer's coercion) on the same lines:
 * the output bytes, the bad rows and the warnings are the same. The general
 * reader's truth is the same records as a JSON array (`asArray`: each
 * element on its line, so line numbers agree), which only the general
 * reader reads. Lines are generated with the common forms of each type and
 * every form the byte reader leaves to the general one, in random order,
 * and given as one chunk and in small ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convert } from '../../src/node/entries/convert.js';
import { BufferSink, openParquet } from '../../src/node/index.js';
import type { ConvertOptions, ConvertReport } from '../../src/convert/convert.js';
import type { ParquetryWarning } from '../../src/warnings.js';
import { rng } from '../writer/gen.js';
import { parseJson } from '../../src/convert/read-json.js';
import { readJsonLines } from '../../src/entries/convert.js';

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** Values of each column: mostly the common form, sometimes one the byte reader hands on (or that no type takes). */
const FORMS: Record<string, readonly string[]> = {
  id: ['1', '-7', '0', '-0', '123456789012345', '1234567890123456789', '-9223372036854775808', '9223372036854775808', '1e3', '2.0', '"12"', 'null', '01', '1.5', 'true'],
  name: ['"plain"', '"spa ce"', '""', '"caf\u00e9 \u20ac \ud83d\ude00"', '"esc \\" \\\\ \\/ \\n \\t"', '"\\u00e9\\ud83d\\ude00"', '"lone \\ud800"', '"\\u0000"', '12', 'true', 'null', '"bad \\x"', '["x"]'],
  score: ['1.5', '-0.0', '0', '248.78700000000026', '1e300', '-2.5E-3', '1e400', '12345678901234567890', '0.1', '"3.25"', 'null', '1.', '.5', '-', '9007199254740993', '-4999.999999999999', '123456789.12345678e-5', '5e-324', '1E+2'],
  day: ['"2024-02-29"', '"1999-12-31"', '"2023-02-29"', '"2024-1-01"', '"2024-01-01T00:00:00"', '"\\u0032024-01-01"', 'null', '20240101', '"soon"'],
  ts: ['"2024-01-02 03:04:05"', '"2024-01-02T03:04:05.123456"', '"2024-01-02t03:04:05.5"', '"2024-01-02 03:04"', '"2024-01-02 03:04:05Z"', '"2024-01-02 03:04:05.1234567"', '"1600-01-01 00:00:00"', 'null', '"2024-01-02 24:00:00"'],
  ok: ['true', 'false', 'null', '"true"', '1', 'tru'],
  tags: ['[]', '["a"]', '["a", "b" , "c"]', '[null, "x"]', 'null', '[1]', '[["a"]]', '"a"', '[ ]'],
  place: ['{"city":"x","zip":1}', '{"zip":2,"city":"y"}', '{}', '{"city":null}', 'null', '{"city":"x","zip":1,"other":3}', '{"city":"a","city":"b"}', '[]', '{"zip":"9"}'],
  pts: ['[]', '[{"x":1.5,"y":2}]', '[{"x":1},{"y":null},null]', 'null', '[{"x":"s"}]', '[{"z":1}]'],
};
const COLUMNS = Object.keys(FORMS);

/** Lines that are not records, blank or not: in a JSON array each is an element (or white space) of its own. */
const BALANCED = ['', '   ', '\t', '[1]', 'nul', '{"id":1}}', '{"id":1} x', '\u000b', '"s"', '{"id":1,}', '{"id":1} \r', '{"id":1,"ok":tr}'];
/** Lines an array's splitter would read on past (an open string, object or list): not valid JSON, so bad rows as the general reader words them. */
const UNBALANCED = ['{"id":1', '{"id":1,"name":"open', '{"id":1,"tags":["a"', '{"id":-', '{"id":1,"ok":tr', '{"id":1,"place":{"city":"x"', '{"id":1,"name":"ends in a backslash\\', '{"id":1,"day":"2024-01-01\\', '{"na\\'];

/** One line: its columns in the schema's order or another, some missing, sometimes an extra key, odd spacing, or a line that is not an object. */
function line(r: () => number): string {
  const odd = r() < 0.15;
  if (odd && r() < 0.1) return pick(r, [...BALANCED, ...UNBALANCED]);
  const keys = odd && r() < 0.3 ? [...COLUMNS].sort(() => r() - 0.5) : COLUMNS;
  const parts: string[] = [];
  for (const k of keys) {
    if (odd && r() < 0.1) continue;
    const forms = FORMS[k]!;
    const v = odd && r() < 0.5 ? pick(r, forms) : forms[0 === Math.floor(r() * 3) ? 1 : 0]!;
    parts.push(`${pick(r, ['', ' '])}"${k}"${pick(r, [':', ' : '])}${v}`);
  }
  if (odd && r() < 0.1) parts.push('"extra":1');
  return `{${parts.join(',')}}${odd && r() < 0.2 ? ' \r' : ''}`;
}

/** A sample of lines every column's type settles from: the common forms. */
const SAMPLE = [
  '{"id":1,"name":"a","score":1.5,"day":"2024-01-01","ts":"2024-01-02 03:04:05","ok":true,"tags":["a"],"place":{"city":"x","zip":1},"pts":[{"x":1.5,"y":2}]}',
  '{"id":2,"name":"b","score":2.25,"day":"2024-01-02","ts":"2024-01-02 03:04:06.5","ok":false,"tags":[],"place":{"city":"y","zip":2},"pts":[]}',
];

interface Run {
  bytes: Uint8Array;
  report: Omit<ConvertReport, 'bytesWritten' | 'input' | 'output'>;
  warnings: ParquetryWarning[];
}

async function run(input: Uint8Array | AsyncIterable<Uint8Array>, options: ConvertOptions): Promise<Run | string> {
  const sink = new BufferSink();
  const warnings: ParquetryWarning[] = [];
  try {
    const { bytesWritten: _b, input: _i, output: _o, bytesRead: _r, ...report } = await convert(input, sink, { from: 'jsonl', to: 'parquet', sample: SAMPLE.length, onWarning: (w) => warnings.push(w), ...options });
    return { bytes: sink.bytes(), report, warnings };
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * The lines as a JSON array, each element on its line: blank lines as white
 * space, and lines that are not valid JSON (which the array's splitter might
 * read on past) as empty lines, their bad rows added to the report as the
 * general reader words them.
 */
function asArray(lines: ReadonlyArray<string | Uint8Array>): { bytes: Uint8Array; invalid: BadRowOf[] } {
  const invalid: BadRowOf[] = [];
  // A byte order mark begins the input, before the "[".
  const bom = typeof lines[0] === 'string' && lines[0].startsWith('\ufeff');
  const kept = lines.map((l, i) => {
    if (i === 0 && bom) l = (l as string).slice(1);
    const text = typeof l === 'string' ? l : new TextDecoder().decode(l);
    if (/^\s*$/.test(text)) return undefined;
    try {
      parseJson(text);
      return typeof l === 'string' ? enc.encode(l) : l;
    } catch (e) {
      const reason = `not valid JSON: ${(e as Error).message}`;
      invalid.push({ line: i + 1, reason, text: `input:${i + 1}: ${reason}` });
      return undefined;
    }
  });
  let last = kept.length - 1;
  while (last > 0 && kept[last] === undefined) last--;
  const parts = kept.flatMap((l, i) => [
    ...(i === 0 ? [enc.encode(bom ? '\ufeff[' : '[')] : []), l ?? new Uint8Array(0), enc.encode((l && i < last ? ',' : '') + (i === kept.length - 1 ? ']' : '\n')),
  ]);
  return { bytes: Buffer.concat(parts), invalid };
}

const enc = new TextEncoder();

type BadRowOf = ConvertReport['firstBadRows'][number];

/** The general reader's run of the lines (JSON Lines given as one chunk or in small ones: `input`), as a JSON array, with the bad rows of lines it left out. */
async function general(lines: ReadonlyArray<string | Uint8Array>, options: ConvertOptions): Promise<Run | string> {
  const { bytes, invalid } = asArray(lines);
  const got = await run(bytes, { ...options, from: 'json' });
  if (!invalid.length) return got;
  const first = invalid[0]!;
  if (options.strict) {
    // The first bad row ends a strict run: the array's, or else the first line left out, worded as the array's would be.
    const at = typeof got === 'string' ? /input:(\d+):/.exec(got) : null;
    if (at && Number(at[1]) < first.line) return got;
    return `STRICT FAILURE AT ${first.text}`;
  }
  if (typeof got === 'string') return got;
  const firstBadRows = [...got.report.firstBadRows, ...invalid].sort((a, b) => a.line - b.line).slice(0, 10);
  return { ...got, report: { ...got.report, rowsRead: got.report.rowsRead + invalid.length, badRows: got.report.badRows + invalid.length, firstBadRows } };
}

/** The byte reader's runs (the lines as one chunk, and in small chunks) give the general reader's. */
async function sameAsGeneral(lines: ReadonlyArray<string | Uint8Array>, options: ConvertOptions, r: () => number, what: string, end = '\n'): Promise<Run | string> {
  const want = await general(lines, options);
  const bytes = Buffer.concat(lines.flatMap((l, i) => [typeof l === 'string' ? enc.encode(l) : l, enc.encode(i < lines.length - 1 ? '\n' : end)]));
  for (const [how, input] of [['one chunk', bytes], ['small chunks', chunked(bytes, r)]] as const) {
    const got = await run(input, options);
    if (typeof want === 'string' && want.startsWith('STRICT FAILURE AT ')) {
      assert.ok(typeof got === 'string' && got.includes(want.slice(18)), `${what}, ${how}: fails at the first line that is not valid JSON (${want.slice(18)}): ${typeof got === 'string' ? got : 'no failure'}`);
      continue;
    }
    if (typeof want === 'string' || typeof got === 'string') {
      assert.equal(got, want, `${what}, ${how}: the same failure`);
      continue;
    }
    assert.deepEqual(got.report, want.report, `${what}, ${how}: the same report`);
    assert.deepEqual(got.warnings, want.warnings, `${what}, ${how}: the same warnings`);
    assert.ok(Buffer.compare(got.bytes, want.bytes) === 0, `${what}, ${how}: the same bytes`);
  }
  return want;
}

function chunked(bytes: Uint8Array, r: () => number): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (let i = 0; i < bytes.length; ) {
      const n = 1 + Math.floor(r() * 300);
      yield bytes.slice(i, i + n);
      i += n;
    }
  })();
}

test('JSON Lines read from bytes into columns: the same output, bad rows and warnings as the general reader, line by line (generated variants)', async () => {
  for (let seed = 1; seed <= 12; seed++) {
    const r = rng(seed);
    const lines = [...SAMPLE, ...Array.from({ length: 400 }, () => line(r))];
    for (const strict of [false, true]) {
      const general = await sameAsGeneral(lines, { strict }, r, `seed ${seed}, strict ${strict}`, seed % 2 ? '\n' : '');
      if (!strict && typeof general !== 'string') assert.ok(general.report.badRows > 0 && general.report.numRows > 300, `seed ${seed}: bad rows and good ones both (${general.report.badRows} bad)`);
    }
  }
});

test('the sample read again from its bytes: lines of every form within it, blank and bad ones, a byte order mark, samples of one line to all of them', async () => {
  const r = rng(404);
  for (const sample of [1, 2, 5, 40, 200, 1000]) {
    const lines = [...SAMPLE, ...Array.from({ length: 150 }, () => line(r))];
    if (sample % 2) lines[0] = '\ufeff' + lines[0];
    lines.splice(1, 0, '', '{"id":1,"name":"x"');
    await sameAsGeneral(lines, { sample }, r, `sample ${sample}`);
  }
});

test('an output that takes rows (Trevni): the sample, then every line, read by the general reader in the same order, one chunk or small ones', async () => {
  const r = rng(808);
  for (const sample of [1, 40, 1000]) {
    const lines = [...SAMPLE, ...Array.from({ length: 300 }, () => line(r))];
    await sameAsGeneral(lines, { sample, to: 'trevni' }, r, `Trevni, sample ${sample}`);
  }
});

test('invalid UTF-8 past the sample or within it: read as U+FFFD by the general reader, the warning naming its line and column, as one chunk or many', async () => {
  const bad = Uint8Array.from([...enc.encode('{"id":7,"name":"x'), 0xff, 0xc3, ...enc.encode('y","score":1}')]);
  const body = Array.from({ length: 50 }, (_, i) => `{"id":${i + 3},"name":"n${i}","score":${i}.5}`);
  const lines = [...SAMPLE, ...body, bad, ...body];
  const general = await sameAsGeneral(lines, {}, rng(5), 'past the sample');
  assert.ok(typeof general !== 'string');
  assert.deepEqual(general.warnings.map((w) => [w.code, w.line, w.column]), [['INVALID_UTF8', 53, 'name']]);
  const reader = await openParquet(general.bytes);
  const rows = await reader.readRows();
  assert.equal(rows[52]!.name, 'x\ufffd\ufffdy');
  await reader.close();
  for (const sample of [3, 60, 200]) {
    const within = await sameAsGeneral([SAMPLE[0]!, bad, ...lines.slice(1)], { sample }, rng(sample), `within a sample of ${sample}`);
    assert.ok(typeof within !== 'string');
    assert.deepEqual(within.warnings.map((w) => [w.code, w.line, w.column]), [['INVALID_UTF8', 2, 'name']]);
  }
});

test('a schema the byte reader does not read (a UUID column, a map) leaves the whole input to the general reader, with the same output', async () => {
  const r = rng(9);
  const lines = Array.from({ length: 300 }, (_, i) => `{"id":${i},"u":"123e4567-e89b-12d3-a456-${String(i).padStart(12, '0')}","m":${i % 3 ? '{"a":1}' : 'null'}}`);
  for (const types of [[], ['m=map(string,int64)']]) {
    const general = await sameAsGeneral(lines, { types }, r, `types ${types}`, '');
    assert.ok(typeof general !== 'string', String(general));
  }
  // A field named __proto__ (an own property to JSON.parse), at the top or in a struct.
  for (const shape of ['{"id":%,"__proto__":%}', '{"id":%,"s":{"__proto__":%,"b":"x"}}']) {
    const general = await sameAsGeneral(Array.from({ length: 300 }, (_, i) => shape.replaceAll('%', String(i))), {}, r, shape, '');
    assert.ok(typeof general !== 'string', String(general));
  }
});

test('many blocks (1 MiB of lines each), with lines for the general reader among them: the same output as the general reader', { timeout: 120_000 }, async () => {
  const r = rng(77);
  const lines = [...SAMPLE, ...Array.from({ length: 20_000 }, () => line(r))];
  assert.ok(lines.join('\n').length > 2 * (1 << 20), 'past two blocks');
  const general = await sameAsGeneral(lines, {}, r, 'many blocks', '');
  assert.ok(typeof general !== 'string' && general.report.badRows > 0);
});

test('keys matched on their bytes only where a name is plain ASCII: names with quotes, backslashes, spaces or non-ASCII, and keys written with escapes, read as the general reader reads them', async () => {
  const r = rng(31);
  const names = ['a"b', 'c\\d', 'e f', 'caf\u00e9', 'id', 'i'];
  // Each key as JSON.stringify writes it, with an escaped letter, or (bad JSON) as its raw bytes in quotes; the two names JSON escapes mostly left out.
  const key = (n: string, k: number): string | undefined => {
    const x = r();
    if (k < 2) return x < 0.6 ? undefined : x < 0.8 ? `"${n}"` : JSON.stringify(n);
    return x < 0.1 ? JSON.stringify(n).replace(/[a-z]/, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) : JSON.stringify(n);
  };
  const lines = Array.from({ length: 600 }, (_, i) => {
    const parts = names.flatMap((n, k) => {
      const text = i < 10 ? JSON.stringify(n) : key(n, k);
      return text === undefined ? [] : [`${text}:${k === 3 ? JSON.stringify(`v${i}`) : i * (k + 1)}`];
    });
    // Sometimes a key that begins as a plain name and goes on: another name.
    if (r() < 0.05) parts.push('"idx":1');
    if (r() < 0.1) parts.reverse();
    return `{${parts.join(',')}}`;
  });
  const general = await sameAsGeneral(lines, { sample: 10 }, r, 'keys', '');
  assert.ok(typeof general !== 'string', String(general));
  assert.ok(general.report.badRows > 100, 'lines with raw quotes or backslashes in a key are bad rows');
});

test('invalid UTF-8 named by its line however the input is cut: line breaks are counted only up to it, the lines before it told by the reader (a sweep of lines, places and chunk sizes; the converter and the records reader)', async () => {
  const lines = Array.from({ length: 120 }, (_, i) => `{"id":${i + 1},"name":"n${'é'.repeat(i % 3)}${i}","tags":["a"]}`);
  /** The lines with one invalid byte in line `at` (1-based): in a string, or where a token goes (a bad row), or a sequence the input's end cuts short. */
  const withBad = (at: number, where: 'string' | 'token' | 'end'): Uint8Array => Buffer.concat(lines.map((l, i) => {
    const line = enc.encode(l);
    const out = i + 1 !== at ? line : where === 'string' ? Buffer.concat([line.subarray(0, 15), Uint8Array.of(0xe9), line.subarray(15)]) : where === 'token' ? Buffer.concat([line.subarray(0, 1), Uint8Array.of(0xc3), line.subarray(1)]) : Buffer.concat([line, Uint8Array.of(0xe2, 0x82)]);
    return i + 1 === lines.length && where === 'end' ? out : Buffer.concat([out, enc.encode('\n')]);
  }));
  const chunks = (b: Uint8Array, size: number) => (async function* () {
    for (let i = 0; i < b.length; i += size) yield b.slice(i, i + size);
  })();
  for (const [at, where] of [[1, 'string'], [2, 'token'], [5, 'string'], [50, 'string'], [51, 'token'], [97, 'string'], [120, 'token'], [120, 'end']] as const) {
    const bytes = withBad(at, where);
    for (const size of [1, 3, 7, 64, 1000, bytes.length]) {
      const what = `line ${at} (${where}), chunks of ${size}`;
      const converted = await run(chunks(bytes, size), { sample: 50 });
      assert.ok(typeof converted !== 'string', converted as string);
      assert.deepEqual(converted.warnings.map((w) => [w.code, w.line]), [['INVALID_UTF8', at]], `convert, ${what}`);
      const warnings: ParquetryWarning[] = [];
      const read = await readJsonLines(chunks(bytes, size), { sample: 50, onWarning: (w) => warnings.push(w) });
      for await (const _ of read.records);
      assert.deepEqual(warnings.map((w) => [w.code, w.line]), [['INVALID_UTF8', at]], `readJsonLines, ${what}`);
    }
  }
});
