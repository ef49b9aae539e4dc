/**
 * Rows with no column data (docs/decisions/rows-with-no-columns.md): a
 * Parquet file with no leaf column, or only an empty group, whose chunkless
 * row group claims 2^40 rows, yields such rows only up to MAX_EMPTY_ROWS and
 * otherwise ends in one LimitError before the first row; the count stays
 * readable. Read in a child process: before the bound, these reads never ended.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { LimitError, openParquet } from '../../src/node/index.js';
import { MAX_EMPTY_ROWS } from '../../src/shred/empty-rows.js';
import { readInChild } from './read-in-child.js';

const FUZZ = join('..', 'shared', 'fuzz');
const FILES = ['repro/hang-parquet-zero-columns.parquet', 'repro/hang-parquet-empty-struct.parquet', 'hostile/pq-zero-columns-2p40-rows.parquet', 'hostile/pq-empty-struct-2p40-rows.parquet'];

for (const f of FILES) {
  test(`${f}: 2^40 rows of nothing end in a LimitError, and a bounded read gets its rows`, async () => {
    const file = join(FUZZ, f);
    const all = readInChild(file);
    assert.equal(all.result, 'typed', JSON.stringify(all));
    assert.equal(all.error, 'LimitError');
    assert.equal(all.rows, 0, 'refused before the first row');
    assert.equal(all.context?.file, file);
    assert.match(all.message!, /1099511627776 rows/);
    const some = readInChild(file, { limit: 3 });
    assert.deepEqual([some.result, some.rows, some.first], ['rows', 3, ['{}', '{}', '{}']]);

    const reader = await openParquet(file);
    assert.equal(reader.numRows, 2 ** 40);
    assert.equal((await reader.readRows({ offset: 2 ** 40 - 2 })).length, 2);
    assert.equal((await reader.readRows({ limit: MAX_EMPTY_ROWS })).length, MAX_EMPTY_ROWS);
    await assert.rejects(reader.readRows({ limit: MAX_EMPTY_ROWS + 1 }), LimitError);
    // It names the row group whose num_rows is the claim.
    await assert.rejects(reader.readRows(), (e) => e instanceof LimitError && e.context.rowGroup === 0);
  });
}
