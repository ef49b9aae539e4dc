/**
 * The writer: every corpus case written again from the records we read
 * reads back the same, and its sections hold, uncompressed, exactly the
 * bytes the prototype wrote (same column order, levels and values), with a
 * footer that says what the Java one says but for the offsets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadHadoopCodec } from '../../src/codecs/hadoop.js';
import { InvalidArgumentError, UnsupportedError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { RedElmReader } from '../../src/redelm/reader.js';
import { RedElmWriter } from '../../src/redelm/writer.js';
import { defineSchema, field } from '../../src/schema/builder.js';
import { buildSchema } from '../../src/schema/tree.js';
import { corpusFile, redelmCases } from './corpus-util.js';

async function rowsOf(r: RedElmReader): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const row of r.rows()) out.push(row);
  return out;
}

/** Every section of every row group, inflated, keyed by row group, path and section. */
async function sections(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const r = await RedElmReader.open(bytes);
  const codec = await loadHadoopCodec(r.codecClassName);
  const out = new Map<string, Uint8Array>();
  r.metadata.blocks.forEach((b, g) => {
    for (const c of b.columns) {
      const key = `${g}:${c.path.join('.')}`;
      out.set(`${key}:r`, codec.decompress(bytes.subarray(c.repetitionStart, c.definitionStart), c.repetitionUncompressedLength));
      out.set(`${key}:d`, codec.decompress(bytes.subarray(c.definitionStart, c.dataStart), c.definitionUncompressedLength));
      out.set(`${key}:data`, codec.decompress(bytes.subarray(c.dataStart, c.dataEnd), c.dataUncompressedLength));
    }
  });
  return out;
}

/** A footer without its offsets: what must equal between two files of the same records. */
function shape(r: RedElmReader) {
  return {
    schema: r.metadata.schema,
    codec: r.codecClassName,
    blocks: r.metadata.blocks.map((b) => ({
      recordCount: b.recordCount,
      columns: b.columns.map((c) => [c.path, c.type, c.valueCount, c.repetitionUncompressedLength, c.definitionUncompressedLength, c.dataUncompressedLength]),
    })),
    applicationBlocks: r.metaDataBlocks.slice(1).map((b) => ({ name: b.name, data: b.data })),
  };
}

/** Writes `source`'s records again, with its schema, codec, row group cut, footer form and application blocks. */
export async function rewrite(source: RedElmReader): Promise<Uint8Array> {
  const sink = new BufferSink();
  const writer = await RedElmWriter.open(sink, source.metadata.schema, {
    codec: source.codecClassName,
    footer: source.footerForm,
    rowGroupRecords: source.metadata.blocks[0]!.recordCount || undefined,
    metaDataBlocks: source.metaDataBlocks.slice(1).map((b) => ({ name: b.name, data: b.data })),
  });
  for await (const row of source.rows()) await writer.write(row);
  await writer.close();
  return sink.bytes();
}

for (const name of redelmCases()) {
  test(`${name}: written again, the same records in the same sections`, async () => {
    const javaBytes = corpusFile(`${name}.redelm`);
    const java = await RedElmReader.open(javaBytes);
    const ours = await rewrite(java);
    const back = await RedElmReader.open(ours);
    assert.deepStrictEqual(await rowsOf(back), await rowsOf(java));
    assert.deepStrictEqual(shape(back), shape(java));
    assert.equal(back.footerForm, java.footerForm);
    assert.deepStrictEqual(await sections(ours), await sections(javaBytes));
  });
}

test('a record that fails leaves nothing behind', async () => {
  const sink = new BufferSink();
  const w = await RedElmWriter.open(sink, 'message m {\n  required int32 a;\n  repeated string s;\n}\n', { codec: 'default' });
  await w.write({ a: 1, s: ['x'] });
  await assert.rejects(w.write({ a: 2, s: ['y', 3] }), InvalidArgumentError);
  await w.write({ a: 3, s: [] });
  await w.close();
  assert.deepStrictEqual(await rowsOf(await RedElmReader.open(sink.bytes())), [{ a: 1, s: ['x'] }, { a: 3, s: [] }]);
});

