/**
 * Arrow to Parquet: tables read from a DuckDB file of every type (and built
 * with Arrow JS's own builders) are written, then read back by parquetry,
 * arrow-rs (parquet-wasm) and DuckDB, and must equal what went in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as wasm from 'parquet-wasm';
import * as arrow from 'apache-arrow';
import { InvalidArgumentError, openParquet, openWriter, writeParquet } from '../../src/node/index.js';
import { schemaFromArrow } from '../../src/node/entries/arrow.js';
import { show } from '../reader/helpers.js';
import { arrowOf, assertSameTable, norm, everyTypeFixture } from './compare.js';

const fixture = everyTypeFixture();

test('a table of every type round-trips: parquetry, arrow-rs and DuckDB read back what was written', async () => {
  const table = await arrowOf(fixture.file);
  const out = join(fixture.duck.dir, 'roundtrip.parquet');
  await writeParquet(out, table, { rowGroupRows: 1500 });
  const back = await arrowOf(out);
  assertSameTable(back, table, 'parquetry');
  const rs = arrow.tableFromIPC(wasm.readParquet(readFileSync(out)).intoIPCStream());
  assertSameTable(table, rs, 'arrow-rs');
  for (const [a, b] of [[fixture.file, out], [out, fixture.file]]) {
    const r = await fixture.duck.duck.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM (SELECT * FROM '${a}' EXCEPT ALL SELECT * FROM '${b}')`);
    assert.equal(r.getRowObjects()[0]!.n, 0, `DuckDB: rows of ${a} missing from ${b}`);
  }
});

test('Arrow JS builders: nulls, slices, nested lists and structs, maps, dictionaries, and the documented mappings', async () => {
  const n = 300;
  const ids = Array.from({ length: n }, (_, i) => i);
  const structType = new arrow.Struct([new arrow.Field('x', new arrow.Int32(), true), new arrow.Field('tags', new arrow.List(new arrow.Field('item', new arrow.Utf8(), true)), true)]);
  const table = new arrow.Table({
    id: arrow.vectorFromArray(ids.map(BigInt), new arrow.Int64()),
    name: arrow.vectorFromArray(ids.map((i) => (i % 7 === 0 ? null : `name-${i % 11}`)), new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())),
    big: arrow.vectorFromArray(ids.map((i) => (i % 5 === 0 ? null : 'é'.repeat(i % 4))), new arrow.LargeUtf8()),
    secs: arrow.vectorFromArray(ids.map((i) => i * 1000), new arrow.TimestampSecond('UTC')),
    d64: arrow.vectorFromArray(ids.map((i) => new Date(Date.UTC(2020, 0, 1 + i))), new arrow.DateMillisecond()),
    dur: arrow.vectorFromArray(ids.map((i) => BigInt(i * 3)), new arrow.DurationMillisecond()),
    nested: arrow.vectorFromArray(ids.map((i) => (i % 6 === 0 ? null : [{ x: i, tags: i % 2 ? ['a', null] : [] }, null])), new arrow.List(new arrow.Field('item', structType, true))),
    m: arrow.vectorFromArray(ids.map((i) => (i % 4 === 0 ? null : new Map([[`k${i}`, i], ['z', null]]))), new arrow.Map_(new arrow.Field('entries', new arrow.Struct<any>([new arrow.Field('key', new arrow.Utf8(), false), new arrow.Field('value', new arrow.Int32(), true)]), false))),
    flag: arrow.vectorFromArray(ids.map((i) => (i % 3 === 0 ? null : i % 2 === 0)), new arrow.Bool()),
  });
  const sliced = table.slice(37, 251);
  const out = join(fixture.duck.dir, 'built.parquet');
  await writeParquet(out, sliced);
  const rows = await (await openParquet(out)).readRows();
  assert.equal(rows.length, sliced.numRows);
  for (let k = 0; k < sliced.numRows; k++) {
    const i = k + 37;
    const r = rows[k]!;
    const label = `row ${k}`;
    assert.equal(r.id, BigInt(i), label);
    assert.equal(r.name, i % 7 === 0 ? null : `name-${i % 11}`, label);
    assert.equal(r.big, i % 5 === 0 ? null : 'é'.repeat(i % 4), label);
    // Arrow JS takes epoch milliseconds and stores i seconds; Parquet has no seconds, so they are written as i * 1000 ms.
    assert.equal(r.secs, BigInt(i) * 1000n, `${label}: seconds are written as milliseconds`);
    assert.equal(r.d64, 18262 + i, label);
    assert.equal(r.dur, BigInt(i * 3), label);
    assert.equal(show(r.nested), show(i % 6 === 0 ? null : [{ x: i, tags: i % 2 ? ['a', null] : [] }, null]), label);
    assert.equal(show(r.m), show(i % 4 === 0 ? null : [{ key: `k${i}`, value: i }, { key: 'z', value: null }]), label);
    assert.equal(r.flag, i % 3 === 0 ? null : i % 2 === 0, label);
  }
  const schema = await schemaFromArrow(sliced.schema);
  assert.deepEqual(schema.schema.leaves.map((l) => `${l.path.join('.')}:${l.physicalType}:${l.kind.kind}`), [
    'id:INT64:int', 'name:BYTE_ARRAY:string', 'big:BYTE_ARRAY:string', 'secs:INT64:timestamp', 'd64:INT32:date', 'dur:INT64:int',
    'nested.list.element.x:INT32:int', 'nested.list.element.tags.list.element:BYTE_ARRAY:string',
    'm.key_value.key:BYTE_ARRAY:string', 'm.key_value.value:INT32:int', 'flag:BOOLEAN:boolean',
  ]);
});

test('writeArrow into an open writer matches columns by name; a missing, extra or null-in-required column is an error naming it', async () => {
  const table = new arrow.Table({ b: arrow.vectorFromArray([1, 2, null], new arrow.Int32()), a: arrow.vectorFromArray(['x', 'y', 'z'], new arrow.Utf8()) });
  const schema = [{ name: 'root', numChildren: 2 }, { name: 'a', type: 'BYTE_ARRAY', convertedType: 'UTF8', repetitionType: 'REQUIRED' }, { name: 'b', type: 'INT32', repetitionType: 'REQUIRED' }] as const;
  const out = join(fixture.duck.dir, 'named.parquet');
  const w = await openWriter(out, schema as never);
  await assert.rejects(w.writeArrow(table), (e: unknown) => e instanceof InvalidArgumentError && /record 2/.test(e.message) && /field b: a null in a required field/.test(e.message));
  await assert.rejects(w.writeArrow(new arrow.Table({ a: arrow.vectorFromArray(['q'], new arrow.Utf8()) })), /no column "b"/);
  await assert.rejects(w.writeArrow(new arrow.Table({ a: arrow.vectorFromArray(['q']), b: arrow.vectorFromArray([1], new arrow.Int32()), c: arrow.vectorFromArray([1]) })), /column "c" that the schema lacks/);
  await w.close();
  assert.deepEqual(await (await openParquet(out)).readRows(), [{ a: 'x', b: 1 }, { a: 'y', b: 2 }]);
});

test('an Arrow type with no Parquet twin is refused, naming the field', async () => {
  const union = arrow.makeVector(arrow.makeData({
    type: new arrow.SparseUnion([0], [new arrow.Field('i', new arrow.Int32())]), length: 1, nullCount: 0, typeIds: Int8Array.of(0),
    children: [arrow.makeData({ type: new arrow.Int32(), length: 1, data: Int32Array.of(5) })],
  }));
  const table = new arrow.Table({ s: arrow.vectorFromArray([{ u: 1 }]) }).assign(new arrow.Table({ u: union }));
  await assert.rejects(schemaFromArrow(table.schema), (e: unknown) => e instanceof InvalidArgumentError && /Arrow field "u" has type/.test(e.message));
  // A type Parquet has but not with these parameters: the builder's refusal names the field too.
  const negative = new arrow.Schema([new arrow.Field('s', new arrow.Struct([new arrow.Field('dec', new arrow.Decimal(-2, 5, 128))]))]);
  await assert.rejects(schemaFromArrow(negative), (e: unknown) => e instanceof InvalidArgumentError && /scale/.test(e.message) && e.context.column === 's.dec');
});

test('a 20,000-row string column round-trips, plain when asked', async () => {
  const text = Array.from({ length: 20000 }, (_, i) => `s${i % 100}`);
  const table = new arrow.Table({ s: arrow.vectorFromArray(text, new arrow.Utf8()) });
  const out = join(fixture.duck.dir, 'strings.parquet');
  await writeParquet(out, table);
  const back = await arrowOf(out, { dictionary: false });
  assert.equal(show(norm(back.getChild('s')!.toArray())), show(norm(table.getChild('s')!.toArray())));
});

test('a sliced FixedSizeList and a dictionary with nulls among its entries write the values Arrow JS reads', async () => {
  const fsl = arrow.vectorFromArray(Array.from({ length: 12 }, (_, i) => (i % 4 === 0 ? null : [i, null, i + 1])), new arrow.FixedSizeList(3, new arrow.Field('item', new arrow.Int32(), true)));
  // Index 1 is valid but names a null entry of the dictionary: a null value, not the entry's empty bytes.
  const dictionary = arrow.vectorFromArray(['a', null, 'c'], new arrow.Utf8());
  const dict = arrow.makeVector(arrow.makeData({ type: new arrow.Dictionary(new arrow.Utf8(), new arrow.Int16()), length: 12, nullCount: 1, nullBitmap: Uint8Array.of(0b11111101, 0xff), data: Int16Array.from({ length: 12 }, (_, i) => i % 3), dictionary }));
  const table = new arrow.Table({ fsl, dict }).slice(5, 11);
  const out = join(fixture.duck.dir, 'fsl-dict.parquet');
  await writeParquet(out, table);
  const rows = await (await openParquet(out)).readRows();
  assert.deepEqual(rows.map((r) => r.fsl), [...table.getChild('fsl')!].map((v) => (v ? [...v] : null)));
  assert.deepEqual(rows.map((r) => r.dict), [...table.getChild('dict')!]);
  assert.ok(rows.some((r) => r.dict === null) && rows.some((r) => r.dict === 'c'));
});
