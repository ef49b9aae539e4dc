/**
 * The Arrow schema a writer stores under `ARROW:schema` (arrow-rs, pyarrow,
 * parquetry) read as arrow-rs (parquet-wasm) reads it: each of its hint rules
 * on a Parquet file whose footer carries a chosen Arrow schema, a file
 * arrow-rs wrote itself, and the round trip of a table whose types Parquet
 * has no place for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as wasm from 'parquet-wasm';
import * as arrow from 'apache-arrow';
import { BufferSink, CorruptFileError, LimitError, defineSchema, field, openParquet, ParquetWriter, writeParquet } from '../../src/node/index.js';
import type { AnyField } from '../../src/schema/builder.js';
import { encodeSchema } from '../../src/arrow/hint.js';
import { show } from '../reader/helpers.js';
import { assertSameTable, norm } from './compare.js';

const arrowRs = (bytes: Uint8Array) => arrow.tableFromIPC(wasm.readParquet(bytes).intoIPCStream());
const F = (name: string, type: arrow.DataType, nullable = true) => new arrow.Field(name, type, nullable);

/** The exact type text of every field (Dictionary index types included), and its values. */
function assertExact(ours: arrow.Table, theirs: arrow.Table, label: string): void {
  assertSameTable(ours, theirs, label);
  // Less the INTERVAL departure assertSameTable allows.
  const exact = (t: arrow.Table) => t.schema.fields.filter((f) => !/Interval<DAY_TIME>/.test(String(theirs.schema.fields.find((x) => x.name === f.name)))).map(String);
  assert.deepEqual(exact(ours), exact(theirs), label);
}

