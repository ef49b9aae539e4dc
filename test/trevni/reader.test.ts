/**
 * The Trevni reader beyond the corpus: random access by row and by value,
 * and bad input (truncated, mutated, inconsistent) ending in typed errors.
 */
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { ByteWriter } from '../../src/bytes/writer.js';
import { ChecksumError, CorruptFileError, InvalidArgumentError, LimitError, ParquetryError, UnsupportedError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { writeMetadata } from '../../src/trevni/metadata.js';
import { TrevniReader, type TrevniRowsOptions } from '../../src/trevni/reader.js';
import { checkTrevni } from '../../src/trevni/recover.js';
import type { MetaEntry, TrevniValue } from '../../src/trevni/types.js';
import { TrevniWriter } from '../../src/trevni/writer.js';
import { MAX_EMPTY_ROWS } from '../../src/shred/empty-rows.js';
import { readInChild } from '../reader/read-in-child.js';
import { buildSchema } from '../../src/schema/tree.js';
import { TrevniDraftReader } from '../../src/trevni/draft/reader.js';
import { TrevniDraftWriter } from '../../src/trevni/draft/writer.js';
import { openTrevni } from '../../src/trevni/open.js';
import { TREVNI_CORPUS, TREVNI_V1_CORPUS, corpusBytes, trvFiles } from './corpus-util.js';
import { rng } from '../writer/gen.js';

async function allRows(r: TrevniReader): Promise<string[]> {
  const out: string[] = [];
  for await (const l of r.canonicalRows()) out.push(l);
  return out;
}

/** Reads everything a reader can give. */
async function readAll(bytes: Uint8Array): Promise<void> {
  const r = await openTrevni(bytes);
  if (r instanceof TrevniDraftReader) {
    for await (const _ of r.canonicalRows({ limit: 100000 })) void _;
    return;
  }
  for (const c of r.columns) {
    await r.blocks(c.name);
    if (r.numRows <= 100000) await r.readColumn(c.name);
  }
  // A file may claim many rows of nothing (zero columns, null columns): read a bounded number.
  for await (const _ of r.canonicalRows({ limit: 100000 })) void _;
}

const enc = new TextEncoder();

/**
 * Re-encodes a file's header with other metadata (the column starts follow
 * the size change), keeping the column data as it is.
 */
async function rewriteHeader(bytes: Uint8Array, edit: (file: MetaEntry[], columns: MetaEntry[][]) => void): Promise<Uint8Array> {
  const r = await TrevniReader.open(bytes);
  const file = r.metadata.map((m) => ({ ...m }));
  const cols = r.columns.map((c) => c.metadata.map((m) => ({ ...m })));
  edit(file, cols);
  const w = new ByteWriter();
  w.bytes(bytes.subarray(0, 16 - 4));
  w.i32le(cols.length);
  writeMetadata(w, file);
  for (const c of cols) writeMetadata(w, c);
  const delta = w.length + 8 * cols.length - r.headerLength;
  for (const c of r.columns) w.i64le(BigInt(c.start + delta));
  w.bytes(bytes.subarray(r.headerLength));
  return w.finish().slice();
}

function setMeta(list: MetaEntry[], key: string, value: string): void {
  const e = list.find((m) => m.key === key);
  if (e) e.value = enc.encode(value);
  else list.push({ key, value: enc.encode(value) });
}

test('readRow and rows({ offset }) start anywhere, across block boundaries, with nested columns', async () => {
  for (const trv of ['multiblock_deflate_crc32.trv', 'avro_multiblock_deflate.trv', 'parents.trv', 'arrays.trv']) {
    const r = await TrevniReader.open(corpusBytes(trv));
    const rows = await allRows(r);
    const objects: Record<string, unknown>[] = [];
    for await (const o of r.rows()) objects.push(o);
    const probes = new Set<number>([0, 1, r.numRows - 1, r.numRows - 2]);
    for (const c of r.columns) {
      for (const b of await r.blocks(c.name)) for (const d of [-1, 0, 1, 7]) probes.add(b.firstRow + d);
    }
    for (const n of [...probes].filter((n) => n >= 0 && n < r.numRows).sort((a, b) => a - b)) {
      assert.deepEqual(await r.readRow(n), objects[n], `${trv} row ${n}`);
      const got: string[] = [];
      for await (const l of r.canonicalRows({ offset: n, limit: 3 })) got.push(l);
      assert.deepEqual(got, rows.slice(n, n + 3), `${trv} rows from ${n}`);
    }
  }
});

test('rows can be limited to some root columns', async () => {
  const r = await TrevniReader.open(corpusBytes('parents.trv'));
  const all: Record<string, unknown>[] = [];
  for await (const o of r.rows()) all.push(o);
  const some: Record<string, unknown>[] = [];
  for await (const o of r.rows({ columns: ['received', 'id'] })) some.push(o);
  assert.deepEqual(some, all.map((o) => ({ received: o.received, id: o.id })));
  await assert.rejects(async () => {
    for await (const _ of r.rows({ columns: ['received.host'] })) void _;
  }, InvalidArgumentError);
  await assert.rejects(r.readRow(r.numRows), InvalidArgumentError);
});

function compare(a: TrevniValue, b: TrevniValue): number {
  if (typeof a === 'bigint' || typeof a === 'number') return a < (b as number) ? -1 : a > (b as number) ? 1 : 0;
  if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  if (a instanceof Uint8Array) return Buffer.compare(Buffer.from(a), Buffer.from(b as Uint8Array));
  return 0;
}

test('seek finds the first row >= key by the block index', async () => {
  for (const trv of ['sorted_values.trv', 'sorted_values_deflate_crc32.trv']) {
    const r = await TrevniReader.open(corpusBytes(trv));
    for (const c of r.columns.filter((c) => c.hasIndexValues && c.type !== 'null')) {
      const values = (await r.readColumn(c.name)) as TrevniValue[];
      const keys: TrevniValue[] = [values[0]!, values[values.length - 1]!, values[1]!, values[values.length >> 1]!];
      for (const b of await r.blocks(c.name)) keys.push(b.firstValue!, values[b.firstRow - 1] ?? values[0]!, values[b.firstRow + 1] ?? values[0]!);
      // Keys between stored values, and beyond both ends.
      if (c.type === 'long' || c.type === 'fixed64') keys.push((values[100] as bigint) + 1n, (values[0] as bigint) - 1n, (values[values.length - 1] as bigint) + 1n);
      if (c.type === 'int' || c.type === 'fixed32' || c.type === 'double' || c.type === 'float') keys.push((values[100] as number) + 0.5, (values[0] as number) - 1, (values[values.length - 1] as number) + 1);
      if (c.type === 'string') keys.push(`${values[100]}x`, '', '~');
      for (const key of keys) {
        const want = values.findIndex((v) => compare(v, key) >= 0);
        assert.equal(await r.seek(c.name, key), want === -1 ? null : want, `${trv} ${c.name} seek ${String(key)}`);
      }
    }
    const plain = r.columns.find((c) => !c.hasIndexValues);
    if (plain) await assert.rejects(r.seek(plain.name, 1), InvalidArgumentError);
  }
  const s = await TrevniReader.open(corpusBytes('sorted_values.trv'));
  await assert.rejects(s.seek('key', 5), InvalidArgumentError);
  assert.equal(await s.seek('n', null), 0);
});

/**
 * A one-column boolean file with trevni.values cut every `perBlock` rows, laid
 * out as the spec and Java's writer do (each descriptor followed by its first
 * value in a byte of its own). Our writer keeps such a column in one block,
 * because Java's reader misreads this layout; other writers make it.
 */
function multiBlockBooleans(values: boolean[], perBlock: number): Uint8Array {
  const text = (s: string) => enc.encode(s);
  const blocks: boolean[][] = [];
  for (let i = 0; i < values.length; i += perBlock) blocks.push(values.slice(i, i + perBlock));
  const h = new ByteWriter(256);
  h.bytes(new Uint8Array([0x54, 0x72, 0x76, 0x02]));
  h.i64le(BigInt(values.length));
  h.i32le(1);
  writeMetadata(h, []);
  writeMetadata(h, [{ key: 'trevni.name', value: text('b') }, { key: 'trevni.type', value: text('boolean') }, { key: 'trevni.values', value: new Uint8Array(0) }]);
  h.i64le(BigInt(h.length + 8));
  h.i32le(blocks.length);
  const data = blocks.map((bs) => {
    const d = new Uint8Array(Math.ceil(bs.length / 8));
    bs.forEach((v, i) => { if (v) d[i >> 3]! |= 1 << (i & 7); });
    return d;
  });
  blocks.forEach((bs, k) => {
    h.i32le(bs.length);
    h.i32le(data[k]!.length);
    h.i32le(data[k]!.length);
    h.u8(bs[0] ? 1 : 0);
  });
  for (const d of data) h.bytes(d);
  return h.finish();
}

test('boolean trevni.values over several blocks (which the Java reader misreads) reads and seeks right', async () => {
  const n = 5000;
  const r = await TrevniReader.open(multiBlockBooleans(Array.from({ length: n }, (_, i) => i >= 2345), 512));
  const blocks = await r.blocks('b');
  assert.ok(blocks.length > 5, `${blocks.length} blocks`);
  for (const b of blocks) assert.equal(b.firstValue, b.firstRow >= 2345);
  assert.deepEqual(await r.readColumn('b'), Array.from({ length: n }, (_, i) => i >= 2345));
  assert.equal(await r.seek('b', true), 2345);
  assert.equal(await r.seek('b', false), 0);
});

test('the spec\'s checksum name "crc-32" reads as crc32 (the Java reader refuses it)', async () => {
  const bytes = await rewriteHeader(corpusBytes('types_deflate_crc32.trv'), (file) => setMeta(file, 'trevni.checksum', 'crc-32'));
  const r = await TrevniReader.open(bytes);
  assert.equal(r.columns[0]!.checksum, 'crc-32');
  assert.deepEqual(await allRows(r), await allRows(await TrevniReader.open(corpusBytes('types_deflate_crc32.trv'))));
});

test('inconsistent headers end in typed errors', async () => {
  const base = corpusBytes('parents.trv');
  const cases: [string, (f: MetaEntry[], c: MetaEntry[][]) => void, new (...a: never[]) => ParquetryError, RegExp][] = [
    ['unknown type', (_f, c) => setMeta(c[0]!, 'trevni.type', 'decimal'), CorruptFileError, /unknown column type/],
    ['parent after child', (_f, c) => setMeta(c[3]!, 'trevni.parent', 'content'), CorruptFileError, /not an array|precede/],
    ['parent not found', (_f, c) => setMeta(c[4]!, 'trevni.parent', 'nope'), CorruptFileError, /does not precede/],
    ['duplicate name', (_f, c) => setMeta(c[1]!, 'trevni.name', 'id'), CorruptFileError, /duplicate column name/],
    ['no name', (_f, c) => c[1]!.splice(0, 1), CorruptFileError, /no trevni.name/],
    ['values on a child', (_f, c) => setMeta(c[4]!, 'trevni.values', ''), CorruptFileError, /trevni.values/],
  ];
  for (const [what, edit, type, message] of cases) {
    const bytes = await rewriteHeader(base, edit);
    await assert.rejects(TrevniReader.open(bytes), (e: unknown) => e instanceof type && message.test((e as Error).message), what);
  }
  // Type names are read case-insensitively, as Java does.
  const upper = await TrevniReader.open(await rewriteHeader(base, (_f, c) => setMeta(c[0]!, 'trevni.type', 'INT')));
  assert.equal(upper.columns[0]!.type, 'int');
  // Unknown codec or checksum: the header opens, the column does not read.
  for (const [key, value] of [['trevni.codec', 'xz'], ['trevni.checksum', 'md5']] as const) {
    const r = await TrevniReader.open(await rewriteHeader(base, (f) => setMeta(f, key, value)));
    await assert.rejects(r.readColumn('id'), (e: unknown) => e instanceof UnsupportedError && e.context.column === 'id' && e.message.includes(value));
  }
});

test('bad magic, short files and bad counts are CorruptFileErrors', async () => {
  const tiny = corpusBytes('tiny.trv');
  const patch = (at: number, bytes: number[]) => {
    const b = tiny.slice();
    b.set(bytes, at);
    return b;
  };
  await assert.rejects(TrevniReader.open(patch(0, [0x50, 0x41, 0x52, 0x31])), /not a Trevni file/);
  // Version bytes 2 and 1 are Trevni (version1.test.ts); 0 (Java's MAGIC_0) and 3 are not.
  await assert.rejects(TrevniReader.open(patch(3, [0x00])), CorruptFileError);
  await assert.rejects(TrevniReader.open(patch(3, [0x03])), (e: unknown) => e instanceof CorruptFileError && e.context.offset === 0);
  await assert.rejects(TrevniReader.open(tiny.subarray(0, 10)), CorruptFileError);
  await assert.rejects(TrevniReader.open(patch(4, [0, 0, 0, 0, 0, 0, 0, 0x80])), /row count/);
  await assert.rejects(TrevniReader.open(patch(12, [0xff, 0xff, 0xff, 0x7f])), /column count/);
  await assert.rejects(TrevniReader.open(patch(12, [0xff, 0xff, 0xff, 0xff])), /column count/);
  // File metadata pair count: -1, then a huge one.
  await assert.rejects(TrevniReader.open(patch(16, [0x01])), /negative pair count/);
  await assert.rejects(TrevniReader.open(patch(16, [0xfe, 0xff, 0xff, 0xff, 0x07])), CorruptFileError);
  // Column start (at 0xb6) past the end, or inside the header.
  await assert.rejects(TrevniReader.open(patch(0xb6, [0xff, 0xff, 0, 0, 0, 0, 0, 0])), /column start/);
  await assert.rejects(TrevniReader.open(patch(0xb6, [0x10, 0, 0, 0, 0, 0, 0, 0])), /column start/);
  // Column 0 (at 0xce): block count, then rows / raw size / stored size.
  const bad = async (bytes: Uint8Array, re: RegExp) => {
    const r = await TrevniReader.open(bytes);
    await assert.rejects(r.readColumn('x'), (e: unknown) => e instanceof CorruptFileError && re.test((e as Error).message) && e.context.column === 'x');
  };
  await bad(patch(0xce, [0xff, 0xff, 0xff, 0x7f]), /block count/);
  await bad(patch(0xce, [0x02, 0, 0, 0]), /block|rows/);
  await bad(patch(0xd2, [0x04, 0, 0, 0]), /hold 4 rows/);
  await bad(patch(0xd6, [0xff, 0xff, 0xff, 0xff]), /negative/);
  await bad(patch(0xda, [0x00, 0x10, 0, 0]), /runs past the end/);
  await bad(patch(0xd6, [0x05, 0, 0, 0]), /decompressed to 4 bytes, expected 5/);
  // Values: a varint running off the block, an array length beyond the block.
  await bad(patch(0xe0, [0xff, 0xff]), /needs|remain|varint/);
  const s = await TrevniReader.open(patch(0xf2, [0xfe, 0xff, 0xff, 0x0f]));
  await assert.rejects(s.readColumn('s'), (e: unknown) => e instanceof CorruptFileError && e.context.column === 's');
});

/** A Trevni file of `rows` rows and no column: magic, row count, column count 0, no metadata. */
function zeroColumns(rows: number): Uint8Array {
  const w = new ByteWriter();
  w.bytes(new Uint8Array([0x54, 0x72, 0x76, 0x02]));
  w.i64le(BigInt(rows));
  w.i32le(0);
  w.bytes(new Uint8Array([0]));
  return w.finish().slice();
}

test('rows with no column data: yielded up to MAX_EMPTY_ROWS, beyond that one LimitError before the first row', async () => {
  // The fuzz campaign's 22 hangs: zero columns and a row count of up to 2^53 in 17 bytes. Read in a child process: they never ended.
  const FUZZ = '../shared/fuzz';
  for (const f of ['repro/hang-trevni-zero-columns.trv', 'repro/hang-05798242ba.trv', 'repro/hang-249a7ce1bc.trv', 'repro/hang-5993665363.trv', 'repro/hang-d58f44d9e8.trv', 'hostile/trv-zero-columns-2p53-rows.trv']) {
    const all = readInChild(`${FUZZ}/${f}`);
    assert.deepEqual([all.result, all.error, all.rows], ['typed', 'LimitError', 0], `${f}: ${JSON.stringify(all)}`);
    const some: string[] = [];
    for await (const line of (await TrevniReader.open(readFileSync(`${FUZZ}/${f}`))).canonicalRows({ limit: 3 })) some.push(line);
    assert.deepEqual(some, ['{}', '{}', '{}'], f);
  }
  const drain = async (r: TrevniReader, options: TrevniRowsOptions = {}) => {
    let n = 0;
    for await (const row of r.rows(options)) n += Object.keys(row).length === 0 ? 1 : NaN;
    return n;
  };
  assert.equal(await drain(await TrevniReader.open(zeroColumns(5))), 5);
  assert.equal(await drain(await TrevniReader.open(zeroColumns(MAX_EMPTY_ROWS))), MAX_EMPTY_ROWS);
  const over = await TrevniReader.open(zeroColumns(MAX_EMPTY_ROWS + 1));
  assert.equal(over.numRows, MAX_EMPTY_ROWS + 1);
  // It points at the header's row count, the number nothing backs.
  await assert.rejects(drain(over), (e) => e instanceof LimitError && e.context.offset === 4);
  assert.equal(await drain(over, { offset: 1 }), MAX_EMPTY_ROWS);
  // The same rule for a projection onto no column of a file that has some.
  const tiny = await TrevniReader.open(corpusBytes('tiny.trv'));
  assert.equal(await drain(tiny, { columns: [] }), tiny.numRows);
});

test('a null-typed array column with absurd lengths ends in a LimitError, not an allocation', async () => {
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, [{ name: 'p', type: 'null', array: true }, { name: 'q', type: 'null', array: true, parent: 'p' }]);
  await w.writeRow([[null, null], [[null], [null, null, null]]]);
  await w.close();
  const bytes = sink.bytes().slice();
  const r0 = await TrevniReader.open(bytes);
  const block = (await r0.blocks('q'))[0]!;
  // Block of q: lengths 1, 3: replace with two huge lengths (zig-zag varints of 2^30 and 2^30).
  const big = [0x80, 0x80, 0x80, 0x80, 0x08];
  assert.equal(block.uncompressedSize, 2);
  const patched = new Uint8Array(bytes.length + 8);
  patched.set(bytes.subarray(0, block.offset));
  patched.set([...big, ...big], block.offset);
  // Sizes in the descriptor (12 bytes before the data): rows 1, raw 10, stored 10.
  const dv = new DataView(patched.buffer);
  dv.setInt32(block.offset - 8, 10, true);
  dv.setInt32(block.offset - 4, 10, true);
  const r = await TrevniReader.open(patched);
  await assert.rejects(r.readColumn('q'), (e: unknown) => e instanceof ParquetryError && e.code === 'LIMIT');
});

