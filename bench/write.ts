/**
 * Write benchmark: parquetry against hyparquet-writer, parquet-wasm,
 * @dsnp/parquetjs and DuckDB, all writing the same 2,000,000-row flat table
 * (built in memory, deterministically, from the row number) with SNAPPY.
 *
 *   id      INT32 (required)        the row number
 *   big     INT64 (required)        i * 1000003 + 17
 *   amount  DOUBLE (required)       hash(i) % 1e6 / 100
 *   category STRING (required)      "category_NNN", 100 distinct values
 *   uid     STRING (required)       "user-<i>-<8 hex>", every value unique
 *   flag    BOOLEAN (required)      hash(i*7) % 3 == 0
 *   ts      TIMESTAMP(MICROS) (required)  2020-01-01 + 13 s * i
 *   maybe   INT32 (optional)        ~10% nulls
 *
 * Each library starts from what it writes from, built before the clock starts:
 *
 * - parquetry writeColumns: typed arrays (Int32Array, BigInt64Array,
 *   Float64Array) and JS arrays (strings, booleans, numbers with nulls).
 * - parquetry writeColumns, no page CRCs: the same with `checksums: false`
 *   (page CRC-32s are written by default), to measure what they cost.
 * - parquetry writeMany: the same table as 2M row objects.
 * - hyparquet-writer: the same column arrays (parquetWriteFile, its defaults:
 *   its own JS snappy, row groups of 1,000 then 100,000 rows); and again with
 *   hysnappy's wasm compressor, as its README suggests for speed.
 * - parquet-wasm: an apache-arrow Table of the same columns; the timed part is
 *   Arrow IPC serialisation, the wasm import, writeParquet and the file write.
 * - @dsnp/parquetjs: the row objects, appendRow one at a time (it has no
 *   columnar input).
 * - DuckDB: the same values appended to a table with DuckDB's appender; the
 *   timed part is `COPY t TO ... (FORMAT PARQUET, COMPRESSION SNAPPY)`.
 *   Native and multi-threaded (both cores here): a reference point. Also run
 *   with `SET threads = 1`.
 *
 * Each library runs in its own child process: one warm-up run whose peak RSS
 * is recorded, then N timed runs. Every output is then read back by
 * parquetry's reader in the parent and checked value by value against the
 * table (row count and an order-sensitive checksum of every column), so no
 * library wins by writing something else.
 *
 * Run:  node --import tsx bench/write.ts                 all libraries, 5 timed runs each
 *       node --import tsx bench/write.ts --runs 3
 *       node --import tsx bench/write.ts --only parquetry,duckdb
 *       node --import tsx bench/write.ts --sizes         also per-column compressed sizes
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataType } from 'apache-arrow';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const OUT = join(HERE, 'out');
const ROWS = Number(process.env.WRITE_BENCH_ROWS ?? 2_000_000);

type Lib =
  | 'parquetry writeColumns'
  | 'parquetry writeColumns, no page CRCs'
  | 'parquetry writeMany'
  | 'hyparquet-writer'
  | 'hyparquet-writer + hysnappy'
  | 'parquet-wasm'
  | '@dsnp/parquetjs'
  | 'duckdb'
  | 'duckdb threads=1';
const LIBS: Lib[] = ['parquetry writeColumns', 'parquetry writeColumns, no page CRCs', 'parquetry writeMany', 'hyparquet-writer', 'hyparquet-writer + hysnappy', 'parquet-wasm', '@dsnp/parquetjs', 'duckdb', 'duckdb threads=1'];
/** Row-at-a-time writers are slow: fewer timed runs for them (still at least 3). */
const SLOW: Lib[] = ['@dsnp/parquetjs'];

// ---------------------------------------------------------------------------
// The table

