/**
 * Decompression bombs and size lies: each file is read whole in a child
 * process (bomb-read.ts, several files a process, one at a time), which must
 * end every read in rows or a typed error with a peak RSS under 512 MiB. The
 * peak is the case's own resident high-water mark, so native buffers (zlib,
 * brotli, zstd) count, as a heap limit would not; a child that grew is
 * replaced before its next file.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, LimitError, ParquetReader, UnsupportedError, writeParquet } from '../../src/node/index.js';
import { TrevniReader, TrevniWriter } from '../../src/node/entries/trevni.js';
import { applyStructured } from '../../scripts/fuzz/structured.js';
import { runCases, type PoolResult } from '../../scripts/fuzz/pool.js';
import type { BombCase, BombOutcome } from './bomb-read.js';
import { DATA } from './helpers.js';

const FUZZ = join('..', 'shared', 'fuzz');
const HOSTILE = join(FUZZ, 'hostile');
const CHILD = new URL('./bomb-read.ts', import.meta.url);
const MAX_RSS_MIB = 512;
/** A hang guard, not a timing: a read here takes a second or two. */
const TIMEOUT_MS = 120_000;

async function count(rows: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of rows) n++;
  return n;
}

interface ChildResult {
  outcomes: Record<string, string>;
  maxRssMiB: number;
}

/** Every file's reads, run once for all the tests (two children, a few files each): each test awaits its file's. */
let pool: Promise<Map<string, PoolResult>> | undefined;

async function readInChild(file: string): Promise<ChildResult> {
  pool ??= (async () => {
    const files = [...hostile, ...repros, LARGE_STRING_MAP];
    const cases: BombCase[] = files.map((f, id) => ({ id, file: f, options: f.endsWith('.parquet') && f !== LARGE_STRING_MAP ? { verifyChecksums: false } : {} }));
    const results = await runCases(cases, { workers: 2, timeoutMs: TIMEOUT_MS, memoryMb: MAX_RSS_MIB, entry: CHILD, batch: 4 });
    return new Map(results.map((r) => [files[r.id]!, r]));
  })();
  const r = (await pool).get(file)!;
  if (!('outcomes' in r)) assert.fail(`${file}: ${r.result}: ${r.error}`);
  const o = r as unknown as BombOutcome;
  return { outcomes: o.outcomes, maxRssMiB: o.peakMb };
}

function assertBounded(file: string, r: ChildResult): void {
  for (const [read, outcome] of Object.entries(r.outcomes)) {
    assert.doesNotMatch(outcome, /^UNTYPED/, `${read}() of ${file}`);
  }
  assert.ok(r.maxRssMiB < MAX_RSS_MIB, `${file}: peak RSS ${r.maxRssMiB.toFixed(0)} MiB (${JSON.stringify(r.outcomes)})`);
}

const hostile = readdirSync(HOSTILE)
  .filter((f) => /^(pq|trv)-(bomb|claim)-.*\.(parquet|trv)$/.test(f))
  .map((f) => join(HOSTILE, f));
const repros = ['oom-parquet-brotli-bomb.parquet', 'mem-parquet-zstd-bomb.parquet', 'mem-trevni-bzip2-bomb.trv', 'mem-parquet-page-2p24-values.parquet'].map((f) =>
  join(FUZZ, 'repro', f),
);

test('the hostile set is where the test expects it', () => {
  assert.ok(hostile.length >= 27, `found ${hostile.length} bomb and claim files`);
});

/** What a file must end in, beyond the bound: a bomb is refused before it is inflated past its claim. */
function expected(file: string): RegExp | undefined {
  // A stream that inflates past its small claim stops at the claim.
  if (/-lowclaim\./.test(file)) return /^CorruptFileError: (\w+ data decompresses to more than 100 bytes|LZ4 block: match of \d+ bytes runs past the uncompressed size)/;
  // A true claim of 256 MiB to 1 GiB for one INT32 (Trevni int) value is refused from the header.
  if (/bomb/.test(file)) return /^CorruptFileError: .*(page|block) declares \d{9,} bytes decompressed, more than (one value of INT32|1 int value) can take/;
  // A size the few bytes behind it cannot fill: corrupt, whether the header or the codec finds it.
  if (/claim-/.test(file)) return /^CorruptFileError: /;
  return undefined;
}