test('null values no byte backs are bounded by the block: one per row, 1,024 per byte, 65,536 more', async () => {
  // 200 rows of 2^24 nulls in 887 bytes: ~1 GiB and no end after 60 s; a length set to 2^24 in avro_unions: 909 MiB.
  const FUZZ = '../shared/fuzz';
  for (const [f, column] of [['repro/hang-trevni-null-array-bomb.trv', 'n'], ['hostile/trv-null-array-bomb.trv', 'n'], ['repro/mem-trevni-null-array-7k.trv', 'arr_of_opt[]']] as const) {
    const all = readInChild(`${FUZZ}/${f}`);
    assert.deepEqual([all.result, all.error, all.context?.column], ['typed', 'LimitError', column], `${f}: ${JSON.stringify(all)}`);
    assert.match(all.message!, /row \d+ \(block 0\)/);
    assert.ok(typeof all.context?.offset === 'number', f);
    assert.ok(all.maxRss! < 512 * 2 ** 20, `${f}: ${all.maxRss} bytes of RSS`);
  }
  assert.equal(readInChild(`${FUZZ}/hostile/trv-array-len-2g.trv`).error, 'CorruptFileError');

  // One row, its length one varint of 3 bytes: 1 + 1024 x 3 + 65536 values are backed, one more is not.
  const oneRow = async (n: number) => {
    const sink = new BufferSink();
    const w = await TrevniWriter.open(sink, [{ name: 'n', type: 'null', array: true }]);
    await w.writeRow([new Array<null>(n).fill(null)]);
    await w.close();
    const r = await TrevniReader.open(sink.bytes().slice());
    assert.equal((await r.blocks('n'))[0]!.uncompressedSize, 3);
    const lengths: number[] = [];
    for await (const row of r.rows()) lengths.push((row.n as unknown[]).length);
    return lengths;
  };
  const backed = 1 + 1024 * 3 + 65536;
  assert.deepEqual(await oneRow(backed), [backed]);
  await assert.rejects(oneRow(backed + 1), (e) => e instanceof LimitError && e.context.column === 'n');

  // A child that takes a bit per value backs its parent's values: a claim the child's block cannot hold is found before its values are allocated.
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, [{ name: 'p', type: 'null', array: true }, { name: 'x', type: 'int', parent: 'p' }]);
  await w.writeRow([new Array<null>(8192).fill(null), new Array<number>(8192).fill(1)]);
  await w.close();
  const bytes = sink.bytes().slice();
  const block = (await (await TrevniReader.open(bytes)).blocks('p'))[0]!;
  assert.deepEqual([...bytes.subarray(block.offset, block.offset + 3)], [0x80, 0x80, 0x01]); // zig-zag varint of 8192
  bytes.set([0xfe, 0xff, 0x7f], block.offset); // of 2^20 - 1, as wide
  await assert.rejects(
    (async () => { for await (const _ of (await TrevniReader.open(bytes)).rows()) void _; })(),
    (e) => e instanceof CorruptFileError && e.context.column === 'x' && /needs 1048575 values/.test(e.message),
  );
});

