/**
 * Read benchmark: parquetry against hyparquet (pure JS, in-process) and DuckDB
 * (native, multi-threaded: a reference point, not a target) on two files
 * DuckDB writes into bench/data/ when they are missing (see bench/data.ts).
 *
 *   a  scan-sum       sum of a DOUBLE column (projection of one column)
 *   b  scan-distinct  distinct values of a 100-value string column
 *   c  rows-flat      the flat file (2M rows, 8 columns) as row objects
 *   d  rows-nested    the nested file (500k rows: lists, structs, a map) as row objects
 *
 * Each (library, task) runs in child processes of its own: one cold run whose
 * peak RSS is recorded (so one library's heap does not colour another's),
 * which also warms the JIT, then timed runs. The libraries take turns in
 * rounds (3 x 7 timed runs for the scans, 2 x 4 for full reads), so load
 * from elsewhere on the machine hits them alike. Results of every library
 * are checked against each other before anything is printed.
 *
 * Run:  npm run bench                      (node --import tsx bench/read.ts)
 *       npm run bench -- --runs 9          timed runs per round
 *       npm run bench -- --rounds 4        rounds per task
 *       npm run bench -- --only parquetry  one library (also: hyparquet, duckdb)
 *       npm run bench -- --tasks a,c       some tasks
 *       npm run bench -- --no-gc           do not force a full GC before each timed run
 *       npm run bench -- --write           also update the results block of BENCHMARKS.md
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureData, fileSize, FLAT, FLAT_CATEGORY, FLAT_DOUBLE, FLAT_ROWS, NESTED, NESTED_ROWS } from './data.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');

/** `parquetry readRows()`: the same full reads through the all-rows call instead of `for await` over rows(). */
type Lib = 'parquetry' | 'parquetry readRows()' | 'hyparquet' | 'duckdb';
type Task = 'a' | 'b' | 'c' | 'd';
const LIBS: Lib[] = ['parquetry', 'parquetry readRows()', 'hyparquet', 'duckdb'];
/** Which tasks a library variant runs. */
const RUNS_TASK = (lib: Lib, task: Task): boolean => lib !== 'parquetry readRows()' || task === 'c' || task === 'd';
const TASKS: Record<Task, string> = {
  a: `(a) sum of a double column (${(FLAT_ROWS / 1e6).toFixed(0)}M rows)`,
  b: `(b) distinct of a 100-value string column`,
  c: `(c) flat file to row objects (${(FLAT_ROWS / 1e6).toFixed(0)}M rows x 8)`,
  d: `(d) nested file to row objects (${NESTED_ROWS / 1000}k rows)`,
};
/** Targets from the issue: parquetry's speed-up over hyparquet (median against median). */
const TARGETS: Partial<Record<Task, number>> = { a: 3, b: 3, c: 2 };

/** What a task returns: something small that every library must agree on. */
type Check = { kind: 'sum'; value: number } | { kind: 'distinct'; values: string[] } | { kind: 'rows'; count: number; keys: string };

type Runner = () => Promise<Check>;

// ---------------------------------------------------------------------------
// parquetry: the public Node API, column vectors for scans, rows() for full reads

async function parquetryRunner(task: Task, allRows = false): Promise<Runner> {
  const { openParquet } = await import('../src/node/index.js');
  switch (task) {
    case 'a':
      return async () => {
        const reader = await openParquet(FLAT);
        let sum = 0;
        for await (const batch of reader.columns({ columns: [FLAT_DOUBLE] })) {
          const { values, dictionary, indices } = batch.data;
          if (values) {
            const v = values as Float64Array; // dense non-null values
            for (let i = 0; i < v.length; i++) sum += v[i]!;
          } else {
            const d = dictionary as Float64Array;
            const idx = indices!;
            for (let i = 0; i < idx.length; i++) sum += d[idx[i]!]!;
          }
        }
        await reader.close();
        return { kind: 'sum', value: sum };
      };
    case 'b':
      return async () => {
        const reader = await openParquet(FLAT);
        const decoder = new TextDecoder();
        const seen = new Set<string | null>();
        for await (const batch of reader.columns({ columns: [FLAT_CATEGORY] })) {
          const { values, dictionary, indices, valueCount, length } = batch.data;
          if (valueCount < length) seen.add(null);
          if (dictionary && indices) {
            // Decode only the dictionary entries the rows use, each once.
            const { data, offsets } = dictionary as { data: Uint8Array; offsets: Int32Array };
            const used = new Uint8Array(offsets.length - 1);
            for (let i = 0; i < indices.length; i++) used[indices[i]!] = 1;
            for (let k = 0; k < used.length; k++) if (used[k]) seen.add(decoder.decode(data.subarray(offsets[k]!, offsets[k + 1]!)));
          } else {
            const { data, offsets } = values as { data: Uint8Array; offsets: Int32Array };
            for (let i = 0; i + 1 < offsets.length; i++) seen.add(decoder.decode(data.subarray(offsets[i]!, offsets[i + 1]!)));
          }
        }
        await reader.close();
        return distinct(seen);
      };
    case 'c':
    case 'd':
      return async () => {
        const reader = await openParquet(task === 'c' ? FLAT : NESTED);
        let rows: Record<string, unknown>[] = [];
        if (allRows) rows = await reader.readRows();
        else for await (const row of reader.rows()) rows.push(row);
        await reader.close();
        return rowsCheck(rows);
      };
  }
}

