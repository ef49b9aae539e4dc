/**
 * Type-level tests, checked by `npm run typecheck` (the first step of
 * `npm test`): each `@ts-expect-error` line must fail to compile, or the
 * typecheck fails. Nothing here runs; the same calls run in test/writer/unknown-fields.test.ts.
 */
import { defineSchema, field, openParquet, openTable, openWriter, ParquetReader, type InferRow, type ParquetWriter, type Table } from '../../src/node/index.js';

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

