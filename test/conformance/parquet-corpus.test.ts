/**
 * Conformance: every corpus file with expected rows reads to exactly those
 * rows in canonical JSON; every bad_data file does what the manifest says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChecksumError, CorruptFileError, MissingKeyError, ParquetryError, openParquet } from '../../src/node/index.js';
import { CORPUS, canonical, expectedText, firstDifference, listDir, manifest } from './corpus.js';
import { join } from 'node:path';

const entries = manifest();
/** Files whose pages carry deliberately wrong CRCs: by default they must fail; unchecked, they read to the expected rows. */
const CORRUPT_CRC = /corrupt-checksum/;

for (const entry of entries.filter((e) => e.expected)) {
  test(`reads ${entry.path} exactly`, async () => {
    const expected = expectedText(entry);
    if (CORRUPT_CRC.test(entry.path)) {
      await assert.rejects(canonical(entry.path), (e: unknown) => e instanceof ChecksumError && e.context.page !== undefined && e.context.column !== undefined);
      const actual = await canonical(entry.path, { verifyChecksums: false });
      assert.ok(actual === expected, firstDifference(actual, expected));
      return;
    }
    const actual = await canonical(entry.path);
    assert.ok(actual === expected, firstDifference(actual, expected));
  });
}

test('every bad_data file is known to the manifest', () => {
  const known = new Set(entries.map((e) => e.path));
  const files = listDir('parquet-testing/bad_data').filter((f) => f.endsWith('.parquet'));
  assert.ok(files.length > 0);
  for (const f of files) assert.ok(known.has(`parquet-testing/bad_data/${f}`), `bad_data/${f} has no manifest entry: decide what it must do`);
});

for (const entry of entries.filter((e) => e.path.includes('/bad_data/') && !e.expected)) {
  test(`refuses ${entry.path} with a typed error`, async () => {
    assert.match(entry.must ?? '', /typed error/);
    await assert.rejects(canonical(entry.path), (e: unknown) => {
      assert.ok(e instanceof ParquetryError, `not a ParquetryError: ${(e as Error)?.stack}`);
      return true;
    });
  });
}

test('ARROW-GH-41317: the wrong element type of a required list is named, not called missing', async () => {
  await assert.rejects(canonical('parquet-testing/bad_data/ARROW-GH-41317.parquet'), (e: unknown) => {
    assert.ok(e instanceof CorruptFileError, String(e));
    assert.match(e.message, /ColumnMetaData: required field encodings \(id 2\) is LIST<I16> where LIST<I32> is expected/);
    assert.equal(e.context.offset, 49313);
    return true;
  });
});

// Read with keys in test/parquet/encryption.test.ts; without them, each says a key is needed.
for (const entry of entries.filter((e) => e.path.endsWith('.encrypted'))) {
  test(`says ${entry.path} needs a key`, async () => {
    await assert.rejects(canonical(entry.path), (e: unknown) => e instanceof MissingKeyError && /key/i.test(e.message));
  });
}

test('large_string_map.brotli.parquet ends in a clear error or rows, never a crash', async () => {
  const reader = await openParquet(join(CORPUS, 'parquet-testing/data/large_string_map.brotli.parquet'));
  try {
    let n = 0;
    for await (const _ of reader.rows()) n++;
    assert.equal(n, reader.numRows);
  } catch (e) {
    assert.ok(e instanceof ParquetryError, `not a ParquetryError: ${(e as Error)?.stack}`);
    assert.match((e as Error).message, /GiB|limit|large/i);
  } finally {
    await reader.close();
  }
});
