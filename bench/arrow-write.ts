/**
 * Arrow to Parquet: parquetry's `writeParquet(dest, table)` against
 * parquet-wasm's `writeParquet` (arrow-rs in wasm, handed the table as an
 * IPC stream, as its README does: `Table.fromIPCStream(tableToIPC(t))`,
 * timed with the write) on the same Arrow JS table, in one process, taking
 * turns so load from elsewhere hits both alike. Each writes to memory.
 *
 * The table is the read benchmark's flat file's shape, built with Arrow JS:
 * `id` int32, `big` int64, `amount` double, `ts` timestamp (ms), `category`
 * a dictionary of 100 strings, `uid` unique strings, `flag` bool, `maybe`
 * int32 with 10% nulls.
 *
 *   node --expose-gc --import tsx bench/arrow-write.ts [--rows 1000000] [--rounds 5] [--codec SNAPPY|UNCOMPRESSED]
 */
import os from 'node:os';
import * as arrow from 'apache-arrow';
import * as wasm from 'parquet-wasm';
import { writeParquet, type Sink } from '../src/node/index.js';
import { argValue, median } from './harness.js';

function table(n: number): arrow.Table {
  const id = new Int32Array(n);
  const big = new BigInt64Array(n);
  const amount = new Float64Array(n);
  const ts: number[] = [];
  const cats: string[] = [];
  const uids: string[] = [];
  const flags: boolean[] = [];
  const maybe: (number | null)[] = [];
  for (let i = 0; i < n; i++) {
    id[i] = i;
    big[i] = BigInt(i) * 1000003n;
    amount[i] = i * 0.25;
    ts.push(1_700_000_000_000 + i);
    cats.push(`category-${i % 100}`);
    uids.push(`u${((i * 2654435761) % 4294967296).toString(16)}-${i}`);
    flags.push(i % 3 === 0);
    maybe.push(i % 10 === 0 ? null : i);
  }
  return new arrow.Table({
    id: arrow.makeVector(id), big: arrow.makeVector(big), amount: arrow.makeVector(amount),
    ts: arrow.vectorFromArray(ts, new arrow.TimestampMillisecond()),
    category: arrow.vectorFromArray(cats, new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())),
    uid: arrow.vectorFromArray(uids, new arrow.Utf8()),
    flag: arrow.vectorFromArray(flags, new arrow.Bool()),
    maybe: arrow.vectorFromArray(maybe, new arrow.Int32()),
  });
}

/** A sink that counts bytes, as parquet-wasm's result is a buffer in memory. */
function countingSink(): Sink & { bytes: number } {
  const s = { bytes: 0, write: async (b: Uint8Array) => void (s.bytes += b.length), close: async () => {}, abort: async () => {} };
  return s;
}

async function main(): Promise<void> {
  const rows = Number(argValue('--rows') ?? 1_000_000);
  const rounds = Number(argValue('--rounds') ?? 5);
  const codec = (argValue('--codec') ?? 'SNAPPY') as 'SNAPPY' | 'UNCOMPRESSED';
  const t = table(rows);
  // Made anew for each write: the wasm call takes ownership of its properties.
  const props = () => new wasm.WriterPropertiesBuilder().setCompression(wasm.Compression[codec]).build();
  const contenders: Record<string, () => Promise<number>> = {
    'parquetry writeParquet(sink, table)': async () => {
      const sink = countingSink();
      await writeParquet(sink, t, { codec });
      return sink.bytes;
    },
    'parquet-wasm writeParquet(Table.fromIPCStream(tableToIPC(table)))': async () =>
      wasm.writeParquet(wasm.Table.fromIPCStream(arrow.tableToIPC(t, 'stream')), props()).length,
  };
  const times = new Map<string, number[]>(Object.keys(contenders).map((k) => [k, []]));
  const sizes = new Map<string, number>();
  const load = os.loadavg()[0]!;
  // One warm-up each, then the rounds, each contender once per round.
  for (let r = -1; r < rounds; r++) {
    for (const [name, run] of Object.entries(contenders)) {
      globalThis.gc?.();
      const started = performance.now();
      sizes.set(name, await run());
      if (r >= 0) times.get(name)!.push(performance.now() - started);
    }
  }
  console.log(`${rows} rows x 8 columns, ${codec}; ${rounds} rounds taking turns after a warm-up each; load average ${load.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores; Node ${process.version}`);
  const base = median(times.get(Object.keys(contenders)[1]!)!);
  for (const [name, ts] of times) {
    console.log(`${name.padEnd(70)} median ${median(ts).toFixed(0).padStart(6)} ms  min ${Math.min(...ts).toFixed(0).padStart(6)} ms  ${(sizes.get(name)! / 1e6).toFixed(1)} MB  ${(base / median(ts)).toFixed(2)}x parquet-wasm`);
  }
}

await main();
