/**
 * Bad page index and bloom filter locations or contents end in a
 * CorruptFileError naming the row group and column (from the index API and
 * from filtered reads alike), never a crash or a TypeError.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, CorruptFileError, defineSchema, field as f, ParquetReader, ParquetryError, ParquetWriter, type Filter } from '../../src/node/index.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { decodeOffsetIndex, type ColumnChunk } from '../../src/parquet/metadata/index.js';
import { encodeOffsetIndex } from '../../src/parquet/metadata/encode.js';
import { rng } from '../writer/gen.js';

let file: Uint8Array | undefined;

async function original(): Promise<Uint8Array> {
  if (file) return file;
  const schema = defineSchema({ id: f.int32().required(), s: f.string(), l: f.list(f.int32()) });
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, schema, { rowGroupRows: 400, pageRowLimit: 50, pageIndex: true, bloomFilters: { s: true } } as never);
  const rows = Array.from({ length: 1000 }, (_, i) => ({ id: i, s: `s${i % 37}`, l: i % 4 === 0 ? null : [i, i + 1] }));
  await w.writeMany(rows);
  await w.close();
  return (file = sink.bytes());
}

/** A fresh reader over a copy of the file, with `edit` applied to the bytes and the footer metadata. */
async function open(edit: (bytes: Uint8Array, chunk: (rg: number, col: number) => ColumnChunk) => void): Promise<ParquetReader> {
  const bytes = new Uint8Array(await original());
  const reader = await ParquetReader.open(bytes);
  edit(bytes, (rg, col) => reader.file.metadata.rowGroups[rg]!.columns[col]!);
  return reader;
}

async function rejects(p: Promise<unknown>, rowGroup: number, column: string, what: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof CorruptFileError, `not a CorruptFileError: ${String(e)}`);
    assert.equal(e.context.rowGroup, rowGroup, e.message);
    assert.equal(e.context.column, column, e.message);
    assert.match(e.message, what);
    return true;
  });
}

const ID: Filter = { column: 'id', op: '=', value: 450 };
const S: Filter = { column: 's', op: '=', value: 's3' };

describe('bad page index', () => {
  test('offsets outside the file', async () => {
    const r = await open((b, c) => {
      c(1, 0).columnIndexOffset = b.length + 10;
    });
    await rejects(r.file.readColumnIndex(1, 'id'), 1, 'id', /column index .* outside/);
    await rejects(r.readRows({ filter: ID }), 1, 'id', /outside/);
    const r2 = await open((b, c) => {
      c(0, 1).offsetIndexOffset = b.length - 9;
    });
    await rejects(r2.file.readOffsetIndex(0, 's'), 0, 's', /offset index .* outside/);
    await rejects(r2.readRows({ filter: { column: 'id', op: '<', value: 10 } }), 0, 's', /outside/);
    const r3 = await open((_b, c) => {
      c(0, 0).offsetIndexLength = undefined;
    });
    await rejects(r3.file.pageIndex(0, 'id'), 0, 'id', /no length/);
  });

  test('offsets pointing at other bytes', async () => {
    const r = await open((_b, c) => {
      const cc = c(0, 0);
      cc.columnIndexOffset = cc.metaData!.dataPageOffset + 3;
    });
    await rejects(r.file.readColumnIndex(0, 'id'), 0, 'id', /./);
    const r2 = await open((_b, c) => {
      const cc = c(2, 2);
      cc.offsetIndexOffset = cc.metaData!.dataPageOffset + 1;
    });
    await rejects(r2.file.readOffsetIndex(2, 'l.list.element'), 2, 'l.list.element', /./);
    await rejects(r2.readRows({ filter: { column: 'id', op: '=', value: 850 } }), 2, 'l.list.element', /./);
  });

  function rewriteOffsetIndex(bytes: Uint8Array, cc: ColumnChunk, change: (oi: ReturnType<typeof decodeOffsetIndex>) => void): void {
    const at = cc.offsetIndexOffset!;
    const oi = decodeOffsetIndex(new ByteCursor(bytes, at, at + cc.offsetIndexLength!));
    change(oi);
    const w = new ByteWriter(64);
    encodeOffsetIndex(oi, w);
    const out = w.finish();
    assert.ok(out.length <= cc.offsetIndexLength!);
    bytes.set(out, at);
  }

  test('page counts differ between the column index and the offset index', async () => {
    const r = await open((b, c) => rewriteOffsetIndex(b, c(0, 0), (oi) => void oi.pageLocations.pop()));
    await rejects(r.file.readColumnIndex(0, 'id'), 0, 'id', /column index has \d+ pages but the offset index has/);
    await rejects(r.readRows({ filter: { column: 'id', op: '>', value: 10 } }), 0, 'id', /pages/);
  });

  test('first row indexes out of order, pages outside the chunk', async () => {
    const r = await open((b, c) => rewriteOffsetIndex(b, c(0, 1), (oi) => {
      const [a, z] = [oi.pageLocations[1]!, oi.pageLocations[2]!];
      [a.firstRowIndex, z.firstRowIndex] = [z.firstRowIndex, a.firstRowIndex];
    }));
    await rejects(r.file.readOffsetIndex(0, 's'), 0, 's', /first row index/);
    const r2 = await open((b, c) => rewriteOffsetIndex(b, c(1, 2), (oi) => {
      oi.pageLocations[3]!.offset = 4;
    }));
    await rejects(r2.file.pageIndex(1, ['l', 'list', 'element']), 1, 'l.list.element', /outside the column chunk|overlaps/);
    await rejects(r2.readRows({ filter: { column: 'id', op: '=', value: 500 }, columns: ['l'] }), 1, 'l.list.element', /outside|overlaps/);
  });
});

