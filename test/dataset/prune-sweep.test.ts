/**
 * Discovery pruned by a filter given at open never loses a row: over a
 * two-level Hive directory whose second key mixes integers, dates, text and
 * null (VARCHAR when every value is listed), generated filters on the keys
 * (comparisons, IN, IS NULL, LIKE, NOT, AND, OR, literals of each type) are
 * read through a pruned open and through an unpruned one (every file
 * listed, the filter applied when read; the unpruned reader is checked
 * against DuckDB in duckdb-hive.test.ts). With the key types pinned to the
 * unpruned ones, both give the same rows, or fail alike; unpinned, where the
 * pruned listing types every key as the full one does, the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDataset, writeParquet, type Filter } from '../../src/node/index.js';
import { type PartitionType } from '../../src/node/entries/dataset.js';

const A = ['0', '1', '2', '3', '__HIVE_DEFAULT_PARTITION__'];
const B = ['1', '7', 'x', 'p%3Dq', '2024-01-02', '__HIVE_DEFAULT_PARTITION__', '05'];

function filters(): Filter[] {
  const leaves: Filter[] = [];
  const literals: Record<'a' | 'b', unknown[]> = { a: [0, 2, 5, '1', null], b: [1, 7, 'x', 'p=q', '05', '2024-01-02', null] };
  for (const column of ['a', 'b'] as const) {
    for (const value of literals[column]) {
      for (const op of ['=', '!=', '<', '>='] as const) leaves.push({ column, op, value });
    }
    leaves.push({ column, op: 'in', values: literals[column].slice(0, 3) });
    leaves.push({ column, op: 'is null' }, { column, op: 'is not null' });
  }
  leaves.push({ column: 'b', op: 'like', value: '%x%' }, { column: 'b', op: 'starts_with', value: '2024' });
  const out: Filter[] = [...leaves, ...leaves.map((f) => ({ not: f }))];
  for (let i = 0; i < leaves.length; i += 3) {
    const [f, g] = [leaves[i]!, leaves[(i * 7 + 5) % leaves.length]!];
    out.push({ and: [f, g] }, { or: [f, g] }, { and: [f, { column: 'id', op: '<', value: 30 }] });
  }
  return out;
}

/** Row ids a read gives, or how it fails. */
async function outcome(root: string, filter: Filter, pruned: boolean, partitionTypes?: Record<string, PartitionType>): Promise<{ ids?: number[]; types?: string; error?: string }> {
  try {
    const ds = await openDataset(root, { ...(pruned ? { filter } : {}), ...(partitionTypes ? { partitionTypes } : {}) });
    const rows = await ds.readRows({ filter });
    return { ids: rows.map((r) => Number(r.id)).sort((x, y) => x - y), types: ds.partitionColumns.map((c) => `${c.name}:${c.type}`).join() };
  } catch (e) {
    return { error: (e as Error).constructor.name };
  }
}

test('a pruned listing keeps every row the unpruned read keeps, for generated filters on the partition keys', async () => {
  const root = mkdtempSync(join(tmpdir(), 'parquetry-prune-sweep-'));
  try {
    let id = 0;
    for (const a of A) {
      for (const b of B) {
        mkdirSync(join(root, `a=${a}`, `b=${b}`), { recursive: true });
        await writeParquet(join(root, `a=${a}`, `b=${b}`, 'p.parquet'), [{ id: id++ }, { id: id++ }]);
      }
    }
    const full = await openDataset(root);
    const pinned = Object.fromEntries(full.partitionColumns.map((c) => [c.name, c.type]));
    assert.deepEqual(pinned, { a: 'BIGINT', b: 'VARCHAR' });
    let compared = 0;
    let rows = 0;
    for (const filter of filters()) {
      const what = JSON.stringify(filter);
      const want = await outcome(root, filter, false, pinned);
      const got = await outcome(root, filter, true, pinned);
      assert.deepEqual(got.error ?? got.ids, want.error ?? want.ids, `pinned ${what}`);
      rows += want.ids?.length ?? 0;
      const loose = await outcome(root, filter, true);
      if (loose.types === want.types) {
        assert.deepEqual(loose.error ?? loose.ids, want.error ?? want.ids, `unpinned ${what}`);
        compared++;
      }
    }
    assert.ok(rows > 0 && compared > 0, `${rows} rows, ${compared} unpinned comparisons`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
