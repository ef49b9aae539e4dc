/**
 * The Trevni writer: every corpus case written again from its expected
 * values must give the same values, metadata, blocks (rows, uncompressed
 * bytes, CRCs, first values) as the Java writer's file; with the null codec
 * the files are byte-identical.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '../../src/errors.js';
import { BufferSink } from '../../src/io/sink.js';
import { fileSink } from '../../src/node/file-sink.js';
import { fileSource } from '../../src/node/file-source.js';
import { TrevniReader } from '../../src/trevni/reader.js';
import { pathSpill } from '../../src/trevni/spill.js';
import type { MetaEntry } from '../../src/trevni/types.js';
import { TrevniWriter, type TrevniColumnSpec, type TrevniWriterOptions } from '../../src/trevni/writer.js';
import { TREVNI_CORPUS, TREVNI_V1_CORPUS, corpusBytes, expected, fromHex, hexOf, mapShape, shapeDepth, toValue, trvFiles, type ExpectedFile } from './corpus-util.js';

function meta(list: { key: string; hex: string }[]): MetaEntry[] {
  return list.map((m) => ({ key: m.key, value: fromHex(m.hex) }));
}

function columnsOf(e: ExpectedFile): TrevniColumnSpec[] {
  return e.columns.map((c): TrevniColumnSpec => ({ name: c.name, type: c.type, metadata: meta(c.metadata.filter((m) => m.key !== 'trevni.name' && m.key !== 'trevni.type')) }));
}

async function writeCase(e: ExpectedFile, extra: Partial<TrevniWriterOptions> = {}): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, columnsOf(e), { metadata: meta(e.metadata), ...extra });
  const cols = e.columns.map((c) => ({ depth: shapeDepth(c), type: c.type, values: c.values }));
  for (let r = 0; r < e.rowCount; r++) await w.writeRow(cols.map((c) => mapShape(c.values[r], c.depth, (x) => toValue(c.type, x)) as never));
  await w.close();
  return sink.bytes();
}

/** Everything but the physical layout must match the Java file: values, metadata, block rows, raw bytes, CRCs, first values. */
async function sameContent(mine: Uint8Array, java: Uint8Array, exact: boolean): Promise<number> {
  let payloads = 0;
  const a = await TrevniReader.open(mine);
  const b = await TrevniReader.open(java, { verifyChecksums: false });
  assert.deepEqual(a.magic, b.magic);
  assert.equal(a.numRows, b.numRows);
  assert.deepEqual(a.metadata, b.metadata);
  assert.equal(a.columns.length, b.columns.length);
  for (let i = 0; i < a.columns.length; i++) {
    const ca = a.columns[i]!;
    const cb = b.columns[i]!;
    assert.deepEqual({ ...ca, start: 0 }, { ...cb, start: 0 }, `column ${cb.name}`);
    const ba = await a.blocks(i);
    const bb = await b.blocks(i);
    assert.equal(ba.length, bb.length, `column ${cb.name}: block count`);
    for (let k = 0; k < bb.length; k++) {
      const where = `column ${cb.name}, block ${k}`;
      assert.equal(ba[k]!.numRows, bb[k]!.numRows, where);
      assert.equal(ba[k]!.uncompressedSize, bb[k]!.uncompressedSize, where);
      assert.deepEqual(ba[k]!.firstValue, bb[k]!.firstValue, where);
      const [rawA, rawB] = [await a.readBlock(i, k), await b.readBlock(i, k)];
      if (nanPayloads(ca.type, rawA, rawB)) {
        payloads++;
        continue;
      }
      assert.deepEqual(rawA, rawB, where);
      if (exact) assert.equal(ba[k]!.compressedSize, bb[k]!.compressedSize, where);
      if (ca.checksum !== 'null' && !(ca.codec === 'null' && exact)) assert.deepEqual(await a.storedChecksum(i, k), await b.storedChecksum(i, k), `${where}: CRC`);
    }
  }
  const ra: string[] = [];
  for await (const l of a.canonicalRows()) ra.push(l);
  const rb: string[] = [];
  for await (const l of b.canonicalRows()) rb.push(l);
  assert.deepEqual(ra, rb);
  return payloads;
}

