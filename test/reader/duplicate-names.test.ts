/**
 * Files whose schema has two siblings of one name (`a` a LIST and `a` an
 * INT32) are refused at open with a located CorruptFileError: read as rows
 * keyed by name, one of the two could only be dropped (docs/decisions/duplicate-sibling-names.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptFileError, openParquet } from '../../src/node/index.js';

const FUZZ = join('..', 'shared', 'fuzz');

for (const f of ['repro/untyped-duplicate-names.parquet', 'repro/untyped-886f90f689.parquet', 'hostile/pq-duplicate-names.parquet']) {
  test(`${f}: refused at open, naming the file, the column and the footer's offset`, async () => {
    const file = join(FUZZ, f);
    const bytes = readFileSync(file);
    const footer = bytes.length - 8 - bytes.readUInt32LE(bytes.length - 8);
    await assert.rejects(openParquet(file), (e) => e instanceof CorruptFileError && e.context.file === file && e.context.column === 'a' && e.context.offset === footer && /two fields named "a"/.test(e.message));
  });
}
