/**
 * Reader fuzz: real corpus files (and two DuckDB writes), mutated with a
 * fixed seed: byte flips, truncations at every 1/50th of the length, zeroed
 * ranges, random varints in the footer and page headers, random footer
 * lengths, cut and copied ranges; then structured edits (one field of the
 * decoded footer or a page header changed, a list item dropped, duplicated
 * or swapped, and the struct encoded back); then every prefix of a small
 * file and of some footers. Each mutant is read to the end (all rows,
 * printed canonically, and all column batches) in a child process with a
 * per-case timeout and a heap limit. The only acceptable outcomes are rows or
 * a ParquetryError; anything else, a hang or a crash fails, printing the
 * seed and the mutation that reproduces it:
 *
 *   applyMutation(readFileSync(file), mutation)   // from ./mutate.ts
 *
 * PARQUETRY_FUZZ_SEED=<n> picks another seed, PARQUETRY_FUZZ_ROUNDS=<n> the
 * number of random byte-level mutations per file (default 400; half as many
 * structured ones).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openParquet } from '../../src/node/index.js';
import { Rng, applyMutation, randomMutation, type FileMap, type Mutation } from './mutate.js';
import { runCases, type PoolResult } from './pool.js';
import { randomStructuredMutation } from './structured.js';
import { REGRESSIONS } from './regressions.js';
import { DuckFiles } from '../reader/helpers.js';

const SEED = Number(process.env.PARQUETRY_FUZZ_SEED ?? 0x5eed_2024);
const ROUNDS = Number(process.env.PARQUETRY_FUZZ_ROUNDS ?? 400);
const TIMEOUT_MS = 10_000;
const THREADS = 2;
const MEMORY_MB = 768;

const DATA = join('..', 'shared', 'corpus', 'parquet-testing', 'data');
const BAD = join('..', 'shared', 'corpus', 'parquet-testing', 'bad_data');

/** Small files covering the codecs, encodings, page versions, nesting and logical types of the corpus. */
export const FUZZ_FILES = [
  ...[
    'alltypes_plain.parquet', 'alltypes_plain.snappy.parquet', 'alltypes_dictionary.parquet', 'binary.parquet', 'byte_array_decimal.parquet',
    'byte_stream_split.zstd.parquet', 'concatenated_gzip_members.parquet', 'data_index_bloom_encoding_stats.parquet', 'datapage_v2.snappy.parquet',
    'datapage_v2_empty_datapage.snappy.parquet', 'delta_binary_packed.parquet', 'delta_byte_array.parquet', 'delta_encoding_optional_column.parquet',
    'delta_length_byte_array.parquet', 'dict-page-offset-zero.parquet', 'fixed_length_byte_array.parquet', 'fixed_length_decimal.parquet',
    'fixed_length_decimal_legacy.parquet', 'float16_nonzeros_and_nans.parquet', 'floating_orders_nan_count.parquet', 'hadoop_lz4_compressed.parquet',
    'incorrect_map_schema.parquet', 'int32_with_null_pages.parquet', 'int64_decimal.parquet', 'int96_from_spark.parquet', 'list_columns.parquet',
    'lz4_raw_compressed.parquet', 'map_no_value.parquet', 'nested_lists.snappy.parquet', 'nested_maps.snappy.parquet', 'nested_structs.rust.parquet',
    'non_hadoop_lz4_compressed.parquet', 'nonnullable.impala.parquet', 'null_list.parquet', 'nullable.impala.parquet', 'nulls.snappy.parquet',
    'old_list_structure.parquet', 'page_v2_empty_compressed.parquet', 'plain-dict-uncompressed-checksum.parquet', 'repeated_no_annotation.parquet',
    'repeated_primitive_no_list.parquet', 'rle-dict-snappy-checksum.parquet', 'rle_boolean_encoding.parquet', 'single_nan.parquet',
    'unknown-logical-type.parquet',
  ].map((f) => join(DATA, f)),
  join(BAD, 'ARROW-RS-GH-6229-LEVELS.parquet'),
  join(BAD, 'PARQUET-1481.parquet'),
  join('..', 'shared', 'corpus', 'parquet-testing', 'shredded_variant', 'case-001.parquet'),
  join('examples', 'fixtures', 'sample.parquet'),
];

/** Files DuckDB writes for this run: its V2 pages, delta encodings and nesting, next to the corpus's writers. */
let duck: DuckFiles | undefined;
const DUCK_FILES: string[] = [];
const DUCK_SQL = `SELECT i AS id, i::INTEGER % 1000 AS small, 'v' || (i % 7) AS lo, md5(i::VARCHAR) AS hi, i / 3 AS d, (i / 7)::FLOAT AS f,
    CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 1.25)::DECIMAL(18,2) END AS dec, DATE '2000-01-01' + (i % 1000)::INTEGER AS dt,
    TIMESTAMP '2000-01-01' + to_microseconds(i * 1000003) AS ts, unhex(lpad(to_hex(i), 8, '0')) AS bl,
    CASE WHEN i % 6 = 0 THEN NULL ELSE list_transform(range(i % 5), x -> CASE WHEN x = 3 THEN NULL ELSE {'x': x, 's': 's' || x} END) END AS l,
    CASE WHEN i % 4 = 0 THEN NULL ELSE MAP {'k' || (i % 3): [i, NULL]} END AS m, {'a': i % 2 = 0, 'b': [[i], []]} AS st
  FROM range(600) t(i) ORDER BY i`;

