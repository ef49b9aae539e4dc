/** Shared pieces of the dataset tests: a DuckDB per file, a counting file system, row-for-row agreement with DuckDB. */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { DuckDBConnection } from '@duckdb/node-api';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { nodeFileSystem, type Dataset, type DatasetFileSystem, type DatasetReadOptions } from '../../src/node/entries/dataset.js';
import { canonText, duckText, showDifference } from '../interop/duck-compare.js';
import { DuckFiles } from '../reader/helpers.js';
import type { Source } from '../../src/io/source.js';

/** A DuckDB and a temp dir for the test file, handed to `ready` before its tests and removed after. */
export function useDuck(ready: (files: DuckFiles) => void): void {
  let files: DuckFiles | undefined;
  before(async () => {
    files = await DuckFiles.create();
    ready(files);
  });
  after(() => files?.close());
}

/** A file system that records the files opened (a dataset must not open the ones it prunes) and the bytes read from them. */
export function counting(): { fs: DatasetFileSystem; opened: string[]; read: { bytes: number } } {
  const inner = nodeFileSystem();
  const opened: string[] = [];
  const read = { bytes: 0 };
  return { opened, read, fs: { ...inner, open: (p) => (opened.push(p), inner.open(p).then((s) => countingSource(s, read))) } };
}

/** `source` with every byte read from it added to `read.bytes`. */
export function countingSource(source: Source, read: { bytes: number }): Source {
  const readInto = source.readInto?.bind(source);
  return {
    byteLength: source.byteLength,
    name: source.name,
    close: () => source.close?.() ?? Promise.resolve(),
    read: (offset, length) => ((read.bytes += length), source.read(offset, length)),
    ...(readInto ? { readInto: (offset: number, into: Uint8Array) => ((read.bytes += into.length), readInto(offset, into)) } : {}),
  };
}

/** Asserts that `ds.rows(options)` gives DuckDB's rows of `sql`, in order, column for column. */
export async function assertAgrees(duck: DuckDBConnection, ds: Dataset, options: DatasetReadOptions, sql: string): Promise<number> {
  const want = await duck.runAndReadAll(sql);
  const names = want.columnNames();
  const types = want.columnTypes();
  const rows = want.getRows();
  const plan = ds.plan(options.columns);
  assert.deepEqual(plan.fields.map((f) => f.name), names, 'columns and their order');
  let r = 0;
  for await (const row of ds.rows(options)) {
    const parsed = JSON.parse(canonicalRow(plan, row)) as Record<string, unknown>;
    assert.ok(r < rows.length, `parquetry gives more than DuckDB's ${rows.length} rows`);
    names.forEach((name, c) => {
      const d = duckText(types[c]!, rows[r]![c]!);
      const p = canonText(types[c]!, parsed[name], rows[r]![c]!);
      assert.equal(p, d, `row ${r} column ${name} (DuckDB ${types[c]!.toString()}): ${showDifference(p, d)}`);
    });
    r++;
  }
  assert.equal(r, rows.length, 'row count');
  return r;
}

/** A table DuckDB writes as Hive datasets: strings with `/`, ` `, `=` and nulls, small ints and dates to partition by. */
export const SALES = `SELECT i AS id, 'item ' || i AS name, (i * 7) % 100 AS qty, (i % 3)::INT AS region,
  CASE i % 4 WHEN 0 THEN 'a b' WHEN 1 THEN 'x/y' WHEN 2 THEN 'p=q' ELSE NULL END AS cat,
  DATE '2024-01-01' + (i % 2)::INT AS day
  FROM range(200) t(i)`;
