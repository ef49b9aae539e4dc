/**
 * A dataset reads each file's bytes as the file's own reader does: the tail
 * read with a footer for planning serves the reader of the file's rows, so a
 * full scan asks for no byte twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { nodeFileSystem, writeSummaryFiles } from '../../src/node/entries/dataset.js';
import { openDataset, openParquet } from '../../src/node/index.js';
import { readFooter } from '../../src/parquet/footer.js';
import { counting, countingSource, useDuck } from './helpers.js';

let dir = '';
let duck: DuckDBConnection;
useDuck((files) => ({ dir, duck } = files));

/** Bytes the single-file reader reads for every row of each file, and the rows. */
async function alone(files: readonly string[]): Promise<{ bytes: number; rows: unknown[] }> {
  const read = { bytes: 0 };
  const rows: unknown[] = [];
  for (const f of files) {
    const reader = await openParquet(countingSource(await nodeFileSystem().open(f), read));
    try {
      for await (const row of reader.rows()) rows.push(row);
    } finally {
      await reader.close();
    }
  }
  return { bytes: read.bytes, rows };
}

/** A Hive dataset of 4 parts, each larger than the 64 KiB tail read for its footer, its last row groups inside it. */
async function dataset(name: string): Promise<{ out: string; parts: string[] }> {
  const out = join(dir, name);
  await duck.run(`COPY (SELECT i AS id, i % 2 AS g, i % 4 // 2 AS h, md5(i::VARCHAR) AS s FROM range(40000) t(i) ORDER BY g, h, id) TO '${out}' (FORMAT PARQUET, PARTITION_BY (g, h), ROW_GROUP_SIZE 2048)`);
  const parts: string[] = [];
  for (const g of [0, 1]) for (const h of [0, 1]) parts.push(join(out, `g=${g}`, `h=${h}`, 'data_0.parquet'));
  return { out, parts };
}

test('a full scan through openDataset reads the bytes the single-file reader reads, no tail twice', async () => {
  const { out, parts } = await dataset('scan');
  const want = await alone(parts);
  const { fs, read } = counting();
  const ds = await openDataset(out, { fileSystem: fs, useMetadataFile: false });
  const rows: Record<string, unknown>[] = [];
  for await (const row of ds.rows({ columns: ['id', 's'] })) rows.push(row);
  assert.deepEqual(rows, want.rows);
  assert.equal(read.bytes, want.bytes);
});

test('planned from _metadata, a full scan reads the summary and then what the single-file reader reads', async () => {
  const { out, parts } = await dataset('summary');
  await writeSummaryFiles(out);
  const want = await alone(parts);
  const summary = { bytes: 0 };
  const source = countingSource(await nodeFileSystem().open(join(out, '_metadata')), summary);
  await readFooter(source);
  await source.close?.();
  const { fs, read } = counting();
  const ds = await openDataset(out, { fileSystem: fs });
  assert.equal(ds.metadataFile, join(out, '_metadata'));
  const rows: Record<string, unknown>[] = [];
  for await (const row of ds.rows({ columns: ['id', 's'] })) rows.push(row);
  assert.deepEqual(rows, want.rows);
  assert.equal(read.bytes, summary.bytes + want.bytes);
});
