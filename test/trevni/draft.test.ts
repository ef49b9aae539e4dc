/**
 * The Trevni wiki draft's dialect (`T r v 0x01` with Dremel levels per
 * block): records written and read back through the shred/ core; the same
 * records written to Parquet print the same canonical lines; told apart from
 * cutting/trevni's version 1 by metadata; bad input ends in typed errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChecksumError, CorruptFileError, InvalidArgumentError, LimitError, ParquetryError, UnsupportedError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { ParquetReader } from '../../src/parquet/reader.js';
import { ParquetWriter } from '../../src/parquet/write/writer.js';
import { canonicalRow } from '../../src/text/canonical.js';
import { buildSchema, type ColumnPath, type SchemaElementLike } from '../../src/schema/tree.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { TrevniDraftReader, type TrevniDraftRowsOptions } from '../../src/trevni/draft/reader.js';
import { TrevniDraftWriter, type TrevniDraftWriterOptions } from '../../src/trevni/draft/writer.js';
import { writeMetadata } from '../../src/trevni/metadata.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { TREVNI_V1_CORPUS, corpusBytes } from './corpus-util.js';
import { openTable } from '../../src/table/open.js';
import { canonicalText } from '../table/helpers.js';

const ELEMENTS: SchemaElementLike[] = [
  { name: 'schema', numChildren: 6 },
  { name: 'id', type: 'INT64', repetitionType: 'REQUIRED' },
  { name: 'name', type: 'BYTE_ARRAY', repetitionType: 'OPTIONAL', convertedType: 'UTF8' },
  { name: 'tags', repetitionType: 'OPTIONAL', convertedType: 'LIST', numChildren: 1 },
  { name: 'list', repetitionType: 'REPEATED', numChildren: 1 },
  { name: 'element', type: 'INT32', repetitionType: 'OPTIONAL' },
  { name: 'who.am', repetitionType: 'OPTIONAL', numChildren: 2 },
  { name: 'x', type: 'DOUBLE', repetitionType: 'REQUIRED' },
  { name: 'raw', type: 'BYTE_ARRAY', repetitionType: 'REPEATED' },
  { name: 'attrs', repetitionType: 'OPTIONAL', convertedType: 'MAP', numChildren: 1 },
  { name: 'key_value', repetitionType: 'REPEATED', numChildren: 2 },
  { name: 'key', type: 'BYTE_ARRAY', repetitionType: 'REQUIRED', convertedType: 'UTF8' },
  { name: 'value', type: 'FLOAT', repetitionType: 'OPTIONAL' },
  { name: 'n', type: 'INT32', repetitionType: 'OPTIONAL' },
];

function record(i: number): Record<string, unknown> {
  return {
    id: BigInt(i) * 1000003n - 7n,
    name: i % 3 === 0 ? null : `name ${i} é`,
    tags: i % 5 === 0 ? null : Array.from({ length: i % 4 }, (_, k) => (k === 1 ? null : i * 10 + k)),
    'who.am': i % 7 === 0 ? null : { x: i / 3, raw: Array.from({ length: i % 3 }, (_, k) => new Uint8Array([i & 0xff, k])) },
    attrs: i % 6 === 0 ? null : Object.fromEntries(Array.from({ length: i % 3 }, (_, k) => [`k${k}`, k === 0 ? null : k / 2])),
    n: i % 2 === 0 ? i : null,
  };
}

async function writeDraft(records: Record<string, unknown>[], options: TrevniDraftWriterOptions = {}, elements = ELEMENTS): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await TrevniDraftWriter.open(sink, buildSchema(elements), options);
  for (const r of records) await w.write(r);
  await w.close();
  return sink.bytes();
}

/** The records' canonical lines as the Parquet writer and reader give them: the form draft files print in. */
async function parquetLines(records: Record<string, unknown>[]): Promise<string[]> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, ELEMENTS);
  for (const r of records) await w.write(r);
  await w.close();
  const r = await ParquetReader.open(sink.bytes());
  const plan = r.plan();
  const out: string[] = [];
  for await (const row of r.rows()) out.push(canonicalRow(plan, row));
  return out;
}