test('a schema tree with types RedElm lacks is refused, naming the column', async () => {
  const schema = buildSchema([{ name: 'schema', numChildren: 2 }, { name: 'id', type: 'INT32', repetitionType: 'REQUIRED' }, { name: 'nothing', type: 'INT32', repetitionType: 'OPTIONAL', logicalType: { type: 'UNKNOWN' } }]);
  await assert.rejects(RedElmWriter.open(new BufferSink(), schema), (e: unknown) => e instanceof UnsupportedError && e.context.column === 'nothing');
});

test('a schema of no columns is refused: the file could not be read back (every row group holds a column)', async () => {
  for (const text of ['message m { }', 'message m { optional group g { } }']) {
    await assert.rejects(RedElmWriter.open(new BufferSink(), text), (e: unknown) => e instanceof UnsupportedError && /needs at least one column/.test(e.message), text);
  }
  // A group of no fields beside a column is written, and reads back.
  const sink = new BufferSink();
  const w = await RedElmWriter.open(sink, 'message m { optional group g { } required int32 a; }');
  await w.write({ a: 1 });
  await w.close();
  assert.deepStrictEqual(await rowsOf(await RedElmReader.open(sink.bytes())), [{ a: 1 }]);
});

test('a schema tree of RedElm types is written as RedElm text', async () => {
  const { schema } = defineSchema({ id: field.int64().required(), name: field.string(), tags: field.list(field.string()) });
  const sink = new BufferSink();
  const w = await RedElmWriter.open(sink, schema, { codec: 'snappy' });
  await w.close();
  const r = await RedElmReader.open(sink.bytes());
  assert.equal(r.metadata.schema, 'message schema {\n  required int64 id;\n  optional string name;\n  optional group tags {\n    repeated group list {\n      optional string element;\n    }\n  }\n}\n');
  assert.equal(r.numRows, 0);
  assert.equal(r.metadata.blocks.length, 1);
});

test('types RedElm lacks are mapped as documented, LIST and MAP as their groups', async () => {
  const { schema } = defineSchema({
    u8: field.uint8(), u32: field.uint32(), u64: field.uint64(), half: field.float16(), price: field.decimal(9, 2), id: field.uuid(),
    day: field.date(), at: field.timestamp('MICROS'), t: field.time('MILLIS'), blob: field.fixed(3),
    tags: field.list(field.string()), kv: field.map(field.string(), field.int32()),
  });
  const sink = new BufferSink();
  const w = await RedElmWriter.open(sink, schema, { codec: 'default' });
  await w.write({
    u8: 200, u32: 4000000000, u64: 2n ** 63n - 1n, half: 1.5, price: '-12.30', id: '123e4567-e89b-12d3-a456-426614174000',
    day: '2024-01-31', at: 1700000000000000n, t: 1000, blob: Uint8Array.of(1, 2, 3), tags: ['a', null], kv: [{ key: 'k', value: 7 }],
  });
  await w.write({ tags: [], kv: null });
  await assert.rejects(w.write({ u64: 2n ** 63n }), (e: unknown) => e instanceof InvalidArgumentError && e.context.column === 'u64');
  await w.close();
  const r = await RedElmReader.open(sink.bytes());
  assert.match(r.metadata.schema, /optional int32 u8;\n  optional int64 u32;\n  optional int64 u64;\n  optional float half;\n  optional string price;\n  optional string id;\n  optional int32 day;\n  optional int64 at;\n  optional int32 t;\n  optional binary blob;\n  optional group tags \{\n    repeated group list \{\n      optional string element;/);
  assert.deepStrictEqual(await rowsOf(r), [
    {
      u8: 200, u32: 4000000000n, u64: 2n ** 63n - 1n, half: 1.5, price: '-12.30', id: '123e4567-e89b-12d3-a456-426614174000',
      day: 19753, at: 1700000000000000n, t: 1000, blob: Uint8Array.of(1, 2, 3),
      tags: { list: [{ element: 'a' }, { element: null }] }, kv: { key_value: [{ key: 'k', value: 7 }] },
    },
    { u8: null, u32: null, u64: null, half: null, price: null, id: null, day: null, at: null, t: null, blob: null, tags: { list: [] }, kv: null },
  ]);
});
