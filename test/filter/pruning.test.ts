/**
 * Pruning really happens: the source counts the bytes the reader asks for.
 * A selective filter on a sorted column reads a small fraction of what a
 * full read does, through row-group statistics, the page index (files from
 * parquetry's writer and from arrow-rs via parquet-wasm) and bloom filters
 * (ours, and the corpus files parquet-mr and arrow-rs wrote); the rows are
 * still exactly the matching ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BufferSink, defineSchema, field as f, ParquetReader, ParquetWriter, type Filter, type SourceLike } from '../../src/node/index.js';

class Counting implements SourceLike {
  bytes = 0;
  requests = 0;
  constructor(private readonly data: Uint8Array) {}
  get byteLength(): number {
    return this.data.length;
  }
  log: [number, number][] | undefined;
  read(offset: number, length: number): Uint8Array {
    this.log?.push([offset, length]);
    this.bytes += length;
    this.requests++;
    return this.data.subarray(offset, offset + length);
  }
}

const CORPUS_DATA = '../shared/corpus/parquet-testing/data';
const N = 200_000;

function row(i: number): Record<string, unknown> {
  return { id: BigInt(i), key: `k${(i * 7919) % 100_003}`, x: (i % 1000) / 8, tags: i % 3 === 0 ? [] : [`t${i % 5}`, `u${i % 11}`] };
}

async function ownFile(): Promise<Uint8Array> {
  const schema = defineSchema({ id: f.int64().required(), key: f.string(), x: f.double(), tags: f.list(f.string()) });
  const sink = new BufferSink();
  const w = await ParquetWriter.open<unknown>(sink, schema, { rowGroupRows: 50_000, pageRowLimit: 1000, pageIndex: true, bloomFilters: { key: true } } as never);
  const batch: Record<string, unknown>[] = [];
  for (let i = 0; i < N; i++) batch.push(row(i));
  await w.writeMany(batch);
  await w.close();
  return sink.bytes();
}

async function wasmFile(): Promise<Uint8Array> {
  const arrow = await import('apache-arrow');
  const wasm = await import('parquet-wasm');
  const ids = new BigInt64Array(N);
  const xs = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    ids[i] = BigInt(i);
    xs[i] = (i % 1000) / 8;
  }
  const table = new arrow.Table({ id: arrow.makeVector(ids), x: arrow.makeVector(xs) });
  const props = new wasm.WriterPropertiesBuilder().setMaxRowGroupSize(50_000).setDataPageSizeLimit(8 * 1024).setDictionaryEnabled(false).build();
  return wasm.writeParquet(wasm.Table.fromIPCStream(arrow.tableToIPC(table, 'stream')), props);
}

async function measure(bytes: Uint8Array, filter: Filter | undefined, columns?: string[], log = false): Promise<{ bytes: number; rows: Record<string, unknown>[]; log?: [number, number][] }> {
  const src = new Counting(bytes);
  const reader = await ParquetReader.open(src);
  src.bytes = 0; // the footer's tail read is the same for both: count what rows() reads
  if (process.env.SHOW_READS || log) src.log = [];
  const rows = await reader.readRows({ filter, columns });
  if (src.log && process.env.SHOW_READS) console.log(JSON.stringify(filter, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)), src.log);
  return { bytes: src.bytes, rows, ...(src.log ? { log: src.log } : {}) };
}

test('a selective filter on a sorted column reads far fewer bytes (parquetry writer: page index)', async () => {
  const file = await ownFile();
  const full = await measure(file, undefined);
  const one = await measure(file, { column: 'id', op: '=', value: 123_456n });
  assert.deepEqual(one.rows, [row(123_456)]);
  assert.ok(one.bytes < full.bytes * 0.02, `read ${one.bytes} of ${full.bytes} bytes`);
  // A range across a page boundary, on a nested column too.
  const range = await measure(file, { and: [{ column: 'id', op: '>=', value: 70_500 }, { column: 'id', op: '<', value: 71_700 }] }, ['id', 'tags']);
  assert.equal(range.rows.length, 1200);
  assert.deepEqual(range.rows[0], { id: 70_500n, tags: row(70_500).tags });
  assert.deepEqual(range.rows.at(-1), { id: 71_699n, tags: row(71_699).tags });
  assert.ok(range.bytes < full.bytes * 0.05, `read ${range.bytes} of ${full.bytes} bytes`);
  // Nothing matches: statistics alone answer.
  const none = await measure(file, { column: 'id', op: '>', value: 10n ** 12n });
  assert.deepEqual(none.rows, []);
  assert.ok(none.bytes < full.bytes * 0.01);
});

test('bloom filters skip row groups where statistics cannot (unsorted strings)', async () => {
  const file = await ownFile();
  const full = await measure(file, undefined, ['key']);
  // In the range of every row group's min/max, but absent.
  const absent = await measure(file, { column: 'key', op: '=', value: 'k50000x' }, ['key'], true);
  assert.deepEqual(absent.rows, []);
  // Only the bloom filters are read (the page index cannot help: every page's bounds hold the value);
  // those within the footer's tail read come from memory.
  const reader = await ParquetReader.open(file);
  const blooms = reader.file.metadata.rowGroups.map((g) => g.columns[1]!.metaData!).map((m) => [Number(m.bloomFilterOffset), m.bloomFilterLength!] as const);
  assert.ok(absent.log!.length > 0);
  for (const [o, l] of absent.log!) assert.ok(blooms.some(([bo, bl]) => o >= bo && o + l <= bo + bl), `read ${o}+${l} is not a bloom filter's`);
  assert.ok(absent.bytes < full.bytes / 4, `read ${absent.bytes} of ${full.bytes} bytes`);
  const present = await measure(file, { column: 'key', op: 'in', values: ['k7919', 'nope'] }, ['id', 'key']);
  assert.deepEqual(present.rows, [{ id: 1n, key: 'k7919' }, { id: 100_004n, key: 'k7919' }]);
});

test('the page index that arrow-rs (parquet-wasm) writes prunes too', async () => {
  const file = await wasmFile();
  const full = await measure(file, undefined);
  const one = await measure(file, { column: 'id', op: '=', value: 150_001 });
  assert.deepEqual(one.rows, [{ id: 150_001n, x: (150_001 % 1000) / 8 }]);
  assert.ok(one.bytes < full.bytes * 0.02, `read ${one.bytes} of ${full.bytes} bytes`);
  const notNan = await measure(file, { and: [{ column: 'id', op: '<', value: 2000 }, { column: 'x', op: '>', value: 124.5 }] });
  assert.deepEqual(notNan.rows.map((r) => r.id), [997n, 998n, 999n, 1997n, 1998n, 1999n]);
});

for (const [file, writer] of [
  ['data_index_bloom_encoding_stats.parquet', 'parquet-mr'],
  ['data_index_bloom_encoding_with_length.parquet', 'arrow-rs'],
] as const) {
  test(`the bloom filter ${writer} wrote rules out a value its statistics cannot (${file})`, async () => {
    const bytes = new Uint8Array(readFileSync(join(CORPUS_DATA, file)));
    const reader = await ParquetReader.open(bytes);
    const meta = reader.file.metadata.rowGroups[0]!.columns[0]!.metaData!;
    const start = Number(meta.dictionaryPageOffset || meta.dataPageOffset);
    const end = start + Number(meta.totalCompressedSize);
    const stats = meta.statistics!;
    // 'hello' sorts between the chunk's min and max, so only the bloom filter can rule it out.
    const text = new TextDecoder();
    assert.ok(text.decode(stats.minValue!) < 'hello' && 'hello' < text.decode(stats.maxValue!));
    // The file is small enough for the footer's tail read to hold it, so reads are not seen:
    // with the chunk's pages wiped, a read that decodes them fails, and one that does not cannot.
    const wiped = bytes.slice();
    wiped.fill(0xff, start, end);
    const rowsOf = async (data: Uint8Array, value: string) => (await ParquetReader.open(data)).readRows({ filter: { column: 'String', op: '=', value } });
    assert.deepEqual(await rowsOf(wiped, 'hello'), []);
    await assert.rejects(rowsOf(wiped, 'dog'), /page|Thrift|corrupt/i);
    assert.deepEqual(await rowsOf(bytes, 'dog'), [{ String: 'dog' }]);
  });
}
