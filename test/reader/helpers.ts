/** Shared pieces of the reader API tests: corpus paths, row collection, DuckDB-written fixtures. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { type ParquetReader, type ReadOptions } from '../../src/node/index.js';

export const SAMPLE = join('examples', 'fixtures', 'sample.parquet');
export const CORPUS = join('..', 'shared', 'corpus');
export const DATA = join(CORPUS, 'parquet-testing', 'data');

/** The corpus's expected canonical lines for a parquet-testing/data file. */
export function expectedLines(file: string): string[] {
  const text = readFileSync(join(CORPUS, 'expected', 'parquet-testing', 'data', `${file}.jsonl`), 'utf8');
  return text.split('\n').slice(0, -1);
}

export async function collect(reader: ParquetReader, options: ReadOptions = {}): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const row of reader.rows(options)) rows.push(row);
  return rows;
}

/** Rows as canonical lines (default value options only). */
export async function lines(reader: ParquetReader, options: ReadOptions = {}): Promise<string[]> {
  const plan = reader.plan(options.columns);
  const out: string[] = [];
  for await (const row of reader.rows(options)) out.push(canonicalRow(plan, row));
  return out;
}

/** A DuckDB in memory and a temp dir for the files it writes; `close` removes both. */
export class DuckFiles {
  private constructor(private readonly instance: DuckDBInstance, readonly duck: DuckDBConnection, readonly dir: string) {}

  static async create(): Promise<DuckFiles> {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const duck = await instance.connect();
    await duck.run(`SET TimeZone = 'UTC'`);
    return new DuckFiles(instance, duck, mkdtempSync(join(tmpdir(), 'parquetry-reader-')));
  }

  /** Writes the rows of `query` to `name` in the temp dir and returns its path. */
  async write(name: string, query: string, options = ''): Promise<string> {
    const path = join(this.dir, name);
    await this.duck.run(`COPY (${query}) TO '${path.replaceAll("'", "''")}' (FORMAT PARQUET${options ? `, ${options}` : ''})`);
    return path;
  }

  close(): void {
    this.duck.closeSync();
    this.instance.closeSync();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A string as an SQL literal. */
export const sqlString = (s: string): string => `'${s.replaceAll("'", "''")}'`;
/** A name as an SQL identifier. */
export const sqlIdent = (c: string): string => `"${c.replaceAll('"', '""')}"`;

/** JSON text that survives bigints, for failure messages. */
export function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x instanceof Date ? `Date(${x.toISOString()})` : x));
}