/**
 * True when a plain float or double block differs from the Java one only
 * where both hold a NaN: the expected JSON writes every NaN as "NaN", so the
 * payloads of version 1's `extremes` NaNs cannot be written again from it.
 */
function nanPayloads(type: string, a: Uint8Array, b: Uint8Array): boolean {
  const width = type === 'float' ? 4 : type === 'double' ? 8 : 0;
  if (width === 0 || a.length !== b.length || a.length % width !== 0 || Buffer.compare(a, b) === 0) return false;
  const va = new DataView(a.buffer, a.byteOffset, a.length);
  const vb = new DataView(b.buffer, b.byteOffset, b.length);
  for (let o = 0; o < a.length; o += width) {
    const x = width === 4 ? va.getFloat32(o, true) : va.getFloat64(o, true);
    const y = width === 4 ? vb.getFloat32(o, true) : vb.getFloat64(o, true);
    if (!(Number.isNaN(x) && Number.isNaN(y)) && a.subarray(o, o + width).some((v, j) => v !== b[o + j])) return false;
  }
  return true;
}

for (const [dir, version] of [[TREVNI_CORPUS, 2], [TREVNI_V1_CORPUS, 1]] as const) {
  for (const trv of trvFiles(dir).filter((f) => f !== 'quirk_null_codec_crc32.trv')) {
    test(`writes version ${version} ${trv} again as the Java writer did`, () => rewriteCase(trv, dir, version));
  }
}

async function rewriteCase(trv: string, dir: string, version: 1 | 2): Promise<void> {
  const e = expected(trv, dir);
  const mine = await writeCase(e, { version });
  const java = corpusBytes(trv, dir);
  const allNull = e.columns.every((c) => c.codec === 'null');
  const payloads = await sameContent(mine, java, allNull);
  if (allNull && payloads === 0) assert.ok(Buffer.compare(mine, java) === 0, `${trv}: not byte-identical to the Java file`);
  else {
    // The layout fields the reader reports are self-consistent.
    const r = await TrevniReader.open(mine);
    assert.equal(r.fileLength, mine.length);
  }
}

test('null codec + crc32: the Java quirk file, but with the right CRC, which reads back', async () => {
  const e = expected('types_null_null.trv');
  const java = corpusBytes('quirk_null_codec_crc32.trv');
  const metadata = meta(e.metadata).map((m) => (m.key === 'trevni.checksum' ? { key: m.key, value: new TextEncoder().encode('crc32') } : m));
  const mine = await writeCase({ ...e, metadata: metadata.map((m) => ({ key: m.key, utf8: null, hex: hexOf(m.value) })) });
  assert.equal(mine.length, java.length);
  const r = await TrevniReader.open(mine);
  const crcAt = new Set<number>();
  for (const c of r.columns) for (const b of await r.blocks(c.name)) for (let i = 0; i < 4; i++) crcAt.add(b.offset + b.compressedSize + i);
  for (let i = 0; i < mine.length; i++) if (!crcAt.has(i)) assert.equal(mine[i], java[i], `byte ${i}`);
  for (const c of r.columns) await r.readColumn(c.name); // verifies every CRC
});

test('blocks are cut at row boundaries once 64 KiB are buffered, and a smaller blockSize cuts sooner', async () => {
  const e = expected('multiblock_null_null.trv');
  const small = await writeCase(e, { blockSize: 4096 });
  const r = await TrevniReader.open(small);
  for (const c of r.columns) {
    const blocks = await r.blocks(c.name);
    for (let k = 0; k < blocks.length - 1; k++) assert.ok(blocks[k]!.uncompressedSize >= 4096, `${c.name} block ${k}`);
    assert.equal(blocks.reduce((s, b) => s + b.numRows, 0), e.rowCount);
  }
  const big = await TrevniReader.open(corpusBytes('multiblock_null_null.trv'));
  assert.ok((await r.blocks('s')).length > (await big.blocks('s')).length, 'smaller blocks');
  const a: string[] = [];
  for await (const l of r.canonicalRows()) a.push(l);
  const b: string[] = [];
  for await (const l of big.canonicalRows()) b.push(l);
  assert.deepEqual(a, b);
});

