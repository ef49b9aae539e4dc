import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chunkPadding } from '../../src/parquet/chunk-locator.js';

// PARQUET-816: parquet-mr before 1.2.9 left the dictionary page header out of
// total_compressed_size; parquet-java's own reader reads such chunks with 100
// bytes more, and so do we. Version strings as those writers put them.
test('chunks of parquet-mr before 1.2.9, or of a build without a version, are read 100 bytes further', () => {
  for (const old of ['parquet-mr', 'parquet-mr version 1.2.8', 'parquet-mr version 1.1.0 (build abc)', 'parquet-mr version 0.9.9']) {
    assert.equal(chunkPadding(old), 100, old);
  }
  for (const fixed of ['parquet-mr version 1.2.9', 'parquet-mr version 1.10.1 (build a89df8f9932b6ef6633d06069e50c9b7970bebd1)', 'parquet-mr version 2.0.0', 'parquet-cpp-arrow version 14.0.0', 'DuckDB version v1.1.3', undefined, '']) {
    assert.equal(chunkPadding(fixed), 0, String(fixed));
  }
});
