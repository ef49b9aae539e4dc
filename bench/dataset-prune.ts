/**
 * Dataset pruning benchmark (issue 14, "Pruning"): over the 1,000-file,
 * 10 GiB (logical) dataset of bench/dataset-gen.ts, one query that filters on
 * a partition value and on the sorted column,
 *
 *   day = 2024-03-15 AND id >= LO AND id < LO + 1000      (1,000 rows)
 *
 * answered in these ways, counting the files each opens and the bytes it reads:
 *
 *   pruned   openDataset(DIR).rows({ filter }): the dataset plans the files
 *            from the partition values, then the footers' statistics prune
 *            the rest (`useMetadataFile: false`)
 *   summary  the same, planned from DIR/_metadata (written by
 *            dataset-gen.ts --summary; not run without it)
 *   full     the same answer by a full scan: every file opened with the
 *            single-file reader, every row of every column read, the filter
 *            applied in JS (what a reader without pruning does)
 *   idscan   the cheapest full scan: only the `id` column of every file, as
 *            column vectors, `day` from the path (the least such a reader reads)
 *   dsfull   openDataset(DIR).rows() with no filter, the filter applied in
 *            JS: the full scan through the dataset itself (footers, as pruned)
 *   byhand   the single-file reader on the day's files picked from their
 *            paths, with `rows({ filter })` on id: a reference for what the
 *            dataset's planning should come close to
 *
 * Files and bytes are counted on the sources the readers read from: the
 * dataset's file-system hook (`fileSystem`, its `open` wrapped) for the
 * openDataset tasks,
 * a wrapped `fileSource` for the others. Each task runs in a child process
 * of its own: one cold run (JIT), then timed runs, a forced GC before each
 * (bench/harness.ts).
 * The dataset's files sit in the page cache for all of them (the generator
 * or the previous task has just read or written them).
 *
 *   nice -n 10 node --import tsx bench/dataset-gen.ts --dir DIR [--summary]    first, once
 *   node --import tsx bench/dataset-prune.ts --dir DIR [--runs 15] [--full-runs 1] [--tasks pruned,full]
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { argValue, median, spawnWorker, timedRuns, type Timed } from './harness.js';
import { DEFAULT_DIR, FILES, PARTS_PER_DAY, ROWS, ROWS_PER_FILE, ROW_GROUP_ROWS, dayName, filePath, firstRow, listParquet } from './dataset-gen.js';
import type { Source } from '../src/io/source.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const DAY = 74;
/** Inside part 2 of the day, away from row-group and page edges. */
const LO = firstRow(DAY, 2) + 10_000;
const COUNT = 1_000;
const DAY_VALUE = dayName(DAY);

type Task = 'pruned' | 'summary' | 'byhand' | 'idscan' | 'full' | 'dsfull';
const TASKS: Task[] = ['pruned', 'summary', 'byhand', 'idscan', 'full', 'dsfull'];
const LONG: ReadonlySet<Task> = new Set(['idscan', 'full', 'dsfull']);

/** What a task answered and what it cost. */
interface Answer {
  rows: number;
  /** The answer's rows in a comparable form: every task must give the same. */
  check: string;
  filesOpened: number;
  /** Opens, counting a file opened twice (footer, then pages) twice. */
  opens: number;
  bytes: number;
  requests: number;
}

/** Counts opened sources and the bytes read from them. */
class Counter {
  readonly opened = new Set<string>();
  opens = 0;
  bytes = 0;
  requests = 0;

  wrap(name: string, source: Source): Source {
    this.opened.add(name);
    this.opens++;
    return {
      byteLength: source.byteLength,
      name: source.name,
      read: (offset, length) => {
        this.bytes += length;
        this.requests++;
        return source.read(offset, length);
      },
      close: () => source.close?.() ?? Promise.resolve(),
    };
  }

  answer(rows: Record<string, unknown>[]): Answer {
    return { rows: rows.length, check: rowCheck(rows), filesOpened: this.opened.size, opens: this.opens, bytes: this.bytes, requests: this.requests };
  }
}

const rowCheck = (rows: Record<string, unknown>[]) => JSON.stringify(rows.map((r) => [String(r.id), r.user, r.path]));
const inRange = (id: bigint) => id >= BigInt(LO) && id < BigInt(LO + COUNT);
const idFilter = [
  { column: 'id', op: '>=', value: BigInt(LO) },
  { column: 'id', op: '<', value: BigInt(LO + COUNT) },
] as const;
const dayOfPath = (path: string) => basename(dirname(path)).slice('day='.length);

const dayFilter = { column: 'day', op: '=', value: DAY_VALUE } as const;
/** `day` as the dataset reads it: a DATE partition (DuckDB's inference), days since 1970-01-01. */
const DAY_NUMBER = Date.parse(DAY_VALUE) / 86_400_000;

