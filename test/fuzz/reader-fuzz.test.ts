/**
 * Reader fuzz, the fixed part: every prefix of a small Parquet file and of
 * some footers (with a fixed-up length and magic), and the mutants the fuzz
 * found, each read to the end (all rows, printed canonically, and all column
 * batches) in a child process with a per-case timeout and a memory cap. The
 * only acceptable outcomes are rows or a ParquetryError raised by a real
 * check. The random part, mutations of both formats for 60 seconds, is
 * campaign.test.ts; the engine is scripts/fuzz/ (`npm run fuzz`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Rng, applyMutation, randomMutation, type FileMap, type Mutation } from '../../scripts/fuzz/mutate.js';
import { runCases, type PoolResult } from '../../scripts/fuzz/pool.js';
import { acceptable } from '../../scripts/fuzz/read.js';
import { REGRESSIONS } from './regressions.js';

const TIMEOUT_MS = 10_000;
const WORKERS = 2;
const MEMORY_MB = 768;

const DATA = join('..', 'shared', 'corpus', 'parquet-testing', 'data');

/** Every prefix of this one is tried. */
const PREFIX_FILE = join(DATA, 'nested_lists.snappy.parquet');
/** Every prefix of these files' footers is tried (with a fixed-up length and magic). */
const FOOTER_PREFIX_FILES = [join(DATA, 'nested_maps.snappy.parquet'), join(DATA, 'datapage_v2.snappy.parquet'), join('examples', 'fixtures', 'sample.parquet')];

interface Case {
  id: number;
  file: string;
  mutation: Mutation;
}

const bytesOf = new Map<string, Uint8Array>();
function load(file: string): Uint8Array {
  let b = bytesOf.get(file);
  if (!b) bytesOf.set(file, (b = new Uint8Array(readFileSync(file))));
  return b;
}

function footerSpan(file: string): { start: number; end: number } {
  const b = load(file);
  const len = new DataView(b.buffer, b.byteOffset, b.length).getUint32(b.length - 8, true);
  return { start: b.length - 8 - len, end: b.length - 8 };
}

function describeFailure(c: Case, r: PoolResult): string {
  const detail = 'stack' in r && r.stack ? r.stack.split('\n').slice(0, 12).join('\n      ') : r.error;
  const wrapped = 'wrapped' in r && r.wrapped ? `\n      wraps ${r.wrapped.split('\n').slice(0, 4).join('\n        ')}` : '';
  return `case ${c.id}: ${r.result} reading ${c.file} mutated by ${JSON.stringify(c.mutation)}\n      ${detail}${wrapped}`;
}

/** Reads every case in child processes; the descriptions of those that end in anything but rows or a checked ParquetryError. */
async function failuresOf(cases: Case[], memoryMb = MEMORY_MB): Promise<{ failures: string[]; counts: Record<string, number> }> {
  const results = await runCases(cases.map((c) => ({ id: c.id, bytes: applyMutation(load(c.file), c.mutation), format: 'parquet' as const, verifyChecksums: true })), {
    workers: WORKERS, timeoutMs: TIMEOUT_MS, memoryMb,
  });
  assert.equal(results.length, cases.length, 'every case has an outcome');
  const counts: Record<string, number> = {};
  const failures: string[] = [];
  for (const r of results) {
    counts[r.result] = (counts[r.result] ?? 0) + 1;
    const overCap = 'peakMb' in r && r.peakMb !== undefined && r.peakMb > memoryMb;
    if (!acceptable(r) || overCap) failures.push(describeFailure(cases[r.id]!, overCap ? { ...r, result: 'memory', error: `peak RSS ${r.peakMb!.toFixed(0)} MiB` } : r));
  }
  return { failures, counts };
}

test('every prefix of a small file, and every prefix of some footers, ends in rows or a ParquetryError', { timeout: 300_000 }, async (t) => {
  const cases: Case[] = [];
  const add = (file: string, mutation: Mutation) => cases.push({ id: cases.length, file, mutation });
  const size = load(PREFIX_FILE).length;
  for (let length = 0; length <= size; length++) add(PREFIX_FILE, { kind: 'truncate', length });
  for (const file of FOOTER_PREFIX_FILES) {
    const { start, end } = footerSpan(file);
    for (let keep = 0; keep <= end - start; keep++) add(file, { kind: 'footerPrefix', keep });
  }
  const { failures, counts } = await failuresOf(cases);
  t.diagnostic(`${cases.length} cases: ${JSON.stringify(counts)}`);
  assert.deepEqual(failures, [], `${failures.length} truncated files ended in something other than rows or a ParquetryError:\n  ${failures.slice(0, 15).join('\n  ')}`);
});

test('regressions: mutants the fuzz found end in a checked ParquetryError or rows', { timeout: 60_000 }, async () => {
  const cases: Case[] = REGRESSIONS.map((r, id) => ({ id, file: r.file, mutation: r.mutation }));
  // A small cap: a regression that blows memory up is stopped quickly instead of after gigabytes.
  const { failures } = await failuresOf(cases, 384);
  assert.deepEqual(failures, [], `${failures.length} regression cases fail:\n  ${failures.join('\n  ')}`);
});

test('the mutations are deterministic', () => {
  const map: FileMap = { size: 1000, footerStart: 800, footerEnd: 992, chunkStarts: [4, 300] };
  const a = new Rng(7);
  const b = new Rng(7);
  for (let i = 0; i < 50; i++) assert.deepEqual(randomMutation(a, map), randomMutation(b, map));
  const src = new Uint8Array(1000).map((_, i) => i & 0xff);
  const m: Mutation = { kind: 'varint', at: 10, value: '300', zigzag: false };
  assert.deepEqual([...applyMutation(src, m).subarray(10, 12)], [0xac, 0x02]);
  assert.equal(src[10], 10, 'the original is untouched');
  assert.equal(applyMutation(src, { kind: 'cut', start: 10, end: 20 }).length, 990);
});

test('the harness catches hangs, crashes, heap and native memory blow-ups and untyped errors, and carries on', { timeout: 120_000 }, async () => {
  const cases = Array.from({ length: 12 }, (_, id) => ({ id }));
  const results = await runCases(cases, { workers: 2, timeoutMs: 3000, memoryMb: 96, batch: 4, entry: new URL('./misbehaving-worker.ts', import.meta.url) });
  assert.deepEqual(results.map((r) => r.id), cases.map((c) => c.id));
  // A heap filling up trips the RSS watch or V8's heap limit (or, on a busy machine, the time limit while V8 is still
  // collecting): caught either way. Native memory, which the heap limit does not see, must trip the RSS watch.
  const got = results.map((r, i) => (i % 6 === 4 && (r.result === 'hang' || r.result === 'crash') ? 'memory' : r.result));
  assert.deepEqual(got, ['rows', 'hang', 'untyped', 'crash', 'memory', 'memory', 'rows', 'hang', 'untyped', 'crash', 'memory', 'memory']);
});
