/**
 * JSON Lines past the sample read from their bytes into columns
 * (src/convert/json-columns.ts) against the general reader (JSON.parse and
 * the writer's coercion) on the same lines: the output bytes, the bad rows
 * and the warnings are the same. The general reader reads an input given as
 * one chunk whole (the schema settles in its first chunk); the same bytes
 * given in small chunks go through the byte reader past the sample. Lines
 * are generated with the common forms of each type and every form the byte
 * reader leaves to the general one, in random order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convert } from '../../src/node/entries/convert.js';
import { BufferSink, openParquet } from '../../src/node/index.js';
import type { ConvertOptions, ConvertReport } from '../../src/convert/convert.js';
import type { ParquetryWarning } from '../../src/warnings.js';
import { rng } from '../writer/gen.js';

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** Values of each column: mostly the common form, sometimes one the byte reader hands on (or that no type takes). */
const FORMS: Record<string, readonly string[]> = {
  id: ['1', '-7', '0', '-0', '123456789012345', '1234567890123456789', '-9223372036854775808', '9223372036854775808', '1e3', '2.0', '"12"', 'null', '01', '1.5', 'true'],
  name: ['"plain"', '"spa ce"', '""', '"caf\u00e9 \u20ac \ud83d\ude00"', '"esc \\" \\\\ \\/ \\n \\t"', '"\\u00e9\\ud83d\\ude00"', '"lone \\ud800"', '"\\u0000"', '12', 'true', 'null', '"bad \\x"', '["x"]'],
  score: ['1.5', '-0.0', '0', '248.78700000000026', '1e300', '-2.5E-3', '1e400', '12345678901234567890', '0.1', '"3.25"', 'null', '1.', '.5', '-'],
  day: ['"2024-02-29"', '"1999-12-31"', '"2023-02-29"', '"2024-1-01"', '"2024-01-01T00:00:00"', '"\\u0032024-01-01"', 'null', '20240101', '"soon"'],
  ts: ['"2024-01-02 03:04:05"', '"2024-01-02T03:04:05.123456"', '"2024-01-02t03:04:05.5"', '"2024-01-02 03:04"', '"2024-01-02 03:04:05Z"', '"2024-01-02 03:04:05.1234567"', '"1600-01-01 00:00:00"', 'null', '"2024-01-02 24:00:00"'],
  ok: ['true', 'false', 'null', '"true"', '1', 'tru'],
  tags: ['[]', '["a"]', '["a", "b" , "c"]', '[null, "x"]', 'null', '[1]', '[["a"]]', '"a"', '[ ]'],
  place: ['{"city":"x","zip":1}', '{"zip":2,"city":"y"}', '{}', '{"city":null}', 'null', '{"city":"x","zip":1,"other":3}', '{"city":"a","city":"b"}', '[]', '{"zip":"9"}'],
  pts: ['[]', '[{"x":1.5,"y":2}]', '[{"x":1},{"y":null},null]', 'null', '[{"x":"s"}]', '[{"z":1}]'],
};
const COLUMNS = Object.keys(FORMS);

/** One line: its columns in the schema's order or another, some missing, sometimes an extra key, odd spacing, or a line that is not an object. */
function line(r: () => number): string {
  const odd = r() < 0.15;
  if (odd && r() < 0.1) return pick(r, ['', '   ', '\t', '[1]', '{"id":1', 'nul', '{"id":1}}', '{"id":1} x', '\u000b', '"s"', '{"id":1,}', '{"id":1,"name":"open', '{"id":1,"tags":["a"', '{"id":-', '{"id":1,"ok":tr', '{"id":1,"place":{"city":"x"', '{"id":1} \r', '{"id":1,"name":"ends in a backslash\\', '{"id":1,"day":"2024-01-01\\', '{"na\\']);
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
    const bytes = new TextEncoder().encode(lines.join('\n') + (seed % 2 ? '\n' : ''));
    for (const strict of [false, true]) {
      const general = await run(bytes, { strict });
      const columns = await run(chunked(bytes, r), { strict });
      if (typeof general === 'string' || typeof columns === 'string') {
        assert.equal(columns, general, `seed ${seed}, strict ${strict}: the same failure`);
        continue;
      }
      assert.deepEqual(columns.report, general.report, `seed ${seed}: the same report`);
      assert.deepEqual(columns.warnings, general.warnings, `seed ${seed}: the same warnings`);
      assert.ok(Buffer.compare(columns.bytes, general.bytes) === 0, `seed ${seed}: the same bytes`);
      if (!strict) assert.ok(general.report.badRows > 0 && general.report.numRows > 300, `seed ${seed}: bad rows and good ones both (${general.report.badRows} bad)`);
    }
  }
});