for (const file of [...hostile, ...repros]) {
  test(`${file}: rows or a typed error, under ${MAX_RSS_MIB} MiB`, { timeout: TIMEOUT_MS * 2 }, async () => {
    const r = await readInChild(file);
    assertBounded(file, r);
    const want = expected(file);
    if (want) for (const [read, outcome] of Object.entries(r.outcomes)) assert.match(outcome, want, `${read}() of ${file}`);
  });
}

const LARGE_STRING_MAP = join(DATA, 'large_string_map.brotli.parquet');

// Valid, but its chunk's byte arrays total 2 GiB: refused from the page headers, before 2 GiB are inflated.
test('large_string_map.brotli.parquet: a LimitError, under 512 MiB', { timeout: TIMEOUT_MS * 2 }, async () => {
  const r = await readInChild(LARGE_STRING_MAP);
  assertBounded(LARGE_STRING_MAP, r);
  for (const outcome of Object.values(r.outcomes)) assert.match(outcome, /^LimitError: column chunk's pages of byte arrays declare 2147483668 bytes/);
});

test('a page declaring more than maxDecompressedBytes is refused before it is inflated', async () => {
  const sink = new BufferSink();
  await writeParquet(sink, [{ s: 'x'.repeat(2 ** 21) }], { codec: 'ZSTD' });
  const file = sink.bytes();
  assert.equal((await (await ParquetReader.open(file)).readRows()).length, 1);
  const reader = await ParquetReader.open(file, { maxDecompressedBytes: 2 ** 20 });
  await assert.rejects(reader.readRows(), (e: unknown) => {
    assert.ok(e instanceof LimitError, String(e));
    assert.match(e.message, /page declares \d+ bytes decompressed, more than the reader's maxDecompressedBytes \(1048576\)/);
    assert.deepEqual([e.context.rowGroup, e.context.column, e.context.page], [0, 's', 0]);
    return true;
  });
});

test('a Trevni block declaring more than maxDecompressedBytes is refused before it is inflated', async () => {
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, [{ name: 's', type: 'string' }], { codec: 'deflate' });
  await w.writeRow(['x'.repeat(2 ** 21)]);
  await w.close();
  const file = sink.bytes();
  assert.equal(await count((await TrevniReader.open(file)).rows()), 1);
  const reader = await TrevniReader.open(file, { maxDecompressedBytes: 2 ** 20 });
  await assert.rejects(count(reader.rows()), (e: unknown) => {
    assert.ok(e instanceof LimitError, String(e));
    assert.match(e.message, /block declares \d+ bytes decompressed, more than the reader's maxDecompressedBytes \(1048576\)/);
    assert.equal(e.context.column, 's');
    return true;
  });
  await assert.rejects(TrevniReader.open(file, { maxDecompressedBytes: 0 }), { name: 'InvalidArgumentError' });
});

test('maxDecompressedBytes must be a positive integer', async () => {
  const bytes = new Uint8Array(0);
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    await assert.rejects(ParquetReader.open(bytes, { maxDecompressedBytes: bad }), { name: 'InvalidArgumentError' });
  }
});

test('an unknown codec number is an UnsupportedError naming row group, column and offset', async () => {
  const sink = new BufferSink();
  await writeParquet(sink, [{ a: 1 }, { a: 2 }], { codec: 'UNCOMPRESSED' });
  // Codec number 42, which no Parquet version defines (the Thrift decoder reads it as UNKNOWN_42).
  const file = applyStructured(sink.bytes(), { kind: 'footerField', op: 'set', path: ['rowGroups', 0, 'columns', 0, 'metaData', 'codec'], value: 'UNKNOWN_42' });
  const reader = await ParquetReader.open(file);
  for (const read of [() => reader.readRows(), async () => { for await (const _ of reader.columns()); }]) {
    await assert.rejects(read(), (e: unknown) => {
      assert.ok(e instanceof UnsupportedError, String(e));
      assert.match(e.message, /compression codec 42/);
      assert.deepEqual([e.context.rowGroup, e.context.column, typeof e.context.offset], [0, 'a', 'number']);
      return true;
    });
  }
});