/** murmur3's 32-bit finaliser: a cheap, well-mixed hash of the row number. */
function hash(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

const TS0 = 1577836800_000000n; // 2020-01-01T00:00:00 in microseconds

export interface Table {
  id: Int32Array;
  big: BigInt64Array;
  amount: Float64Array;
  category: string[];
  uid: string[];
  flag: boolean[];
  ts: BigInt64Array;
  maybe: (number | null)[];
}
const COLUMNS = ['id', 'big', 'amount', 'category', 'uid', 'flag', 'ts', 'maybe'] as const;

function makeTable(n: number): Table {
  const categories = Array.from({ length: 100 }, (_, k) => `category_${String(k).padStart(3, '0')}`);
  const t: Table = {
    id: new Int32Array(n),
    big: new BigInt64Array(n),
    amount: new Float64Array(n),
    category: new Array<string>(n),
    uid: new Array<string>(n),
    flag: new Array<boolean>(n),
    ts: new BigInt64Array(n),
    maybe: new Array<number | null>(n),
  };
  for (let i = 0; i < n; i++) {
    t.id[i] = i;
    t.big[i] = BigInt(i * 1000003 + 17);
    t.amount[i] = (hash(i) % 1000000) / 100;
    t.category[i] = categories[hash(i * 31) % 100]!;
    t.uid[i] = `user-${i}-${hash(i ^ 0x5bd1e995).toString(16).padStart(8, '0')}`;
    t.flag[i] = hash(i * 7) % 3 === 0;
    t.ts[i] = TS0 + BigInt(i * 13) * 1_000_000n;
    t.maybe[i] = hash(i * 11) % 10 === 0 ? null : hash(i * 13) % 100000;
  }
  return t;
}

function rowObjects(t: Table): Record<string, unknown>[] {
  const rows = new Array<Record<string, unknown>>(t.id.length);
  for (let i = 0; i < rows.length; i++) {
    rows[i] = { id: t.id[i], big: t.big[i], amount: t.amount[i], category: t.category[i], uid: t.uid[i], flag: t.flag[i], ts: t.ts[i], maybe: t.maybe[i] };
  }
  return rows;
}

// ---------------------------------------------------------------------------
// Checksums: order-sensitive, per column, over what a reader gives back

const NULL_HASH = 0x9e3779b9 | 0;

class Sum {
  h = 0x811c9dc5 | 0;
  n = 0;
  add(word: number): void {
    this.h = Math.imul(this.h ^ word, 16777619);
    this.h ^= this.h >>> 15;
  }
}

function strHash(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619); // ASCII only: code units are the UTF-8 bytes
  return h ^ s.length;
}

function bytesHash(d: Uint8Array, s: number, e: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = s; i < e; i++) h = Math.imul(h ^ d[i]!, 16777619);
  return h ^ (e - s);
}

type Checksums = Record<string, string>;

/** Checksums of the table as built. */
function expectedChecksums(t: Table): Checksums {
  const out: Checksums = {};
  const words = (a: Int32Array | BigInt64Array | Float64Array) => new Int32Array(a.buffer, a.byteOffset, a.byteLength / 4);
  for (const c of COLUMNS) {
    const s = new Sum();
    const col = t[c];
    if (col instanceof Int32Array) for (let i = 0; i < col.length; i++) s.add(col[i]!);
    else if (col instanceof BigInt64Array || col instanceof Float64Array) {
      const w = words(col);
      for (let i = 0; i < col.length; i++) {
        s.add(w[2 * i]!);
        s.add(w[2 * i + 1]!);
      }
    } else {
      for (const v of col as unknown[]) {
        if (v === null) s.add(NULL_HASH);
        else if (typeof v === 'string') s.add(strHash(v));
        else if (typeof v === 'boolean') s.add(v ? 1 : 0);
        else s.add(v as number);
      }
    }
    out[c] = `${col.length}:${(s.h >>> 0).toString(16)}`;
  }
  return out;
}

