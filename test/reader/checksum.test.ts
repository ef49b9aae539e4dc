/** Page CRC-32 checks: a ChecksumError naming column and page by default; rows with verifyChecksums: false. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChecksumError, openParquet, type OpenOptions, type ReadInput, type ReadOptions } from '../../src/node/index.js';
import { DATA, expectedLines, lines } from './helpers.js';

async function read(input: ReadInput | string, options: OpenOptions = {}, readOptions: ReadOptions = {}): Promise<string[]> {
  const reader = await openParquet(input, options);
  try {
    return await lines(reader, readOptions);
  } finally {
    await reader.close();
  }
}

function isChecksum(column: string, page: number) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof ChecksumError, `expected a ChecksumError, got ${(e as Error)?.stack}`);
    assert.equal(e.code, 'CHECKSUM');
    assert.equal(e.context.column, column);
    assert.equal(e.context.page, page);
    assert.equal(e.context.rowGroup, 0);
    assert.match(e.message, new RegExp(`column ${column}\\b`));
    assert.match(e.message, new RegExp(`page ${page}\\b`));
    return true;
  };
}

const corrupt = join(DATA, 'datapage_v1-corrupt-checksum.parquet');

test('datapage_v1-corrupt-checksum: column a page 0 is named by default', async () => {
  await assert.rejects(read(corrupt), isChecksum('a', 0));
  await assert.rejects(read(corrupt, { verifyChecksums: true }), isChecksum('a', 0));
});

test('datapage_v1-corrupt-checksum: column b alone fails at its page 1', async () => {
  await assert.rejects(read(corrupt, {}, { columns: ['b'] }), isChecksum('b', 1));
});

test('datapage_v1-corrupt-checksum: columns() checks too', async () => {
  const reader = await openParquet(corrupt);
  try {
    await assert.rejects(async () => {
      for await (const _ of reader.columns()) { /* drain */ }
    }, isChecksum('a', 0));
  } finally {
    await reader.close();
  }
});

test('datapage_v1-corrupt-checksum: verifyChecksums: false reads the rows', async () => {
  const got = await read(corrupt, { verifyChecksums: false });
  assert.equal(got.length, 5120);
  assert.deepEqual(got, expectedLines('datapage_v1-corrupt-checksum.parquet'));
});

test('rle-dict-uncompressed-corrupt-checksum: the dictionary page (page 0) is named; unchecked it reads', async () => {
  const file = join(DATA, 'rle-dict-uncompressed-corrupt-checksum.parquet');
  await assert.rejects(read(file), isChecksum('long_field', 0));
  await assert.rejects(read(file, {}, { columns: ['binary_field'] }), isChecksum('binary_field', 0));
  assert.deepEqual(await read(file, { verifyChecksums: false }), expectedLines('rle-dict-uncompressed-corrupt-checksum.parquet'));
});

for (const name of ['datapage_v1-uncompressed-checksum', 'datapage_v1-snappy-compressed-checksum', 'plain-dict-uncompressed-checksum', 'rle-dict-snappy-checksum']) {
  test(`${name}: correct CRCs read with checks on`, async () => {
    assert.deepEqual(await read(join(DATA, `${name}.parquet`)), expectedLines(`${name}.parquet`));
  });
}

test('a byte flipped inside a checksummed page is a ChecksumError, and unchecked a different value', async () => {
  const name = 'datapage_v1-uncompressed-checksum.parquet';
  const bytes = new Uint8Array(readFileSync(join(DATA, name)));
  const reader = await openParquet(bytes);
  const meta = reader.file.metadata.rowGroups[0]!.columns[0]!.metaData!;
  await reader.close();
  const bad = bytes.slice();
  // 200 bytes into column a's first page: past its header, inside the INT32 values.
  bad[meta.dataPageOffset + 200]! ^= 0x01;
  await assert.rejects(read(bad), isChecksum('a', 0));
  const unchecked = await read(bad, { verifyChecksums: false });
  const good = expectedLines(name);
  assert.equal(unchecked.length, good.length);
  const diff = unchecked.filter((l, i) => l !== good[i]);
  assert.equal(diff.length, 1, 'exactly one row changes');
});