test('a child column named $value under a typed array column: rows refuse it (two keys of one name), readColumn reads it', async () => {
  const file = async (parentType: 'int' | 'null') => {
    const sink = new BufferSink();
    const w = await TrevniWriter.open(sink, [{ name: 'p', type: parentType, array: true }, { name: '$value', type: 'string', parent: 'p' }]);
    await w.writeColumnData([{ values: parentType === 'int' ? [1, 2] : [null, null], lengths: [2] }, { values: ['x', 'y'], lengths: null }]);
    await w.close();
    return TrevniReader.open(sink.bytes().slice());
  };
  const typed = await file('int');
  const drain = async (it: AsyncIterable<unknown>) => {
    for await (const _ of it) void _;
  };
  await assert.rejects(drain(typed.rows()), (e) => e instanceof UnsupportedError && e.context.column === '$value');
  await assert.rejects(drain(typed.canonicalRows()), UnsupportedError);
  assert.deepEqual(await typed.readColumn('$value'), [['x', 'y']]);
  // Elements of a null-typed column have no value of their own: no clash.
  assert.deepEqual(await allRows(await file('null')), ['{"p":[{"$value":"x"},{"$value":"y"}]}']);
});

async function mustBeTyped(bytes: Uint8Array, what: string): Promise<boolean> {
  try {
    await readAll(bytes);
    return true;
  } catch (e) {
    assert.ok(e instanceof ParquetryError, `${what}: ${(e as Error)?.stack ?? e}`);
    return false;
  }
}

