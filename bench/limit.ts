/**
 * Early-stop benchmark: what a read with a limit fetches, and how soon its
 * first row comes. A 2,000,000-row file written by parquetry in one row
 * group (sorted `id`, pages of 20,000 rows, no page index: the case where
 * only reading page by page can stop early; `--index` writes and reads one
 * with a page index) is read through a source counting bytes and requests:
 *
 *   limit      readRows({ limit: 3 })
 *   offset     readRows({ offset: 1_500_000, limit: 1000 })
 *   noprune    readRows({ filter: category = 'category-7', limit: 3 })  (every page's statistics admit it)
 *   prune      readRows({ filter: id >= 1_500_123, limit: 3 })          (sorted: the page index prunes, where there is one)
 *
 * Libraries: this checkout's source, main's build (/work/main/dist, or
 * `--main DIR`), and hyparquet (`parquetReadObjects` with rowStart/rowEnd;
 * for the filters its `filter` option, the limit applied after, as it has
 * none for matching rows). Each (library, task) runs in a child process,
 * the file opened anew for each run, a forced GC before each.
 *
 *   node --import tsx bench/limit.ts [--runs 9] [--index] [--force]
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { argValue, countingFile, type CountedAnswer, median, spawnWorker, timedRuns, type Timed } from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const INDEX = process.argv.includes('--index');
const FILE = join(HERE, 'data', INDEX ? 'limit-index.parquet' : 'limit.parquet');
const ROWS = 2_000_000;
const MAIN = argValue('--main') ?? '/work/main/dist';

type Lib = 'parquetry' | 'main' | 'hyparquet';
type Task = 'limit' | 'offset' | 'noprune' | 'prune';
const LIBS: Lib[] = ['parquetry', 'main', 'hyparquet'];
const TASKS: Task[] = ['limit', 'offset', 'noprune', 'prune'];

const CATEGORIES = Array.from({ length: 100 }, (_, i) => `category-${i}`);

async function writeData(): Promise<void> {
  const { openWriter, defineSchema, field: f } = await import('../src/node/index.js');
  mkdirSync(dirname(FILE), { recursive: true });
  const schema = defineSchema({ id: f.int64().required(), amount: f.double().required(), category: f.string().required(), note: f.string() });
  const w = await openWriter(FILE, schema, { codec: 'SNAPPY', pageRowLimit: 20_000, pageIndex: INDEX });
  const batch = 500_000;
  for (let start = 0; start < ROWS; start += batch) {
    const id = new BigInt64Array(batch);
    const amount = new Float64Array(batch);
    const category: string[] = new Array(batch);
    const note: (string | null)[] = new Array(batch);
    for (let j = 0; j < batch; j++) {
      const i = start + j;
      id[j] = BigInt(i);
      amount[j] = ((i * 37) % 100_000) / 100;
      category[j] = CATEGORIES[(i * 7) % 100]!;
      note[j] = i % 3 === 0 ? null : `note ${i.toString(36)} ${'x'.repeat(i % 23)}`;
    }
    await w.writeColumns({ id, amount, category, note });
  }
  await w.close();
}

interface Answer extends CountedAnswer {
  /** Milliseconds from opening to the first row in hand. */
  firstRow: number;
}

const check = (rows: Record<string, unknown>[]) => JSON.stringify(rows.map((r) => [String(r.id), r.category, r.note]));

const OPTIONS: Record<Task, Record<string, unknown>> = {
  limit: { limit: 3 },
  offset: { offset: 1_500_000, limit: 1000 },
  noprune: { filter: { column: 'category', op: '=', value: 'category-7' }, limit: 3 },
  prune: { filter: { column: 'id', op: '>=', value: 1_500_123n }, limit: 3 },
};

