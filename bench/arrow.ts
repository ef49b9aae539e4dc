/**
 * Parquet to an Arrow JS Table: parquetry's `toArrow()` against parquet-wasm
 * (arrow-rs in wasm: `readParquet` then `tableFromIPC`), on the read
 * benchmark's flat file (2M rows x 8 columns, written by DuckDB). Both read
 * the file from disk inside the timing. In one process, alternating, after a
 * warm-up run of each; a forced GC before every timed run. parquetry is the
 * built package (dist/), as users run it and as parquet-wasm is timed;
 * `--source` times src/ through the TypeScript loader instead.
 *
 *   npm run build && node --expose-gc --import tsx bench/arrow.ts [runs] [--source]
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import * as wasm from 'parquet-wasm';
import { tableFromIPC, type Table } from 'apache-arrow';
import { ensureData, FLAT, FLAT_ROWS } from './data.js';
import { builtNodeEntry } from './harness.js';

const source = process.argv.includes('--source');
const runs = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 7);
const { openParquet } = source ? await import('../src/node/index.js') : await builtNodeEntry();

async function parquetry(dictionary: boolean): Promise<Table> {
  const reader = await openParquet(FLAT);
  try {
    return await reader.toArrow({ dictionary });
  } finally {
    await reader.close();
  }
}

function parquetWasm(): Table {
  return tableFromIPC(wasm.readParquet(readFileSync(FLAT)).intoIPCStream());
}

const contenders: [string, () => Promise<Table> | Table][] = [
  ['parquetry toArrow()', () => parquetry(true)],
  ['parquetry toArrow({ dictionary: false })', () => parquetry(false)],
  ['parquet-wasm readParquet + tableFromIPC', parquetWasm],
];

await ensureData();
const gc = (globalThis as { gc?: () => void }).gc;
const times = new Map<string, number[]>(contenders.map(([n]) => [n, []]));
const load = os.loadavg()[0]!;
for (const [, run] of contenders) {
  const t = await run();
  if (t.numRows !== FLAT_ROWS) throw new Error(`read ${t.numRows} rows, expected ${FLAT_ROWS}`);
}
for (let r = 0; r < runs; r++) {
  for (const [name, run] of contenders) {
    gc?.();
    const t0 = performance.now();
    await run();
    times.get(name)!.push(performance.now() - t0);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const wasmMs = median(times.get(contenders[2]![0])!);
console.log(`flat file, ${FLAT_ROWS} rows; parquetry from ${source ? 'src/ (TypeScript loader)' : 'dist/'}; ${runs} timed runs each; load average ${load.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores${gc ? '' : ' (no --expose-gc: no forced GC)'}`);
for (const [name] of contenders) {
  const m = median(times.get(name)!);
  console.log(`${name.padEnd(42)} median ${m.toFixed(0).padStart(6)} ms  min ${Math.min(...times.get(name)!).toFixed(0).padStart(6)} ms  ${(wasmMs / m).toFixed(2)}x parquet-wasm`);
}
