/**
 * Filter benchmark: what a selective filter saves. A 10,000,000-row file
 * written by parquetry (sorted `id`, page index on by default, a bloom
 * filter on the unsorted `uid` column) is queried for one row, and the bytes
 * every reader asks of its source are counted.
 *
 *   point   id = K: one value of the sorted column (row-group statistics,
 *           then the page index)
 *   absent  uid = a value not in the file (only the bloom filters answer)
 *   full    the same point query answered by a full scan: every row read,
 *           then filtered in JS (what a reader without pushdown does)
 *   idscan  the cheapest full scan: only the `id` column, as column vectors
 *
 * Each (library, task) runs in a child process of its own, the file opened
 * anew for every timed run, a forced GC before each. hyparquet runs the same
 * queries through its own filter support (`parquetReadObjects({ filter })`,
 * which prunes by statistics, bloom filters and the page index); DuckDB
 * answers with SQL (native, a reference point).
 *
 *   node --import tsx bench/filter.ts            all tasks and libraries
 *   node --import tsx bench/filter.ts --force    rewrite bench/data/sorted.parquet first
 *   node --import tsx bench/filter.ts --runs 21  timed runs for the filtered tasks
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { argValue, countingFile, type CountedAnswer, median, spawnWorker, timedRuns, type Timed } from './harness.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FILE = join(HERE, 'data', 'sorted.parquet');
const ROWS = 10_000_000;
/** The point query's key: inside a row group and a page, not at an edge. */
const KEY = 7_654_321;
/** Not a uid, yet between the smallest and largest uid of every row group, so statistics cannot rule it out: only bloom filters can. */
const ABSENT = 'umiddle-absent';

type Lib = 'parquetry' | 'hyparquet' | 'duckdb';
type Task = 'point' | 'absent' | 'full' | 'idscan';
const PLAN: [Lib, Task][] = [
  ['parquetry', 'point'], ['hyparquet', 'point'], ['duckdb', 'point'],
  ['parquetry', 'absent'], ['hyparquet', 'absent'], ['duckdb', 'absent'],
  ['parquetry', 'full'], ['parquetry', 'idscan'],
];

/** Every value is a function of the row number. */
const uidOf = (i: number) => `u${((i * 2_654_435_761) >>> 0).toString(36)}${(i % 97).toString(36)}`;
const CATEGORIES = Array.from({ length: 100 }, (_, i) => `category-${i}`);

async function writeData(): Promise<void> {
  const { openWriter, defineSchema, field: f } = await import('../src/node/index.js');
  mkdirSync(dirname(FILE), { recursive: true });
  const schema = defineSchema({
    id: f.int64().required(),
    amount: f.double().required(),
    category: f.string().required(),
    uid: f.string().required(),
  });
  const w = await openWriter(FILE, schema, { codec: 'SNAPPY', bloomFilters: { uid: true } });
  const batch = 500_000;
  for (let start = 0; start < ROWS; start += batch) {
    const id = new BigInt64Array(batch);
    const amount = new Float64Array(batch);
    const category: string[] = new Array(batch);
    const uid: string[] = new Array(batch);
    for (let j = 0; j < batch; j++) {
      const i = start + j;
      id[j] = BigInt(i);
      amount[j] = ((i * 37) % 100_000) / 100;
      category[j] = CATEGORIES[(i * 7) % 100]!;
      uid[j] = uidOf(i);
    }
    await w.writeColumns({ id, amount, category, uid });
  }
  await w.close();
}

type Answer = CountedAnswer;

type Runner = () => Promise<Answer>;

const rowCheck = (rows: Record<string, unknown>[]) => JSON.stringify(rows.map((r) => [String(r.id), r.uid]));

async function parquetryRunner(task: Task): Promise<Runner> {
  const { ParquetReader } = await import('../src/node/index.js');
  return async () => {
    const f = await countingFile(FILE);
    try {
      const reader = await ParquetReader.fromSource({ byteLength: f.size, name: FILE, read: f.read });
      let rows: Record<string, unknown>[];
      if (task === 'point') rows = await reader.readRows({ filter: { column: 'id', op: '=', value: BigInt(KEY) } });
      else if (task === 'absent') rows = await reader.readRows({ filter: { column: 'uid', op: '=', value: ABSENT } });
      else if (task === 'full') rows = (await reader.readRows()).filter((r) => r.id === BigInt(KEY));
      else {
        rows = [];
        for await (const b of reader.columns({ columns: ['id'] })) {
          const v = b.data.values as BigInt64Array;
          const at = v.indexOf(BigInt(KEY));
          if (at >= 0) rows.push({ id: v[at] });
        }
      }
      return { rows: rows.length, check: task === 'idscan' ? String(rows[0]?.id) : rowCheck(rows), ...f.counter };
    } finally {
      await f.close();
    }
  };
}

