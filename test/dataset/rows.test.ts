/**
 * `Dataset.rows()` serves rows out of the files' batches by hand (not an
 * async generator): overlapping `next()` calls, and a consumer that stops
 * early, behave as they do on an async generator.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { nodeFileSystem, type DatasetFileSystem } from '../../src/node/entries/dataset.js';
import { openDataset } from '../../src/node/index.js';
import { useDuck } from './helpers.js';

let dir = '';
let duck: DuckDBConnection;
useDuck((files) => ({ dir, duck } = files));

async function dataset(name: string): Promise<string> {
  const out = join(dir, name);
  await duck.run(`COPY (SELECT i AS id, i % 3 AS g FROM range(30) t(i) ORDER BY g, id) TO '${out}' (FORMAT PARQUET, PARTITION_BY (g))`);
  return out;
}

test('rows(): overlapping next() calls each get the next row, none lost, partition values on each', async () => {
  const ds = await openDataset(await dataset('overlap'));
  const it = ds.rows({ batchSize: 4 });
  const results = await Promise.all(Array.from({ length: 32 }, () => it.next()));
  const want = [0, 1, 2].flatMap((g) => Array.from({ length: 10 }, (_, k) => ({ id: BigInt(3 * k + g), g: BigInt(g) })));
  assert.deepEqual(results.filter((x) => !x.done).map((x) => x.value), want);
  assert.equal(results.filter((x) => x.done).length, 2);
});

test('rows(): a consumer that stops early closes the file being read', async () => {
  const inner = nodeFileSystem();
  let open = 0;
  const fs: DatasetFileSystem = { ...inner, open: async (p) => {
    const s = await inner.open(p);
    open++;
    return { ...s, byteLength: s.byteLength, name: s.name, read: (o, l) => s.read(o, l), close: async () => (open--, s.close?.()) };
  } };
  const ds = await openDataset(await dataset('early'), { fileSystem: fs });
  let n = 0;
  for await (const _ of ds.rows({ batchSize: 4 })) if (++n === 13) break;
  assert.equal(n, 13);
  assert.equal(open, 0);
});
