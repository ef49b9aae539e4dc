/**
 * Startup: how long a whole process takes for work that hardly reads the
 * file, where loading the code is most of the time. Each task is a fresh
 * `node` over the built package (dist/, so no TypeScript loader is timed):
 *
 * - `node` alone, the floor every task pays;
 * - a footer-only read: open a file and read its metadata, with parquetry
 *   (`openParquet` from the package's Node entry point) and with hyparquet
 *   (`asyncBufferFromFile` + `parquetMetadataAsync`);
 * - `parquetry meta FILE`, the CLI printing that metadata;
 * - `parquetry convert` of FILE to CSV and of its rows as CSV to Parquet:
 *   a conversion's fixed cost, before and around its first byte.
 *
 * The tasks take turns, one run each per round, so a burst of other work on
 * the machine hits them alike. Times are wall clock from spawn to exit. On
 * Linux the CPU time of the children (user + system, all threads, from
 * /proc/self/stat) is given too, as a mean per run: it hardly grows when
 * other work shares the machine, where the wall clock does.
 *
 *   npm run build && node --import tsx bench/startup.ts [--runs N] [--file F] [--before DIR] [--write]
 *
 * --before DIR adds the parquetry tasks of another checkout, built there
 * (an older commit, say), to the same run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { basename, join, relative } from 'node:path';
import { ROOT, staleBuild } from './harness.js';


function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

const runs = Number(option('--runs', '21'));
const file = option('--file', join(ROOT, 'examples', 'fixtures', 'sample.parquet'));

const before = option('--before', '');

interface Task {
  name: string;
  args: string[];
  /** Where it runs: a checkout's root, where `parquetry` names that checkout's package. */
  cwd: string;
}

/** A module script run by `node -e`. */
const script = (code: string): string[] => ['--input-type=module', '-e', code];

/** Where the conversions write, and the CSV the CSV to Parquet task reads (FILE's rows, written by the CLI before the runs). */
const scratch = mkdtempSync(join(os.tmpdir(), 'parquetry-startup-'));
const csvInput = join(scratch, 'in.csv');

function parquetryTasks(root: string, label: string): Task[] {
  const cli = join(root, 'dist', 'cli', 'main.js');
  const out = (name: string) => join(scratch, `${basename(root)}-${name}`);
  return [
    {
      name: `footer-only read: parquetry openParquet${label}`,
      args: script(`import { openParquet } from 'parquetry'; const r = await openParquet(${JSON.stringify(file)}); console.log(String(r.numRows)); await r.close();`),
      cwd: root,
    },
    { name: `\`parquetry meta FILE\`${label}`, args: [cli, 'meta', file], cwd: root },
    // A conversion's fixed cost: its rows are few, so loading its code is most of its time.
    { name: `\`parquetry convert FILE out.csv\`${label}`, args: [cli, 'convert', file, out('out.csv'), '-q'], cwd: root },
    { name: `\`parquetry convert in.csv out.parquet\`${label}`, args: [cli, 'convert', csvInput, out('out.parquet'), '-q'], cwd: root },
  ];
}

// hyparquet is third: the ratios are to it.
const [footer, meta, toCsv, fromCsv] = parquetryTasks(ROOT, '');
const tasks: Task[] = [
  { name: 'node -e "" (the floor)', args: ['-e', ''], cwd: ROOT },
  footer!,
  {
    name: 'footer-only read: hyparquet parquetMetadataAsync',
    args: script(`import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet'; const m = await parquetMetadataAsync(await asyncBufferFromFile(${JSON.stringify(file)})); console.log(String(m.num_rows));`),
    cwd: ROOT,
  },
  meta!,
  toCsv!,
  fromCsv!,
  ...(before ? parquetryTasks(before, ` (${basename(before)})`) : []),
];

