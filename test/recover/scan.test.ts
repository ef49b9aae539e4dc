/**
 * No footer and no checkpoint: row groups found by walking page headers
 * under a schema the caller gives (or a sibling file's). What is found is
 * exactly the complete row groups; an ambiguous split stops the scan rather
 * than guess.
 */
import { strict as assert } from 'node:assert';
import { it } from 'node:test';
import { BufferSink, ParquetReader, ParquetWriter, defineSchema, field, type WriterOptions } from '../../src/index.js';
import { salvage, type SalvageOptions } from '../../src/node/entries/recover.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { encodeRleHybridPrefixed } from '../../src/encodings/rle-encode.js';
import { encodePageHeader } from '../../src/parquet/metadata/encode.js';
import { buildSchema, type SchemaElementLike } from '../../src/schema/tree.js';
import { schema, writeFile } from './fixtures.js';

async function rowsOf(bytes: Uint8Array, options: SalvageOptions): Promise<{ rows: Record<string, unknown>[]; groups: number; foundBy: string }> {
  const s = await salvage(bytes, options);
  const rows: Record<string, unknown>[] = [];
  for await (const g of s) {
    assert.deepStrictEqual(g.losses, []);
    rows.push(...g.rows);
  }
  return { rows, groups: s.report.rowGroups!, foundBy: s.report.foundBy! };
}

/** Every row a salvage read gives, and its report. */
async function salvagedAll(bytes: Uint8Array, options: SalvageOptions) {
  const s = await salvage(bytes, options);
  const rows: Record<string, unknown>[] = [];
  for await (const g of s) rows.push(...g.rows);
  return { rows, report: s.report };
}

const configs: [string, WriterOptions][] = [['v1, offset index', {}], ['v2, no offset index', { pageVersion: 2, pageIndex: false }], ['uncompressed, no CRCs', { codec: 'UNCOMPRESSED', checksums: false }]];
for (const [name, options] of configs) {
  it(`a file without its footer recovers its complete row groups by scanning (${name})`, async () => {
    const bytes = await writeFile(options);
    const reader = await ParquetReader.open(bytes);
    const original = await reader.readRows();
    const codec = options.codec ?? 'SNAPPY';
    const groups = reader.file.metadata.rowGroups;
    const endOf = (g: number) => groups[g]!.fileOffset! + groups[g]!.totalCompressedSize!;
    // Cut after the row groups (page index and footer gone), and inside the last row group.
    for (const [cut, whole] of [[endOf(2), 3], [endOf(2) - 100, 2], [endOf(1) + 5, 2], [endOf(0) - 1, 0]] as const) {
      const d = bytes.slice(0, cut);
      const given = await rowsOf(d, { schema: reader.file.metadata.schema, codec }).catch((e: Error) => e);
      if (whole === 0) {
        assert.ok(given instanceof Error || given.groups === 0, `${cut}`);
        continue;
      }
      assert.ok(!(given instanceof Error), String(given));
      assert.equal(given.foundBy, 'scan');
      assert.equal(given.groups, whole, `cut ${cut}`);
      assert.deepStrictEqual(given.rows, original.slice(0, whole * 1000));
      const like = await rowsOf(d, { like: bytes });
      assert.deepStrictEqual(like.rows, given.rows);
    }
  });
}

it('a schema whose leaves cannot be told apart stops the scan instead of guessing', async () => {
  const s = defineSchema({ a: field.int64().required(), b: field.int64().required() });
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, s, { rowGroupRows: 1000, pageRowLimit: 100, dictionary: false });
  for (let i = 0; i < 3000; i++) await w.write({ a: BigInt(i), b: BigInt(-i) });
  await w.close();
  const bytes = sink.bytes();
  const reader = await ParquetReader.open(bytes);
  const original = await reader.readRows();
  const opened = await salvage(bytes.slice(0, 4 + 20), { schema: reader.file.metadata.schema, codec: 'SNAPPY' }).catch(() => null);
  assert.ok(opened === null || opened.report.rowGroups === 0);
  const cutAll = await salvagedAll(bytes.slice(0, reader.file.metadata.rowGroups[2]!.fileOffset! + 10), { schema: reader.file.metadata.schema, codec: 'SNAPPY' });
  assert.equal(cutAll.report.foundBy, 'scan');
  // Any row group it does accept is exact.
  assert.deepStrictEqual(cutAll.rows, original.slice(0, cutAll.rows.length));
  assert.match(cutAll.report.lostFrom!.reason, /not proven/);
});
void schema;

/** A v1 data page of a repeated int32 leaf, uncompressed: levels RLE, values PLAIN. */
function listPage(rep: number[], def: number[], values: number[], defLevel: number): Uint8Array {
  const body = new ByteWriter(256);
  encodeRleHybridPrefixed(body, rep, 1);
  encodeRleHybridPrefixed(body, def, 32 - Math.clz32(defLevel));
  for (const v of values) body.i32le(v);
  const b = body.finish().slice();
  const w = new ByteWriter(64);
  encodePageHeader({ type: 'DATA_PAGE', uncompressedPageSize: b.length, compressedPageSize: b.length, dataPageHeader: { numValues: rep.length, encoding: 'PLAIN', definitionLevelEncoding: 'RLE', repetitionLevelEncoding: 'RLE' } }, w);
  w.bytes(b);
  return w.finish().slice();
}

it("a one-column file whose writer split a row across pages: the row is not returned cut at the page's end", async () => {
  const s = defineSchema({ v: field.list(field.int32().required()).required() });
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, s);
  await w.write({ v: [1] });
  await w.close();
  const elements = (await ParquetReader.open(sink.bytes())).file.metadata.schema;
  const d = buildSchema(elements as SchemaElementLike[]).leaves[0]!.defLevel;
  // Rows [1, 2], [3, 4, 5], [6], [7]: the second goes on in the second page, which ends the file.
  const pages = [listPage([0, 1, 0, 1], [d, d, d, d], [1, 2, 3, 4], d), listPage([1, 0, 0], [d, d, d], [5, 6, 7], d)];
  const original = [{ v: [1, 2] }, { v: [3, 4, 5] }, { v: [6] }, { v: [7] }];
  for (const bytes of [concatPages(pages), concatPages([pages[0]!, pages[1]!, pages[0]!])]) {
    const { rows, report } = await salvagedAll(bytes, { schema: elements, codec: 'UNCOMPRESSED' });
    for (const r of rows) assert.ok(original.some((o) => JSON.stringify(o) === JSON.stringify(r)), JSON.stringify(r));
    assert.ok(report.lostFrom);
  }
});

function concatPages(pages: Uint8Array[]): Uint8Array {
  const w = new ByteWriter(1024);
  w.bytes(new Uint8Array([0x50, 0x41, 0x52, 0x31]));
  for (const p of pages) w.bytes(p);
  return w.finish().slice();
}

it('a one-column file of more pages than the splits tried for a row group recovers them all, in several row groups', async () => {
  const s = defineSchema({ v: field.int32().required() });
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, s, { pageRowLimit: 2, dictionary: false });
  for (let i = 0; i < 10_000; i++) await w.write({ v: i });
  await w.close();
  const bytes = sink.bytes();
  const reader = await ParquetReader.open(bytes);
  const g = reader.file.metadata.rowGroups[0]!;
  const { rows, report } = await salvagedAll(bytes.slice(0, g.fileOffset! + g.totalCompressedSize!), { like: bytes });
  assert.deepStrictEqual(rows, await reader.readRows());
  assert.equal(report.rowGroups, 2);
});