/** Checksums of a file as parquetry's reader gives it back, plus its row count. */
async function fileChecksums(path: string): Promise<{ rows: number; sums: Checksums; rowGroups: number; columnBytes: Record<string, number> }> {
  const { openParquet } = await import('../src/node/index.js');
  const reader = await openParquet(path);
  const sums = new Map<string, Sum>();
  const counts = new Map<string, number>();
  for await (const batch of reader.columns()) {
    const name = batch.path.join('.');
    const s = sums.get(name) ?? new Sum();
    sums.set(name, s);
    const { def, length, values, dictionary, indices, valueCount } = batch.data;
    counts.set(name, (counts.get(name) ?? 0) + length);
    const src = (dictionary ?? values)!;
    const take = (k: number) => (indices ? indices[k]! : k);
    let vi = 0;
    const maxDef = batch.leaf.defLevel;
    for (let i = 0; i < length; i++) {
      if (def && def[i]! < maxDef) {
        s.add(NULL_HASH);
        continue;
      }
      const k = take(vi++);
      if ('offsets' in src) s.add(bytesHash(src.data, src.offsets[k]!, src.offsets[k + 1]!));
      else if (src instanceof BigInt64Array || src instanceof Float64Array) {
        const w = new Int32Array(src.buffer, src.byteOffset + k * 8, 2);
        s.add(w[0]!);
        s.add(w[1]!);
      } else s.add(Number(src[k]));
    }
    if (vi !== valueCount) throw new Error(`${path}: column ${name}: ${vi} values used of ${valueCount}`);
  }
  const out: Checksums = {};
  for (const [k, s] of sums) out[k] = `${counts.get(k)}:${(s.h >>> 0).toString(16)}`;
  const columnBytes: Record<string, number> = {};
  for (const rg of reader.file.metadata.rowGroups) {
    for (const cc of rg.columns) {
      const name = cc.metaData!.pathInSchema.join('.');
      columnBytes[name] = (columnBytes[name] ?? 0) + Number(cc.metaData!.totalCompressedSize);
    }
  }
  const rows = Number(reader.file.metadata.numRows);
  const rowGroups = reader.file.metadata.rowGroups.length;
  await reader.close();
  return { rows, sums: out, rowGroups, columnBytes };
}

// ---------------------------------------------------------------------------
// Writers: setup (untimed) gives a function that writes the file once

type Run = (path: string) => Promise<void>;

async function parquetrySchema() {
  const { defineSchema, field: f } = await import('../src/node/index.js');
  return defineSchema({
    id: f.int32().required(),
    big: f.int64().required(),
    amount: f.double().required(),
    category: f.string().required(),
    uid: f.string().required(),
    flag: f.boolean().required(),
    ts: f.timestamp('MICROS', { utc: false }).required(),
    maybe: f.int32(),
  });
}