/** CPU seconds of the waited-for children so far (Linux), or undefined elsewhere. */
function childrenCpu(): number | undefined {
  try {
    // Fields after the command name: cutime and cstime are the 14th and 15th, in clock ticks (100 a second on Linux).
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** One run: wall-clock ms, the child's CPU seconds, and stdout so the two footer reads can be checked to agree. */
function run(task: Task): { ms: number; cpu: number | undefined; stdout: string } {
  const cpuBefore = childrenCpu();
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, task.args, { cwd: task.cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const cpuAfter = childrenCpu();
  if (r.status !== 0) throw new Error(`${task.name} exited ${r.status}: ${r.stderr}`);
  return { ms, cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore, stdout: r.stdout };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), Linux ${os.release()}, Node ${process.version}`;
}

const fmt = (ms: number) => ms.toFixed(0);

function main(): void {
  for (const root of before ? [ROOT, before] : [ROOT]) {
    if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) throw new Error(`no ${join(root, 'dist')}: run \`npm run build\` there first`);
  }
  if (staleBuild()) throw new Error('dist/ is older than src/: run `npm run build` first');
  const made = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'convert', file, csvInput, '-q'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`writing ${csvInput} failed: ${made.stderr}`);
  const loadBefore = os.loadavg();
  const times = tasks.map(() => [] as number[]);
  const cpu = tasks.map(() => 0);
  // One untimed round fills the file-system cache for every task alike.
  const firstOut = tasks.map((t) => run(t).stdout);
  if (firstOut[1]!.trim() !== firstOut[2]!.trim()) throw new Error(`the footer reads disagree: ${firstOut[1]} vs ${firstOut[2]}`);
  for (let i = 0; i < runs; i++) {
    // Rotate the order, so no task always runs right after another.
    for (let k = 0; k < tasks.length; k++) {
      const j = (i + k) % tasks.length;
      const r = run(tasks[j]!);
      times[j]!.push(r.ms);
      cpu[j]! += r.cpu ?? NaN;
    }
    process.stderr.write(`round ${i + 1}/${runs}\r`);
  }
  const loadAfter = os.loadavg();
  const hyparquet = median(times[2]!);
  const hyparquetCpu = cpu[2]! / runs;
  const rows = tasks.map((t, i) => {
    const m = median(times[i]!);
    const c = cpu[i]! / runs;
    const cpuCells = Number.isNaN(c) ? '| n/a | n/a' : `| ${fmt(c * 1000)} | ${(c / hyparquetCpu).toFixed(2)}x`;
    return `| ${t.name} | ${fmt(Math.min(...times[i]!))} | ${fmt(m)} | ${(m / hyparquet).toFixed(2)}x ${cpuCells} |`;
  });
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(' / ');
  const block = [
    `Run on ${new Date().toISOString().slice(0, 10)}: ${machine()}. ${runs} runs of each task, taking turns; file \`${relative(ROOT, file)}\` (${statSync(file).size.toLocaleString('en')} bytes). Load average (1 / 5 / 15 min) ${load(loadBefore)} at the start, ${load(loadAfter)} at the end.`,
    '',
    '| task (whole process) | best ms | median ms | median / hyparquet footer-only | CPU ms (mean) | CPU / hyparquet footer-only |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
  console.log(block);
  rmSync(scratch, { recursive: true, force: true });
  if (process.argv.includes('--write')) writeResults(block);
}

const START = '<!-- bench/startup.ts results: start -->';
const END = '<!-- bench/startup.ts results: end -->';

/** Replaces the generated block of BENCHMARKS.md, keeping the hand-written text around it. */
function writeResults(block: string): void {
  const path = join(ROOT, 'BENCHMARKS.md');
  const text = readFileSync(path, 'utf8');
  const s = text.indexOf(START);
  const e = text.indexOf(END);
  if (s < 0 || e < s) throw new Error(`BENCHMARKS.md has no ${START} ... ${END} block`);
  writeFileSync(path, `${text.slice(0, s)}${START}\n${block}\n${END}${text.slice(e + END.length)}`);
  process.stderr.write(`updated ${relative(process.cwd(), path)}\n`);
}

main();