async function lines(r: TrevniDraftReader, options: TrevniDraftRowsOptions = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const l of r.canonicalRows(options)) out.push(l);
  return out;
}

const RECORDS = Array.from({ length: 300 }, (_, i) => record(i));

for (const options of [{}, { codec: 'deflate', checksum: 'crc32', blockSize: 200 }, { codec: 'snappy', checksum: 'crc32', blockSize: 1 }] as TrevniDraftWriterOptions[]) {
  test(`draft round trip (${JSON.stringify(options)}): the records, printed as the Parquet reader prints them`, async () => {
    const bytes = await writeDraft(RECORDS, options);
    assert.deepEqual([...bytes.subarray(0, 4)], [0x54, 0x72, 0x76, 0x01]);
    const r = await TrevniDraftReader.open(bytes);
    assert.equal(r.numRows, RECORDS.length);
    assert.deepEqual(r.metadata[0], { key: 'trevni.dialect', value: new TextEncoder().encode('dremel'), offset: r.metadata[0]!.offset });
    const want = await parquetLines(RECORDS);
    assert.deepEqual(await lines(r), want);
    assert.deepEqual(await lines(r, { offset: 123, limit: 5 }), want.slice(123, 128));
    // The same through the table every format reads through.
    await using table = await openTable(bytes);
    assert.equal(table.numRows, RECORDS.length);
    assert.equal(await canonicalText(table), want.map((l) => l + '\n').join(''));
    assert.equal(await canonicalText(table, { offset: 123, limit: 5 }), want.slice(123, 128).map((l) => l + '\n').join(''));
    if (options.blockSize === 1) assert.equal((await r.blocks('tags.list.element')).length, RECORDS.length);
    // Names are escaped paths; parents are group columns; levels explicit.
    const who = r.columns.find((c) => c.name === 'who\\.am.raw')!;
    assert.equal(who.parent, 'who\\.am');
    assert.equal(new TextDecoder().decode(who.metadata.find((m) => m.key === 'trevni.maxRepetition')!.value), '1');
    assert.equal(new TextDecoder().decode(who.metadata.find((m) => m.key === 'trevni.maxDefinition')!.value), '2');
  });
}

test('a record that fails leaves nothing behind; types the draft lacks are refused naming the column', async () => {
  const sink = new BufferSink();
  const w = await TrevniDraftWriter.open(sink, buildSchema(ELEMENTS));
  await w.write(RECORDS[1]!);
  await assert.rejects(w.write({ ...RECORDS[2]!, n: 'not a number' }), (e: unknown) => e instanceof InvalidArgumentError && e.context.column === 'n');
  await w.write(RECORDS[3]!);
  await w.close();
  const r = await TrevniDraftReader.open(sink.bytes());
  assert.deepEqual(await lines(r), (await parquetLines([RECORDS[1]!, RECORDS[3]!])));
  for (const [leaf, what] of [[{ name: 'b', type: 'BOOLEAN' }, 'BOOLEAN'], [{ name: 'd', type: 'INT32', convertedType: 'DATE' }, 'DATE'], [{ name: 'f', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 2 }, 'FIXED_LEN_BYTE_ARRAY']] as const) {
    await assert.rejects(TrevniDraftWriter.open(new BufferSink(), buildSchema([{ name: 'schema', numChildren: 1 }, { ...leaf, repetitionType: 'REQUIRED' }])), (e: unknown) => {
      assert.ok(e instanceof UnsupportedError, String(e));
      assert.equal(e.context.column, leaf.name);
      assert.match(e.message, new RegExp(`no ${what} column`));
      return true;
    });
  }
  await assert.rejects(TrevniDraftWriter.open(new BufferSink(), buildSchema(ELEMENTS), { codec: 'bzip2' }), InvalidArgumentError);
  // A group of no fields would be a null-typed column with no child, which no reader can tell from anything (ours refuses it).
  const empty = buildSchema([{ name: 'schema', numChildren: 2 }, { name: 'g', repetitionType: 'OPTIONAL', numChildren: 0 }, { name: 'b', type: 'INT32', repetitionType: 'OPTIONAL' }]);
  await assert.rejects(TrevniDraftWriter.open(new BufferSink(), empty), (e: unknown) => e instanceof UnsupportedError && e.context.column === 'g' && /no group of no fields/.test(e.message));
});

