/**
 * `_metadata` and `file_path`: planning from a summary reads no part
 * footer; parts are read through the row groups it names, checked against
 * their own footers when opened; a `file_path` never leaves the root
 * unless allowed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { IncompatibleFilesError, openDataset, openParquet, summarize, summaryFileBytes, UnsupportedError, writeSummaryFiles } from '../../src/node/index.js';
import { assertAgrees, counting, useDuck } from './helpers.js';
import { footerOf } from './setup.js';

let dir = '';
let duck: DuckDBConnection;
useDuck((files) => ({ dir, duck } = files));

/** A Hive dataset of 3 x 2 parts written by DuckDB, one row group each, and its `_metadata` (writeSummaryFiles). */
async function dataset(name: string): Promise<{ out: string; parts: string[] }> {
  const out = join(dir, name);
  await duck.run(`COPY (SELECT i AS id, i % 3 AS g, i % 2 AS h, 'v' || i AS s FROM range(6000) t(i) ORDER BY g, h, id) TO '${out}' (FORMAT PARQUET, PARTITION_BY (g, h), ROW_GROUP_SIZE 2048)`);
  const parts: string[] = [];
  for (const g of [0, 1, 2]) for (const h of [0, 1]) parts.push(join(out, `g=${g}`, `h=${h}`, 'data_0.parquet'));
  await writeSummaryFiles(out);
  return { out, parts };
}

test('planning from _metadata reads only it, and gives the rows planning from the parts gives (and DuckDB)', async () => {
  const { out } = await dataset('summary');
  const { fs, opened } = counting();
  const ds = await openDataset(out, { fileSystem: fs });
  assert.equal(ds.metadataFile, join(out, '_metadata'));
  assert.equal((await ds.fileStats()).reduce((n, f) => n + f.numRows, 0), 6000);
  const plan = await ds.scanPlan({ and: [{ column: 'g', op: '=', value: 1 }, { column: 'id', op: '<', value: 100 }] });
  assert.deepEqual(opened, [join(out, '_metadata')], 'no part footer read to plan');
  assert.deepEqual(plan.files.map((f) => f.pruned ?? 'kept'), ['partition', 'partition', 'kept', 'kept', 'partition', 'partition']);
  const sql = `SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)`;
  await assertAgrees(duck, ds, {}, sql);
  const fromParts = await openDataset(out, { useMetadataFile: false });
  assert.equal(fromParts.metadataFile, undefined);
  await assertAgrees(duck, fromParts, {}, sql);
  opened.length = 0;
  await assertAgrees(duck, ds, { filter: { and: [{ column: 'g', op: '=', value: 1 }, { column: 'id', op: '<', value: 100 }] } }, `${sql} WHERE g = 1 AND id < 100`);
  assert.deepEqual(new Set(opened), new Set([join(out, 'g=1', 'h=0', 'data_0.parquet'), join(out, 'g=1', 'h=1', 'data_0.parquet')]), 'only the parts the filter keeps');
});

test('a _metadata that disagrees with a part is found when the part is opened, naming both', async () => {
  const { out, parts } = await dataset('stale');
  // The part is rewritten after the summary: its row groups are no longer where the summary says.
  await duck.run(`COPY (SELECT i AS id, 's' || i AS s FROM range(10) t(i)) TO '${parts[2]}'`);
  const ds = await openDataset(out);
  await assert.rejects(ds.readRows(), (e: unknown) => e instanceof IncompatibleFilesError && e.message.includes('_metadata') && e.message.includes(parts[2]!));
  // Rows before the stale part come out right; no row of it is read.
  const rows: unknown[] = [];
  await assert.rejects(async () => {
    for await (const r of ds.rows()) rows.push(r);
  }, IncompatibleFilesError);
  assert.equal(rows.length, 2000);
  // Asked to, the stale part is left out and listed; every other part's rows come back.
  const skipping = await openDataset(out, { badFiles: 'skip' });
  const others = parts.filter((_, i) => i !== 2).map((p) => `'${p}'`).join(', ');
  await assertAgrees(duck, skipping, {}, `SELECT * FROM read_parquet([${others}], hive_partitioning = true)`);
  assert.deepEqual(skipping.skipped.map((k) => k.path), [parts[2]]);
});

test('a file_path outside the root is refused unless allowed; chunks in another file are read from it', async () => {
  const base = join(dir, 'escape');
  mkdirSync(join(base, 'ds'), { recursive: true });
  const outside = join(base, 'outside.parquet');
  await duck.run(`COPY (SELECT i AS id FROM range(5) t(i)) TO '${outside}'`);
  const footer = await footerOf(outside);
  writeFileSync(join(base, 'ds', '_metadata'), summaryFileBytes(summarize([{ path: '../outside.parquet', metadata: footer }]).metadata));
  await assert.rejects(openDataset(join(base, 'ds')), (e: unknown) => e instanceof UnsupportedError && /leads outside/.test(e.message) && e.message.includes('_metadata'));
  const ds = await openDataset(join(base, 'ds'), { allowOutsideRoot: true });
  await assertAgrees(duck, ds, {}, `SELECT * FROM read_parquet('${outside}')`);
  // Asked to, the row groups outside are left out, listed under the summary that names them.
  const inside = join(base, 'ds', 'inside.parquet');
  await duck.run(`COPY (SELECT i + 100 AS id FROM range(3) t(i)) TO '${inside}'`);
  writeFileSync(join(base, 'ds', '_metadata'), summaryFileBytes(summarize([{ path: '../outside.parquet', metadata: footer }, { path: 'inside.parquet', metadata: await footerOf(inside) }]).metadata));
  const skipping = await openDataset(join(base, 'ds'), { badFiles: 'skip' });
  await assertAgrees(duck, skipping, {}, `SELECT * FROM read_parquet('${inside}')`);
  assert.match(skipping.skipped[0]!.reason, /leads outside/);
  // An ordinary file whose footer names chunks in a neighbour: read from there, relative to it.
  const index = join(base, 'index.parquet');
  writeFileSync(index, summaryFileBytes({ ...footer, rowGroups: footer.rowGroups.map((rg) => ({ ...rg, columns: rg.columns.map((c) => ({ ...c, filePath: 'outside.parquet' })) })) }));
  await assertAgrees(duck, await openDataset([index]), {}, `SELECT * FROM read_parquet('${outside}')`);
  // The single-file reader follows it too.
  const single = await openParquet(index);
  try {
    assert.deepEqual((await single.readRows({ filter: { column: 'id', op: '>=', value: 3 } })).map((r) => r.id), [3n, 4n]);
    assert.equal((await single.readRows()).length, 5);
  } finally {
    await single.close();
  }
  // Without a way to open files (bytes in memory), such chunks are refused.
  await assert.rejects(openParquet(readFileSync(index)), (e: unknown) => e instanceof UnsupportedError && /another file \(outside\.parquet\)/.test(e.message));
  writeFileSync(index, summaryFileBytes({ ...footer, rowGroups: footer.rowGroups.map((rg) => ({ ...rg, columns: rg.columns.map((c) => ({ ...c, filePath: '/etc/passwd' })) })) }));
  await assert.rejects(openDataset([index]).then((d) => d.readRows()), (e: unknown) => e instanceof UnsupportedError && e.message.includes('/etc/passwd') && e.message.includes(index));
  await assert.rejects(openParquet(index), (e: unknown) => e instanceof UnsupportedError && e.message.includes('/etc/passwd') && e.message.includes(index));
});
