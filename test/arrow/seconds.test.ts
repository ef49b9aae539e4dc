/**
 * Arrow times and timestamps in seconds, which Parquet has no unit for:
 * written as milliseconds (a TIMESTAMP or TIME every reader knows, as
 * DuckDB shows), read back by `toArrow` in seconds through the stored
 * Arrow schema, each value the one written.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as arrow from 'apache-arrow';
import { BufferSink, CorruptFileError, defineSchema, field, openParquet, ParquetWriter, writeParquet } from '../../src/node/index.js';
import { encodeSchema } from '../../src/arrow/hint.js';
import { DuckFiles } from '../reader/helpers.js';

const duck = await DuckFiles.create();
after(() => duck.close());

/** A column of raw values (seconds) of `type`, every seventh null. */
function column<T extends arrow.DataType>(type: T, values: (number | bigint)[], Values: Int32ArrayConstructor | BigInt64ArrayConstructor): arrow.Vector<T> {
  const n = values.length;
  const valid = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    if (i % 7 === 3) nulls++;
    else valid[i >> 3]! |= 1 << (i & 7);
  }
  const data = (Values as BigInt64ArrayConstructor).from(values as bigint[]);
  return arrow.makeVector(arrow.makeData({ type, length: n, nullCount: nulls, nullBitmap: valid, data } as never)) as arrow.Vector<T>;
}

test('Timestamp(SECOND) and Time32(SECOND) columns read back in seconds, the values written, and DuckDB reads the same instants', async () => {
  const n = 500;
  // Seconds across the epoch, far from it both ways, and a sweep of small ones.
  const secs = Array.from({ length: n }, (_, i) => BigInt((i - 250) * 7_919_393 + (i % 11) * 13));
  const times = Array.from({ length: n }, (_, i) => (i * 173) % 86_400);
  const table = new arrow.Table({
    local: column(new arrow.TimestampSecond(), secs, BigInt64Array),
    utc: column(new arrow.TimestampSecond('UTC'), secs.map((s) => -s), BigInt64Array),
    zoned: column(new arrow.TimestampSecond('Asia/Tokyo'), secs, BigInt64Array),
    t: column(new arrow.TimeSecond(), times, Int32Array),
  });
  const out = join(duck.dir, 'seconds.parquet');
  await writeParquet(out, table, { rowGroupRows: 128 });
  const back = await (await openParquet(out)).toArrow();
  assert.deepEqual(back.schema.fields.map(String), table.schema.fields.map(String));
  const raw = (t: arrow.Table, name: string, i: number): unknown => {
    const v = t.getChild(name)!;
    if (!v.isValid(i)) return null;
    // The chunk holding row i (a row group each, read back).
    for (const data of v.data) {
      if (i < data.length) return (data.values as ArrayLike<unknown>)[data.offset + i];
      i -= data.length;
    }
    throw new Error(`no row ${i}`);
  };
  for (const name of ['local', 'utc', 'zoned', 't']) {
    for (let i = 0; i < n; i++) assert.equal(raw(back, name, i), raw(table, name, i), `${name}, row ${i}`);
  }
  // DuckDB reads the file's own types, milliseconds, as the same instants and times of day.
  const r = await duck.duck.runAndReadAll(`SELECT epoch_ms("local") AS l, epoch_ms("utc") AS u, epoch_ms("zoned") AS z, (extract('epoch' FROM "t"))::BIGINT AS t FROM '${out}'`);
  const rows = r.getRowObjects();
  assert.equal(rows.length, n);
  rows.forEach((row, i) => {
    const ms = (name: string) => (raw(table, name, i) === null ? null : BigInt(raw(table, name, i) as bigint) * 1000n);
    assert.equal(row.l, ms('local'), `DuckDB local, row ${i}`);
    assert.equal(row.u, ms('utc'), `DuckDB utc, row ${i}`);
    assert.equal(row.z, ms('zoned'), `DuckDB zoned, row ${i}`);
    assert.equal(row.t, raw(table, 't', i) === null ? null : BigInt(raw(table, 't', i) as number), `DuckDB time, row ${i}`);
  });
});

test('milliseconds that are not whole seconds under a stored schema of seconds are refused, not cut', async () => {
  for (const [decl, type, value] of [
    [field.timestamp('MILLIS'), new arrow.TimestampSecond(), 1_500n],
    [field.time('MILLIS'), new arrow.TimeSecond(), 1_500],
  ] as const) {
    const sink = new BufferSink();
    const stored = new arrow.Schema([new arrow.Field('v', type, true)]);
    const w = await ParquetWriter.open<unknown>(sink, defineSchema({ v: decl }), { metadata: { 'ARROW:schema': encodeSchema(arrow, stored) } });
    await w.writeMany([{ v: null }, { v: value }]);
    await w.close();
    await assert.rejects((await openParquet(sink.bytes())).toArrow(), (e: unknown) => e instanceof CorruptFileError && /1500 ms is not a whole second/.test(e.message) && e.context.column === 'v', String(type));
  }
});