// ---------------------------------------------------------------------------
// hyparquet: parquetRead with onChunk (no row transpose) for scans,
// parquetReadObjects (rowFormat 'object') for full reads; snappy from hyparquet-compressors

async function hyparquetRunner(task: Task): Promise<Runner> {
  const { asyncBufferFromFile, parquetRead, parquetReadObjects } = await import('hyparquet');
  const { compressors } = await import('hyparquet-compressors');
  // asyncBufferFromFile, as hyparquet's README does in Node: it reads only the ranges a
  // projection needs, which made the scans about 2x faster than passing the whole file as
  // an ArrayBuffer; for full reads the two measured the same.
  const file = (path: string) => asyncBufferFromFile(path);
  switch (task) {
    case 'a':
      return async () => {
        let sum = 0;
        await parquetRead({
          file: await file(FLAT),
          compressors,
          columns: [FLAT_DOUBLE],
          onChunk({ columnData }) {
            for (let i = 0; i < columnData.length; i++) {
              const v = columnData[i] as number | null;
              if (v !== null) sum += v;
            }
          },
        });
        return { kind: 'sum', value: sum };
      };
    case 'b':
      return async () => {
        const seen = new Set<string | null>();
        await parquetRead({
          file: await file(FLAT),
          compressors,
          columns: [FLAT_CATEGORY],
          onChunk({ columnData }) {
            for (let i = 0; i < columnData.length; i++) seen.add(columnData[i] as string | null);
          },
        });
        return distinct(seen);
      };
    case 'c':
    case 'd':
      return async () => {
        const rows = await parquetReadObjects({ file: await file(task === 'c' ? FLAT : NESTED), compressors });
        return rowsCheck(rows);
      };
  }
}

// ---------------------------------------------------------------------------
// DuckDB: SQL over read_parquet, results converted to JS values

async function duckdbRunner(task: Task): Promise<Runner> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const q = (p: string) => `read_parquet('${p.replaceAll("'", "''")}')`;
  switch (task) {
    case 'a':
      return async () => {
        const r = await c.runAndReadAll(`SELECT sum(${FLAT_DOUBLE})::DOUBLE FROM ${q(FLAT)}`);
        return { kind: 'sum', value: r.getRowsJS()[0]![0] as number };
      };
    case 'b':
      return async () => {
        const r = await c.runAndReadAll(`SELECT DISTINCT ${FLAT_CATEGORY} FROM ${q(FLAT)}`);
        return distinct(new Set(r.getRowsJS().map((row) => row[0] as string | null)));
      };
    case 'c':
    case 'd':
      return async () => {
        const r = await c.runAndReadAll(`SELECT * FROM ${q(task === 'c' ? FLAT : NESTED)}`);
        return rowsCheck(r.getRowObjectsJS() as Record<string, unknown>[]);
      };
  }
}

function distinct(seen: Set<string | null>): Check {
  return { kind: 'distinct', values: [...seen].map((v) => (v === null ? '\u0000null' : v)).sort() };
}

function rowsCheck(rows: Record<string, unknown>[]): Check {
  return { kind: 'rows', count: rows.length, keys: rows.length ? Object.keys(rows[rows.length - 1]!).join(',') : '' };
}

// ---------------------------------------------------------------------------
// Child process: one library, one task

