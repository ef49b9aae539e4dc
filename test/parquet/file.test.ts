/**
 * `ParquetFile`: the opened file that inspection reads and a reader reads
 * through. Every input opens the same file; one open serves both, so a
 * reader's filtered read and the file's index API share what was fetched;
 * closing either closes the one source.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferSink, bufferSource, writeRecords } from '../../src/node/index.js';
import { ParquetFile, openParquetFile } from '../../src/node/entries/inspect.js';
import { ParquetReader } from '../../src/parquet/reader.js';

const ROWS = Array.from({ length: 1000 }, (_, i) => ({ id: i, s: `v${i % 7}` }));

async function sample(): Promise<Uint8Array> {
  const sink = new BufferSink();
  await writeRecords(sink, ROWS, { pageRowLimit: 100, metadata: { made: 'here', other: '' }, bloomFilters: { s: true } });
  return sink.bytes();
}

/** A source over `bytes` that counts its requests and closes. */
function counting(bytes: Uint8Array) {
  const count = { requests: 0, closed: 0 };
  return {
    count,
    source: {
      byteLength: bytes.length,
      async read(offset: number, length: number) {
        count.requests++;
        return bytes.slice(offset, offset + length);
      },
      async close() {
        count.closed++;
      },
    },
  };
}

/** What inspection gives of a file, to compare opens by. */
async function described(file: ParquetFile) {
  return {
    rows: file.numRows,
    groups: file.metadata.rowGroups.length,
    kv: [...file.keyValueMetadata],
    pages: await file.pageIndex(0, 'id'),
    dictionary: await file.readDictionary(0, 's'),
    bloom: [(await file.readBloomFilter(0, 's'))!.mightContain('v3'), (await file.readBloomFilter(0, 's'))!.mightContain('absent')],
  };
}

test('every input opens the same file: path, bytes, ArrayBuffer, Blob, source, and a reader\'s own', async () => {
  const bytes = await sample();
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-file-'));
  try {
    const path = join(dir, 'sample.parquet');
    writeFileSync(path, bytes);
    const files = [
      await openParquetFile(path), await ParquetFile.open(bytes), await ParquetFile.open(bytes.slice().buffer),
      await ParquetFile.open(new Blob([bytes.slice().buffer])), await ParquetFile.fromSource(bufferSource(bytes)), (await ParquetReader.open(bytes)).file,
    ];
    const expected = await described(files[0]!);
    assert.equal(expected.rows, ROWS.length);
    assert.deepEqual(expected.kv, [['made', 'here'], ['other', '']]);
    assert.equal(expected.pages?.length, 10);
    assert.deepEqual(expected.pages?.map((p) => [p.firstRow, p.min, p.max]), Array.from({ length: 10 }, (_, i) => [i * 100, BigInt(i * 100), BigInt(i * 100 + 99)]));
    assert.deepEqual(expected.bloom, [true, false]);
    for (const file of files) {
      assert.deepEqual(await described(file), expected);
      await file.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('one open serves the reader and the inspection: the page index a filtered read fetched is the one the file gives, fetched once', async () => {
  const bytes = await sample();
  const { metadata } = await ParquetFile.open(bytes);
  // From the metadata: nothing is held from a tail read, so every index read is a request.
  const { source, count } = counting(bytes);
  const file = ParquetFile.fromMetadata(source, metadata);
  const reader = new ParquetReader(file);
  const rows = await reader.readRows({ filter: { column: 'id', op: '>=', value: 990 }, int64: 'number' });
  assert.deepEqual(rows, ROWS.slice(990));
  const before = count.requests;
  const [ci, oi] = await Promise.all([file.readColumnIndex(0, 'id'), file.readOffsetIndex(0, 'id')]);
  assert.ok(ci && oi);
  assert.equal(oi.pageLocations.length, 10);
  assert.equal(count.requests, before, 'the index the read fetched is not fetched again');
  await reader.close();
  assert.equal(count.closed, 1, 'closing the reader closes its file\'s source');
});

test('the file refuses what it does not have, naming it: a row group, a column', async () => {
  const file = await ParquetFile.open(await sample());
  await assert.rejects(file.pageIndex(1, 'id'), /row group 1 does not exist \(the file has 1\)/);
  await assert.rejects(file.readBloomFilter(0, 'nope'), /no column "nope"/);
  await assert.rejects(file.readDictionary(-1, 's'), /row group -1 does not exist/);
  assert.equal(await file.readBloomFilter(0, 'id'), null);
  assert.deepEqual(file.locate(4), { offset: 4 });
});