test('each rule of the stored Arrow schema is applied as arrow-rs applies it, and a hint that does not fit is ignored', async () => {
  const n = 300;
  const columns: [string, AnyField, (i: number) => unknown, arrow.Field][] = [
    ['tz', field.int64(), (i) => BigInt(i) * 1000n, F('tz', new arrow.TimestampSecond('America/New_York'))],
    ['ts32', field.int32(), (i) => i, F('ts32', new arrow.TimestampMillisecond())],
    ['zone', field.timestamp('MILLIS', { utc: true }), (i) => BigInt(i), F('zone', new arrow.TimestampMillisecond('Asia/Tokyo'))],
    ['t32', field.int32(), (i) => i, F('t32', new arrow.TimeSecond())],
    ['t64', field.int64(), (i) => BigInt(i), F('t64', new arrow.TimeNanosecond())],
    ['dur', field.int64(), (i) => BigInt(i - 5), F('dur', new arrow.DurationMicrosecond())],
    ['d64', field.int64(), (i) => BigInt(i) * 86_400_000n, F('d64', new arrow.DateMillisecond())],
    ['d32', field.date(), (i) => i - 100, F('d32', new arrow.DateMillisecond())],
    ['int96', field.int96(), (i) => BigInt(i) * 1_234_567n - 999n, F('int96', new arrow.TimestampMicrosecond())],
    ['large', field.string(), (i) => (i % 9 ? `s${i}` : null), F('large', new arrow.LargeUtf8())],
    ['lbin', field.binary(), (i) => Uint8Array.of(i & 255), F('lbin', new arrow.LargeBinary())],
    ['text', field.binary(), (i) => new TextEncoder().encode(`b${i}`), F('text', new arrow.Utf8())],
    ['ym', field.interval(), (i) => ({ months: i, days: 2, millis: 3 }), F('ym', new arrow.IntervalYearMonth())],
    ['dt', field.interval(), (i) => ({ months: 1, days: i, millis: i * 7 }), F('dt', new arrow.IntervalDayTime())],
    ['dec', field.decimal(10, 2), (i) => `${i - 150}.25`, F('dec', new arrow.Decimal(2, 10, 256))],
    ['cat', field.string(), (i) => (i % 7 ? `c${i % 3}` : null), F('cat', new arrow.Dictionary(new arrow.Utf8(), new arrow.Int8()))],
    ['wide', field.string(), (i) => `w${i % 5}`, F('wide', new arrow.Dictionary(new arrow.LargeUtf8(), new arrow.Uint16()))],
    ['ld', field.list(field.string()), (i) => (i % 4 ? [`e${i % 2}`, null] : null), F('ld', new arrow.List(F('element', new arrow.Dictionary(new arrow.Utf8(), new arrow.Int16()))))],
    ['st', field.struct({ a: field.int64(), b: field.string() }), (i) => ({ a: BigInt(i), b: `${i}` }), F('st', new arrow.Struct([F('a', new arrow.DurationSecond()), F('b', new arrow.LargeUtf8())]))],
    ['m', field.map(field.string().required(), field.int64()), (i) => [{ key: `k${i}`, value: BigInt(i) }], F('m', new arrow.Map_(F('entries', new arrow.Struct([F('key', new arrow.Utf8(), false), F('value', new arrow.TimestampMicrosecond('UTC'))]), false) as never, true))],
    ['misfit', field.string(), (i) => `${i}`, F('misfit', new arrow.Int32())],
    // The stored field's metadata stands for the file's field id.
    ['id7', field.int32().fieldId(7), (i) => i, F('id7', new arrow.Int32())],
    ['id8', field.int32().fieldId(8), (i) => i, new arrow.Field('id8', new arrow.Int32(), true, new Map([['k', 'v']]))],
  ];
  const schema = defineSchema(Object.fromEntries(columns.map(([name, decl]) => [name, decl])) as never);
  const stored = new arrow.Schema(columns.map((c) => c[3]), new Map([['from-stored', 'yes']]));
  for (const dictionary of [true, false]) {
    const sink = new BufferSink();
    // Row groups of 128: the 'cat' chunks written plain (dictionary: false) outgrow Int8 indices until their values are merged.
    const w = await ParquetWriter.open<unknown>(sink, schema, { metadata: { 'ARROW:schema': encodeSchema(arrow, stored) }, rowGroupRows: 200, dictionary });
    await w.writeMany(Array.from({ length: n }, (_, i) => Object.fromEntries(columns.map(([name, , value]) => [name, value(i)]))));
    await w.close();
    const reader = await openParquet(sink.bytes());
    const ours = await reader.toArrow();
    const theirs = arrowRs(sink.bytes());
    assertExact(ours, theirs, `dictionary pages: ${dictionary}`);
    assert.equal(ours.schema.metadata.get('from-stored'), 'yes');
    assert.equal(ours.schema.metadata.has('ARROW:schema'), false);
    const batches: arrow.RecordBatch[] = [];
    for await (const b of reader.arrowBatches()) batches.push(b);
    assert.equal(batches.length, 2);
    assertExact(new arrow.Table(batches), theirs, `batches, dictionary pages: ${dictionary}`);
    const projected = await reader.toArrow({ columns: ['st.a', 'cat', 'm'], offset: 150, limit: 100 });
    assert.deepEqual(projected.schema.fields.map(String), ['cat: Dictionary<Int8, Utf8>', 'st: Struct<{a:Duration<SECOND>}>', String(theirs.schema.fields.find((f) => f.name === 'm'))]);
    for (const name of ['cat', 'm']) assert.equal(show(norm(projected.getChild(name)!.toArray())), show(norm(theirs.getChild(name)!.slice(150, 250).toArray())), name);
    const plain = await reader.toArrow({ arrowSchema: false });
    assert.equal(String(plain.schema.fields[0]), 'tz: Int64');
    assert.equal(plain.schema.metadata.has('ARROW:schema'), true);
  }
});

