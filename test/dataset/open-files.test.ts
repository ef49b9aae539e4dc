/**
 * Every file a dataset read opens is closed by the time the read returns,
 * throws, or is left early (a `break`, `limit`, a failing file), never by
 * garbage collection: the process's open descriptors (/proc/self/fd) are
 * counted before and after each read, and one read of every kind runs
 * first, so lazily opened descriptors of the runtime are already there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDataset, writeParquet } from '../../src/node/index.js';
import { writeDataset, type Dataset } from '../../src/node/entries/dataset.js';

const FD_DIR = '/proc/self/fd';
const open = () => readdirSync(FD_DIR).length;

/** A read of a dataset, left however it is left. */
type Read = (ds: Dataset) => Promise<unknown>;

const READS: [string, Read][] = [
  ['rows() to the end', async (ds) => { for await (const _ of ds.rows()); }],
  ['rows() left at the first row', async (ds) => { for await (const _ of ds.rows()) break; }],
  ['rowBatches() left at the first batch', async (ds) => { for await (const _ of ds.rowBatches({ batchSize: 7 })) break; }],
  ['readRows({ limit: 5 })', (ds) => ds.readRows({ limit: 5 })],
  ['readRows({ offset: 250, limit: 3 })', (ds) => ds.readRows({ offset: 250, limit: 3 })],
  ['toArrow({ limit: 5 })', (ds) => ds.toArrow({ limit: 5 })],
  ['arrowBatches() left at the first batch', async (ds) => { for await (const _ of ds.arrowBatches()) break; }],
  ['columns() left at the first batch', async (ds) => { for await (const _ of ds.columns()) break; }],
  ['a filtered read', (ds) => ds.readRows({ filter: { column: 'id', op: '>', value: 2990 } })],
  ['fileStats()', (ds) => ds.fileStats()],
  ['scanPlan()', (ds) => ds.scanPlan({ column: 'g', op: '=', value: 1 })],
];

/** Runs `fn` and gives the descriptors it left open (its error, if any, too). */
async function leftOpen(fn: () => Promise<unknown>): Promise<{ leaked: number; error?: unknown }> {
  const before = open();
  let error: unknown;
  try {
    await fn();
  } catch (e) {
    error = e;
  }
  return { leaked: open() - before, error };
}

test('dataset reads close every file they open, whether they end, stop early or fail', { skip: !existsSync(FD_DIR) && 'no /proc/self/fd' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-fds-'));
  try {
    const good = join(dir, 'good');
    await writeDataset(good, Array.from({ length: 3000 }, (_, i) => ({ id: i, g: i % 5, s: `x${i}` })), { partitionBy: ['g'], maxRowsPerFile: 300, rowGroupSize: 100 });
    // A later file lacking a column of the first (the read fails mapping it, after its footer was read for the read).
    const mismatch = join(dir, 'mismatch');
    mkdirSync(mismatch);
    await writeParquet(join(mismatch, 'a.parquet'), [{ id: 1, x: 1 }]);
    await writeParquet(join(mismatch, 'b.parquet'), [{ id: 2 }]);
    // A later file that is not Parquet (the read fails opening it), among many read at once by fileStats.
    const corrupt = join(dir, 'corrupt');
    await writeDataset(corrupt, Array.from({ length: 400 }, (_, i) => ({ id: i, g: i % 20 })), { partitionBy: ['g'] });
    mkdirSync(join(corrupt, 'g=5x'));
    writeFileSync(join(corrupt, 'g=5x', 'bad.parquet'), 'PAR1 not Parquet at all PAR1');

    for (const [, read] of READS) await read(await openDataset(good));
    const leaks: string[] = [];
    for (const [name, read] of READS) {
      for (const [what, path, fails] of [['good', good, false], ['mismatch', mismatch, true], ['corrupt', corrupt, true]] as const) {
        // mismatch and corrupt datasets open (the schema is the first file's) and fail when their bad file is reached.
        const ds = await openDataset(path);
        const { leaked, error } = await leftOpen(() => read(ds));
        if (leaked !== 0) leaks.push(`${name} of ${what}: ${leaked} left open${error ? ` (${(error as Error).message})` : ''}`);
        if (!fails) assert.equal(error, undefined, `${name} of ${what}`);
      }
    }
    // A failing open: unionByName reads every footer at once, one of them bad.
    const { leaked, error } = await leftOpen(() => openDataset(corrupt, { unionByName: true }));
    assert.ok(error, 'a bad footer fails a unionByName open');
    if (leaked !== 0) leaks.push(`openDataset(unionByName) of corrupt: ${leaked} left open`);
    assert.deepEqual(leaks, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
