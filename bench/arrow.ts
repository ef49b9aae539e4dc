/**
 * Parquet to an Arrow JS Table: parquetry's `toArrow()` against parquet-wasm
 * (arrow-rs in wasm: `readParquet` then `tableFromIPC`), on the read
 * benchmark's flat file (2M rows x 8 columns, written by DuckDB). Both read
 * the file from disk inside the timing.
 *
 * As in bench/read.ts, each contender runs in child processes of its own:
 * one cold run, then timed runs, a forced GC before each. In one shared
 * process parquet-wasm's wasm memory (about 1 GB of RSS) and each library's
 * garbage coloured the other's times. The contenders take turns in rounds,
 * so load from elsewhere on the machine hits them alike. parquetry is the
 * built package (dist/), as users run it and as parquet-wasm is timed, in
 * workers with no TypeScript loader (bench/arrow-worker.mjs); `--source`
 * times src/ through the loader instead.
 *
 *   npm run build && node --import tsx bench/arrow.ts [--runs 9] [--rounds 3] [--source]
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { ensureData, FLAT, FLAT_ROWS } from './data.js';
import { argValue, median, ROOT, spawnWorker, staleBuild, type Timed } from './harness.js';

type Contender = 'toArrow()' | 'toArrow({ dictionary: false })' | 'parquet-wasm';
const CONTENDERS: Contender[] = ['toArrow()', 'toArrow({ dictionary: false })', 'parquet-wasm'];
const LABEL: Record<Contender, string> = {
  'toArrow()': 'parquetry toArrow()',
  'toArrow({ dictionary: false })': 'parquetry toArrow({ dictionary: false })',
  'parquet-wasm': 'parquet-wasm readParquet + tableFromIPC',
};

async function main(): Promise<void> {
  const source = process.argv.includes('--source');
  if (!source && !existsSync(join(ROOT, 'dist', 'node', 'index.js'))) throw new Error('no dist/: run `npm run build` first');
  if (!source && staleBuild()) throw new Error('dist/ is older than src/: run `npm run build` first');
  const runs = Number(argValue('--runs') ?? 9);
  const rounds = Number(argValue('--rounds') ?? 3);
  await ensureData();
  const load = os.loadavg()[0]!;
  const results = new Map<Contender, { times: number[]; rssMB: number }>(CONTENDERS.map((c) => [c, { times: [], rssMB: 0 }]));
  for (let r = 0; r < rounds; r++) {
    for (const c of CONTENDERS) {
      const worker = join(ROOT, 'bench', 'arrow-worker.mjs');
      const t = spawnWorker<Timed<number>>(worker, [c, String(runs), FLAT, String(FLAT_ROWS), ...(source ? ['source'] : [])], [], source);
      const into = results.get(c)!;
      into.times.push(...t.times);
      into.rssMB = Math.max(into.rssMB, t.rssMB);
    }
  }
  const wasmMs = median(results.get('parquet-wasm')!.times);
  console.log(`flat file, ${FLAT_ROWS} rows; parquetry from ${source ? 'src/ (TypeScript loader)' : 'dist/'}; ${rounds} rounds x ${runs} timed runs, a process each; load average ${load.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
  for (const c of CONTENDERS) {
    const { times, rssMB } = results.get(c)!;
    const m = median(times);
    console.log(`${LABEL[c].padEnd(42)} median ${m.toFixed(0).padStart(6)} ms  min ${Math.min(...times).toFixed(0).padStart(6)} ms  peak RSS ${rssMB.toFixed(0).padStart(5)} MB  ${(wasmMs / m).toFixed(2)}x parquet-wasm`);
  }
}

await main();