/** Files of the draft's Dremel dialect, flat and nested, with and without codec and checksum, for the bad-input tests. */
async function draftFiles(): Promise<Uint8Array[]> {
  const schema = buildSchema([
    { name: 'schema', numChildren: 3 },
    { name: 'id', type: 'INT64', repetitionType: 'REQUIRED' },
    { name: 's', type: 'BYTE_ARRAY', convertedType: 'UTF8', repetitionType: 'OPTIONAL' },
    { name: 'g', repetitionType: 'REPEATED', numChildren: 1 },
    { name: 'v', type: 'DOUBLE', repetitionType: 'OPTIONAL' },
  ]);
  const out: Uint8Array[] = [];
  for (const options of [{}, { codec: 'deflate', checksum: 'crc32', blockSize: 64 }]) {
    const sink = new BufferSink();
    const w = await TrevniDraftWriter.open(sink, schema, options);
    for (let i = 0; i < 40; i++) await w.write({ id: BigInt(i), s: i % 3 ? `s${i}` : null, g: Array.from({ length: i % 4 }, (_, k) => ({ v: k % 2 ? k / 4 : null })) });
    await w.close();
    out.push(sink.bytes());
  }
  return out;
}

test('every truncation of small corpus files (both versions, and the draft dialect) is a typed error', async () => {
  const files: [string, Uint8Array][] = [
    ...['tiny.trv', 'types_deflate_crc32.trv', 'types_snappy_null.trv', 'types_bzip2_crc32.trv', 'avro_dremel.trv', 'user_metadata.trv'].map((f) => [f, corpusBytes(f)] as [string, Uint8Array]),
    ...['tiny.trv', 'types_deflate_crc32.trv', 'types_snappy_null.trv', 'avro_arrays.trv', 'parents.trv'].map((f) => [`version 1 ${f}`, corpusBytes(f, TREVNI_V1_CORPUS)] as [string, Uint8Array]),
    ...(await draftFiles()).map((b, i) => [`draft ${i}`, b] as [string, Uint8Array]),
  ];
  for (const [trv, bytes] of files) {
    const step = Math.max(1, Math.floor(bytes.length / 300));
    for (let n = 0; n < bytes.length; n += step) {
      assert.equal(await mustBeTyped(bytes.subarray(0, n), `${trv} cut at ${n}`), false, `${trv} cut at ${n} read without error`);
    }
  }
});