test('a file arrow-rs wrote from types Parquet has no place for reads back to them', async () => {
  const ids = Array.from({ length: 50 }, (_, i) => i);
  const table = new arrow.Table({
    ny: arrow.vectorFromArray(ids.map((i) => (i % 5 ? i * 1000 : null)), new arrow.TimestampMillisecond('America/New_York')),
    secs: arrow.vectorFromArray(ids.map((i) => i * 1000), new arrow.TimestampSecond()),
    t32: arrow.vectorFromArray(ids, new arrow.TimeSecond()),
    d64: arrow.vectorFromArray(ids.map((i) => new Date(86_400_000 * i)), new arrow.DateMillisecond()),
    lu: arrow.vectorFromArray(ids.map(String), new arrow.LargeUtf8()),
    dur: arrow.vectorFromArray(ids.map(BigInt), new arrow.DurationNanosecond()),
    cat: arrow.vectorFromArray(ids.map((i) => `v${i % 3}`), new arrow.Dictionary(new arrow.Utf8(), new arrow.Int8())),
    big: arrow.vectorFromArray(ids.map((i) => (i % 5 ? [`x${i}`, null] : null)), new arrow.LargeList(new arrow.Field('item', new arrow.Utf8(), true))),
    emb: arrow.vectorFromArray(ids.map((i) => (i % 6 === 0 ? null : [i / 2, i % 4 ? -i : null, 0.5])), new arrow.FixedSizeList(3, new arrow.Field('item', new arrow.Float32(), true))),
  });
  const bytes = wasm.writeParquet(wasm.Table.fromIPCStream(arrow.tableToIPC(table, 'stream')));
  const ours = await (await openParquet(bytes)).toArrow();
  assertExact(ours, arrowRs(bytes), 'arrow-rs file');
  assert.deepEqual(ours.schema.fields.map(String), table.schema.fields.map(String));
});

test('a table of types Parquet has no place for round-trips exactly through writeParquet, and arrow-rs reads the same', async () => {
  const ids = Array.from({ length: 40 }, (_, i) => i);
  const words = (i: number, n: number) => Uint32Array.from({ length: n }, (_, w) => (w === 0 ? i * 1000 + 7 : 0));
  const dec = arrow.makeVector(arrow.makeData({ type: new arrow.Decimal(3, 20, 256), length: ids.length, nullCount: 0, data: Uint32Array.from(ids.flatMap((i) => [...words(i, 8)])) }));
  const table = new arrow.Table({
    ny: arrow.vectorFromArray(ids.map((i) => (i % 5 ? i * 1000 : null)), new arrow.TimestampMicrosecond('America/New_York')),
    local: arrow.vectorFromArray(ids.map((i) => i), new arrow.TimestampNanosecond()),
    d64: arrow.vectorFromArray(ids.map((i) => new Date(86_400_000 * (i - 20))), new arrow.DateMillisecond()),
    lu: arrow.vectorFromArray(ids.map((i) => (i % 3 ? `é${i}` : null)), new arrow.LargeUtf8()),
    lb: arrow.vectorFromArray(ids.map((i) => Uint8Array.of(i)), new arrow.LargeBinary()),
    plain: arrow.vectorFromArray(ids.map((i) => `p${i % 2}`), new arrow.Utf8()),
    dur: arrow.vectorFromArray(ids.map((i) => BigInt(i * 3)), new arrow.DurationMillisecond()),
    ym: arrow.makeVector(arrow.makeData({ type: new arrow.IntervalYearMonth(), length: ids.length, data: Int32Array.from(ids) })),
    dt: arrow.makeVector(arrow.makeData({ type: new arrow.IntervalDayTime(), length: ids.length, data: Int32Array.from(ids.flatMap((i) => [i, i * 1000])) })),
    // Stored so that arrow-rs, which refuses a MonthDayNano hint, still reads the file.
    mdn: arrow.makeVector(arrow.makeData({ type: new arrow.IntervalMonthDayNano(), length: ids.length, data: Int32Array.from(ids.flatMap((i) => [i, 2, i * 1_000_000, 0])) })),
    dec,
    cat: arrow.vectorFromArray(ids.map((i) => (i % 7 ? `c${i % 3}` : null)), new arrow.Dictionary(new arrow.Utf8(), new arrow.Uint8())),
    tags: arrow.vectorFromArray(ids.map((i) => [`t${i % 2}`]), new arrow.List(new arrow.Field('item', new arrow.Dictionary(new arrow.LargeUtf8(), new arrow.Int16()), true))),
    ll: arrow.vectorFromArray(ids.map((i) => (i % 4 ? [BigInt(i)] : [])), new arrow.LargeList(new arrow.Field('item', new arrow.Int64(), true))),
    pair: arrow.vectorFromArray(ids.map((i) => (i % 3 === 0 ? null : [BigInt(i), i % 2 ? null : -1n])), new arrow.FixedSizeList(2, new arrow.Field('item', new arrow.Int64(), true))),
    m: arrow.vectorFromArray(ids.map((i) => new Map([[`k${i}`, BigInt(i)]])), new arrow.Map_(new arrow.Field('entries', new arrow.Struct([new arrow.Field('key', new arrow.Utf8(), false), new arrow.Field('value', new arrow.DurationSecond(), true)]), false) as never, true)),
  });
  const sink = new BufferSink();
  await writeParquet(sink, table, { rowGroupRows: 25 });
  const back = await (await openParquet(sink.bytes())).toArrow();
  assert.deepEqual(back.schema.fields.map(String), table.schema.fields.map(String));
  assert.equal((back.getChild('m')!.type as arrow.Map_).keysSorted, true);
  for (const f of table.schema.fields) {
    assert.equal(show(norm(back.getChild(f.name)!.toArray())), show(norm(table.getChild(f.name as never)!.toArray())), f.name);
  }
  assertExact(back, arrowRs(sink.bytes()), 'arrow-rs');
});

