/**
 * Type-level tests, checked by `npm run typecheck` (the first step of
 * `npm test`): each `@ts-expect-error` line must fail to compile, or the
 * typecheck fails. Nothing here runs; the same calls run in test/writer/unknown-fields.test.ts.
 */
import { defineSchema, field, openParquet, openTable, openWriter, ParquetReader, type InferInput, type InferRow, type ParquetWriter, type Table } from '../../src/node/index.js';

const schema = defineSchema({ id: field.int64().required(), name: field.string(), price: field.double().required(), tags: field.list(field.string()) });
type Row = InferRow<typeof schema>;

export async function writes(path: string): Promise<void> {
  const w: ParquetWriter<Row> = await openWriter(path, schema);
  await w.write({ id: 1n, name: 'a', price: 2.5, tags: ['x'] });
  await w.write({ id: 2, price: 1 });
  // @ts-expect-error a field the schema lacks
  await w.write({ id: 3, price: 1, nme: 'b' });
  // @ts-expect-error a value of the wrong type
  await w.write({ id: 'oops', price: 1 });
  // @ts-expect-error a required field missing
  await w.write({ name: 'c', price: 1 });
  await w.writeMany([{ id: 4, price: 0 }]);
  // @ts-expect-error writeMany takes the same records
  await w.writeMany([{ id: 5 }]);
  await w.close();

  // A schema given as SchemaElements has no record type: anything goes, checked at run time.
  const loose = await openWriter(path, schema.elements);
  await loose.write({ anything: 1 });
  await loose.abort();

  // `await using` aborts a writer left open.
  await using scoped = await openWriter(path, schema);
  await scoped.write({ id: 6, price: 3 });
}

const maps = defineSchema({
  attrs: field.map(field.string(), field.int32()),
  byId: field.map(field.int64(), field.struct({ at: field.list(field.map(field.string(), field.boolean().required())) })).required(),
});

export async function writesMaps(path: string): Promise<void> {
  const w = await openWriter(path, maps);
  // A MAP takes the reader's entries, a Map, or (with string keys) an object, at any depth.
  await w.write({ attrs: [{ key: 'a', value: 1 }], byId: [{ key: 1n, value: { at: [[{ key: 'x', value: true }]] } }] });
  await w.write({ attrs: new Map([['a', 1], ['b', null]]), byId: new Map([[2, { at: [new Map([['y', false]]), { z: true }] }]]) });
  await w.write({ attrs: { a: 1, b: null }, byId: new Map() });
  // @ts-expect-error an object's keys are strings: not for a map keyed by integers
  await w.write({ byId: { 1: { at: [] } } });
  // @ts-expect-error a Map's keys have the key's type
  await w.write({ attrs: new Map([[1, 1]]), byId: [] });
  // @ts-expect-error a Map's values have the value's type
  await w.write({ attrs: new Map([['a', 'one']]), byId: [] });
  // @ts-expect-error a required value is not null, in a Map as elsewhere
  await w.write({ byId: new Map([[1, { at: [new Map([['x', null]])] }]]) });
  const rows: InferRow<typeof maps>[] = [];
  await w.writeMany(rows);
  const record: InferInput<typeof maps> = { byId: new Map([[3n, {}]]) };
  await w.write(record);
  await w.close();

  await using reader = await openParquet<InferRow<typeof maps>>(path);
  for await (const row of reader.rows()) {
    // Reads give the entries array, whatever was written.
    for (const { key, value } of row.byId) void [key, value?.at];
    // @ts-expect-error a read map is no Map
    void row.byId.get(1n);
  }
}

export async function reads(path: string): Promise<number> {
  await using reader = await openParquet<Row>(path);
  let total = 0;
  for await (const row of reader.rows()) {
    total += row.price;
    const id: bigint | number = row.id;
    void id;
    // @ts-expect-error a field the row type lacks
    void row.nme;
  }
  const all: Row[] = await reader.readRows({ limit: 2 });
  for await (const batch of reader.rowBatches()) total += batch.length + all.length;
  const untyped = await ParquetReader.open(new Uint8Array());
  const r = (await untyped.readRows())[0]!;
  // @ts-expect-error untyped rows hold unknown values
  total += r.price;
  return total;
}

export async function table(path: string): Promise<number> {
  await using t: Table<Row> = await openTable<Row>(path);
  let total = 0;
  for await (const row of t.rows({ limit: 10 })) {
    total += row.price;
    // @ts-expect-error a field the row type lacks
    void row.nme;
  }
  for await (const batch of t.rowBatches()) for (const row of batch) total += row.price;
  const untyped = await openTable(path);
  for await (const row of untyped.rows()) {
    // @ts-expect-error untyped rows hold unknown values
    total += row.price;
  }
  await untyped.close();
  return total;
}