async function hyparquetRunner(task: Task): Promise<Runner> {
  const { parquetReadObjects } = await import('hyparquet');
  const { compressors } = await import('hyparquet-compressors');
  const filter = task === 'point' ? { id: { $eq: BigInt(KEY) } } : { uid: { $eq: ABSENT } };
  return async () => {
    const f = await countingFile(FILE);
    try {
      const file = { byteLength: f.size, slice: async (start: number, end?: number) => (await f.read(start, (end ?? f.size) - start)).slice().buffer };
      const rows = (await parquetReadObjects({ file, compressors, filter } as never)) as Record<string, unknown>[];
      return { rows: rows.length, check: rowCheck(rows), ...f.counter };
    } finally {
      await f.close();
    }
  };
}

async function duckdbRunner(task: Task): Promise<Runner> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const where = task === 'absent' ? `uid = '${ABSENT}'` : `id = ${KEY}`;
  return async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      const rows = (await (await conn.run(`SELECT * FROM read_parquet('${FILE}') WHERE ${where}`)).getRowObjectsJS()) as Record<string, unknown>[];
      return { rows: rows.length, check: rowCheck(rows), bytes: NaN, requests: NaN };
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  };
}

interface WorkerResult extends Timed<Answer> {
  lib: Lib;
  task: Task;
}

async function worker(lib: Lib, task: Task, runs: number): Promise<void> {
  const run = lib === 'parquetry' ? await parquetryRunner(task) : lib === 'hyparquet' ? await hyparquetRunner(task) : await duckdbRunner(task);
  const out: WorkerResult = { lib, task, ...(await timedRuns(run, runs)) };
  process.stdout.write(JSON.stringify(out));
}

async function main(): Promise<void> {
  const runs = Number(argValue('--runs') ?? 15);
  if (process.argv.includes('--force') || !existsSync(FILE)) {
    const t = performance.now();
    await writeData();
    console.log(`wrote ${FILE} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const size = statSync(FILE).size;
  const results: WorkerResult[] = [];
  for (const [lib, task] of PLAN) {
    const r = spawnWorker<WorkerResult>(fileURLToPath(import.meta.url), [lib, task, String(task === 'full' || task === 'idscan' ? Math.max(3, Math.round(runs / 5)) : runs)], ['--max-old-space-size=16384']);
    results.push(r);
    console.error(`${lib} ${task}: median ${median(r.times).toFixed(1)} ms, ${r.answer.bytes} bytes`);
  }
  // Every library must give the same rows for the same query.
  for (const task of ['point', 'absent'] as const) {
    const answers = new Set(results.filter((r) => r.task === task || (task === 'point' && r.task === 'full')).map((r) => r.answer.check));
    if (answers.size !== 1) throw new Error(`libraries disagree on ${task}: ${[...answers].join(' / ')}`);
  }
  const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const load = os.loadavg()[0]!.toFixed(1);
  const lines = [
    `Run on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} cores, Node ${process.version}, load average (1 min) ${load} at the end. ` +
      `File: ${ROWS.toLocaleString('en')} rows, ${(size / 2 ** 20).toFixed(1)} MiB (${size.toLocaleString('en')} bytes), written by parquetry.`,
    '',
    '| task | library | median ms | best ms | bytes read | % of file | requests | peak RSS MiB |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const names: Record<Task, string> = {
    point: `id = ${KEY} (sorted column)`, absent: `uid = '${ABSENT}' (bloom filter)`,
    full: 'id = K by a full scan to rows', idscan: 'id = K by a scan of the id column',
  };
  for (const r of results) {
    const b = r.answer.bytes ?? NaN; // NaN (not counted) comes back from JSON as null
    lines.push(`| ${names[r.task]} | ${r.lib} | ${fmt(median(r.times))} | ${fmt(Math.min(...r.times))} | ${Number.isNaN(b) ? 'n/a' : b.toLocaleString('en')} | ${Number.isNaN(b) ? 'n/a' : ((100 * b) / size).toFixed(3)} | ${Number.isNaN(r.answer.requests ?? NaN) ? 'n/a' : r.answer.requests} | ${r.rssMB.toFixed(0)} |`);
  }
  const get = (lib: Lib, task: Task) => results.find((r) => r.lib === lib && r.task === task)!;
  const point = get('parquetry', 'point');
  const share = point.answer.bytes / size;
  lines.push('');
  lines.push(`- bytes: the point query read ${(100 * share).toFixed(3)}% of the file; target at most 2%: **${share <= 0.02 ? 'met' : 'NOT met'}**`);
  const speedup = (base: Task) => median(get('parquetry', base).times) / median(point.times);
  const x = speedup('full');
  lines.push(`- speed: ${x.toFixed(0)}x faster than ${names.full} (median against median); target 20x: **${x >= 20 ? 'met' : 'NOT met'}**`);
  lines.push(`- for reference: ${speedup('idscan').toFixed(0)}x faster than ${names.idscan}, the least a reader without pushdown must read`);
  const text = lines.join('\n');
  console.log(text);
  mkdirSync(join(HERE, 'out'), { recursive: true });
  writeFileSync(join(HERE, 'out', 'filter.json'), JSON.stringify({ size, results }, null, 1));
}

if (process.argv[2] === '--worker') await worker(process.argv[3] as Lib, process.argv[4] as Task, Number(process.argv[5]));
else await main();
