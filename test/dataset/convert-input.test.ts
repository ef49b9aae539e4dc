/**
 * A dataset as a conversion's input (`convert DIR|GLOB OUT`, `convert()` with
 * a directory path): a Hive dataset DuckDB writes (`COPY ... PARTITION_BY`)
 * converted to one Parquet file, to JSON Lines and to a dataset partitioned
 * another way; DuckDB reads each result and agrees, row for row, with its own
 * `read_parquet('DIR/**\/*.parquet', hive_partitioning = true)` of the input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { convert, InvalidArgumentError } from '../../src/node/index.js';
import { duckAndTempDir, footerOf } from './setup.js';
import { ok, run } from '../cli/run-cli.js';

const env = duckAndTempDir('parquetry-convert-input-');

/** DuckDB's dataset: three partition keys (one with nulls, one a date), nulls and decimals in the files. */
async function hive(name: string): Promise<string> {
  const dir = join(env.root, name);
  await env.db.run(`COPY (SELECT i::BIGINT AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || i END AS s, (i / 4)::DECIMAL(9, 2) AS d,
      CASE WHEN i % 5 = 0 THEN NULL ELSE i % 3 END AS region, 'c' || (i % 2) AS cat, DATE '2024-01-01' + (i % 4)::INTEGER AS day
    FROM range(1000) t(i)) TO '${dir}' (FORMAT PARQUET, PARTITION_BY (region, cat, day))`);
  return dir;
}

function hiveRead(dir: string): string {
  return `read_parquet('${dir}/**/*.parquet', hive_partitioning = true)`;
}

async function rows(sql: string): Promise<unknown[][]> {
  return (await env.db.runAndReadAll(sql)).getRowsJson() as unknown[][];
}

/** DuckDB's names and types of a query's columns. */
async function describe(from: string): Promise<string[]> {
  return (await rows(`DESCRIBE SELECT * FROM ${from}`)).map((r) => `${String(r[0])} ${String(r[1])}`);
}

test('convert(DIR, file.parquet): one file DuckDB reads as it reads the Hive dataset, in order, partition columns as ordinary columns', async () => {
  const dir = await hive('to-file');
  const out = join(env.root, 'one.parquet');
  const report = await convert(dir, out);
  assert.equal(report.rowsRead, 1000);
  assert.equal(report.numRows, 1000);
  assert.deepEqual(await describe(`'${out}'`), await describe(hiveRead(dir)));
  assert.deepEqual(await rows(`SELECT * FROM '${out}'`), await rows(`SELECT * FROM ${hiveRead(dir)}`));
  // A dataset is Parquet files: another input format is a caller's mistake, in code and on the command line.
  await assert.rejects(convert(dir, join(env.root, 'x.parquet'), { from: 'csv' }), (e: unknown) => e instanceof InvalidArgumentError && /is a dataset of Parquet files; it is not read as csv/.test(e.message));
  assert.match(run('convert', '--from', 'jsonl', dir, join(env.root, 'x.parquet')).err, /is a dataset of Parquet files; --from jsonl does not apply/);
});

test('parquetry convert GLOB out.jsonl --columns: JSON Lines DuckDB reads equal to the dataset, dates as ISO text', async () => {
  const dir = await hive('to-jsonl');
  const out = join(env.root, 'rows.jsonl');
  const r = run('convert', `${dir}/**/*.parquet`, out, '--columns', 'day,id,region,s');
  assert.equal(r.code, 0, r.err);
  const types = (await rows(`DESCRIBE SELECT id, s, day, region FROM ${hiveRead(dir)}`)).map((t) => `'${String(t[0])}': '${String(t[1])}'`).join(', ');
  // The projection keeps the dataset's column order; DuckDB reads the lines with the dataset's types.
  assert.deepEqual(
    await rows(`SELECT * FROM read_json('${out}', format = 'newline_delimited', columns = {${types}})`),
    await rows(`SELECT id, s, day, region FROM ${hiveRead(dir)}`),
  );
});

test('parquetry convert DIR OUTDIR --partition-by: partition columns become directories again, the others columns of the files', async () => {
  const dir = await hive('to-dataset');
  const out = join(env.root, 'by-cat');
  const r = run('convert', dir, out, '--partition-by', 'cat', '--max-rows-per-file', '300');
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(readdirSync(out).sort(), ['cat=c0', 'cat=c1']);
  const part = join(out, 'cat=c0', readdirSync(join(out, 'cat=c0')).sort()[0]!);
  // cat is the directory; the old partition columns region and day are stored in the parts.
  assert.deepEqual((await footerOf(part)).schema.slice(1).map((e) => e.name), ['id', 's', 'd', 'day', 'region']);
  const columns = 'id, s, d, region, cat, day';
  assert.deepEqual(await describe(`(SELECT ${columns} FROM ${hiveRead(out)})`), await describe(`(SELECT ${columns} FROM ${hiveRead(dir)})`));
  // Each part keeps the input's order: within a cat, rows come in the order DuckDB reads them from the input.
  for (const cat of ['c0', 'c1']) {
    assert.deepEqual(
      await rows(`SELECT ${columns} FROM ${hiveRead(out)} WHERE cat = '${cat}'`),
      await rows(`SELECT ${columns} FROM ${hiveRead(dir)} WHERE cat = '${cat}'`),
    );
  }
});

test('--union-by-name: a dataset whose files have different columns converts as DuckDB union_by_name reads it; without it, refused', async () => {
  const dir = join(env.root, 'union');
  mkdirSync(dir);
  await env.db.run(`COPY (SELECT i::INTEGER AS id, 'a' || i AS a FROM range(3) t(i)) TO '${join(dir, 'p0.parquet')}'`);
  await env.db.run(`COPY (SELECT i::BIGINT AS id, i * 2 AS b FROM range(3, 6) t(i)) TO '${join(dir, 'p1.parquet')}'`);
  const out = join(env.root, 'union.parquet');
  const refused = run('convert', dir, out);
  assert.notEqual(refused.code, 0);
  assert.match(refused.err, /p0\.parquet[\s\S]*p1\.parquet|p1\.parquet[\s\S]*p0\.parquet/);
  ok('convert', '--union-by-name', dir, out);
  const want = `read_parquet('${dir}/*.parquet', union_by_name = true)`;
  assert.deepEqual(await describe(`'${out}'`), await describe(want));
  assert.deepEqual(await rows(`SELECT * FROM '${out}'`), await rows(`SELECT * FROM ${want}`));
  // The library's option of the same name.
  const lib = join(env.root, 'union-lib.parquet');
  await convert(dir, lib, { unionByName: true });
  assert.deepEqual(await rows(`SELECT * FROM '${lib}'`), await rows(`SELECT * FROM ${want}`));
  // The option means nothing for a file.
  assert.match(run('convert', '--union-by-name', out, join(env.root, 'x.jsonl')).err, /--union-by-name applies to a dataset input/);
});
