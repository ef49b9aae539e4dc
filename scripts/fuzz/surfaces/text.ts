/**
 * CSV, JSON Lines and JSON inputs to `convert`, a surface each. Seeds:
 * records the writer tests' generator makes, written as each text form,
 * and the corpus's expected JSON lines. Mutations know the text's tokens
 * (CSV cells and lines; JSON strings, numbers, literals and punctuation):
 * a cell or value replaced by a number at a type's edge, a stray or doubled
 * quote, a delimiter, a deep nest, a wide row or object, a long run of
 * quotes; a line copied, dropped or repeated; a BOM, invalid UTF-8, NUL
 * or a line ending inserted; a cut mid-token. A case converts to Parquet,
 * Trevni or RedElm (strict or skipping bad rows) and reads the output
 * back. Invariant: rows or a typed error, in bounded time and memory, and
 * an output that reads.
 */
import { join } from 'node:path';
import { BufferSink, convert, field as f, openRedElm, openTrevni, bufferSource } from '../../../src/node/index.js';
import type { AnyField } from '../../../src/schema/builder.js';
import { makeRecords } from '../../../test/writer/gen.js';
import { corpusFiles } from '../seeds.js';
import { Rng } from '../mutate.js';
import { drain, InvariantError, judge, readParquet, type ReadLimits } from '../read.js';
import type { CaseInput, SeedFile, Surface } from '../surface.js';

type TextSurface = 'csv' | 'jsonl' | 'json';

/** Bytes [start, end) replaced by `bytes` (a splice: insert when start = end, delete when bytes is empty). */
interface TextMutation {
  kind: 'text';
  start: number;
  end: number;
  bytes: number[] | string;
  /** Repeat the replacement this many times (wide rows, deep nests, long runs), kept short in the case's JSON. */
  times?: number;
}

const enc = new TextEncoder();

function applyText(b: Uint8Array, m: TextMutation): Uint8Array {
  const start = Math.max(0, Math.min(m.start, b.length));
  const end = Math.max(start, Math.min(m.end, b.length));
  const one = typeof m.bytes === 'string' ? enc.encode(m.bytes) : Uint8Array.from(m.bytes);
  const times = m.times ?? 1;
  const out = new Uint8Array(b.length - (end - start) + one.length * times);
  out.set(b.subarray(0, start), 0);
  for (let i = 0; i < times; i++) out.set(one, start + i * one.length);
  out.set(b.subarray(end), start + one.length * times);
  return out;
}

const NUMBERS = [
  '0', '-0', '1', '-1', '127', '128', '-129', '255', '256', '32767', '32768', '2147483647', '2147483648', '-2147483649', '4294967296',
  '9007199254740991', '9007199254740993', '9223372036854775807', '9223372036854775808', '-9223372036854775809', '18446744073709551616',
  '123456789012345678901234567890', '1e308', '1e309', '-1e309', '4.9e-324', '1e-400', '1.7976931348623157e308', '0.1', '1.0', '1.', '.5',
  '+5', '00012', '0x10', '1_000', ' 12 ', 'NaN', 'Infinity', '-Infinity', '1e', '--1', '3.14159265358979323846264338327950288',
];
const TEXTS = [
  '', 'null', 'NULL', 'true', 'FALSE', '2024-02-29', '2024-02-30', '2024-01-01T00:00:00Z', '99999-12-31', '1970-01-01 00:00:00.123456789',
  '12:00:00', 'é', '\u00e9\u0301', '😀', '\ud800', '__proto__', 'constructor', 'a,b', 'a"b', 'a\nb', 'x'.repeat(70_000),
];
const INVALID_UTF8 = [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x00]];
const BOMS = [[0xef, 0xbb, 0xbf], [0xfe, 0xff], [0xff, 0xfe]];

/** Token spans of the text: CSV cells, or JSON tokens; and line starts. */
interface TextMap {
  tokens: { start: number; end: number; kind: 'cell' | 'string' | 'number' | 'literal' | 'punct' }[];
  lines: { start: number; end: number }[];
}

