/**
 * One name per concept (docs/decisions/one-name-per-concept.md): the names
 * the renames replaced are gone from the entry points and the classes, not
 * kept as aliases. Exported types leave nothing at run time, so those are
 * checked by the compiler (the `@ts-expect-error` lines fail typecheck
 * while the name exists).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ParquetWriter } from '../src/parquet/write/writer.js';
import { DatasetWriter } from '../src/dataset/write.js';
import { Dataset } from '../src/dataset/dataset.js';
import { TrevniReader, type TrevniRowsOptions } from '../src/trevni/reader.js';
import { TrevniWriter } from '../src/trevni/writer.js';
import { TrevniDraftWriter } from '../src/trevni/draft/writer.js';
import { AvroTrevniWriter } from '../src/trevni/avro.js';
import { RedElmWriter } from '../src/redelm/writer.js';
import { BufferSink } from '../src/io/sink.js';
import { ENTRIES } from './docs/exports.js';
import { ParquetReader } from '../src/parquet/reader.js';
import { ParquetFile } from '../src/parquet/file.js';
import { writeRecords } from '../src/parquet/write/write-records.js';

// @ts-expect-error TrevniLoss is Loss now
import type { TrevniLoss } from '../src/entries/trevni.js';
// @ts-expect-error TrevniRecoverReport is RecoverReport now
import type { TrevniRecoverReport } from '../src/node/entries/trevni.js';
// @ts-expect-error LossBase is Loss now
import type { LossBase } from '../src/loss.js';
// @ts-expect-error TrevniSalvage is gone: salvage (parquetry/recover) reads every format
import type { TrevniSalvage } from '../src/entries/trevni.js';
// @ts-expect-error OpenedTrevniForSalvage is gone: salvage gives a Salvage for every format
import type { OpenedTrevniForSalvage } from '../src/node/entries/trevni.js';
// @ts-expect-error SalvagedTrevniRow is gone: salvage yields a SalvageBatch for every format
import type { SalvagedTrevniRow } from '../src/entries/trevni.js';
// @ts-expect-error SalvagedRowGroup is gone: salvage yields a SalvageBatch for every format
import type { SalvagedRowGroup } from '../src/node/entries/recover.js';
// @ts-expect-error OpenedForSalvage is gone: salvage gives a Salvage for every format
import type { OpenedForSalvage } from '../src/entries/recover.js';
import type { ConvertReport, ConvertProgress } from '../src/node/entries/convert.js';
import type { FileStats } from '../src/node/entries/dataset.js';
import type { OpenTableOptions } from '../src/node/index.js';
import type { RecoverReport, SalvageOptions } from '../src/node/entries/recover.js';

/** Names no entry point exports any more, values or types. */
const OLD = ['TrevniLoss', 'TrevniRecoverReport', 'LossBase', 'rowCount', 'rowsWritten', 'maxPageBytes', 'maxBlockBytes', 'maxSectionBytes', 'salvageTrevni', 'TrevniSalvage',
  // One salvage read for every format: `salvage`.
  'openForSalvage', 'salvageRowGroups', 'openTrevniForSalvage', 'salvageTrevniRows'];

test('the entry points export none of the old names', async () => {
  assert.ok(ENTRIES.length > 10, 'every entry point of package.json\'s exports');
  for (const entry of ENTRIES) {
    // By its .js name, as the sources import each other: the suite runs compiled (scripts/compiled-tree.mjs), tsx maps it to the .ts.
    const keys = Object.keys(await import(join('..', entry.replace(/\.ts$/, '.js'))));
    assert.ok(keys.length > 0, `${entry} exports ${keys.length} names`);
    assert.deepEqual(keys.filter((k) => OLD.includes(k)), [], entry);
  }
});

test('readers and writers count rows as numRows, with no rowCount or rowsWritten beside it', async () => {
  for (const cls of [ParquetWriter, DatasetWriter, TrevniWriter, TrevniDraftWriter, AvroTrevniWriter, RedElmWriter]) {
    assert.ok(Object.getOwnPropertyDescriptor(cls.prototype, 'numRows')?.get, `${cls.name}.numRows`);
    for (const old of ['rowCount', 'rowsWritten']) assert.ok(!(old in cls.prototype), `${cls.name}.${old}`);
  }
  assert.ok(!('rowCount' in Dataset.prototype), 'Dataset.rowCount()');
  const bytes = new Uint8Array(readFileSync(join('..', 'shared', 'trevni-corpus', 'arrays.trv')));
  const reader = await TrevniReader.open(bytes);
  assert.equal(typeof reader.numRows, 'number');
  assert.ok(!('rowCount' in reader));
  for (const b of await reader.blocks(0)) assert.ok('numRows' in b && !('rowCount' in b));
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, [{ name: 'x', type: 'int' }]);
  await w.writeRow([1]);
  assert.equal(w.numRows, 1);
  await w.close();
  assert.equal((await TrevniReader.open(sink.bytes())).numRows, 1);
});

test('the renamed option and report fields are the only spelling the types take', () => {
  // Compile-time: each line fails typecheck if the old field comes back or the new one goes.
  const rows: TrevniRowsOptions = { offset: 1 };
  // @ts-expect-error Trevni's first row is offset, not from
  const from: TrevniRowsOptions = { from: 1 };
  const open: OpenTableOptions = { maxDecompressedBytes: 1 };
  // @ts-expect-error one size limit: maxDecompressedBytes
  const page: OpenTableOptions = { maxPageBytes: 1 };
  const stats: Pick<FileStats, 'numRows'> = { numRows: 1 };
  const report: Pick<ConvertReport, 'numRows'> & Pick<ConvertProgress, 'numRows'> & Pick<RecoverReport, 'numRows'> = { numRows: 1 };
  assert.ok(rows && from && open && page && stats && report);
  const whole: SalvageOptions = { wholeOnly: true };
  // @ts-expect-error one name for only whole units: wholeOnly
  const skip: SalvageOptions = { skipDamagedRowGroups: true };
  assert.ok(whole && skip);
  const unused: [TrevniLoss?, TrevniRecoverReport?, LossBase?, TrevniSalvage?, OpenedTrevniForSalvage?, SalvagedTrevniRow?, SalvagedRowGroup?, OpenedForSalvage?] = [];
  assert.equal(unused.length, 0);
});

test('inspection is the ParquetFile\'s, not the reader\'s: ParquetReader keeps reading only', async () => {
  const sink = new BufferSink();
  await writeRecords(sink, [{ id: 1, s: 'a' }]);
  const reader = await ParquetReader.open(sink.bytes());
  const moved = ['metadata', 'bytes', 'locator', 'decryptor', 'locate', 'name', 'selectLeaves', 'keyValueMetadata', 'readColumnIndex', 'readOffsetIndex', 'pageIndex', 'readBloomFilter', 'readDictionary'];
  for (const name of moved) {
    assert.ok(!(name in reader), `ParquetReader.${name}`);
    assert.ok(name in reader.file, `ParquetFile.${name}`);
  }
  for (const name of ['open', 'fromSource', 'fromMetadata']) assert.equal(typeof (ParquetFile as unknown as Record<string, unknown>)[name], 'function', `ParquetFile.${name}`);
  assert.ok(reader.file instanceof ParquetFile);
  assert.deepEqual(await reader.readRows({ int64: 'number' }), [{ id: 1, s: 'a' }]);
});