const prunedFilter = { and: [dayFilter, ...idFilter] };

/** The dataset over Node's file system, its files' sources counted when a counter is given. */
async function dataset(dir: string, useMetadataFile: boolean, counter?: Counter) {
  const { openDataset, nodeFileSystem } = await import('../src/node/entries/dataset.js');
  const fs = nodeFileSystem();
  const fileSystem = counter ? { ...fs, open: async (path: string) => counter.wrap(path, await fs.open(path)) } : fs;
  return openDataset(dir, { fileSystem, useMetadataFile });
}

/** openDataset's rows: with the filter (`pruned`, `summary`), or all of them, filtered in JS (`dsfull`). */
function viaDataset(dir: string, pushdown: boolean, useMetadataFile: boolean): () => Promise<Answer> {
  return async () => {
    const counter = new Counter();
    const ds = await dataset(dir, useMetadataFile, counter);
    const rows: Record<string, unknown>[] = [];
    if (pushdown) for await (const r of ds.rows({ filter: prunedFilter })) rows.push(r);
    else for await (const r of ds.rows()) if (r.day === DAY_NUMBER && inRange(r.id as bigint)) rows.push(r);
    return counter.answer(rows);
  };
}

/** The single-file reader over `paths`, each source counted; `each` reads one file. */
async function singleFiles(paths: string[], each: (reader: import('../src/parquet/reader.js').ParquetReader, path: string, rows: Record<string, unknown>[]) => Promise<void>): Promise<() => Promise<Answer>> {
  const { ParquetReader, fileSource } = await import('../src/node/index.js');
  return async () => {
    const counter = new Counter();
    const rows: Record<string, unknown>[] = [];
    for (const path of paths) {
      const reader = await ParquetReader.fromSource(counter.wrap(path, await fileSource(path)));
      try {
        await each(reader, path, rows);
      } finally {
        await reader.close();
      }
    }
    return counter.answer(rows);
  };
}

function runner(task: Task, dir: string): Promise<() => Promise<Answer>> {
  switch (task) {
    case 'pruned':
    case 'dsfull':
      return Promise.resolve(viaDataset(dir, task === 'pruned', false));
    case 'summary':
      return Promise.resolve(viaDataset(dir, true, true));
    case 'full':
      return singleFiles(listParquet(dir), async (reader, path, rows) => {
        const day = dayOfPath(path);
        for await (const r of reader.rows()) if (day === DAY_VALUE && inRange(r.id as bigint)) rows.push(r);
      });
    case 'idscan':
      // Rows are only counted here (no user/path read), so its check is the ids alone, compared with the others' ids.
      return singleFiles(listParquet(dir), async (reader, path, rows) => {
        const day = dayOfPath(path);
        for await (const b of reader.columns({ columns: ['id'] })) {
          const ids = b.data.values as BigInt64Array;
          if (day === DAY_VALUE) for (const id of ids) if (inRange(id)) rows.push({ id });
        }
      });
    case 'byhand': {
      const paths = Array.from({ length: PARTS_PER_DAY }, (_, part) => filePath(dir, DAY, part));
      return singleFiles(paths, async (reader, _path, rows) => {
        rows.push(...(await reader.readRows({ filter: { and: idFilter } })));
      });
    }
  }
}

interface WorkerResult extends Timed<Answer> {
  task: Task;
}

async function worker(task: Task, dir: string, runs: number): Promise<void> {
  const out: WorkerResult = { task, ...(await timedRuns(await runner(task, dir), runs)) };
  process.stdout.write(JSON.stringify(out));
}