describe('bad bloom filters', () => {
  test('offset outside the file, garbage header, short length', async () => {
    const r = await open((b, c) => {
      c(1, 1).metaData!.bloomFilterOffset = b.length + 100;
    });
    await rejects(r.file.readBloomFilter(1, 's'), 1, 's', /outside/);
    await rejects(r.readRows({ filter: S }), 1, 's', /outside/);
    const r2 = await open((_b, c) => {
      const m = c(0, 1).metaData!;
      m.bloomFilterOffset = m.dataPageOffset + 2;
      m.bloomFilterLength = undefined; // header first, then the bitset
    });
    await rejects(r2.file.readBloomFilter(0, 's'), 0, 's', /./);
    await rejects(r2.readRows({ filter: { column: 's', op: 'in', values: ['s1', 's2'] } }), 0, 's', /./);
    const r3 = await open((_b, c) => {
      c(2, 1).metaData!.bloomFilterLength! -= 40;
    });
    await rejects(r3.file.readBloomFilter(2, 's'), 2, 's', /bitset/);
  });
});

test('random damage to the index region: rows or a ParquetryError, never anything else', async () => {
  const base = await original();
  const probe = await ParquetReader.open(base);
  let lo = Infinity;
  for (const g of probe.file.metadata.rowGroups) {
    for (const c of g.columns) {
      for (const o of [c.columnIndexOffset, c.offsetIndexOffset, c.metaData!.bloomFilterOffset]) if (o !== undefined) lo = Math.min(lo, o);
    }
  }
  const footerStart = base.length - 8 - new DataView(base.buffer, base.byteOffset).getInt32(base.length - 8, true);
  const rand = rng(7);
  const filters: Filter[] = [ID, S, { or: [{ column: 'l.list.element', op: '>', value: 900 }, { column: 's', op: 'is null' }] }];
  let errors = 0;
  for (let round = 0; round < 150; round++) {
    const bytes = new Uint8Array(base);
    for (let k = 0; k < 1 + Math.floor(rand() * 4); k++) bytes[lo + Math.floor(rand() * (footerStart - lo))] = Math.floor(rand() * 256);
    const reader = await ParquetReader.open(bytes);
    for (const filter of filters) {
      try {
        await reader.readRows({ filter });
        await reader.file.pageIndex(Math.floor(rand() * 3), reader.schema.leaves[Math.floor(rand() * 3)]!.path);
        await reader.file.readBloomFilter(Math.floor(rand() * 3), 's');
      } catch (e) {
        if (!(e instanceof ParquetryError)) throw e;
        errors++;
      }
    }
  }
  assert.ok(errors > 0);
});