/** A draft file's header rebuilt with its metadata edited (the column starts move with it). */
function editHeader(bytes: Uint8Array, edit: (file: { key: string; value: Uint8Array }[], cols: { key: string; value: Uint8Array }[][]) => void): Promise<Uint8Array> {
  return (async () => {
    const r = await TrevniDraftReader.open(bytes).catch(() => TrevniReader.open(bytes));
    const file = r.metadata.map((m) => ({ key: m.key, value: m.value }));
    const cols = r.columns.map((c) => c.metadata.map((m) => ({ key: m.key, value: m.value })));
    edit(file, cols);
    const h = new ByteWriter(1024);
    h.bytes(bytes.subarray(0, 16));
    writeMetadata(h, file);
    for (const c of cols) writeMetadata(h, c);
    const shift = h.length + 8 * cols.length - r.columns[0]!.start;
    for (const c of r.columns) h.i64le(BigInt(c.start + shift));
    h.bytes(bytes.subarray(r.columns[0]!.start));
    return h.finish().slice();
  })();
}

test('told apart from cutting/trevni version 1 by metadata, never by name', async () => {
  const draft = await writeDraft(RECORDS.slice(0, 20));
  await assert.rejects(TrevniReader.open(draft), (e: unknown) => e instanceof UnsupportedError && /Dremel dialect/.test(e.message));
  for (const f of ['tiny.trv', 'parents.trv', 'zero_columns.trv']) {
    const v1 = corpusBytes(f, TREVNI_V1_CORPUS);
    await assert.rejects(TrevniDraftReader.open(v1), (e: unknown) => e instanceof UnsupportedError && /without the draft dialect's metadata/.test(e.message), f);
    assert.equal((await TrevniReader.open(v1)).format.version, 1);
  }
  // Without the marker, a column's level key still tells the dialect (the draft lets them default to 0, so a writer may leave some out).
  const unmarked = await editHeader(draft, (file, cols) => {
    file.splice(0, 1);
    for (const c of cols) for (let i = c.length - 1; i >= 0; i--) if (c[i]!.key === 'trevni.maxRepetition' && new TextDecoder().decode(c[i]!.value) === '0') c.splice(i, 1);
  });
  assert.deepEqual(await lines(await TrevniDraftReader.open(unmarked)), await parquetLines(RECORDS.slice(0, 20)));
  // A marker naming another dialect is corrupt.
  const other = await editHeader(draft, (file) => (file[0]!.value = new TextEncoder().encode('nested')));
  await assert.rejects(TrevniDraftReader.open(other), (e: unknown) => e instanceof CorruptFileError && /unknown Trevni dialect "nested"/.test(e.message) && e.context.offset !== undefined);
});

test('bad draft input: typed, located errors', async () => {
  const good = await writeDraft(RECORDS.slice(0, 50), { checksum: 'crc32' });
  const r = await TrevniDraftReader.open(good);
  const drain = async (bytes: Uint8Array) => {
    const d = await TrevniDraftReader.open(bytes);
    for await (const _ of d.rows()) void _;
  };
  // Every truncation is a typed error.
  for (let n = 0; n < good.length; n += 7) await assert.rejects(drain(good.subarray(0, n)), (e: unknown) => e instanceof ParquetryError, `truncated to ${n}`);
  // Wrong magic.
  const magic = good.slice();
  magic[3] = 3;
  await assert.rejects(TrevniDraftReader.open(magic), (e: unknown) => e instanceof CorruptFileError && e.context.offset === 0);
  // A flipped byte in a block: the checksum, at the block.
  const [block] = await r.blocks('name');
  const flipped = good.slice();
  flipped[block!.offset + 4 + 3]! ^= 0x40;
  await assert.rejects(drain(flipped), (e: unknown) => e instanceof ChecksumError && e.context.column === 'name' && e.context.offset === block!.offset);
  // A level count past what the block can claim: a LimitError before any allocation (checksums off to reach it).
  const huge = good.slice();
  huge.set([0xfe, 0xff, 0xff, 0xff, 0x0f], block!.offset + 4); // zig-zag 2^31-1
  await assert.rejects(
    (async () => {
      const d = await TrevniDraftReader.open(huge, { verifyChecksums: false });
      for await (const _ of d.rows()) void _;
    })(),
    (e: unknown) => e instanceof LimitError && e.context.column === 'name',
  );
  // Levels that do not follow from the parent's, a level key that is not a number.
  for (const [edit, message] of [
    [(c: { key: string; value: Uint8Array }[][]) => (c[0]!.find((m) => m.key === 'trevni.maxDefinition')!.value = new TextEncoder().encode('3')), /do not follow from its parent/],
    [(c: { key: string; value: Uint8Array }[][]) => (c[0]!.find((m) => m.key === 'trevni.maxDefinition')!.value = new TextEncoder().encode('x')), /not a level from 0 to 255/],
  ] as const) {
    const bytes = await editHeader(good, (_f, c) => edit(c));
    await assert.rejects(TrevniDraftReader.open(bytes), (e: unknown) => e instanceof CorruptFileError && message.test(e.message) && e.context.column === 'id');
  }
});

test("a leaf's levels, held whole, are bounded by maxDecompressedBytes however many blocks share them", async () => {
  // Small blocks, each well within its own bound; together more levels than the reader is allowed to hold.
  const bytes = await writeDraft(Array.from({ length: 3000 }, (_, i) => record(i)), { blockSize: 200 });
  const d = await TrevniDraftReader.open(bytes);
  assert.ok((await d.blocks('n')).length > 10);
  let n = 0;
  for await (const _ of d.rows()) n++;
  assert.equal(n, 3000);
  const capped = await TrevniDraftReader.open(bytes, { maxDecompressedBytes: 2000 });
  await assert.rejects(
    (async () => {
      for await (const _ of capped.rows()) void _;
    })(),
    (e: unknown) => e instanceof LimitError && /level entries, more than the reader's maxDecompressedBytes \(2000\)/.test(e.message) && e.context.column !== undefined,
  );
});

test('draft columns: the rows the Parquet reader gives the same records under the same columns', async () => {
  const sink = new BufferSink();
  const pw = await ParquetWriter.open(sink, ELEMENTS);
  for (const r of RECORDS) await pw.write(r);
  await pw.close();
  const pq = await ParquetReader.open(sink.bytes());
  const draft = await TrevniDraftReader.open(await writeDraft(RECORDS));
  const selections: ColumnPath[][] = [['tags'], ['who.am', 'id'], [['who.am', 'raw'], 'attrs.key_value.value'], ['n', 'name', 'tags.list.element']];
  for (const columns of selections) {
    const plan = pq.plan(columns);
    const want: string[] = [];
    for await (const row of pq.rows({ columns, offset: 7, limit: 200 })) want.push(canonicalRow(plan, row));
    assert.deepEqual(await lines(draft, { columns, offset: 7, limit: 200 }), want, JSON.stringify(columns));
  }
  await assert.rejects(lines(draft, { columns: ['nope'] }), InvalidArgumentError);
});