interface WorkerResult {
  lib: Lib;
  task: Task;
  times: number[];
  /** Peak resident set size over the cold run (bytes). */
  peakRss: number;
  /** RSS after imports and setup, before the first run (bytes). */
  baseRss: number;
  check: Check;
}

async function worker(lib: Lib, task: Task, runs: number, collect: boolean): Promise<void> {
  const run =
    lib === 'parquetry' ? await parquetryRunner(task)
    : lib === 'parquetry readRows()' ? await parquetryRunner(task, true)
    : lib === 'hyparquet' ? await hyparquetRunner(task)
    : await duckdbRunner(task);
  const baseRss = process.memoryUsage().rss;
  const check = await run(); // cold run: its peak RSS is the memory figure, and it warms the JIT
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (collect) (globalThis as { gc?: () => void }).gc?.(); // start each run from a collected heap: no run pays for another's garbage
    const t0 = performance.now();
    const c = await run();
    times.push(performance.now() - t0);
    if (!agree(c, check)) throw new Error(`${lib} ${task}: result changed between runs`);
  }
  const out: WorkerResult = { lib, task, times, peakRss, baseRss, check };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

// ---------------------------------------------------------------------------
// Parent: run the matrix, check agreement, print and record

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function spawnWorker(lib: Lib, task: Task, runs: number, collect: boolean): WorkerResult {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--worker', lib, task, String(runs), collect ? 'gc' : 'no-gc'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`${lib} task ${task} failed (exit ${r.status})`);
  const line = r.stdout.trim().split('\n').pop()!;
  return JSON.parse(line) as WorkerResult;
}

function agree(a: Check, b: Check): boolean {
  if (a.kind === 'sum' && b.kind === 'sum') return Math.abs(a.value - b.value) <= 1e-9 * Math.max(1, Math.abs(a.value));
  return JSON.stringify(a) === JSON.stringify(b);
}

const fmtMs = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const fmtMB = (b: number) => (b / 2 ** 20).toFixed(0);
const fmtX = (x: number) => (x >= 10 ? x.toFixed(0) : x.toFixed(2)) + 'x';

/** The library column: which API each row measured. */
function label(lib: Lib, task: Task): string {
  const rows = task === 'c' || task === 'd';
  switch (lib) {
    case 'parquetry': return rows ? 'parquetry `for await` rows()' : 'parquetry columns()';
    case 'parquetry readRows()': return 'parquetry readRows()';
    case 'hyparquet': return rows ? 'hyparquet parquetReadObjects' : 'hyparquet parquetRead onChunk';
    case 'duckdb': return rows ? 'duckdb getRowObjectsJS' : 'duckdb SQL';
  }
}