test('view types are written from their views, inline and in data buffers, sliced', async () => {
  const text = Array.from({ length: 30 }, (_, i) => (i % 4 === 0 ? null : `${i}-`.repeat(i % 9)));
  const table = new arrow.Table({
    s: arrow.vectorFromArray(text, new arrow.Utf8View()),
    b: arrow.vectorFromArray(text.map((t) => (t === null ? null : new TextEncoder().encode(t))), new arrow.BinaryView()),
  }).slice(3, 27);
  const sink = new BufferSink();
  await writeParquet(sink, table);
  const rows = await (await openParquet(sink.bytes())).readRows();
  assert.deepEqual(rows.map((r) => r.s), text.slice(3, 27));
  assert.deepEqual(rows.map((r) => (r.b === null ? null : new TextDecoder().decode(r.b as Uint8Array))), text.slice(3, 27));
});

test('a FixedSizeList of other than fixed-width values reads back as a List, and a list that does not hold the stored size is an error', async () => {
  const words = arrow.vectorFromArray([['a', 'b'], null, ['c', null]], new arrow.FixedSizeList(2, new arrow.Field('item', new arrow.Utf8(), true)));
  const sink = new BufferSink();
  await writeParquet(sink, new arrow.Table({ words }));
  const back = await (await openParquet(sink.bytes())).toArrow();
  assert.equal(String(back.schema.fields[0]), 'words: List<Utf8>');
  assert.deepEqual(back.getChild('words')!.toArray().map((v: arrow.Vector | null) => (v ? [...v] : null)), [['a', 'b'], null, ['c', null]]);
  assertExact(back, arrowRs(sink.bytes()), 'List of strings');

  const bad = new BufferSink();
  const w = await ParquetWriter.open(bad, defineSchema({ v: field.list(field.int32()) }), { metadata: { 'ARROW:schema': encodeSchema(arrow, new arrow.Schema([F('v', new arrow.FixedSizeList(2, F('item', new arrow.Int32())))])) } });
  await w.writeMany([{ v: [1, 2] }, { v: [1, 2, 3] }]);
  await w.close();
  await assert.rejects((await openParquet(bad.bytes())).toArrow(), (e: unknown) => e instanceof CorruptFileError && /list 1 holds 3 values/.test(e.message) && e.context.column === 'v');

  // A stored size of 2^30 over null lists: slots no byte backs, refused rather than allocated.
  const huge = new BufferSink();
  const h = await ParquetWriter.open(huge, defineSchema({ v: field.list(field.int32()) }), { metadata: { 'ARROW:schema': encodeSchema(arrow, new arrow.Schema([F('v', new arrow.FixedSizeList(2 ** 30, F('item', new arrow.Int32())))])) } });
  await h.writeMany([{ v: null }, { v: null }]);
  await h.close();
  await assert.rejects((await openParquet(huge.bytes())).toArrow(), (e: unknown) => e instanceof LimitError && /2 null lists 1073741824 null slots each/.test(e.message) && e.context.column === 'v');
});
