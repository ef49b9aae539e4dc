/**
 * The pruning benchmark's dataset (bench/dataset-prune.ts): 1,000 Parquet
 * files in Hive directories, 200 days of 5 parts each,
 *
 *   DIR/day=2024-01-01/part-0.parquet ... DIR/day=2024-07-18/part-4.parquet
 *
 * holding at least 10 GiB of logical data: the bytes of the values as a
 * reader hands them out (8 a BIGINT, TIMESTAMP or DOUBLE, 4 an INT, a
 * string's UTF-8 bytes), which is what a full scan must produce. The files
 * are far smaller: every column is chosen to encode cheaply (`id` and `ts`
 * are sequences, DELTA_BINARY_PACKED; the strings and small numbers come
 * from short lists, so they are dictionary indices), which keeps writing
 * practical on a small machine. `id` and `ts` are sorted within each file
 * and across the files in path order, so statistics can prune on them; `day`
 * exists only in the directory names.
 *
 * Every value is a function of the global row number, so the dataset is the
 * same on every machine. Written file by file with `openWriter` (temp file +
 * rename), so an interrupted run leaves only whole files, and a rerun
 * without --force skips the files that are there.
 *
 * With --summary it also writes `_metadata` and `_common_metadata`
 * (writeSummaryFiles), from which a dataset plans without opening the parts.
 *
 *   nice -n 10 node --import tsx bench/dataset-gen.ts --dir /tmp/pq-dataset [--force] [--summary]
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { argValue } from './harness.js';

export const DAYS = 200;
export const PARTS_PER_DAY = 5;
export const FILES = DAYS * PARTS_PER_DAY;
export const ROWS_PER_FILE = 36_864;
export const ROWS = FILES * ROWS_PER_FILE;
export const ROW_GROUP_ROWS = 8_192;
const PAGE_ROWS = 2_048;
const FIRST_DAY_MS = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;
/** Milliseconds between two rows of a day: a day's rows spread over the day. */
const ROW_MS = Math.floor(DAY_MS / (PARTS_PER_DAY * ROWS_PER_FILE));

export const DEFAULT_DIR = join(os.tmpdir(), 'parquetry-dataset');

/** `day=YYYY-MM-DD` of day number `d` (0-based). */
export const dayName = (d: number) => new Date(FIRST_DAY_MS + d * DAY_MS).toISOString().slice(0, 10);
export const filePath = (dir: string, d: number, part: number) => join(dir, `day=${dayName(d)}`, `part-${part}.parquet`);
/** Global row number of file (d, part)'s first row; `id` is the global row number. */
export const firstRow = (d: number, part: number) => (d * PARTS_PER_DAY + part) * ROWS_PER_FILE;

// Short lists the string columns draw from, built once: the writer meets the same string objects again and again.
const USERS = Array.from({ length: 2_000 }, (_, i) => `user-${String(i).padStart(5, '0')}@example.org`);
const SECTIONS = ['catalog', 'account', 'search', 'checkout', 'help', 'api/v2/orders', 'api/v2/items', 'static/assets', 'blog', 'admin'];
const PATHS = Array.from(
  { length: 100 },
  (_, i) => `https://shop.example.org/${SECTIONS[i % SECTIONS.length]}/${'section-'.repeat(1 + (i % 7))}${i}?ref=campaign-${(i * 37) % 101}&utm_source=newsletter&utm_medium=email`,
);
const AGENTS = Array.from(
  { length: 40 },
  (_, i) =>
    `Mozilla/5.0 (${['X11; Linux x86_64', 'Windows NT 10.0; Win64; x64', 'Macintosh; Intel Mac OS X 14_4'][i % 3]}) ` +
    `AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + i}.0.${6000 + i * 13}.${i * 7} Safari/537.36 build/${i}`,
);
const STATUS = [200, 200, 200, 200, 200, 200, 304, 301, 404, 500, 200, 200, 201, 204, 200, 403];
const utf8Len = (s: string) => Buffer.byteLength(s, 'utf8');
const USER_BYTES = USERS.map(utf8Len);
const PATH_BYTES = PATHS.map(utf8Len);
const AGENT_BYTES = AGENTS.map(utf8Len);
/** Logical bytes of a row's fixed-width columns: id, ts, bytes, latency (8 each), status (4). */
const FIXED_ROW_BYTES = 8 * 4 + 4;

