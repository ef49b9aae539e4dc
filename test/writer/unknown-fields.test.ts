/**
 * A record with a key the schema lacks is refused by default, by every
 * record writer, at every depth and on every write path; `unknownFields:
 * 'ignore'` leaves such keys out. Typed rows and `await using` run here as
 * test/types/typed-rows.ts declares them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AvroTrevniWriter } from '../../src/node/entries/trevni.js';
import { BufferSink, defineSchema, field, InvalidArgumentError, openParquet, openWriter, ParquetReader, ParquetWriter, type InferInput, type InferRow } from '../../src/node/index.js';
import { RedElmWriter } from '../../src/node/entries/redelm.js';
import { TrevniDraftWriter } from '../../src/trevni/draft/writer.js';

const schema = defineSchema({ id: field.int64().required(), name: field.string(), point: field.struct({ x: field.double(), y: field.double() }), tags: field.list(field.struct({ k: field.string() })) });
type Row = InferRow<typeof schema>;

const good: Row = { id: 1n, name: 'a', point: { x: 1, y: 2 }, tags: [{ k: 'p' }] };
/** Records each with one key too many, at each depth, and the key's place. */
const bad: Array<[unknown, string, RegExp]> = [
  [{ ...good, nme: 'typo' }, 'nme', /the record has a key the schema lacks: "nme"/],
  [{ ...good, point: { x: 1, y: 2, z: 3 } }, 'point.z', /field point has a key the schema lacks: "z"/],
  [{ ...good, tags: [{ k: 'p' }, { k: 'q', v: 1 }] }, 'tags.element.v', /has a key the schema lacks: "v"/],
  // As many keys as fields, one of them unknown: counting alone would miss it.
  [{ id: 2n, name: 'b', point: null, nope: 1 }, 'nope', /"nope"/],
];

async function readBack(bytes: Uint8Array): Promise<unknown[]> {
  return (await ParquetReader.open(bytes)).readRows();
}

test('Parquet: write() and writeMany() refuse a record with an unknown key, at any depth, keeping the writer usable', async () => {
  for (const [record, , message] of bad) {
    const sink = new BufferSink();
    const w = await ParquetWriter.open<unknown>(sink, schema);
    await w.write(good);
    await assert.rejects(w.write(record), (e: unknown) => e instanceof InvalidArgumentError && message.test((e as Error).message));
    // writeMany takes a flat schema column by column: the same refusal, the records before it kept.
    await assert.rejects(w.writeMany([good, record, good]), message);
    await w.close();
    assert.equal((await readBack(sink.bytes())).length, 2);
  }
});

test('Parquet: the flat write path finds an unknown key among as many keys as fields', async () => {
  const flat = defineSchema({ a: field.int32(), b: field.string() });
  const sink = new BufferSink();
  const w = await ParquetWriter.open<unknown>(sink, flat);
  const records = Array.from({ length: 5000 }, (_, i) => (i === 4321 ? { a: i, c: 'x' } : { a: i, b: String(i) }));
  await assert.rejects(w.writeMany(records), /"c"/);
  await w.close();
  const rows = await readBack(sink.bytes());
  assert.equal(rows.length, 4321);
  assert.deepEqual(rows[4320], { a: 4320, b: '4320' });
});

test("unknownFields: 'ignore' leaves unknown keys out and writes the rest", async () => {
  const sink = new BufferSink();
  const w = await ParquetWriter.open<unknown>(sink, schema, { unknownFields: 'ignore' });
  for (const [record] of bad) await w.write(record);
  await w.writeMany(bad.map(([r]) => r));
  await w.close();
  const rows = await readBack(sink.bytes());
  assert.equal(rows.length, 2 * bad.length);
  assert.deepEqual(rows[1], { id: 1n, name: 'a', point: { x: 1, y: 2 }, tags: [{ k: 'p' }] });
  assert.deepEqual(rows[3], { id: 2n, name: 'b', point: null, tags: null });
});

test('Trevni (v2, the draft) and RedElm writers share the rule', async () => {
  const avro = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'long' }, { name: 'p', type: { type: 'record', name: 'p', fields: [{ name: 'x', type: 'double' }] } }] };
  const t = await AvroTrevniWriter.open(new BufferSink(), avro);
  await t.write({ id: 1n, p: { x: 1 } });
  await assert.rejects(t.write({ id: 2n, p: { x: 1 }, q: 1 }), /"q"/);
  await assert.rejects(t.write({ id: 2n, p: { x: 1, y: 2 } }), /"y"/);
  const tIgnore = await AvroTrevniWriter.open(new BufferSink(), avro, { unknownFields: 'ignore' });
  await tIgnore.write({ id: 2n, p: { x: 1, y: 2 }, q: 1 });

  const draft = await TrevniDraftWriter.open(new BufferSink(), schema.schema);
  await assert.rejects(draft.write({ ...good, extra: 1 }), /"extra"/);
  const redelm = await RedElmWriter.open(new BufferSink(), schema.schema);
  await assert.rejects(redelm.write({ ...good, point: { x: 1, y: 2, w: 0 } }), /"w"/);
});

