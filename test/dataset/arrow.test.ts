/**
 * `Dataset.toArrow` / `arrowBatches`: a Hive dataset DuckDB writes reads as
 * DuckDB reads it (partition columns as Arrow columns of their type), and
 * as an apache-arrow table built from the dataset's own rows, through
 * projection, filters, offset/limit across files, and unionByName's nulls
 * and widened integers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { vectorFromArray, Table, type Vector } from 'apache-arrow';
import type { DuckDBConnection } from '@duckdb/node-api';
import { defineSchema, field, openDataset, writeParquet } from '../../src/node/index.js';
import { type Dataset, type DatasetArrowOptions } from '../../src/node/entries/dataset.js';
import { SALES, useDuck } from './helpers.js';

let dir = '';
let duck: DuckDBConnection;
useDuck((files) => ({ dir, duck } = files));

const DAY_MS = 86_400_000;

/** An Arrow value in DuckDB's node-api form (DATE as its days). */
function asDuck(v: unknown, type: string): unknown {
  if (v === null) return null;
  if (type.startsWith('Date32')) return { days: (v as number) / DAY_MS };
  return v;
}

/** `ds.toArrow(options)` agrees with DuckDB's rows of `sql`, column for column, with one batch schema. */
async function assertArrowAgrees(ds: Dataset, options: DatasetArrowOptions, sql: string): Promise<Table> {
  const want = await duck.runAndReadAll(sql);
  const table = await ds.toArrow(options);
  assert.deepEqual(table.schema.fields.map((f) => f.name), want.columnNames(), 'columns and their order');
  const rows = want.getRows();
  assert.equal(table.numRows, rows.length, 'row count');
  table.schema.fields.forEach((f, c) => {
    const col = table.getChildAt(c)!;
    for (let r = 0; r < rows.length; r++) {
      const d = rows[r]![c]!;
      assert.deepEqual(asDuck(col.get(r), String(f.type)), d !== null && typeof d === 'object' ? { ...d } : d, `row ${r} column ${f.name}`);
    }
  });
  for (const b of table.batches) assert.ok(b.schema === table.schema || String(b.schema.fields) === String(table.schema.fields));
  return table;
}

/** The same table built by apache-arrow from the dataset's rows (values as Arrow takes them). */
async function assertMatchesRows(ds: Dataset, options: DatasetArrowOptions): Promise<void> {
  const table = await ds.toArrow(options);
  const rows = await ds.readRows({ ...options, temporal: 'date' });
  const built = new Table(Object.fromEntries(table.schema.fields.map((f) => [f.name, vectorFromArray(rows.map((r) => r[f.name]), f.type) as Vector])));
  assert.equal(table.numRows, built.numRows);
  assert.deepEqual(table.schema.fields.map(String), built.schema.fields.map(String));
  assert.deepEqual(table.toArray().map((r) => r.toJSON()), built.toArray().map((r) => r.toJSON()));
}


test('a DuckDB Hive dataset as Arrow: DuckDB\'s rows, partition columns typed, strings as dictionaries', async () => {
  const out = join(dir, 'sales');
  await duck.run(`COPY (${SALES}) TO '${out}' (FORMAT PARQUET, PARTITION_BY (region, cat, day))`);
  const ds = await openDataset(out);
  const all = `read_parquet('${out}/**/*.parquet', hive_partitioning = true)`;
  const t = await assertArrowAgrees(ds, {}, `SELECT * FROM ${all}`);
  assert.deepEqual(t.schema.fields.map(String), ['id: Int64', 'name: Utf8', 'qty: Int64', 'cat: Dictionary<Int32, Utf8>', 'day: Date32<DAY>', 'region: Int64']);
  assert.ok(t.batches.length > 1, 'a batch per file at least');
  await assertArrowAgrees(ds, { columns: ['cat', 'id'] }, `SELECT id, cat FROM ${all}`);
  await assertArrowAgrees(ds, { offset: 37, limit: 100 }, `SELECT * FROM ${all} LIMIT 100 OFFSET 37`);
  // Partition columns alone: no page read.
  await assertArrowAgrees(ds, { columns: ['region', 'day'], offset: 5, limit: 150 }, `SELECT day, region FROM ${all} LIMIT 150 OFFSET 5`);
  await assertArrowAgrees(ds, { filter: { column: 'qty', op: '>', value: 50 }, offset: 20, limit: 60 }, `SELECT * FROM ${all} WHERE qty > 50 LIMIT 60 OFFSET 20`);
  await assertArrowAgrees(ds, { filter: { or: [{ column: 'cat', op: 'is null' }, { column: 'region', op: '=', value: 2 }] } }, `SELECT * FROM ${all} WHERE cat IS NULL OR region = 2`);
  await assertArrowAgrees(ds, { filter: { column: 'region', op: '=', value: 7 } }, `SELECT * FROM ${all} WHERE region = 7`);
  await assertMatchesRows(ds, {});
  await assertMatchesRows(ds, { columns: ['day', 'name'], filter: { column: 'id', op: '<', value: 100 }, offset: 3 });
});

test('unionByName as Arrow: a column a file lacks is null, narrower integers widened, as the rows read', async () => {
  const out = join(dir, 'union');
  mkdirSync(join(out, 'k=a'), { recursive: true });
  mkdirSync(join(out, 'k=b'), { recursive: true });
  await writeParquet(join(out, 'k=a', 'p.parquet'), [{ n: 1, s: 'x' }, { n: -2, s: null }], { schema: defineSchema({ n: field.int32().required(), s: field.string() }) });
  await writeParquet(join(out, 'k=b', 'p.parquet'), [{ n: 5_000_000_000n, t: true }], { schema: defineSchema({ n: field.int64().required(), t: field.boolean().required() }) });
  const ds = await openDataset(out, { unionByName: true });
  const t = await ds.toArrow();
  assert.deepEqual(t.schema.fields.map(String), ['n: Int64', 's: Utf8', 't: Bool', 'k: Dictionary<Int32, Utf8>']);
  await assertMatchesRows(ds, {});
  await assertArrowAgrees(ds, {}, `SELECT n, s, t, k FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true, union_by_name = true)`);
});
