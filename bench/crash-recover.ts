/**
 * The crash campaign at full size: bench/crash-writer.ts writes a file of
 * about SIZE MB with checkpointEvery 1 and is killed with SIGKILL at KILLS
 * random moments; each time `recoverParquet` reads the temp file it left,
 * and the recovered file must hold at least every row the writer had
 * finished, exactly (DuckDB's count, sum and distinct count of the ids,
 * and sum of the amounts, against the generator's).
 *
 *   node --import tsx bench/crash-recover.ts [sizeMB=200] [kills=50]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { fileSink, fileSource } from '../src/node/index.js';
import { recoverParquet } from '../src/node/entries/recover.js';
import { amountAt, GROUP } from './crash-writer.js';

const SIZE = Number(process.argv[2] ?? 200) * 1e6;
const KILLS = Number(process.argv[3] ?? 50);
const root = mkdtempSync(join(tmpdir(), 'parquetry-crash-'));
const writer = join('bench', 'crash-writer.ts');

/**
 * Runs the writer; with `kill`, kills it `kill.ms` after it reports `kill.rows` rows finished:
 * a moment inside the write whatever the machine's load.
 */
function run(path: string, groups: number, kill?: { rows: number; ms: number }): Promise<{ done: number; ms: number; first: number; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', writer, path, String(groups)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let done = 0;
    let first = 0;
    let armed = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      for (const l of s.split('\n')) if (l) done = Number(l);
      if (first === 0) first = performance.now() - t0;
      if (kill && done >= kill.rows && !armed) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), kill.ms);
      }
    });
    child.on('error', reject);
    child.on('exit', (_c, signal) => resolve({ done, ms: performance.now() - t0, first, killed: signal === 'SIGKILL' }));
  });
}

// A probe of 4 row groups sizes the file (how many row groups make SIZE) and times a row group.
const probe = join(root, 'probe.parquet');
const one = await run(probe, 4);
const perGroup = (one.ms - one.first) / 3;
const groups = Math.ceil(SIZE / (statSync(probe).size / 4));
console.log(`file: ${groups} row groups of ${GROUP} rows, about ${((statSync(probe).size / 4) * groups / 1e6).toFixed(1)} MB; a row group takes about ${perGroup.toFixed(0)} ms`);
rmSync(probe);

const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const duck = await instance.connect();
let seed = 2026;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
let failures = 0;
const recoverSeconds: number[] = [];
for (let k = 0; k < KILLS; k++) {
  const dir = join(root, `kill-${k}`);
  mkdirSync(dir);
  // After a random number of row groups, a random part of a row group's writing time later.
  const kill = { rows: Math.floor(random() * (groups - 1)) * GROUP + GROUP, ms: Math.floor(random() * perGroup) };
  const at = `${kill.ms} ms after row ${kill.rows}`;
  const r = await run(join(dir, 'out.parquet'), groups, kill);
  const temp = readdirSync(dir).find((n) => n.startsWith('.out.parquet.parquetry-tmp-'));
  if (!r.killed || !temp) {
    console.log(`kill ${k} at ${at}: ${r.killed ? 'no temp file' : 'finished before the kill'}`);
    continue;
  }
  const t0 = performance.now();
  let line: string;
  try {
    const source = await fileSource(join(dir, temp));
    const report = await recoverParquet(source, await fileSink(join(dir, 'recovered.parquet'))).finally(() => source.close?.());
    recoverSeconds.push((performance.now() - t0) / 1000);
    const n = report.rowsRecovered;
    const got = (await duck.runAndReadAll(`SELECT count(*), sum(id), count(DISTINCT id), sum(amount) FROM read_parquet('${join(dir, 'recovered.parquet')}')`)).getRows()[0]!;
    // Summed row by row, in row order, without building the columns of n rows (1.9 GB at 8.1 million).
    let amount = 0;
    for (let i = 0; i < n; i++) amount += amountAt(i);
    const ok = Number(got[0]) === n && BigInt(got[1] as bigint) === (BigInt(n) * BigInt(n - 1)) / 2n && Number(got[2]) === n && Math.abs(Number(got[3]) - amount) < 1e-6 * Math.max(1, amount)
      && n >= r.done && report.losses.length === 0;
    if (!ok) failures++;
    line = `kill ${k} at ${at}: ${r.done} rows finished, ${n} recovered (${report.rowGroups} row groups), DuckDB ${ok ? 'agrees' : `DISAGREES ${JSON.stringify(got.map(String))}`}, recover ${recoverSeconds[recoverSeconds.length - 1]!.toFixed(1)} s, this process's peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`;
  } catch (e) {
    failures++;
    line = `kill ${k} at ${at}: ${r.done} rows finished, recovery failed: ${(e as Error).message}`;
  }
  console.log(line);
  rmSync(dir, { recursive: true, force: true });
}
duck.closeSync();
instance.closeSync();
rmSync(root, { recursive: true, force: true });
console.log(`${KILLS} kills, ${failures} failures`);
process.exitCode = failures ? 1 : 0;