test('openWriter with a typed schema reads back typed rows; await using aborts an unclosed writer and closes a reader', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-typed-'));
  const path = join(dir, 'typed.parquet');
  {
    const w = await openWriter(path, schema);
    await w.write(good);
    await w.write({ id: 2, name: null });
    await w.close();
  }
  {
    await using reader = await openParquet<Row>(path);
    const rows = await reader.readRows();
    assert.deepEqual(rows.map((r) => r.id), [1n, 2n]);
  }
  const unfinished = join(dir, 'unfinished.parquet');
  {
    await using w = await openWriter(unfinished, schema);
    await w.write(good);
  }
  assert.equal(existsSync(unfinished), false);
  assert.deepEqual(readdirSync(dir), ['typed.parquet']);
  {
    // A closed writer's scope end leaves the file.
    await using w = await openWriter(join(dir, 'closed.parquet'), schema);
    await w.close();
  }
  assert.ok(existsSync(join(dir, 'closed.parquet')));
});

test('a MAP written as its entries, a Map or an object reads back as the same entries, at any depth', async () => {
  const maps = defineSchema({
    attrs: field.map(field.string(), field.int32()),
    byId: field.map(field.int64(), field.struct({ at: field.list(field.map(field.string(), field.boolean().required())) })).required(),
  });
  const read = [
    { attrs: [{ key: 'b', value: 1 }, { key: 'a', value: null }], byId: [{ key: 7n, value: { at: [[{ key: 'x', value: true }], [], null] } }, { key: 3n, value: null }] },
    { attrs: null, byId: [] },
    // An object's integer-like keys come first, ascending: JavaScript's order, which the file keeps.
    { attrs: [{ key: '2', value: 2 }, { key: '10', value: 10 }, { key: 'z', value: 0 }], byId: [{ key: 1n, value: { at: [[{ key: 'q', value: false }]] } }] },
  ];
  const written: InferInput<typeof maps>[] = [
    { attrs: new Map([['b', 1], ['a', null]]), byId: new Map([[7n, { at: [{ x: true }, new Map(), null] }], [3n, null]]) },
    { byId: new Map() },
    { attrs: { z: 0, 10: 10, 2: 2 }, byId: [{ key: 1n, value: { at: [new Map([['q', false]])] } }] },
  ];
  for (const many of [false, true]) {
    const sink = new BufferSink();
    const w = await ParquetWriter.open(sink, maps);
    if (many) await w.writeMany(written);
    else for (const r of written) await w.write(r);
    await w.close();
    assert.deepStrictEqual(await readBack(sink.bytes()), read);
  }
  const w = await ParquetWriter.open(new BufferSink(), maps);
  // The message names a field by the record's keys, the context by the schema's column, as for every write error.
  const refused = async (record: unknown, column: string, message: RegExp) =>
    assert.rejects(w.write(record as InferInput<typeof maps>), (e: unknown) => e instanceof InvalidArgumentError && e.context.column === column && message.test(e.message));
  await refused({ attrs: new Map([[1, 1]]), byId: [] }, 'attrs.key_value.key', /expected/);
  await refused({ attrs: new Map([['a', 'one']]), byId: [] }, 'attrs.key_value.value', /expected/);
  await refused({ byId: new Map([[1n, { at: [new Map([['x', null]])] }]]) }, 'byId.key_value.value.at.list.element.key_value.value', /field byId\.value\.at\.value: expected a value \(the field is required\)/);
  await refused({ attrs: 'a=1', byId: [] }, 'attrs', /a map \(an array of \{ key, value \}, a Map, or an object\)/);
  // An entry's misspelt value is an unknown key, as a record's is, not a null; at any depth.
  await refused({ attrs: [{ key: 'a', vlaue: 1 }], byId: [] }, 'attrs.key_value', /field attrs: a map entry has a key the schema lacks: "vlaue"/);
  await refused({ byId: [{ key: 1n, value: { at: [[{ key: 'x', value: true, valeu: false }]] } }] }, 'byId.key_value.value.at.list.element.key_value', /"valeu"/);
  await refused({ byId: [{ key: 1n, value: { at: 'x' } }] }, 'byId.key_value.value.at', /field byId\.value\.at: expected an array/);
  await refused({ byId: [{ key: 1n, value: { at: [], more: 1 } }] }, 'byId.key_value.value', /field byId\.value has a key the schema lacks: "more"/);
  await w.close();
  const sink = new BufferSink();
  const loose = await ParquetWriter.open<unknown>(sink, maps, { unknownFields: 'ignore' });
  await loose.write({ attrs: [{ key: 'a', vlaue: 1 }, { key: 'b', value: 2, note: '' }], byId: [] });
  await loose.close();
  assert.deepStrictEqual(await readBack(sink.bytes()), [{ attrs: [{ key: 'a', value: null }, { key: 'b', value: 2 }], byId: [] }]);
});