function table(results: WorkerResult[], tasks: Task[]): { md: string; verdicts: string[] } {
  const lines = [
    '| task | library | best ms | median ms | hyparquet median / median | peak RSS MB (cold runs) |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ];
  const verdicts: string[] = [];
  for (const task of tasks) {
    const rs = results.filter((r) => r.task === task);
    const hyp = rs.find((r) => r.lib === 'hyparquet');
    for (const r of rs) {
      const med = median(r.times);
      const ratio = hyp ? fmtX(median(hyp.times) / med) : '';
      lines.push(`| ${TASKS[task]} | ${label(r.lib, task)} | ${fmtMs(Math.min(...r.times))} | ${fmtMs(med)} | ${ratio} | ${fmtMB(r.peakRss)} |`);
    }
    const target = TARGETS[task];
    for (const pq of rs.filter((r) => r.lib.startsWith('parquetry'))) {
      if (!target || !hyp) continue;
      const x = median(hyp.times) / median(pq.times);
      verdicts.push(`- ${TASKS[task]}: ${label(pq.lib, task)} at ${fmtX(x)} hyparquet's speed (median against median); target ${target}x: **${x >= target ? 'met' : 'NOT met'}**`);
    }
  }
  return { md: lines.join('\n'), verdicts };
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Rounds per task: the libraries take turns, so a burst of other work on the machine hits them alike. */
const ROUNDS: Record<Task, number> = { a: 3, b: 3, c: 2, d: 2 };

async function main(): Promise<void> {
  const given = arg('--runs');
  const collect = !process.argv.includes('--no-gc');
  const rounds = arg('--rounds');
  const only = arg('--only')?.split(',');
  const libs = only ? LIBS.filter((l) => only.includes(l.split(' ')[0]!) || only.includes(l)) : LIBS;
  const tasks = (arg('--tasks')?.split(',') as Task[] | undefined) ?? (Object.keys(TASKS) as Task[]);
  /** Timed runs per round: by default 7 in all for the scans' rounds each, 8 in all for full reads. */
  const plan = (task: Task): { rounds: number; runs: number } => {
    const r = rounds !== undefined ? Number(rounds) : ROUNDS[task];
    const n = given !== undefined ? Number(given) : task === 'a' || task === 'b' ? 7 : 4;
    if (!(Number.isInteger(r) && r >= 1 && Number.isInteger(n) && n >= 1 && r * n >= 5)) throw new Error('--runs and --rounds must give at least 5 timed runs');
    return { rounds: r, runs: n };
  };
  await ensureData();

  const loadBefore = os.loadavg()[0]!;
  const results: WorkerResult[] = [];
  for (const task of tasks) {
    const { rounds: r, runs } = plan(task);
    const merged = new Map<Lib, WorkerResult>();
    for (let round = 0; round < r; round++) {
      for (const lib of libs) {
        if (!RUNS_TASK(lib, task)) continue;
        process.stderr.write(`${lib} ${task} round ${round + 1}/${r}... `);
        const w = spawnWorker(lib, task, runs, collect);
        process.stderr.write(`median ${fmtMs(median(w.times))} ms, peak RSS ${fmtMB(w.peakRss)} MB\n`);
        const m = merged.get(lib);
        if (!m) merged.set(lib, w);
        else {
          if (!agree(m.check, w.check)) throw new Error(`${lib} ${task}: result changed between rounds`);
          m.times.push(...w.times);
          m.peakRss = Math.max(m.peakRss, w.peakRss);
        }
      }
    }
    results.push(...merged.values());
    const [first, ...rest] = results.filter((x) => x.task === task);
    for (const x of rest) {
      if (!agree(first!.check, x.check)) throw new Error(`task ${task}: ${x.lib} disagrees with ${first!.lib}: ${JSON.stringify(x.check).slice(0, 300)} vs ${JSON.stringify(first!.check).slice(0, 300)}`);
    }
  }

  const loadAfter = os.loadavg()[0]!;
  const { md, verdicts } = table(results, tasks);
  const sizes = [FLAT, NESTED].map((p) => `- \`${relative(ROOT, p)}\`: ${(fileSize(p) / 2 ** 20).toFixed(1)} MiB`).join('\n');
  const block = [
    `Run on ${new Date().toISOString().slice(0, 10)}: ${machine()}. Per (library, task): ${tasks.map((t) => `${t} ${plan(t).rounds} x ${plan(t).runs}`).join(', ')} timed runs (rounds x runs; in each round every library runs in a fresh process: one cold run, then the timed runs)${collect ? ', a forced full GC before each timed run' : ', no forced GC between runs (--no-gc)'}. Load average (1 min) ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end${loadBefore > os.cpus().length || loadAfter > os.cpus().length ? ': other work shared the machine, so absolute times are inflated' : ''}.`,
    '',
    md,
    '',
    verdicts.join('\n'),
    '',
    'Files (written by DuckDB, SNAPPY, default row groups of 122,880 rows):',
    '',
    sizes,
  ].join('\n');
  console.log(block);

  mkdirSync(join(HERE, 'out'), { recursive: true });
  writeFileSync(join(HERE, 'out', 'read.json'), JSON.stringify({ machine: machine(), collect, results }, null, 2));
  if (process.argv.includes('--write')) writeResults(block);
}

const START = '<!-- bench/read.ts results: start -->';
const END = '<!-- bench/read.ts results: end -->';

/** Replaces the generated block of BENCHMARKS.md, keeping the hand-written text around it. */
function writeResults(block: string): void {
  const path = join(ROOT, 'BENCHMARKS.md');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const s = text.indexOf(START);
  const e = text.indexOf(END);
  const generated = `${START}\n${block}\n${END}`;
  const next = s >= 0 && e > s ? text.slice(0, s) + generated + text.slice(e + END.length) : `# Benchmarks\n\n${generated}\n`;
  writeFileSync(path, next);
  process.stderr.write(`updated ${relative(process.cwd(), path)}\n`);
}

if (process.argv[2] === '--worker') {
  await worker(process.argv[3] as Lib, process.argv[4] as Task, Number(process.argv[5]), process.argv[6] !== 'no-gc');
} else {
  await main();
}