before(async () => {
  duck = await DuckFiles.create();
  DUCK_FILES.push(await duck.write('duck_v2.parquet', DUCK_SQL, 'PARQUET_VERSION V2, COMPRESSION ZSTD, ROW_GROUP_SIZE 2048'));
  DUCK_FILES.push(await duck.write('duck_v1.parquet', DUCK_SQL, 'COMPRESSION SNAPPY'));
});
after(() => duck?.close());

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

async function fileMap(file: string): Promise<FileMap> {
  const b = load(file);
  const len = new DataView(b.buffer, b.byteOffset, b.length).getUint32(b.length - 8, true);
  const map: FileMap = { size: b.length, footerStart: b.length - 8 - len, footerEnd: b.length - 8, chunkStarts: [] };
  try {
    const reader = await openParquet(b);
    for (const g of reader.metadata.rowGroups) {
      for (const c of g.columns) {
        const m = c.metaData;
        if (!m) continue;
        map.chunkStarts.push(m.dataPageOffset);
        if (m.dictionaryPageOffset) map.chunkStarts.push(m.dictionaryPageOffset);
      }
    }
  } catch {
    // A bad_data file may not open: its footer and random places are still fair game.
  }
  return map;
}

function describeFailure(c: Case, r: PoolResult, seeded = true): string {
  const detail = 'stack' in r && r.stack ? r.stack.split('\n').slice(0, 12).join('\n      ') : r.error;
  const origin = duck && c.file.startsWith(duck.dir) ? ` (written by DuckDB for this run: DUCK_SQL with the options in before())` : '';
  return `case ${c.id}${seeded ? ` (seed ${SEED})` : ''}: ${r.result} reading ${c.file}${origin} mutated by ${JSON.stringify(c.mutation)}\n      ${detail}`;
}

interface RunSummary {
  failures: string[];
  counts: Record<string, number>;
  /** Typed errors that only wrap a plain exception: checks that slipped, caught by the safety net. */
  wrapped: Map<string, string>;
  slowest: string[];
}

async function runAll(cases: Case[]): Promise<RunSummary> {
  const results = await runCases(cases.map((c) => ({ id: c.id, bytes: applyMutation(load(c.file), c.mutation) })), {
    threads: THREADS, timeoutMs: TIMEOUT_MS, memoryMb: MEMORY_MB,
  });
  const byId = new Map(cases.map((c) => [c.id, c]));
  const counts: Record<string, number> = {};
  const failures: string[] = [];
  const wrapped = new Map<string, string>();
  for (const r of results) {
    counts[r.result] = (counts[r.result] ?? 0) + 1;
    if (r.result !== 'rows' && r.result !== 'typed') failures.push(describeFailure(byId.get(r.id)!, r));
    if ('wrapped' in r && r.wrapped) {
      const key = r.wrapped.split('\n').slice(0, 2).join(' | ');
      if (!wrapped.has(key)) wrapped.set(key, `${r.error}\n      first seen: ${JSON.stringify(byId.get(r.id))}\n      ${r.wrapped.split('\n').slice(0, 8).join('\n      ')}`);
    }
  }
  const slowest = results.filter((r): r is Extract<PoolResult, { ms?: number }> => 'ms' in r && r.ms !== undefined)
    .sort((a, b) => b.ms! - a.ms!).slice(0, 3).map((r) => `${r.ms!.toFixed(0)} ms: ${JSON.stringify(byId.get(r.id))}`);
  assert.equal(results.length, cases.length, 'every case has an outcome');
  return { failures, counts, wrapped, slowest };
}

/** Diagnostics that do not fail the test: wrapped plain exceptions (each a missing check) and the slowest cases. */
function report(t: { diagnostic(msg: string): void }, wrapped: Map<string, string>, slowest: string[]): void {
  t.diagnostic(`${wrapped.size} distinct plain exceptions wrapped as CorruptFileError (acceptable, but each is a check that slipped)`);
  for (const w of wrapped.values()) t.diagnostic(`  ${w}`);
  t.diagnostic(`slowest cases: ${slowest.join('; ')}`);
}

