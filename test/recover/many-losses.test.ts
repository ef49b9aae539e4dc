/**
 * A Parquet check gathers its losses one by one, not spread into push's
 * arguments: a chunk of 200,000 one-row pages, every page's CRC broken,
 * loses 200,000 pages, more than the stack holds arguments, and both the
 * row group's gathering (salvage.ts) and the report's (recover.ts)
 * overflowed it with an untyped RangeError (issue 21).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, ParquetWriter, defineSchema, field } from '../../src/index.js';
import { checkParquet } from '../../src/entries/recover.js';

test('a check of 200,000 damaged pages reports each of them', { timeout: 120_000 }, async () => {
  const rows = 200_000;
  const mark = 0x5a5a5a5a;
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, defineSchema({ v: field.int32().required() }), {
    pageRowLimit: 1, dictionary: false, statistics: false, pageIndex: false, checksums: true, codec: 'UNCOMPRESSED', rowGroupRows: rows,
  });
  await w.writeColumns({ v: new Int32Array(rows).fill(mark) });
  await w.close();
  const bytes = sink.bytes().slice();
  // Each page's data is its one plain value: change a byte of every one, so its CRC fails.
  let damaged = 0;
  for (let i = 4; i + 4 <= bytes.length; i++) {
    if (bytes[i] === 0x5a && bytes[i + 1] === 0x5a && bytes[i + 2] === 0x5a && bytes[i + 3] === 0x5a) {
      bytes[i + 3] = 0x5b;
      damaged++;
      i += 3;
    }
  }
  assert.equal(damaged, rows);
  const r = await checkParquet(bytes);
  assert.equal(r.rowsLost, rows);
  assert.equal(r.losses.length, rows);
  assert.ok(r.losses.every((l) => l.page !== undefined && l.rows.end - l.rows.start === 1));
});
