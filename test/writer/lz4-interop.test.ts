/**
 * LZ4 (Hadoop framing) pages of 64 KiB to 8 MiB, read back value by value
 * by parquet-wasm (arrow-rs) and by parquetry. arrow-rs failed every page
 * over one Hadoop frame (about 256 KiB) whose last frame was the shorter.
 * Each size is written twice over: one page whose bytes compress evenly and
 * one whose second half is constant, so its last frame compresses far better
 * than the frames before it.
 *
 * DuckDB (1.5) is not asked: it refuses the LZ4 codec outright ("Unsupported
 * compression codec"), Hadoop-framed or not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BufferSink } from '../../src/io/sink.js';
import { ParquetReader, ParquetWriter, defineSchema, field } from '../../src/node/index.js';

const KiB = 1024;
const PAGES = [64 * KiB, 200 * KiB, 255 * KiB, 256 * KiB, 257 * KiB, 600 * KiB, 1024 * KiB, 8192 * KiB];

/** Two pages of `pageBytes` of INT64 values: the first even, the second half random and half constant. */
function values(pageBytes: number): BigInt64Array {
  const perPage = pageBytes / 8;
  const v = new BigInt64Array(2 * perPage);
  let seed = pageBytes;
  for (let i = 0; i < perPage; i++) v[i] = BigInt(i % 1000) * 7919n;
  for (let i = perPage; i < perPage + perPage / 2; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    v[i] = (BigInt(seed) << 20n) ^ BigInt(i);
  }
  for (let i = perPage + perPage / 2; i < v.length; i++) v[i] = 42n;
  return v;
}

async function lz4File(v: BigInt64Array, pageBytes: number): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, defineSchema({ x: field.int64().required() }), {
    codec: 'LZ4',
    dictionary: false,
    pageSize: pageBytes,
    pageRowLimit: pageBytes / 8,
    // Both pages in one chunk, past the default cap of 2^20 rows a row group.
    rowGroupRows: v.length,
  });
  await w.writeColumns({ x: v });
  await w.close();
  return sink.bytes();
}

function firstDifference(got: ArrayLike<bigint>, want: BigInt64Array): string | undefined {
  if (got.length !== want.length) return `${got.length} values instead of ${want.length}`;
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return `value ${i}: ${got[i]} instead of ${want[i]}`;
  return undefined;
}

for (const pageBytes of PAGES) {
  test(`LZ4 (Hadoop) pages of ${pageBytes / KiB} KiB: parquet-wasm and parquetry read every value`, { timeout: 120_000 }, async () => {
    const v = values(pageBytes);
    const bytes = await lz4File(v, pageBytes);

    const reader = await ParquetReader.open(bytes);
    const chunk = reader.file.metadata.rowGroups[0]!.columns[0]!.metaData!;
    assert.equal(chunk.codec, 'LZ4');
    assert.equal(chunk.encodingStats?.find((s) => s.pageType === 'DATA_PAGE')?.count, 2, 'two data pages');
    const own: bigint[] = [];
    for await (const batch of reader.columns()) for (const x of batch.data.values as BigInt64Array) own.push(x);
    await reader.close();
    assert.equal(firstDifference(own, v), undefined, 'parquetry');

    const wasm = await import('parquet-wasm');
    const arrow = await import('apache-arrow');
    const table = arrow.tableFromIPC(wasm.readParquet(bytes).intoIPCStream());
    assert.equal(firstDifference(table.getChild('x')!.toArray() as BigInt64Array, v), undefined, 'parquet-wasm');
  });
}
