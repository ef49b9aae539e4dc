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
  const { schema } = defineSchema({ id: field.int32(), price: field.decimal(9, 2) });
  await assert.rejects(RedElmWriter.open(new BufferSink(), schema), (e: unknown) => e instanceof UnsupportedError && e.context.column === 'price');
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