async function parquetryRunner(task: Task, entry: string): Promise<() => Promise<Answer>> {
  const { ParquetReader } = (await import(entry)) as typeof import('../src/node/index.js');
  return async () => {
    const t = performance.now();
    const f = await countingFile(FILE);
    try {
      const reader = await ParquetReader.fromSource({ byteLength: f.size, name: FILE, read: f.read });
      const rows: Record<string, unknown>[] = [];
      let firstRow = NaN;
      for await (const batch of reader.rowBatches(OPTIONS[task] as never)) {
        if (rows.length === 0 && batch.length > 0) firstRow = performance.now() - t;
        rows.push(...batch);
      }
      return { rows: rows.length, check: check(rows), firstRow, ...f.counter };
    } finally {
      await f.close();
    }
  };
}

async function hyparquetRunner(task: Task): Promise<() => Promise<Answer>> {
  const { parquetReadObjects } = await import('hyparquet');
  const { compressors } = await import('hyparquet-compressors');
  const o = OPTIONS[task] as { offset?: number; limit: number; filter?: { column: string; op: string; value: unknown } };
  return async () => {
    const t = performance.now();
    const f = await countingFile(FILE);
    try {
      const file = { byteLength: f.size, slice: async (start: number, end?: number) => (await f.read(start, (end ?? f.size) - start)).slice().buffer };
      const options: Record<string, unknown> = { file, compressors };
      if (o.filter) options.filter = { [o.filter.column]: o.filter.op === '=' ? { $eq: o.filter.value } : { $gte: o.filter.value } };
      else {
        options.rowStart = o.offset ?? 0;
        options.rowEnd = (o.offset ?? 0) + o.limit;
      }
      let rows = (await parquetReadObjects(options as never)) as Record<string, unknown>[];
      if (o.filter) rows = rows.slice(0, o.limit);
      return { rows: rows.length, check: check(rows), firstRow: performance.now() - t, ...f.counter };
    } finally {
      await f.close();
    }
  };
}

interface WorkerResult extends Timed<Answer> {
  lib: Lib;
  task: Task;
}

async function worker(lib: Lib, task: Task, runs: number): Promise<void> {
  const run = lib === 'hyparquet' ? await hyparquetRunner(task) : await parquetryRunner(task, lib === 'main' ? pathToFileURL(join(MAIN, 'node', 'index.js')).href : '../src/node/index.js');
  const out: WorkerResult = { lib, task, ...(await timedRuns(run, runs)) };
  process.stdout.write(JSON.stringify(out));
}

async function main(): Promise<void> {
  const runs = Number(argValue('--runs') ?? 9);
  if (process.argv.includes('--force') || !existsSync(FILE)) await writeData();
  const size = statSync(FILE).size;
  const results: WorkerResult[] = [];
  // Libraries take turns task by task.
  for (const task of TASKS) {
    for (const lib of LIBS) {
      const r = spawnWorker<WorkerResult>(fileURLToPath(import.meta.url), [lib, task, String(runs), ...(INDEX ? ['--index'] : [])]);
      results.push(r);
      console.error(`${lib} ${task}: median ${median(r.times).toFixed(1)} ms, first row ${r.answer.firstRow.toFixed(1)} ms, ${r.answer.bytes} bytes in ${r.answer.requests} requests`);
    }
    const answers = new Set(results.filter((r) => r.task === task).map((r) => r.answer.check));
    if (answers.size !== 1) throw new Error(`libraries disagree on ${task}`);
  }
  const load = os.loadavg()[0]!.toFixed(1);
  console.log(`\n${FILE}: ${size.toLocaleString('en-US')} bytes, ${ROWS.toLocaleString('en-US')} rows; ${runs} timed runs; load ${load}\n`);
  console.log('| task | library | median ms | first row ms (last run) | bytes fetched | requests |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    console.log(`| ${r.task} | ${r.lib} | ${median(r.times).toFixed(1)} | ${r.answer.firstRow.toFixed(1)} | ${r.answer.bytes.toLocaleString('en-US')} | ${r.answer.requests} |`);
  }
}

if (process.argv[2] === '--worker') {
  const [lib, task, runs] = process.argv.slice(3);
  await worker(lib as Lib, task as Task, Number(runs));
} else await main();