test('invalid UTF-8 past the sample: read as U+FFFD by the general reader, the warning naming its line and column, as one chunk or many', async () => {
  const enc = new TextEncoder();
  const bad = Uint8Array.from([...enc.encode('{"id":7,"name":"x'), 0xff, 0xc3, ...enc.encode('y","score":1}')]);
  const body = enc.encode(Array.from({ length: 50 }, (_, i) => `{"id":${i + 3},"name":"n${i}","score":${i}.5}`).join('\n') + '\n');
  const bytes = Uint8Array.from([...enc.encode(SAMPLE.join('\n') + '\n'), ...body, ...bad, 10, ...body]);
  const general = await run(bytes, {});
  const columns = await run(chunked(bytes, rng(5)), {});
  assert.ok(typeof general !== 'string' && typeof columns !== 'string');
  assert.deepEqual(columns.warnings, general.warnings);
  assert.deepEqual(general.warnings.map((w) => [w.code, w.line, w.column]), [['INVALID_UTF8', 53, 'name']]);
  assert.ok(Buffer.compare(columns.bytes, general.bytes) === 0);
  const reader = await openParquet(columns.bytes);
  const rows = await reader.readRows();
  assert.equal(rows[52]!.name, 'x\ufffd\ufffdy');
  await reader.close();
});

test('a schema the byte reader does not read (a UUID column, a map) leaves the whole input to the general reader, with the same output', async () => {
  const r = rng(9);
  const lines = Array.from({ length: 300 }, (_, i) => `{"id":${i},"u":"123e4567-e89b-12d3-a456-${String(i).padStart(12, '0')}","m":${i % 3 ? '{"a":1}' : 'null'}}`);
  const bytes = new TextEncoder().encode(lines.join('\n'));
  for (const types of [[], ['m=map(string,int64)']]) {
    const general = await run(bytes, { types });
    const columns = await run(chunked(bytes, r), { types });
    assert.ok(typeof general !== 'string' && typeof columns !== 'string', String(general));
    assert.ok(Buffer.compare(columns.bytes, general.bytes) === 0);
  }
  // A field named __proto__ (an own property to JSON.parse), at the top or in a struct.
  for (const shape of ['{"id":%,"__proto__":%}', '{"id":%,"s":{"__proto__":%,"b":"x"}}']) {
    const text = new TextEncoder().encode(Array.from({ length: 300 }, (_, i) => shape.replaceAll('%', String(i))).join('\n'));
    const general = await run(text, {});
    const columns = await run(chunked(text, r), {});
    assert.ok(typeof general !== 'string' && typeof columns !== 'string', String(general));
    assert.ok(Buffer.compare(columns.bytes, general.bytes) === 0, shape);
  }
});

test('many blocks (1 MiB of lines each), with lines for the general reader among them: the same output as the general reader', { timeout: 120_000 }, async () => {
  const r = rng(77);
  const lines = [...SAMPLE, ...Array.from({ length: 20_000 }, () => line(r))];
  const bytes = new TextEncoder().encode(lines.join('\n'));
  assert.ok(bytes.length > 2 * (1 << 20), 'past two blocks');
  const general = await run(bytes, {});
  const columns = await run((async function* () {
    for (let i = 0; i < bytes.length; i += 65_536) yield bytes.slice(i, i + 65_536);
  })(), {});
  assert.ok(typeof general !== 'string' && typeof columns !== 'string');
  assert.deepEqual(columns.report, general.report);
  assert.deepEqual(columns.warnings, general.warnings);
  assert.ok(Buffer.compare(columns.bytes, general.bytes) === 0);
  assert.ok(general.report.badRows > 0, 'lines with raw quotes or backslashes in a key are bad rows');
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
  const bytes = new TextEncoder().encode(lines.join('\n'));
  const general = await run(bytes, { sample: 10 });
  const columns = await run(chunked(bytes, r), { sample: 10 });
  assert.ok(typeof general !== 'string' && typeof columns !== 'string', String(general));
  assert.deepEqual(columns.report, general.report);
  assert.deepEqual(columns.warnings, general.warnings);
  assert.ok(Buffer.compare(columns.bytes, general.bytes) === 0);
  assert.ok(general.report.badRows > 100, 'lines with raw quotes or backslashes in a key are bad rows');
});
