/**
 * ALP against BYTE_STREAM_SPLIT + ZSTD and PLAIN + ZSTD on real-looking
 * doubles: the size of the column chunk, and the time to write the file and
 * to read the column back (best and median of timed runs after warm-up).
 * Run: node --import tsx bench/alp.ts [--rows N] [--runs N]
 * The data are functions of the row number and a seeded generator, so runs
 * compare: prices (cents, a random walk), sensor readings (one decimal, a
 * daily cycle with noise), coordinates (six decimals, points scattered
 * around a city), and, as the worst case for ALP, doubles with no decimal
 * form (full-precision noise).
 */
import { BufferSink, defineSchema, field, ParquetWriter } from '../src/node/index.js';
import { bufferSource } from '../src/io/source.js';
import { ParquetReader } from '../src/parquet/reader.js';
import type { ColumnWriteOptions, WriterOptions } from '../src/parquet/write/writer.js';
import { argValue, median } from './harness.js';

const ROWS = Number(argValue('--rows') ?? 1_000_000);
const RUNS = Number(argValue('--runs') ?? 7);

let seed = 2024;
function random(): number {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
}

function data(): Record<string, Float64Array> {
  seed = 2024;
  let price = 100;
  const prices = new Float64Array(ROWS);
  const sensor = new Float64Array(ROWS);
  const coords = new Float64Array(ROWS);
  const noise = new Float64Array(ROWS);
  for (let i = 0; i < ROWS; i++) {
    price = Math.max(0.01, price + (random() - 0.5) * 0.2);
    prices[i] = Math.round(price * 100) / 100;
    sensor[i] = Math.round((21 + 4 * Math.sin((i / 1440) * 2 * Math.PI) + (random() - 0.5)) * 10) / 10;
    // Latitudes and longitudes of points within about 20 km of Lima, alternating.
    coords[i] = Math.round(((i % 2 ? -77.03 : -12.05) + (random() - 0.5) * 0.4) * 1e6) / 1e6;
    noise[i] = random() * 1000 + random() / 1e6;
  }
  return { prices, sensor, coords, noise };
}

const SETUPS: [string, WriterOptions['codec'], ColumnWriteOptions['encoding']][] = [
  ['PLAIN + ZSTD', 'ZSTD', 'PLAIN'],
  ['BYTE_STREAM_SPLIT + ZSTD', 'ZSTD', 'BYTE_STREAM_SPLIT'],
  ['ALP', 'UNCOMPRESSED', 'ALP'],
  ['ALP + ZSTD', 'ZSTD', 'ALP'],
];

async function write(values: Float64Array, codec: WriterOptions['codec'], encoding: ColumnWriteOptions['encoding']): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, defineSchema({ x: field.double().required() }), {
    codec, checksums: false, pageIndex: false, statistics: false, columns: { x: { encoding, dictionary: false } },
  });
  await w.writeColumns({ x: values });
  await w.close();
  return sink.bytes();
}

async function read(bytes: Uint8Array): Promise<number> {
  const r = await ParquetReader.fromSource(bufferSource(bytes));
  let sum = 0;
  for await (const batch of r.columns({ columns: ['x'] })) {
    const v = batch.data.values as Float64Array;
    for (let i = 0; i < v.length; i++) sum += v[i]!;
  }
  await r.close();
  return sum;
}

async function timed(run: () => Promise<unknown>): Promise<{ best: number; median: number }> {
  for (let i = 0; i < 2; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  return { best: Math.min(...times), median: median(times) };
}

const columns = data();
console.log(`${ROWS.toLocaleString('en')} doubles per column, best (median) of ${RUNS} runs; bytes: the column chunk`);
console.log(`| data | encoding | bytes | bytes/value | write ms | read ms |`);
console.log(`| --- | --- | ---: | ---: | ---: | ---: |`);
for (const [name, values] of Object.entries(columns)) {
  let expected: number | undefined;
  for (const [label, codec, encoding] of SETUPS) {
    const bytes = await write(values, codec, encoding);
    const r = await ParquetReader.fromSource(bufferSource(bytes));
    const size = r.file.metadata.rowGroups.reduce((n, g) => n + Number(g.columns[0]!.metaData!.totalCompressedSize), 0);
    await r.close();
    const sum = await read(bytes);
    expected ??= sum;
    if (sum !== expected) throw new Error(`${name} ${label}: read back a different column`);
    const w = await timed(() => write(values, codec, encoding));
    const rd = await timed(() => read(bytes));
    const ms = (t: { best: number; median: number }) => `${t.best.toFixed(0)} (${t.median.toFixed(0)})`;
    console.log(`| ${name} | ${label} | ${size.toLocaleString('en')} | ${(size / ROWS).toFixed(2)} | ${ms(w)} | ${ms(rd)} |`);
  }
}
