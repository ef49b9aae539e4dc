/**
 * CSV to Parquet, whole processes taking turns: `parquetry convert IN OUT`
 * (the built CLI, dist/cli/main.js) against a Node process running DuckDB's
 * `COPY (SELECT * FROM read_csv(IN)) TO OUT (FORMAT parquet)` through
 * @duckdb/node-api with its default threads (bench/duckdb-convert.mjs), for
 * each codec. Each run is timed by /usr/bin/time: wall time, CPU time (user +
 * system) and peak RSS; the output's size is the file's. The input is
 * bench/convert-data.ts's CSV (1M rows, about 100 MB).
 *
 *   npx tsc -p tsconfig.build.json && node scripts/bundle.mjs
 *   node --import tsx bench/convert.ts [--rounds 3] [--codecs SNAPPY,ZSTD] [--args "--threads 1"]
 */
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { CONVERT_CSV, CONVERT_ROWS, ensureConvertData } from './convert-data.js';
import { argValue, median, ROOT, staleBuild } from './harness.js';
import { OUT_DIR, timedProcess, type ProcessRun } from './process-time.js';

type Contender = 'parquetry' | 'duckdb';

function command(c: Contender, codec: string, output: string, extra: string[]): string[] {
  if (c === 'duckdb') return [process.execPath, join(ROOT, 'bench', 'duckdb-convert.mjs'), CONVERT_CSV, output, codec];
  return [process.execPath, join(ROOT, 'dist', 'cli', 'main.js'), 'convert', CONVERT_CSV, output, '--codec', codec, '-q', ...extra];
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('no dist/: build first (npx tsc -p tsconfig.build.json && node scripts/bundle.mjs)');
  if (staleBuild()) throw new Error('dist/ is older than src/: build first');
  const rounds = Number(argValue('--rounds') ?? 3);
  const codecs = (argValue('--codecs') ?? 'SNAPPY,ZSTD').split(',');
  const extra = (argValue('--args') ?? '').split(' ').filter(Boolean);
  await ensureConvertData();
  const load = os.loadavg()[0]!;
  const mb = statSync(CONVERT_CSV).size / 1e6;
  console.log(`${CONVERT_ROWS} rows, ${mb.toFixed(1)} MB of CSV; ${rounds} rounds, a process a run, taking turns; load average ${load.toFixed(1)} on ${os.cpus().length} cores${extra.length ? `; parquetry ${extra.join(' ')}` : ''}`);
  console.log('| codec | contender | wall (median) | CPU (median) | peak RSS | output |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: |');
  for (const codec of codecs) {
    const runs = new Map<Contender, ProcessRun[]>([['parquetry', []], ['duckdb', []]]);
    for (let r = 0; r < rounds; r++) {
      for (const c of runs.keys()) {
        const out = join(OUT_DIR, `convert-${c}.parquet`);
        runs.get(c)!.push(timedProcess(command(c, codec, out, extra), out));
      }
    }
    const duck = median(runs.get('duckdb')!.map((r) => r.wall));
    const duckBytes = runs.get('duckdb')![0]!.bytes;
    for (const [c, rs] of runs) {
      const wall = median(rs.map((r) => r.wall));
      const ratio = c === 'duckdb' ? '' : ` (${(wall / duck).toFixed(2)}x)`;
      const size = rs[0]!.bytes;
      const sizeRatio = c === 'duckdb' ? '' : ` (${(size / duckBytes).toFixed(2)}x)`;
      console.log(`| ${codec} | ${c} | ${wall.toFixed(2)} s${ratio} | ${median(rs.map((r) => r.cpu)).toFixed(2)} s | ${Math.max(...rs.map((r) => r.rssMB)).toFixed(0)} MB | ${(size / 1e6).toFixed(2)} MB${sizeRatio} |`);
    }
  }
  console.log(`load average after: ${os.loadavg()[0]!.toFixed(1)}`);
}

await main();