test('spills every column to one temporary file and leaves none behind', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'trevni-spill-'));
  try {
    const spill = pathSpill(dir, { sink: fileSink, source: fileSource, remove: (p) => rm(p, { force: true }) });
    const e = expected('multiblock_snappy_crc32.trv');
    const out = join(dir, 'out.trv');
    const sink = await fileSink(out);
    const w = await TrevniWriter.open(sink, columnsOf(e), { metadata: meta(e.metadata), spill });
    const cols = e.columns.map((c) => ({ depth: shapeDepth(c), type: c.type, values: c.values }));
    for (let r = 0; r < e.rowCount; r++) await w.writeRow(cols.map((c) => mapShape(c.values[r], c.depth, (x) => toValue(c.type, x)) as never));
    const during = await readdir(dir);
    // One file for every column: one per column ran out of file descriptors on wide tables.
    assert.equal(during.filter((f) => f.includes('.spill')).length, 1, `spill files: ${during.join(', ')}`);
    assert.ok(e.columns.length > 1);
    await w.close();
    assert.deepEqual(await readdir(dir), ['out.trv']);
    const src = await fileSource(out);
    try {
      const r = await TrevniReader.open(src);
      const mineRows: string[] = [];
      for await (const l of r.canonicalRows()) mineRows.push(l);
      const ref = await TrevniReader.open(corpusBytes('multiblock_snappy_crc32.trv'));
      const refRows: string[] = [];
      for await (const l of ref.canonicalRows()) refRows.push(l);
      assert.deepEqual(mineRows, refRows);
    } finally {
      await src.close?.();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('rows written as objects (the shape rows() yields) round-trip', async () => {
  for (const trv of ['parents.trv', 'booleans.trv', 'avro_dremel.trv', 'avro_maps.trv', 'tiny.trv']) {
    const src = await TrevniReader.open(corpusBytes(trv));
    const sink = new BufferSink();
    const w = await TrevniWriter.open(sink, columnsOf(expected(trv)), { metadata: meta(expected(trv).metadata) });
    const rows: Record<string, unknown>[] = [];
    for await (const row of src.rows()) rows.push(row);
    for (const row of rows) await w.write(row);
    await w.close();
    if (expected(trv).columns.every((c) => c.codec === 'null')) assert.ok(Buffer.compare(sink.bytes(), corpusBytes(trv)) === 0, `${trv} not byte-identical`);
    const back = await TrevniReader.open(sink.bytes());
    const again: Record<string, unknown>[] = [];
    for await (const row of back.rows()) again.push(row);
    assert.deepEqual(again, rows, trv);
  }
});

test('the writer refuses what Java refuses, before writing anything', async () => {
  const open = (columns: TrevniColumnSpec[], extra: Partial<TrevniWriterOptions> = {}) => TrevniWriter.open(new BufferSink(), columns, { ...extra });
  await assert.rejects(open([{ name: 'a', type: 'int' }, { name: 'a', type: 'long' }]), InvalidArgumentError);
  await assert.rejects(open([{ name: 'c', type: 'int', parent: 'p' }, { name: 'p', type: 'null', array: true }]), /preceding/);
  await assert.rejects(open([{ name: 'p', type: 'int' }, { name: 'c', type: 'int', parent: 'p' }]), /not an array/);
  await assert.rejects(open([{ name: 'a', type: 'int', array: true, values: true }]), /trevni.values/);
  await assert.rejects(open([{ name: 'a', type: 'int' }], { checksum: 'crc-32' }), /crc-32/);
  await assert.rejects(open([{ name: 'a', type: 'int' }], { codec: 'xz' }), /unknown codec/);
  await assert.rejects(open([{ name: 'a', type: 'int' }], { metadata: [{ key: 'trevni.name', value: new Uint8Array() }] }), /reserved/);
  await assert.rejects(open([{ name: 'a', type: 'text' as never }]), /unknown type/);

  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, [{ name: 'p', type: 'string', array: true }, { name: 'n', type: 'int', parent: 'p' }, { name: 'l', type: 'long' }]);
  await assert.rejects(w.writeRow([['a'], [], 1n]), /1 parent values/);
  await assert.rejects(w.writeRow([['a'], [1], 2 ** 70 as never]), /not a long value/);
  await assert.rejects(w.writeRow([['a'], [2 ** 31], 1n]), /not a int value/);
  await assert.rejects(w.write({ p: 'x', l: 1n }), /needs a list/);
  await w.writeRow([['a', 'b'], [1, 2], 3]); // a safe-integer number is accepted for a long
  await w.write({ p: [{ $value: 'c', n: 4 }], l: 5n });
  await w.close();
  const r = await TrevniReader.open(sink.bytes());
  assert.equal(r.numRows, 2);
  const rows = [];
  for await (const row of r.rows()) rows.push(row);
  assert.deepEqual(rows, [
    { p: [{ $value: 'a', n: 1 }, { $value: 'b', n: 2 }], l: 3n },
    { p: [{ $value: 'c', n: 4 }], l: 5n },
  ]);
});

/**
 * A boolean column's descriptors read as Java's ColumnDescriptor.ensureBlocksRead
 * reads them: one buffer for all of them, its boolean bit position never reset
 * (a byte is read only when the position is 0; otherwise the bit comes from the
 * last byte read, here the end of the previous descriptor). Returns where the
 * block data would start and the first values.
 */
function javaBooleanDescriptors(file: Uint8Array, start: number): { dataStart: number; first: boolean[] } {
  const dv = new DataView(file.buffer, file.byteOffset, file.byteLength);
  let pos = start;
  const count = dv.getInt32(pos, true);
  pos += 4;
  let bitCount = 0;
  const first: boolean[] = [];
  for (let k = 0; k < count; k++) {
    pos += 12; // row count, uncompressedSize, compressedSize
    if (bitCount === 0) pos++;
    first.push(((file[pos - 1]! >> bitCount) & 1) === 1);
    bitCount = (bitCount + 1) & 7;
  }
  return { dataStart: pos, first };
}

test('a boolean column with trevni.values stays in one block, the only layout Java reads back', async () => {
  // The emulation agrees with Java on its own file (booleans.trv, column bv: one block).
  const java = await TrevniReader.open(corpusBytes('booleans.trv'));
  const bv = java.column('bv');
  const jb = await java.blocks('bv');
  assert.equal(jb.length, 1);
  assert.deepEqual(javaBooleanDescriptors(corpusBytes('booleans.trv'), bv.start), { dataStart: jb[0]!.offset, first: [jb[0]!.firstValue as boolean] });
  // Two descriptors as the spec lays them out (each first value in a byte of its own): Java stops a byte short.
  const two = new Uint8Array([2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
  assert.equal(javaBooleanDescriptors(two, 0).dataStart, two.length - 1);
  // So the writer never cuts such a column, however small the block size; the others are cut as usual.
  const sink = new BufferSink();
  const w = await TrevniWriter.open(sink, [{ name: 'bv', type: 'boolean', values: true }, { name: 'b', type: 'boolean' }, { name: 'x', type: 'int', values: true }], { blockSize: 64 });
  for (let i = 0; i < 5000; i++) await w.writeRow([i >= 2000, i % 3 === 0, i]);
  await w.close();
  const bytes = sink.bytes();
  const r = await TrevniReader.open(bytes);
  const blocks = await r.blocks('bv');
  assert.equal(blocks.length, 1);
  assert.ok((await r.blocks('b')).length > 1 && (await r.blocks('x')).length > 1);
  assert.deepEqual(javaBooleanDescriptors(bytes, r.column('bv').start), { dataStart: blocks[0]!.offset, first: [false] });
  assert.deepEqual(await r.readColumn('bv'), Array.from({ length: 5000 }, (_, i) => i >= 2000));
  assert.equal(await r.seek('bv', true), 2000);
});