function csvMap(b: Uint8Array): TextMap {
  const tokens: TextMap['tokens'] = [];
  const lines: TextMap['lines'] = [];
  let cell = 0;
  let line = 0;
  let quoted = false;
  for (let i = 0; i <= b.length; i++) {
    const c = b[i];
    if (c === 0x22) quoted = !quoted;
    if (quoted && i < b.length) continue;
    if (c === 0x2c || c === 0x0a || i === b.length) {
      tokens.push({ start: cell, end: i, kind: 'cell' });
      cell = i + 1;
    }
    if (c === 0x0a || i === b.length) {
      lines.push({ start: line, end: Math.min(b.length, i + 1) });
      line = i + 1;
    }
  }
  return { tokens, lines };
}

function jsonMap(b: Uint8Array): TextMap {
  const tokens: TextMap['tokens'] = [];
  const lines: TextMap['lines'] = [];
  let line = 0;
  for (let i = 0; i < b.length;) {
    const c = b[i]!;
    if (c === 0x0a) {
      lines.push({ start: line, end: i + 1 });
      line = ++i;
    } else if (c === 0x22) {
      let j = i + 1;
      while (j < b.length && b[j] !== 0x22) j += b[j] === 0x5c ? 2 : 1;
      tokens.push({ start: i, end: Math.min(b.length, j + 1), kind: 'string' });
      i = j + 1;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < b.length && /[0-9eE+.-]/.test(String.fromCharCode(b[j]!))) j++;
      tokens.push({ start: i, end: j, kind: 'number' });
      i = j;
    } else if (c >= 0x61 && c <= 0x7a) {
      let j = i + 1;
      while (j < b.length && b[j]! >= 0x61 && b[j]! <= 0x7a) j++;
      tokens.push({ start: i, end: j, kind: 'literal' });
      i = j;
    } else {
      if (c > 0x20) tokens.push({ start: i, end: i + 1, kind: 'punct' });
      i++;
    }
  }
  if (line < b.length) lines.push({ start: line, end: b.length });
  return { tokens, lines };
}

const deep = (rng: Rng) => {
  const d = rng.pick([50, 199, 200, 201, 1000, 3000, 20_000]);
  return rng.next() < 0.5 ? `${'['.repeat(d)}1${']'.repeat(d)}` : `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`;
};

function csvMutation(rng: Rng, b: Uint8Array, map: TextMap): TextMutation {
  const cell = map.tokens.length ? rng.pick(map.tokens) : { start: 0, end: 0 };
  const line = map.lines.length ? rng.pick(map.lines) : { start: 0, end: 0 };
  const r = rng.next();
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  if (r < 0.25) return { kind: 'text', start: cell.start, end: cell.end, bytes: rng.next() < 0.6 ? rng.pick(NUMBERS) : rng.next() < 0.5 ? rng.pick(TEXTS) : quote(rng.pick(TEXTS)) };
  if (r < 0.4) {
    const at = cell.start + rng.int(cell.end - cell.start + 1);
    return { kind: 'text', start: at, end: at, bytes: rng.pick(['"', '""', '","', '"\n', '\r', '\r\n', ',', ';', '\t', '\n\n', '"x"y', '\\"']) };
  }
  if (r < 0.48) {
    // Quotes inside an unquoted cell, many of them: the parser must not resynchronise once per quote over the whole input.
    return { kind: 'text', start: cell.start, end: cell.end, bytes: rng.pick(['x{"a":', 'a"b', '"', 'x""']), times: rng.pick([10, 1000, 5000, 20_000]) };
  }
  if (r < 0.58) return { kind: 'text', start: line.start, end: line.start, bytes: Array.from(b.subarray(line.start, line.end)), times: rng.pick([1, 2, 100, 1000]) };
  if (r < 0.63) return { kind: 'text', start: line.start, end: line.end, bytes: [] };
  if (r < 0.7) {
    // A wide row: many more cells (the header's line, or a data line).
    const at = rng.next() < 0.5 ? (map.lines[0]?.end ?? 1) - 1 : line.end - 1;
    return { kind: 'text', start: Math.max(0, at), end: Math.max(0, at), bytes: rng.pick([',x', ',', ',1.5']), times: rng.pick([5, 300, 2000]) };
  }
  if (r < 0.82) {
    const at = rng.next() < 0.3 ? 0 : cell.start + rng.int(cell.end - cell.start + 1);
    return { kind: 'text', start: at, end: at, bytes: rng.pick([...INVALID_UTF8, ...BOMS]) };
  }
  if (r < 0.9) return { kind: 'text', start: rng.int(b.length + 1), end: b.length, bytes: [] };
  // The header's names: duplicates, empty, reserved.
  const head = map.tokens.filter((t) => t.end <= (map.lines[0]?.end ?? 0));
  const h = head.length ? rng.pick(head) : cell;
  return { kind: 'text', start: h.start, end: h.end, bytes: rng.pick(['', 'c0', '__proto__', 'a.b', ' ', '"a,b"', 'x'.repeat(5000)]) };
}

