/**
 * VARIANT through Arrow: a variant column read as Arrow (a struct tagged
 * `arrow.parquet.variant`, as arrow-rs tags it) and written back from the
 * Arrow table keeps its VARIANT group, shredded or not, and its values;
 * `parquet.variant`, the other name arrow-rs has used, is taken too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, ParquetReader, ParquetWriter, bufferSource, defineSchema, field, variant, writeRecords } from '../../src/index.js';
import { schemaFromArrow } from '../../src/arrow/to-schema.js';
import type { AnyField } from '../../src/schema/builder.js';

const ROWS = [{ v: { a: 1, b: 'x', c: [1.5, 'two'] } }, { v: 'str' }, { v: { a: 'no', z: [1, { q: variant.date(3) }] } }, { v: null }, { v: [] }];
const shapeText = (r: ParquetReader) => JSON.stringify(r.file.metadata.schema.slice(1).map((e) => [e.name, e.type, e.repetitionType, e.logicalType?.type]));

for (const [name, shape] of [['unshredded', undefined], ['shredded', field.struct({ a: field.int64(), b: field.string(), c: field.list(field.double()) })]] as Array<[string, AnyField | undefined]>) {
  test(`a ${name} variant written from its Arrow table keeps its group and values`, async () => {
    const sink = new BufferSink();
    const w = await ParquetWriter.open(sink, defineSchema({ v: field.variant(shape ? { shredded: shape } : {}) }));
    for (const r of ROWS) await w.write(r);
    await w.close();
    const first = await ParquetReader.open(bufferSource(sink.bytes()));
    const table = await first.toArrow();
    assert.equal(table.schema.fields[0]!.metadata.get('ARROW:extension:name'), 'arrow.parquet.variant');
    const again = new BufferSink();
    await writeRecords(again, table);
    const second = await ParquetReader.open(bufferSource(again.bytes()));
    assert.equal(shapeText(second), shapeText(first));
    assert.deepStrictEqual(await second.readRows({ variants: 'typed' }), await first.readRows({ variants: 'typed' }));
    // The older extension name declares the same group.
    const renamed = table.schema.fields[0]!.clone({ metadata: new Map([['ARROW:extension:name', 'parquet.variant']]) });
    const decl = await schemaFromArrow(new (table.schema.constructor as new (f: unknown[]) => typeof table.schema)([renamed]));
    assert.equal(JSON.stringify(decl.elements.slice(1).map((e) => [e.name, e.type, e.repetitionType, e.logicalType?.type])), shapeText(first));
  });
}
