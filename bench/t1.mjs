/**
 * Issue 22's T1 target and its no-regression reads, each read in a process
 * of its own, the sides taking turns in rounds. CPU (user + system, from
 * process.cpuUsage; the main thread's alone from /proc, without workers and
 * V8's helper threads) and wall time are taken around open and read, so Node's
 * startup is left out and lazy module loading and JIT warm-up are in.
 * Needs a built checkout (`dist/`) and the data of bench/data.ts.
 *
 *   node bench/t1.mjs [--rounds 5] [--tasks t1,t1-thread,floor,decode,nested,sum,footer,arrow,filter] [--dists dist,../main/dist]
 *
 * t1      `openParquet(flat).readRows({ temporal: 'date' })` per dist, and hyparquet's `parquetReadObjects`
 * t1-thread  the same with `decodeThread: true` (decoded ahead in a worker whatever the cores)
 * floor   the same 2M row objects (Date, bigint, double, strings) built from typed arrays in memory,
 *         no file and no decoding: what the output alone costs this process
 * decode  every chunk of the flat file decoded through `columns()`, no rows: what the read adds to the floor
 * nested  `readRows()` of nested.parquet;  sum: `columns()` sum of `amount`, 3 reads;
 * footer  open and read the footer, 50 times;  arrow: `toArrow()`;  filter: `maybe = 4242`
 *
 * A child: node bench/t1.mjs --child <task> <dist | hyparquet>
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DATA = fileURLToPath(new URL('./data/', import.meta.url));
const FLAT = DATA + 'flat.parquet';
const args = process.argv.slice(2);
const opt = (name, def) => (args.includes(name) ? args[args.indexOf(name) + 1] : def);

if (args[0] === '--child') await child(args[1], args[2]);
else driver();

async function child(task, side) {
  const m0 = mainCpu();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const answer = await run(task, side);
  const c = process.cpuUsage(c0);
  console.log(JSON.stringify({ cpu: (c.user + c.system) / 1e6, main: mainCpu() - m0, wall: (performance.now() - t0) / 1e3, answer }));
}

/** CPU s of the process's main thread alone (Linux's /proc; 10 ms ticks), without its workers' and V8's helper threads'. */
function mainCpu() {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

async function run(task, side) {
  if (task === 'floor') return floor();
  if (side === 'hyparquet') {
    const [{ asyncBufferFromFile, parquetReadObjects }, { compressors }] = await Promise.all([import('hyparquet'), import('hyparquet-compressors')]);
    return (await parquetReadObjects({ file: await asyncBufferFromFile(FLAT), compressors })).length;
  }
  const { openParquet, parseWhere } = await import(new URL(`../${side}/node/index.js`, import.meta.url).href);
  const read = async (file, f) => {
    const reader = await openParquet(DATA + file);
    try {
      return await f(reader);
    } finally {
      await reader.close();
    }
  };
  switch (task) {
    case 't1': return read('flat.parquet', async (r) => (await r.readRows({ temporal: 'date' })).length);
    case 't1-thread': return read('flat.parquet', async (r) => (await r.readRows({ temporal: 'date', decodeThread: true })).length);
    case 'nested': return read('nested.parquet', async (r) => (await r.readRows()).length);
    case 'filter': return read('flat.parquet', async (r) => (await r.readRows({ filter: parseWhere('maybe = 4242') })).length);
    case 'arrow': return read('flat.parquet', async (r) => (await r.toArrow()).numRows);
    case 'decode': return read('flat.parquet', async (r) => {
      let n = 0;
      for await (const b of r.columns()) n += b.data.length;
      return n;
    });
    case 'footer': {
      let n = 0;
      for (let k = 0; k < 50; k++) n = await read('flat.parquet', async (r) => r.numRows);
      return n;
    }
    case 'sum': {
      let sum = 0;
      for (let k = 0; k < 3; k++) {
        await read('flat.parquet', async (r) => {
          for await (const b of r.columns({ columns: ['amount'] })) for (const v of b.data.values) sum += v;
        });
      }
      return sum;
    }
  }
  throw new Error(`unknown task ${task}`);
}

/** The T1 rows' shapes from in-memory arrays: an object per row holding a Date, a bigint, a double and a string of its own. */
function floor() {
  const n = 2_000_000;
  const ids = Int32Array.from({ length: n }, (_, i) => i);
  const bigs = BigInt64Array.from({ length: n }, (_, i) => BigInt(i) * 1000n);
  const amounts = Float64Array.from({ length: n }, (_, i) => i * 0.25 + 0.1);
  const ms = Float64Array.from({ length: n }, (_, i) => 1.6e12 + i * 1000);
  const categories = Array.from({ length: 100 }, (_, i) => `category-${i}`);
  const text = Array.from({ length: 4096 }, (_, i) => `uid-${i.toString(36).padStart(16, '0')}`).join('');
  const m0 = mainCpu();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const rows = new Array(n);
  for (let s = 0; s < n; s += 4096) {
    // One string per window of 4096 values, cut into 20-character values, as a string column's reader does.
    const window = text.slice(0, 20 * 4096) + String(s);
    for (let r = s; r < Math.min(n, s + 4096); r++) {
      const j = 20 * (r - s);
      rows[r] = { id: ids[r], big: bigs[r], amount: amounts[r], category: categories[r % 100], uid: window.substring(j, j + 20), flag: (r & 1) === 0, ts: new Date(ms[r]), maybe: r % 10 === 0 ? null : ids[r] };
    }
  }
  // The set-up above is not the floor's: timed from here (the child's clocks started earlier).
  const c = process.cpuUsage(c0);
  console.log(JSON.stringify({ cpu: (c.user + c.system) / 1e6, main: mainCpu() - m0, wall: (performance.now() - t0) / 1e3, answer: rows.length }));
  process.exit(0);
}

function driver() {
  const rounds = Number(opt('--rounds', 5));
  const tasks = opt('--tasks', 't1,floor,nested,sum,footer,arrow,filter').split(',');
  const dists = opt('--dists', 'dist').split(',');
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  console.log(`load average at the start: ${load()}`);
  for (const task of tasks) {
    const sides = task === 'floor' ? ['floor'] : task === 't1' ? [...dists, 'hyparquet'] : dists;
    const runs = new Map(sides.map((s) => [s, []]));
    for (let round = 0; round < rounds; round++) {
      for (const side of sides) {
        const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', task, side], { encoding: 'utf8', maxBuffer: 1 << 24 });
        if (r.status !== 0) throw new Error(`${task} ${side} failed:\n${r.stderr}`);
        runs.get(side).push(JSON.parse(r.stdout.trim().split('\n').pop()));
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    for (const [side, rs] of runs) {
      const cpu = rs.map((r) => r.cpu);
      const wall = rs.map((r) => r.wall);
      const main = rs.map((r) => r.main);
      console.log(`${task} ${side}: CPU s ${cpu.map((x) => x.toFixed(2)).join(' ')} (median ${median(cpu).toFixed(2)}); main thread CPU s ${main.map((x) => x.toFixed(2)).join(' ')} (median ${median(main).toFixed(2)}); wall s ${wall.map((x) => x.toFixed(2)).join(' ')} (median ${median(wall).toFixed(2)}); answer ${rs[0].answer}`);
      if (new Set(rs.map((r) => r.answer)).size !== 1) throw new Error(`${task} ${side}: answers differ`);
    }
  }
  console.log(`load average at the end: ${load()}`);
}
