/**
 * Bad datasets: a symbolic link loop, a part that is not Parquet. Each is a
 * typed error naming the file, or left out when the caller asks; the rows
 * that come back are always the good files' rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { CorruptFileError, IOError, openDataset } from '../../src/node/index.js';
import { assertAgrees, useDuck } from './helpers.js';

let dir = '';
let duck: DuckDBConnection;
useDuck((files) => ({ dir, duck } = files));

test('a symbolic link loop is an error naming the link, or left out', async () => {
  const out = join(dir, 'loop');
  mkdirSync(join(out, 'sub'), { recursive: true });
  await duck.run(`COPY (SELECT 1 AS id) TO '${join(out, 'sub', 'a.parquet')}'`);
  symlinkSync('..', join(out, 'sub', 'back'));
  symlinkSync('self', join(out, 'self'));
  await assert.rejects(openDataset(out), (e: unknown) => e instanceof IOError && (e.message.includes(join(out, 'sub', 'back')) || e.message.includes(join(out, 'self'))));
  const ds = await openDataset(out, { badFiles: 'skip' });
  assert.deepEqual(ds.files.map((f) => f.path), [join(out, 'sub', 'a.parquet')]);
  await assertAgrees(duck, ds, {}, `SELECT * FROM read_parquet('${join(out, 'sub', 'a.parquet')}')`);
});

test('a part that is not Parquet is an error naming it, or skipped and listed', async () => {
  const out = join(dir, 'notparquet');
  mkdirSync(out);
  for (const k of [0, 2]) await duck.run(`COPY (SELECT ${k} AS id) TO '${join(out, `part-${k}.parquet`)}'`);
  writeFileSync(join(out, 'part-1.parquet'), 'id\n1\n');
  const ds = await openDataset(out);
  await assert.rejects(ds.readRows(), (e: unknown) => e instanceof CorruptFileError && e.message.includes(join(out, 'part-1.parquet')));
  // The first file bad: refused at open.
  writeFileSync(join(out, 'part-0.parquet'), 'PAR1 but not really');
  await assert.rejects(openDataset(out), (e: unknown) => e instanceof CorruptFileError && e.message.includes(join(out, 'part-0.parquet')));
  const skipping = await openDataset(out, { badFiles: 'skip' });
  await assertAgrees(duck, skipping, {}, `SELECT * FROM read_parquet('${join(out, 'part-2.parquet')}')`);
  assert.deepEqual(skipping.skipped.map((s) => s.path), [join(out, 'part-0.parquet'), join(out, 'part-1.parquet')]);
});
