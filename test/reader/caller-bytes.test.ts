/**
 * A read never changes the bytes it is given. Pages are decoded in place
 * when the decoder owns them, and copies are made with `slice`; a Node
 * Buffer (what readFileSync returns) has a `slice` that makes a view, so
 * before inputs were seen as plain Uint8Arrays the first read of an
 * uncompressed byte-array page compacted the caller's Buffer, and the second
 * read of it failed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { openParquet } from '../../src/node/index.js';

const DATA = join('..', 'shared', 'corpus', 'parquet-testing', 'data');
const FILES = ['byte_array_decimal.parquet', 'datapage_v1-uncompressed-checksum.parquet', 'alltypes_plain.snappy.parquet',
  'datapage_v2.snappy.parquet', 'concatenated_gzip_members.parquet', 'delta_length_byte_array.parquet', 'nested_lists.snappy.parquet'];

async function rows(bytes: Uint8Array): Promise<string[]> {
  const reader = await openParquet(bytes);
  const plan = reader.plan();
  const out: string[] = [];
  for await (const row of reader.rows()) out.push(canonicalRow(plan, row));
  await reader.readRows();
  for await (const _ of reader.columns()) void _;
  await reader.close();
  return out;
}

for (const name of FILES) {
  test(`${name}: reading a Buffer leaves it as it was, and reads the same twice`, async () => {
    const buffer = readFileSync(join(DATA, name));
    const before = Uint8Array.from(buffer);
    const first = await rows(buffer);
    assert.ok(first.length > 0);
    assert.deepEqual(Uint8Array.from(buffer), before, 'the caller\'s bytes changed');
    assert.deepEqual(await rows(buffer), first);
  });
}