test(`mutated corpus files end in rows or a ParquetryError (seed ${SEED}, ${ROUNDS} rounds per file)`, { timeout: Math.max(120_000, ROUNDS * 300) }, async (t) => {
  t.diagnostic(`seed ${SEED}; reproduce a case with applyMutation(readFileSync(file), mutation) from test/fuzz/mutate.ts`);
  const rng = new Rng(SEED);
  const cases: Case[] = [];
  const add = (file: string, mutation: Mutation) => cases.push({ id: cases.length, file, mutation });
  for (const file of [...FUZZ_FILES, ...DUCK_FILES]) {
    const map = await fileMap(file);
    add(file, { kind: 'none' });
    for (let k = 0; k < 50; k++) add(file, { kind: 'truncate', length: Math.floor((k * map.size) / 50) });
    for (let k = 0; k < ROUNDS; k++) add(file, randomMutation(rng, map));
  }
  const started = Date.now();
  const { failures, counts, wrapped, slowest } = await runAll(cases);
  t.diagnostic(`${cases.length} cases in ${Date.now() - started} ms: ${JSON.stringify(counts)}`);
  report(t, wrapped, slowest);
  assert.deepEqual(failures, [], `${failures.length} mutants ended in something other than rows or a ParquetryError:\n  ${failures.slice(0, 15).join('\n  ')}`);
});

test(`footers and page headers with one field changed end in rows or a ParquetryError (seed ${SEED})`, { timeout: Math.max(120_000, ROUNDS * 300) }, async (t) => {
  const rng = new Rng(SEED ^ 0x5a5a5a5a);
  const cases: Case[] = [];
  for (const file of [...FUZZ_FILES, ...DUCK_FILES]) {
    const map = await fileMap(file);
    for (let k = 0; k < ROUNDS / 2; k++) {
      const mutation = randomStructuredMutation(rng, load(file), map.chunkStarts);
      if (mutation) cases.push({ id: cases.length, file, mutation });
    }
  }
  const started = Date.now();
  const { failures, counts, wrapped, slowest } = await runAll(cases);
  t.diagnostic(`${cases.length} cases in ${Date.now() - started} ms: ${JSON.stringify(counts)}`);
  report(t, wrapped, slowest);
  assert.deepEqual(failures, [], `${failures.length} mutants ended in something other than rows or a ParquetryError:\n  ${failures.slice(0, 15).join('\n  ')}`);
});

test('every prefix of a small file, and every prefix of some footers, ends in rows or a ParquetryError', { timeout: Math.max(120_000, ROUNDS * 300) }, async (t) => {
  const cases: Case[] = [];
  const add = (file: string, mutation: Mutation) => cases.push({ id: cases.length, file, mutation });
  const size = load(PREFIX_FILE).length;
  for (let length = 0; length <= size; length++) add(PREFIX_FILE, { kind: 'truncate', length });
  for (const file of FOOTER_PREFIX_FILES) {
    const map = await fileMap(file);
    for (let keep = 0; keep <= map.footerEnd - map.footerStart; keep++) add(file, { kind: 'footerPrefix', keep });
  }
  const started = Date.now();
  const { failures, counts, wrapped, slowest } = await runAll(cases);
  t.diagnostic(`${cases.length} cases in ${Date.now() - started} ms: ${JSON.stringify(counts)}`);
  report(t, wrapped, slowest);
  assert.deepEqual(failures, [], `${failures.length} truncated files ended in something other than rows or a ParquetryError:\n  ${failures.slice(0, 15).join('\n  ')}`);
});

test('regressions: mutants the fuzz found end in a checked ParquetryError or rows', { timeout: 60_000 }, async () => {
  const cases: Case[] = REGRESSIONS.map((r, id) => ({ id, file: r.file, mutation: r.mutation }));
  // A small heap: a regression that blows memory up dies quickly instead of after gigabytes.
  const results = await runCases(cases.map((c) => ({ id: c.id, bytes: applyMutation(load(c.file), c.mutation) })), {
    threads: THREADS, timeoutMs: TIMEOUT_MS, memoryMb: 256,
  });
  const bad = results.filter((r) => !(r.result === 'rows' || (r.result === 'typed' && !('wrapped' in r && r.wrapped))))
    .map((r) => `${describeFailure(cases[r.id]!, r, false)}\n      ${'wrapped' in r && r.wrapped ? `wraps ${r.wrapped.split('\n').slice(0, 4).join('\n        ')}` : ''}\n      (${REGRESSIONS[r.id]!.note})`);
  assert.deepEqual(bad, [], `${bad.length} regression cases fail:\n  ${bad.join('\n  ')}`);
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

test('the harness catches hangs, crashes, memory blow-ups and untyped errors, and carries on', { timeout: 60_000 }, async () => {
  const cases = Array.from({ length: 10 }, (_, id) => ({ id, bytes: new Uint8Array(id) }));
  const results = await runCases(cases, { threads: 2, timeoutMs: 1500, memoryMb: 64, entry: new URL('./misbehaving-worker.ts', import.meta.url).href });
  assert.deepEqual(results.map((r) => r.id), cases.map((c) => c.id));
  // A worker filling its heap dies of it, or (on a busy machine, while it is still collecting) times out first: caught either way.
  const got = results.map((r, i) => (i % 5 === 4 && r.result === 'hang' ? 'crash' : r.result));
  assert.deepEqual(got, ['rows', 'hang', 'untyped', 'crash', 'crash', 'rows', 'hang', 'untyped', 'crash', 'crash']);
});
