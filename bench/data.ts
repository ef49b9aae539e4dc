/**
 * The read benchmark's input files, written by DuckDB (another implementation,
 * on purpose) into bench/data/ (gitignored) when absent. Deterministic: every
 * value is a function of the row number, so runs on other machines compare.
 *
 * Run alone to (re)generate: node --import tsx bench/data.ts [--force]
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'data');
export const FLAT = join(DATA_DIR, 'flat.parquet');
export const NESTED = join(DATA_DIR, 'nested.parquet');
export const FLAT_ROWS = 2_000_000;
export const NESTED_ROWS = 500_000;

/** Column names of the flat file, by role. */
export const FLAT_DOUBLE = 'amount';
export const FLAT_CATEGORY = 'category';

const FLAT_SQL = `
  SELECT
    i::INTEGER                                            AS id,
    (i * 1000003 + 17)::BIGINT                            AS big,
    ((hash(i) % 1000000)::DOUBLE / 100.0)                 AS amount,
    'category_' || lpad((hash(i * 31) % 100)::VARCHAR, 3, '0') AS category,
    'user-' || i::VARCHAR || '-' || substr(md5(i::VARCHAR), 1, 8) AS uid,
    (hash(i * 7) % 3 = 0)                                 AS flag,
    TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i * 13)  AS ts,
    CASE WHEN hash(i * 11) % 10 = 0 THEN NULL ELSE (hash(i * 13) % 100000)::INTEGER END AS maybe
  FROM range(${FLAT_ROWS}) t(i)
`;

const NESTED_SQL = `
  SELECT
    i::INTEGER AS id,
    CASE WHEN i % 17 = 0 THEN NULL
         ELSE list_transform(range(i % 6), x -> (x * 3 + i)::INTEGER) END AS ints,
    list_transform(range(i % 4), x -> {'a': (x + i)::INTEGER, 'b': 'item' || (x * 7 + i % 13)::VARCHAR}) AS items,
    MAP(list_transform(range(i % 3), x -> 'key' || x::VARCHAR),
        list_transform(range(i % 3), x -> (x * i)::INTEGER))  AS attrs,
    {'x': i / 3.0::DOUBLE, 'y': 'name' || (i % 50)::VARCHAR, 'z': CASE WHEN i % 9 = 0 THEN NULL ELSE i % 7 = 0 END} AS info
  FROM range(${NESTED_ROWS}) t(i)
`;

async function write(path: string, sql: string): Promise<void> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const tmp = `${path}.tmp`;
  await c.run(`COPY (${sql}) TO '${tmp}' (FORMAT PARQUET, COMPRESSION SNAPPY)`);
  c.closeSync();
  db.closeSync();
  renameSync(tmp, path);
}

/** Writes the data files that are missing (all of them with `force`). */
export async function ensureData(force = false): Promise<void> {
  mkdirSync(DATA_DIR, { recursive: true });
  for (const [path, sql] of [[FLAT, FLAT_SQL], [NESTED, NESTED_SQL]] as const) {
    if (force) rmSync(path, { force: true });
    if (!existsSync(path)) {
      process.stderr.write(`writing ${path} with DuckDB...\n`);
      await write(path, sql);
    }
  }
}

export function fileSize(path: string): number {
  return statSync(path).size;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await ensureData(process.argv.includes('--force'));
  for (const p of [FLAT, NESTED]) console.log(p, fileSize(p));
}