export async function writeFile(path: string, first: number, d: number, part: number): Promise<number> {
  const { openWriter, defineSchema, field: f } = await import('../src/node/index.js');
  const schema = defineSchema({
    id: f.int64().required(),
    ts: f.timestamp('MILLIS').required(),
    user: f.string().required(),
    path: f.string().required(),
    agent: f.string().required(),
    status: f.int32().required(),
    bytes: f.int64().required(),
    latency: f.double().required(),
  });
  const sequence = { dictionary: false, encoding: 'DELTA_BINARY_PACKED' } as const;
  const w = await openWriter(path, schema, {
    codec: 'SNAPPY',
    rowGroupRows: ROW_GROUP_ROWS,
    pageRowLimit: PAGE_ROWS,
    sortedBy: [{ column: 'id' }, { column: 'ts' }],
    columns: { id: sequence, ts: sequence },
  });
  const n = ROWS_PER_FILE;
  const id = new BigInt64Array(n);
  const ts = new BigInt64Array(n);
  const user: string[] = new Array(n);
  const url: string[] = new Array(n);
  const agent: string[] = new Array(n);
  const status = new Int32Array(n);
  const bytes = new BigInt64Array(n);
  const latency = new Float64Array(n);
  const dayStart = FIRST_DAY_MS + d * DAY_MS;
  let logical = n * FIXED_ROW_BYTES;
  for (let j = 0; j < n; j++) {
    const g = first + j;
    id[j] = BigInt(g);
    ts[j] = BigInt(dayStart + (part * n + j) * ROW_MS);
    const u = (g * 7_919) % USERS.length;
    const p = (g * 31 + (g >>> 6)) % PATHS.length;
    const a = (g * 13 + (g >>> 9)) % AGENTS.length;
    user[j] = USERS[u]!;
    url[j] = PATHS[p]!;
    agent[j] = AGENTS[a]!;
    logical += USER_BYTES[u]! + PATH_BYTES[p]! + AGENT_BYTES[a]!;
    status[j] = STATUS[g % STATUS.length]!;
    bytes[j] = BigInt(512 * ((g * 37) % 200));
    latency[j] = ((g * 13) % 1_000) / 10;
  }
  await w.writeColumns({ id, ts, user, path: url, agent, status, bytes, latency });
  await w.close();
  return logical;
}

/** Logical bytes of a file as its footer tells them: fixed widths times values, plus SizeStatistics' unencoded byte-array bytes. */
export async function footerLogicalBytes(path: string): Promise<{ logical: number; rows: number }> {
  const { openParquet } = await import('../src/node/index.js');
  const r = await openParquet(path);
  try {
    const width: Record<string, number> = { INT32: 4, INT64: 8, DOUBLE: 8, FLOAT: 4 };
    let logical = 0;
    for (const rg of r.file.metadata.rowGroups) {
      for (const c of rg.columns) {
        const m = c.metaData!;
        if (m.type === 'BYTE_ARRAY') {
          if (m.sizeStatistics?.unencodedByteArrayDataBytes === undefined) throw new Error(`${path}: no SizeStatistics for ${m.pathInSchema.join('.')}`);
          logical += m.sizeStatistics.unencodedByteArrayDataBytes;
        } else logical += m.numValues * width[m.type]!;
      }
    }
    return { logical, rows: Number(r.file.metadata.numRows) };
  } finally {
    await r.close();
  }
}

/** Every data file of a dataset directory, in path order. */
export function listParquet(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((p) => p.endsWith('.parquet'))
    .map((p) => join(dir, p))
    .sort();
}

async function main(): Promise<void> {
  const dir = argValue('--dir') ?? DEFAULT_DIR;
  if (process.argv.includes('--force')) rmSync(dir, { recursive: true, force: true });
  const t0 = performance.now();
  let written = 0;
  let logical = 0;
  for (let d = 0; d < DAYS; d++) {
    mkdirSync(join(dir, `day=${dayName(d)}`), { recursive: true });
    for (let part = 0; part < PARTS_PER_DAY; part++) {
      const path = filePath(dir, d, part);
      if (existsSync(path)) continue;
      logical += await writeFile(path, firstRow(d, part), d, part);
      written++;
    }
    if (d % 20 === 19) process.stderr.write(`${d + 1}/${DAYS} days, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  }
  const seconds = (performance.now() - t0) / 1000;
  if (process.argv.includes('--summary')) {
    const { writeSummaryFiles } = await import('../src/node/entries/dataset.js');
    const t = performance.now();
    await writeSummaryFiles(dir);
    console.log(`wrote ${join(dir, '_metadata')} (${statSync(join(dir, '_metadata')).size.toLocaleString('en')} bytes) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  // The figures below are read back from the files, not from what this script meant to write.
  const files = listParquet(dir);
  let disk = 0;
  let footerLogical = 0;
  let rows = 0;
  for (const p of files) {
    disk += statSync(p).size;
    const f = await footerLogicalBytes(p);
    footerLogical += f.logical;
    rows += f.rows;
  }
  const gib = (b: number) => (b / 2 ** 30).toFixed(2);
  console.log(`${dir}: wrote ${written} files in ${seconds.toFixed(1)} s (load average ${os.loadavg()[0]!.toFixed(1)})` + (written ? `, ${gib(logical)} GiB logical as generated` : ''));
  console.log(`${files.length} files, ${rows.toLocaleString('en')} rows, ${footerLogical.toLocaleString('en')} logical bytes (${gib(footerLogical)} GiB) by the footers, ${disk.toLocaleString('en')} bytes on disk (${(disk / 2 ** 20).toFixed(1)} MiB, ${(footerLogical / disk).toFixed(1)}x smaller)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
