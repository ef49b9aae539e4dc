/**
 * JSON Lines to Parquet, and Parquet to CSV and to JSON Lines, whole
 * processes taking turns: `parquetry convert IN OUT` (the built CLI,
 * dist/cli/main.js) against a Node process running DuckDB's COPY through
 * @duckdb/node-api with its default threads (bench/duckdb-convert.mjs). The
 * Parquet input of the text outputs is DuckDB's Parquet file of the same
 * records. Each run is timed by /usr/bin/time: wall, CPU (user + system),
 * peak RSS. The input is bench/textout-data.ts's (200,000 records).
 *
 *   npx tsc -p tsconfig.build.json && node scripts/bundle.mjs
 *   node --import tsx bench/textout.ts [--rounds 3] [--jobs jsonl-parquet,parquet-csv,parquet-jsonl] [--baseline DIR] [--threads N]
 *
 * `--baseline DIR`: another built checkout's CLI (DIR/dist/cli/main.js) takes
 * its turns too, so a change is measured against what it changes in one run.
 * `--threads N`: parquetry's Parquet to text jobs run with `--threads N`
 * (else the CLI's default, which the load average lowers).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { argValue, median, ROOT, staleBuild } from './harness.js';
import { OUT_DIR, timedProcess, type ProcessRun } from './process-time.js';
import { ensureTextoutData, TEXTOUT_JSONL, TEXTOUT_ROWS } from './textout-data.js';

type Contender = 'parquetry' | 'baseline' | 'duckdb';

const PARQUET_IN = join(OUT_DIR, 'textout-in.parquet');

const JOBS: Record<string, { label: string; input: string; ext: string }> = {
  'jsonl-parquet': { label: 'JSON Lines → Parquet', input: TEXTOUT_JSONL, ext: 'parquet' },
  'parquet-csv': { label: 'Parquet → CSV', input: PARQUET_IN, ext: 'csv' },
  'parquet-jsonl': { label: 'Parquet → JSON Lines', input: PARQUET_IN, ext: 'jsonl' },
};

function command(c: Contender, input: string, output: string, baseline: string | undefined, threads?: string): string[] {
  if (c === 'duckdb') return [process.execPath, join(ROOT, 'bench', 'duckdb-convert.mjs'), input, output];
  return [process.execPath, join(c === 'baseline' ? baseline! : ROOT, 'dist', 'cli', 'main.js'), 'convert', input, output, '-q', ...(c === 'parquetry' && threads ? ['--threads', threads] : [])];
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('no dist/: build first (npx tsc -p tsconfig.build.json && node scripts/bundle.mjs)');
  if (staleBuild()) throw new Error('dist/ is older than src/: build first');
  const rounds = Number(argValue('--rounds') ?? 3);
  const jobs = (argValue('--jobs') ?? Object.keys(JOBS).join(',')).split(',');
  const baseline = argValue('--baseline');
  const threads = argValue('--threads');
  await ensureTextoutData();
  if (!existsSync(PARQUET_IN)) timedProcess(command('duckdb', TEXTOUT_JSONL, PARQUET_IN, baseline), PARQUET_IN);
  const load = () => os.loadavg()[0]!.toFixed(1);
  console.log(`${TEXTOUT_ROWS} records, ${(statSync(TEXTOUT_JSONL).size / 1e6).toFixed(1)} MB of JSON Lines; ${rounds} rounds, a process a run, taking turns; load average ${load()} on ${os.cpus().length} cores`);
  console.log('| job | contender | wall (runs) | CPU (median) | peak RSS | / DuckDB (median wall) | / DuckDB (median CPU) |');
  console.log('| --- | --- | --- | ---: | ---: | ---: | ---: |');
  for (const name of jobs) {
    const job = JOBS[name];
    if (!job) throw new Error(`no job ${name}: ${Object.keys(JOBS).join(', ')}`);
    const runs = new Map<Contender, ProcessRun[]>([['parquetry', []], ...(baseline ? [['baseline', []] as [Contender, ProcessRun[]]] : []), ['duckdb', []]]);
    for (let r = 0; r < rounds; r++) {
      for (const c of runs.keys()) {
        const out = join(OUT_DIR, `textout-${c}.${job.ext}`);
        runs.get(c)!.push(timedProcess(command(c, job.input, out, baseline, job.input === PARQUET_IN ? threads : undefined), out));
      }
    }
    const duck = median(runs.get('duckdb')!.map((r) => r.wall));
    const duckCpu = median(runs.get('duckdb')!.map((r) => r.cpu));
    for (const [c, rs] of runs) {
      const wall = median(rs.map((r) => r.wall));
      const cpu = median(rs.map((r) => r.cpu));
      const ratio = c === 'duckdb' ? '' : `${(wall / duck).toFixed(2)}x`;
      const cpuRatio = c === 'duckdb' ? '' : `${(cpu / duckCpu).toFixed(2)}x`;
      console.log(`| ${job.label} | ${c} | ${rs.map((r) => r.wall.toFixed(2)).join(', ')} s | ${cpu.toFixed(2)} s | ${Math.max(...rs.map((r) => r.rssMB)).toFixed(0)} MB | ${ratio} | ${cpuRatio} |`);
    }
    if (baseline) {
      const same = Buffer.compare(readFileSync(join(OUT_DIR, `textout-parquetry.${job.ext}`)), readFileSync(join(OUT_DIR, `textout-baseline.${job.ext}`))) === 0;
      console.log(`| ${job.label} | parquetry's output against the baseline's | ${same ? 'the same bytes' : 'DIFFERENT BYTES'} | | | | |`);
    }
  }
  console.log(`load average after: ${load()}`);
}

await main();