test('mutated corpus files read or fail with typed errors, never crash or hang', async () => {
  const next = rng(20240611);
  const small = (dir: string) => trvFiles(dir).filter((f) => corpusBytes(f, dir).length < 20000).map((f) => ({ trv: f, bytes: corpusBytes(f, dir) }));
  const files = [...small(TREVNI_CORPUS), ...small(TREVNI_V1_CORPUS), ...(await draftFiles()).map((bytes, i) => ({ trv: `draft ${i}`, bytes }))];
  let failures = 0;
  let reads = 0;
  for (let i = 0; i < 2500; i++) {
    const { trv, bytes: original } = files[Math.floor(next() * files.length)]!;
    const bytes = original.slice();
    const flips = 1 + Math.floor(next() * 4);
    for (let k = 0; k < flips; k++) {
      const at = Math.floor(next() * bytes.length);
      bytes[at] = next() < 0.5 ? Math.floor(next() * 256) : bytes[at]! ^ (1 << Math.floor(next() * 8));
    }
    if (await mustBeTyped(bytes, `${trv} mutation ${i}`)) reads++;
    else failures++;
  }
  assert.ok(failures > 100 && reads > 100, `${failures} failures, ${reads} reads`);
});

test('a checksum mismatch names the column and the block', async () => {
  const bytes = corpusBytes('multiblock_deflate_crc32.trv').slice();
  const r0 = await TrevniReader.open(bytes);
  const b = (await r0.blocks('s'))[3]!;
  bytes[b.offset + b.compressedSize] ^= 0xff;
  const r = await TrevniReader.open(bytes);
  await assert.rejects(r.readColumn('s'), (e: unknown) => e instanceof ChecksumError && e.context.column === 's' && /block 3 of column s/.test(e.message));
  // Other columns, and the rows before that block, still read.
  await r.readColumn('rnd');
  for await (const row of r.rows({ offset: 0, limit: 10 })) assert.ok(row);
});