function jsonMutation(rng: Rng, b: Uint8Array, map: TextMap): TextMutation {
  const values = map.tokens.filter((t) => t.kind !== 'punct');
  const tok = values.length ? rng.pick(values) : { start: 0, end: 0, kind: 'literal' as const };
  const line = map.lines.length ? rng.pick(map.lines) : { start: 0, end: 0 };
  const r = rng.next();
  if (r < 0.3) {
    const v = rng.next();
    const bytes = v < 0.45 ? rng.pick(NUMBERS) : v < 0.65 ? JSON.stringify(rng.pick(TEXTS)) : v < 0.8 ? deep(rng)
      : v < 0.9 ? rng.pick(['{}', '[]', 'null', 'true', '{"a":1}', '[1,"a",null]', '"\\ud800"', '"\\u0000"', '{"__proto__":{"x":1}}', '{"a":1,"a":2}', '{"":1}', '{"a.b":1}'])
        : `{${Array.from({ length: 3000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    return { kind: 'text', start: tok.start, end: tok.end, bytes };
  }
  if (r < 0.45) {
    const p = map.tokens.length ? rng.pick(map.tokens) : tok;
    const at = rng.next() < 0.5 ? p.start : p.end;
    return { kind: 'text', start: at, end: at, bytes: rng.pick([',', ':', '{', '}', '[', ']', '"', ',,', '/*x*/', 'NaN', '\n', '\r\n', ' ', '\\']) };
  }
  if (r < 0.55) return { kind: 'text', start: line.start, end: line.start, bytes: Array.from(b.subarray(line.start, line.end)), times: rng.pick([1, 2, 100, 1000]) };
  if (r < 0.6) return { kind: 'text', start: line.start, end: line.end, bytes: [] };
  if (r < 0.7) {
    // A value nested deep, at the record's top level.
    const d = rng.pick([100, 200, 201, 2000, 50_000]);
    const open = rng.next() < 0.5 ? '[' : '{"a":';
    const close = open === '[' ? ']' : '}';
    return { kind: 'text', start: tok.start, end: tok.end, bytes: `${open.repeat(d)}0${close.repeat(d)}` };
  }
  if (r < 0.82) {
    const at = rng.next() < 0.3 ? 0 : tok.start + rng.int(tok.end - tok.start + 1);
    return { kind: 'text', start: at, end: at, bytes: rng.pick([...INVALID_UTF8, ...BOMS]) };
  }
  if (r < 0.92) return { kind: 'text', start: rng.int(b.length + 1), end: b.length, bytes: [] };
  return { kind: 'text', start: tok.start, end: tok.end, bytes: `"${'\\"'.repeat(rng.pick([10, 5000]))}"` };
}

const LEAVES: (() => AnyField)[] = [
  () => f.boolean(), () => f.int32(), () => f.int64(), () => f.double(), () => f.string(), () => f.date(), () => f.timestamp('MICROS'), () => f.decimal(9, 2),
];

function textOf(surface: TextSurface, records: Record<string, unknown>[], names: string[]): string {
  const plain = (v: unknown): unknown => (typeof v === 'bigint' ? Number(v) : v instanceof Date ? v.toISOString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : Array.isArray(v) ? v.map(plain) : v);
  if (surface === 'csv') {
    const cell = (v: unknown) => {
      const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(plain(v)) : String(plain(v));
      return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    return `${names.join(',')}\n${records.map((r) => names.map((n) => cell(r[n])).join(',')).join('\n')}\n`;
  }
  const lines = records.map((r) => JSON.stringify(Object.fromEntries(names.map((n) => [n, plain(r[n])]))));
  return surface === 'jsonl' ? `${lines.join('\n')}\n` : `[${lines.join(',\n')}]\n`;
}

/** A writer-made text: random flat columns (nested ones as lists, in JSON) and records from the writer tests' generator. */
function generatedText(surface: TextSurface, seed: number, index: number): Uint8Array {
  const rng = new Rng((seed * 0x9e3779b1 + index * 0x85ebca6b + 11) >>> 0);
  const fields = Array.from({ length: 1 + rng.int(6) }, (_, i) => {
    const leaf = rng.pick(LEAVES)();
    return [`c${i}`, surface !== 'csv' && rng.next() < 0.3 ? f.list(leaf) : leaf] as [string, AnyField];
  });
  const { expected } = makeRecords(fields, 1 + rng.int(120), 1 + rng.int(1_000_000), { nullRate: rng.pick([0, 0.1, 0.4]), maxLen: 3 });
  return enc.encode(textOf(surface, expected, fields.map(([n]) => n)));
}

interface TextOptions extends Record<string, unknown> {
  to: 'parquet' | 'trevni' | 'redelm';
  strict: boolean;
}

async function runText(input: CaseInput, limits: ReadLimits, stage: { name: string }): Promise<number> {
  const o = input.options as TextOptions;
  const sink = new BufferSink();
  stage.name = `convert ${input.format} to ${o.to}`;
  const report = await convert(input.bytes, sink, { from: input.format as TextSurface, to: o.to, strict: o.strict });
  const out = sink.bytes();
  stage.name = `read the ${o.to} written`;
  // What convert wrote must read: a typed error here is the writer's, not the input's.
  try {
    if (o.to === 'parquet') await readParquet(out, true, limits, { name: '' });
    else if (o.to === 'trevni') await drain((await openTrevni(bufferSource(out))).rows());
    else await drain((await openRedElm(out)).rows());
  } catch (e) {
    throw new InvariantError(`convert wrote ${o.to} that does not read back: ${(e as Error)?.name}: ${(e as Error)?.message}`);
  }
  return report.numRows;
}

function textSurface(name: TextSurface): Surface<TextMutation> {
  return {
    name,
    ext: name,
    async seeds(seed, count) {
      const corpus = name === 'jsonl'
        ? corpusFiles([join('..', 'shared', 'corpus', 'expected')], '.jsonl', 32 * 1024).filter((_, i) => i % 4 === 0).map((c): SeedFile => ({ ...c, surface: name }))
        : [];
      return [...corpus, ...Array.from({ length: count }, (_, i): SeedFile => ({ name: `writer:${name}:${seed}:${i}`, surface: name, bytes: generatedText(name, seed, i) }))];
    },
    prepare: (s) => (name === 'csv' ? csvMap(s.bytes) : jsonMap(s.bytes)),
    mutate: (rng, s, map) => (name === 'csv' ? csvMutation : jsonMutation)(rng, s.bytes, map as TextMap),
    options: (rng) => ({ verifyChecksums: true, options: { to: rng.pick(['parquet', 'parquet', 'parquet', 'trevni', 'redelm'] as const), strict: rng.next() < 0.3 } satisfies TextOptions }),
    build: async (s, mutations, o) => ({ format: name, bytes: mutations.reduce(applyText, s.bytes), verifyChecksums: true, options: o.options }),
    run(input, limits) {
      const stage = { name: '' };
      return judge(stage, () => runText(input, limits, stage));
    },
  };
}

export const textSurfaces = { csv: textSurface('csv'), jsonl: textSurface('jsonl'), json: textSurface('json') };