async function setup(lib: Lib, t: Table): Promise<Run> {
  switch (lib) {
    case 'parquetry writeColumns':
    case 'parquetry writeColumns, no page CRCs': {
      const { openWriter } = await import('../src/node/index.js');
      const schema = await parquetrySchema();
      // Page CRCs are on by default: the second variant measures what they cost.
      const checksums = lib === 'parquetry writeColumns';
      return async (path) => {
        const w = await openWriter(path, schema, { codec: 'SNAPPY', checksums });
        await w.writeColumns(t as unknown as Record<string, ArrayLike<unknown>>);
        await w.close();
      };
    }
    case 'parquetry writeMany': {
      const { openWriter } = await import('../src/node/index.js');
      const schema = await parquetrySchema();
      const rows = rowObjects(t);
      return async (path) => {
        const w = await openWriter<unknown>(path, schema, { codec: 'SNAPPY' });
        await w.writeMany(rows);
        await w.close();
      };
    }
    case 'hyparquet-writer':
    case 'hyparquet-writer + hysnappy': {
      const { parquetWriteFile } = await import('hyparquet-writer');
      // Its README's advice for speed: hysnappy's wasm snappy (the one parquetry uses) instead of its own JS one.
      const compressors = lib === 'hyparquet-writer + hysnappy' ? { SNAPPY: (await import('hysnappy')).snappyCompressor() } : undefined;
      const schema = [
        { name: 'root', num_children: 8 },
        { name: 'id', type: 'INT32', repetition_type: 'REQUIRED' },
        { name: 'big', type: 'INT64', repetition_type: 'REQUIRED' },
        { name: 'amount', type: 'DOUBLE', repetition_type: 'REQUIRED' },
        { name: 'category', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
        { name: 'uid', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
        { name: 'flag', type: 'BOOLEAN', repetition_type: 'REQUIRED' },
        { name: 'ts', type: 'INT64', converted_type: 'TIMESTAMP_MICROS', repetition_type: 'REQUIRED' },
        { name: 'maybe', type: 'INT32', repetition_type: 'OPTIONAL' },
      ];
      const columnData = COLUMNS.map((name) => ({ name, data: t[name] as never, nullable: name === 'maybe' }));
      return async (path) => {
        parquetWriteFile({ filename: path, columnData, schema: schema as never, codec: 'SNAPPY', ...(compressors ? { compressors } : {}) });
      };
    }
    case 'parquet-wasm': {
      const arrow = await import('apache-arrow');
      const wasm = await import('parquet-wasm');
      const n = t.id.length;
      const vec = <T extends DataType>(type: T, values: Iterable<unknown>) => arrow.vectorFromArray([...values] as never[], type);
      // Bulk builders where Arrow has them: typed arrays become vectors without a copy.
      const table = new arrow.Table({
        id: arrow.makeVector(t.id),
        big: arrow.makeVector(t.big),
        amount: arrow.makeVector(t.amount),
        category: vec(new arrow.Utf8(), t.category),
        uid: vec(new arrow.Utf8(), t.uid),
        flag: vec(new arrow.Bool(), t.flag),
        ts: arrow.makeVector({ type: new arrow.TimestampMicrosecond(), data: t.ts, length: n } as never),
        maybe: vec(new arrow.Int32(), t.maybe),
      });
      return async (path) => {
        const ipc = arrow.tableToIPC(table, 'stream');
        const wt = wasm.Table.fromIPCStream(ipc);
        // writeParquet takes over the properties object: one per run.
        const bytes = wasm.writeParquet(wt, new wasm.WriterPropertiesBuilder().setCompression(wasm.Compression.SNAPPY).build());
        writeFileSync(path, bytes);
      };
    }
    case '@dsnp/parquetjs': {
      const parquet = (await import('@dsnp/parquetjs')).default as typeof import('@dsnp/parquetjs');
      const c = { compression: 'SNAPPY' as const };
      const schema = new parquet.ParquetSchema({
        id: { type: 'INT32', ...c },
        big: { type: 'INT64', ...c },
        amount: { type: 'DOUBLE', ...c },
        category: { type: 'UTF8', ...c },
        uid: { type: 'UTF8', ...c },
        flag: { type: 'BOOLEAN', ...c },
        ts: { type: 'TIMESTAMP_MICROS', ...c },
        maybe: { type: 'INT32', optional: true, ...c },
      });
      const rows = rowObjects(t);
      for (const r of rows) if (r.maybe === null) delete r.maybe; // parquetjs takes an absent field as null
      return async (path) => {
        const w = await parquet.ParquetWriter.openFile(schema, path);
        for (const r of rows) await w.appendRow(r);
        await w.close();
      };
    }
    case 'duckdb':
    case 'duckdb threads=1': {
      const { DuckDBInstance, timestampValue } = await import('@duckdb/node-api');
      const db = await DuckDBInstance.create(':memory:');
      const c = await db.connect();
      if (lib === 'duckdb threads=1') await c.run('SET threads = 1');
      await c.run(`CREATE TABLE t (id INTEGER NOT NULL, big BIGINT NOT NULL, amount DOUBLE NOT NULL, category VARCHAR NOT NULL,
        uid VARCHAR NOT NULL, flag BOOLEAN NOT NULL, ts TIMESTAMP NOT NULL, maybe INTEGER)`);
      const a = await c.createAppender('t');
      for (let i = 0; i < t.id.length; i++) {
        a.appendInteger(t.id[i]!);
        a.appendBigInt(t.big[i]!);
        a.appendDouble(t.amount[i]!);
        a.appendVarchar(t.category[i]!);
        a.appendVarchar(t.uid[i]!);
        a.appendBoolean(t.flag[i]!);
        a.appendTimestamp(timestampValue(t.ts[i]!));
        const m = t.maybe[i];
        if (m === null) a.appendNull();
        else a.appendInteger(m!);
        a.endRow();
      }
      a.closeSync();
      return async (path) => {
        await c.run(`COPY t TO '${path.replaceAll("'", "''")}' (FORMAT PARQUET, COMPRESSION SNAPPY)`);
      };
    }
  }
}

// ---------------------------------------------------------------------------
// Child process: one library

interface WorkerResult {
  lib: Lib;
  times: number[];
  /** CPU time (user + system, all threads) of each timed run, ms. */
  cpu: number[];
  /** Peak RSS of the process up to the end of the warm-up run (input in memory included). */
  peakRss: number;
  /** RSS with the input built, before the first run. */
  baseRss: number;
  file: string;
}

function fileFor(lib: Lib): string {
  return join(OUT, `write-${lib.replace(/[^a-z0-9]+/gi, '-')}.parquet`);
}

async function worker(lib: Lib, runs: number): Promise<void> {
  const t = makeTable(ROWS);
  const run = await setup(lib, t);
  (globalThis as { gc?: () => void }).gc?.();
  const baseRss = process.memoryUsage().rss;
  const file = fileFor(lib);
  mkdirSync(OUT, { recursive: true });
  rmSync(file, { force: true });
  await run(file); // warm-up: also the run whose peak RSS is recorded
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    rmSync(file, { force: true });
    (globalThis as { gc?: () => void }).gc?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run(file);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const out: WorkerResult = { lib, times, cpu, peakRss, baseRss, file };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

// ---------------------------------------------------------------------------
// Parent

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function spawnWorker(lib: Lib, runs: number): WorkerResult | string {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx', self, '--worker', lib, String(runs)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0) return `exit ${r.status}${r.signal ? ` (${r.signal})` : ''}: ${(r.stderr ?? '').trim().split('\n').slice(-3).join(' / ')}`;
  const line = r.stdout.trim().split('\n').pop()!;
  return JSON.parse(line) as WorkerResult;
}

const fmtS = (ms: number) => (ms / 1000).toFixed(2);
const fmtMiB = (b: number) => (b / 2 ** 20).toFixed(1);
const fmtMB = (b: number) => (b / 2 ** 20).toFixed(0);

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Row {
  r: WorkerResult;
  size: number;
  rowGroups: number;
  columnBytes: Record<string, number>;
}

async function main(): Promise<void> {
  const runs = Number(arg('--runs') ?? 5);
  if (!(runs >= 3)) throw new Error('--runs must be at least 3');
  const only = arg('--only')?.split(',');
  const libs = only ? LIBS.filter((l) => only.some((o) => l === o || l.startsWith(o))) : LIBS;
  mkdirSync(OUT, { recursive: true });

  process.stderr.write(`building the ${ROWS.toLocaleString('en')}-row table for the checksums... `);
  const expected = expectedChecksums(makeTable(ROWS));
  process.stderr.write('done\n');

  const rows: Row[] = [];
  const failures: string[] = [];
  for (const lib of libs) {
    process.stderr.write(`${lib}... `);
    const r = spawnWorker(lib, SLOW.includes(lib) ? Math.min(runs, 3) : runs);
    if (typeof r === 'string') {
      process.stderr.write(`FAILED (${r})\n`);
      failures.push(`- ${lib}: failed to run (${r})`);
      continue;
    }
    const got = await fileChecksums(r.file);
    const bad = COLUMNS.filter((c) => got.sums[c] !== expected[c]);
    if (got.rows !== ROWS || bad.length) {
      process.stderr.write(`WRONG OUTPUT (rows ${got.rows}; columns ${bad.join(', ')})\n`);
      failures.push(`- ${lib}: output does not read back to the table (rows ${got.rows}, columns differing: ${bad.join(', ')})`);
      continue;
    }
    const size = statSync(r.file).size;
    process.stderr.write(`median ${fmtS(median(r.times))} s (CPU ${fmtS(median(r.cpu))} s), ${fmtMiB(size)} MiB, peak RSS ${fmtMB(r.peakRss)} MB (verified)\n`);
    rows.push({ r, size, rowGroups: got.rowGroups, columnBytes: got.columnBytes });
    if (!process.argv.includes('--keep')) rmSync(r.file, { force: true });
  }

  const hyp = rows.find((x) => x.r.lib === 'hyparquet-writer');
  // The speed target is judged against the faster of hyparquet-writer's two set-ups.
  const hypBest = rows.filter((x) => x.r.lib.startsWith('hyparquet-writer')).sort((a, b) => median(a.r.times) - median(b.r.times))[0];
  const duck = rows.find((x) => x.r.lib === 'duckdb');
  const lines = [
    '| library | input | best s | median s | vs hyparquet-writer (median) | CPU s (median) | output MiB | vs DuckDB size | row groups | RSS with input MB | peak RSS MB |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const input = (lib: Lib) =>
    lib === 'parquetry writeMany' || lib === '@dsnp/parquetjs' ? 'row objects' : lib === 'parquet-wasm' ? 'Arrow table' : lib.startsWith('duckdb') ? 'DuckDB table' : 'column arrays';
  for (const x of rows) {
    const med = median(x.r.times);
    const vsHyp = hyp ? `${(median(hyp.r.times) / med).toFixed(2)}x` : '';
    const vsDuck = duck ? `${((x.size / duck.size - 1) * 100).toFixed(1)}%` : '';
    lines.push(
      `| ${x.r.lib} | ${input(x.r.lib)} | ${fmtS(Math.min(...x.r.times))} | ${fmtS(med)} | ${vsHyp} | ${fmtS(median(x.r.cpu))} | ${fmtMiB(x.size)} | ${vsDuck} | ${x.rowGroups} | ${fmtMB(x.r.baseRss)} | ${fmtMB(x.r.peakRss)} |`,
    );
  }
  const verdicts: string[] = [];
  const pc = rows.find((x) => x.r.lib === 'parquetry writeColumns');
  if (pc && hypBest) {
    const x = median(hypBest.r.times) / median(pc.r.times);
    verdicts.push(`- speed: parquetry writeColumns at ${x.toFixed(2)}x the speed of ${hypBest.r.lib}, the faster hyparquet-writer set-up (median against median); target 3x: **${x >= 3 ? 'met' : 'NOT met'}**`);
  }
  const pm = rows.find((x) => x.r.lib === 'parquetry writeMany');
  if (pm && hypBest) {
    const x = median(hypBest.r.times) / median(pm.r.times);
    verdicts.push(`- parquetry writeMany (row objects) at ${x.toFixed(2)}x the speed of ${hypBest.r.lib} (which starts from columns)`);
  }
  if (pc && duck) {
    const d = pc.size / duck.size - 1;
    verdicts.push(`- size: parquetry's output ${d >= 0 ? `${(d * 100).toFixed(1)}% larger` : `${(-d * 100).toFixed(1)}% smaller`} than DuckDB's (SNAPPY both); target at most 5% larger: **${d <= 0.05 ? 'met' : 'NOT met'}**`);
  }
  const block = [
    `Run on ${new Date().toISOString().slice(0, 10)}: ${machine()}; ${ROWS.toLocaleString('en')} rows, SNAPPY; ${runs} timed runs after one warm-up per library (${SLOW.join(', ')}: ${Math.min(runs, 3)}), each library in its own process; every output read back by parquetry and checked against the table.`,
    '',
    lines.join('\n'),
    '',
    verdicts.join('\n'),
    ...(failures.length ? ['', 'Not measured:', '', ...failures] : []),
  ];
  if (process.argv.includes('--sizes')) {
    const head = ['| column | ' + rows.map((x) => x.r.lib).join(' | ') + ' |', '| --- |' + rows.map(() => ' ---: |').join('')];
    for (const c of COLUMNS) head.push(`| ${c} | ${rows.map((x) => ((x.columnBytes[c] ?? 0) / 1024).toFixed(0)).join(' | ')} |`);
    block.push('', 'Compressed column chunk bytes (KiB, all row groups):', '', ...head);
  }
  console.log(block.join('\n'));
  writeFileSync(join(OUT, 'write.json'), JSON.stringify({ machine: machine(), runs, rows }, null, 2));
}

if (process.argv[2] === '--worker') {
  await worker(process.argv[3] as Lib, Number(process.argv[4]));
} else {
  await main();
}