async function main(): Promise<void> {
  const dir = argValue('--dir') ?? DEFAULT_DIR;
  const runs = Number(argValue('--runs') ?? 15);
  const fullRuns = Number(argValue('--full-runs') ?? 1);
  const tasks = (argValue('--tasks')?.split(',') as Task[] | undefined) ?? TASKS;
  const files = listParquet(dir);
  if (files.length !== FILES) throw new Error(`${dir} holds ${files.length} files, not ${FILES}: run bench/dataset-gen.ts --dir ${dir} first`);
  const disk = files.reduce((sum, p) => sum + statSync(p).size, 0);
  const loadStart = os.loadavg()[0]!;
  const results: WorkerResult[] = [];
  const summaryFile = join(dir, '_metadata');
  for (const task of tasks) {
    if (task === 'summary' && !existsSync(summaryFile)) {
      console.error(`summary: not run: no ${summaryFile} (bench/dataset-gen.ts --summary writes it)`);
      continue;
    }
    let r: WorkerResult;
    try {
      r = spawnWorker<WorkerResult>(fileURLToPath(import.meta.url), [task, dir, String(LONG.has(task) ? fullRuns : runs)]);
    } catch (e) {
      const why = (e as Error).message.split('\n').find((l) => l.startsWith('Error')) ?? (e as Error).message;
      console.error(`${task}: not run: ${why}`);
      continue;
    }
    results.push(r);
    console.error(`${task}: median ${median(r.times).toFixed(1)} ms, ${r.answer.filesOpened} files, ${r.answer.bytes} bytes, ${r.answer.rows} rows`);
  }
  // Every task must find the same rows, and the right number of them.
  const ids = (r: WorkerResult) => JSON.stringify((JSON.parse(r.answer.check) as string[][]).map((row) => row[0]));
  for (const r of results) {
    if (r.answer.rows !== COUNT) throw new Error(`${r.task} found ${r.answer.rows} rows, not ${COUNT}`);
    if (ids(r) !== ids(results[0]!)) throw new Error(`${r.task} and ${results[0]!.task} disagree on the ids`);
  }
  const whole = results.filter((r) => r.task !== 'idscan');
  if (new Set(whole.map((r) => r.answer.check)).size > 1) throw new Error(`tasks disagree on the rows: ${whole.map((r) => r.task).join(', ')}`);

  const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const pct = (x: number) => (100 * x).toFixed(3);
  const names: Record<Task, string> = {
    pruned: 'openDataset rows({ filter }), planned from the footers',
    summary: 'openDataset rows({ filter }), planned from _metadata',
    dsfull: 'full scan to rows (openDataset rows(), filter in JS)',
    byhand: "single-file reader, the day's 5 files by path, rows({ filter })",
    idscan: 'full scan of the id column (single-file reader, columns())',
    full: 'full scan to rows (single-file reader, rows(), filter in JS)',
  };
  const lines = [
    `Run on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores, Node ${process.version}, load average (1 min) ${loadStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end. ` +
      `Dataset: ${files.length} files, ${ROWS.toLocaleString('en')} rows, ${(disk / 2 ** 20).toFixed(1)} MiB on disk (${disk.toLocaleString('en')} bytes), in ${relative(process.cwd(), dir) || dir}` +
      (existsSync(summaryFile) ? `; its _metadata ${statSync(summaryFile).size.toLocaleString('en')} bytes more.` : '.'),
    `Query: day = ${DAY_VALUE} AND id >= ${LO} AND id < ${LO + COUNT} (${COUNT} rows).`,
    '',
    '| task | timed runs | median ms | best ms | files opened | % of files | opens | bytes read | % of bytes | requests | peak RSS MiB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const a = r.answer;
    lines.push(`| ${names[r.task]} | ${r.times.length} | ${fmt(median(r.times))} | ${fmt(Math.min(...r.times))} | ${a.filesOpened} | ${pct(a.filesOpened / files.length)} | ${a.opens} | ${a.bytes.toLocaleString('en')} | ${pct(a.bytes / disk)} | ${a.requests} | ${r.rssMB.toFixed(0)} |`);
  }
  const get = (task: Task) => results.find((r) => r.task === task);
  for (const task of ['pruned', 'summary'] as const) {
    const point = get(task);
    if (!point) continue;
    const a = point.answer;
    const plan = await (await dataset(dir, task === 'summary')).scanPlan(prunedFilter);
    const by = (why: string) => plan.files.filter((f) => f.pruned === why).length;
    lines.push('', `${names[task]}:`, '');
    lines.push(`- plan (\`scanPlan\`): ${by('partition')} files pruned by the partition value, ${by('statistics')} by row-group statistics, ${plan.filesKept} read: ${plan.rowGroupsKept} of the dataset's ${FILES * Math.ceil(ROWS_PER_FILE / ROW_GROUP_ROWS)} row groups`);
    lines.push(`- files: ${pct(a.filesOpened / files.length)}% opened; target at most 1%: **${a.filesOpened <= files.length / 100 ? 'met' : 'NOT met'}**`);
    lines.push(`- bytes: ${pct(a.bytes / disk)}% read; target at most 1%: **${a.bytes <= disk / 100 ? 'met' : 'NOT met'}**`);
    for (const base of ['full', 'dsfull', 'idscan'] as const) {
      const b = get(base);
      if (!b) continue;
      const x = median(b.times) / median(point.times);
      lines.push(`- speed: ${fmt(x)}x faster than the ${names[base]} (median against median)` + (base !== 'idscan' ? `; target 50x: **${x >= 50 ? 'met' : 'NOT met'}**` : ''));
    }
  }
  console.log(lines.join('\n'));
  mkdirSync(join(HERE, 'out'), { recursive: true });
  writeFileSync(join(HERE, 'out', 'dataset-prune.json'), JSON.stringify({ dir, disk, results }, null, 1));
}

if (process.argv[2] === '--worker') await worker(process.argv[3] as Task, process.argv[4]!, Number(process.argv[5]));
else await main();