/** A file of no rows whose `n` array columns each have the one before as parent. */
function nestedChain(n: number): Uint8Array {
  const w = new ByteWriter();
  w.bytes(Uint8Array.of(0x54, 0x72, 0x76, 0x02));
  w.i64le(0n);
  w.i32le(n);
  writeMetadata(w, []);
  for (let i = 0; i < n; i++) {
    const meta: MetaEntry[] = [{ key: 'trevni.name', value: enc.encode(`c${i}`) }, { key: 'trevni.type', value: enc.encode('int') }, { key: 'trevni.array', value: new Uint8Array(0) }];
    if (i > 0) meta.push({ key: 'trevni.parent', value: enc.encode(`c${i - 1}`) });
    writeMetadata(w, meta);
  }
  const dataAt = w.length + 8 * n;
  for (let i = 0; i < n; i++) w.i64le(BigInt(dataAt + 4 * i));
  for (let i = 0; i < n; i++) w.i32le(0); // no blocks
  return w.finish().slice();
}

test('columns nested deeper than a schema may nest are refused at open, not followed until the stack overflows', async () => {
  const ok = await TrevniReader.open(nestedChain(200));
  assert.equal(ok.columns.length, 200);
  for await (const _ of ok.rows()) void _;
  const deep = nestedChain(20_000);
  const refused = (e: unknown) => e instanceof CorruptFileError && /columns nest deeper than 200 levels/.test(e.message) && e.context.column === 'c200';
  await assert.rejects(TrevniReader.open(deep), refused);
  await assert.rejects(checkTrevni(deep), refused);
  await assert.rejects(TrevniWriter.open(new BufferSink(), Array.from({ length: 201 }, (_, i) => ({ name: `c${i}`, type: 'int' as const, array: true, ...(i ? { parent: `c${i - 1}` } : {}) }))), (e: unknown) => e instanceof InvalidArgumentError && /nest deeper than 200 levels/.test(e.message));
});
