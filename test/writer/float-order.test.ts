/**
 * Float statistics in both column orders the writer offers: TYPE_ORDER
 * (default) and IEEE_754_TOTAL_ORDER (`floatOrder: 'total'`). NaN counts per
 * chunk and page, zeros in the bounds and in distinct_count, all-NaN pages;
 * every written file checked by check-stats, the statistics compared with an
 * independent reckoning of the rows (BigInt total-order keys), and check-stats
 * shown to catch each kind of float lie.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BufferSink, defineSchema, field, ParquetWriter, type ParquetReader } from '../../src/node/index.js';
import { bufferSource } from '../../src/io/source.js';
import { ParquetReader as Reader } from '../../src/parquet/reader.js';
import { checkStatistics } from '../../src/parquet/inspect/check-stats.js';
import { applyStructured } from '../../scripts/fuzz/structured.js';
import { float16Bits } from '../../src/schema/coerce.js';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { decodeColumnIndex, type ColumnIndex } from '../../src/parquet/metadata/index.js';
import { encodeColumnIndex } from '../../src/parquet/metadata/encode.js';

type Kind = 'double' | 'float' | 'float16';
const WIDTH: Record<Kind, number> = { double: 8, float: 4, float16: 2 };

async function write(kind: Kind, values: (number | null)[], options: Record<string, unknown>): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, defineSchema({ x: field[kind]() }), options);
  await w.writeColumns({ x: values });
  await w.close();
  return sink.bytes();
}

const open = (b: Uint8Array): Promise<ParquetReader> => Reader.fromSource(bufferSource(b));

/** The value's PLAIN bytes as the column stores it. */
function bytesOf(kind: Kind, v: number): Uint8Array {
  const b = new Uint8Array(WIDTH[kind]);
  const dv = new DataView(b.buffer);
  if (kind === 'double') dv.setFloat64(0, v, true);
  else if (kind === 'float') dv.setFloat32(0, v, true);
  else dv.setUint16(0, float16Bits(v), true);
  return b;
}

/** IEEE 754 totalOrder key of PLAIN bytes, as an unsigned BigInt (independent of the code under test). */
function key(b: Uint8Array): bigint {
  let u = 0n;
  for (let i = b.length - 1; i >= 0; i--) u = (u << 8n) | BigInt(b[i]!);
  const bits = BigInt(b.length * 8);
  const sign = 1n << (bits - 1n);
  return u & sign ? ~u & ((1n << bits) - 1n) : u | sign;
}

const isNaNBytes = (kind: Kind, b: Uint8Array) => {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (kind === 'double') return Number.isNaN(dv.getFloat64(0, true));
  if (kind === 'float') return Number.isNaN(dv.getFloat32(0, true));
  const h = dv.getUint16(0, true);
  return (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
};
const isZero = (b: Uint8Array) => b.every((x, i) => x === 0 || (i === b.length - 1 && x === 0x80));

/** What the statistics of `values` must be, from their stored bytes. */
function expected(kind: Kind, values: (number | null)[], order: 'type' | 'total') {
  const stored = values.filter((v): v is number => v !== null).map((v) => bytesOf(kind, v));
  const nans = stored.filter((b) => isNaNBytes(kind, b));
  const nums = stored.filter((b) => !isNaNBytes(kind, b));
  const extremes = (xs: Uint8Array[]) => {
    const sorted = [...xs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    return [sorted[0]!, sorted[sorted.length - 1]!];
  };
  let bounds: Uint8Array[] | undefined;
  if (nums.length) {
    bounds = extremes(nums);
    if (order === 'type') {
      // TYPE_ORDER: a zero min is written -0, a zero max +0.
      if (isZero(bounds[0]!)) bounds[0] = bytesOf(kind, -0);
      if (isZero(bounds[1]!)) bounds[1] = bytesOf(kind, 0);
    }
  } else if (nans.length && order === 'total') bounds = extremes(nans);
  return { nanCount: nans.length, nullCount: values.length - stored.length, bounds };
}

const hex = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('hex') : 'none');

async function assertHonest(b: Uint8Array, what: string): Promise<void> {
  const report = await checkStatistics(bufferSource(b));
  assert.deepEqual(report.lies, [], what);
  assert.ok(report.checked.statistics > 0, what);
}

describe('zeros and distinct_count', () => {
  for (const kind of ['double', 'float', 'float16'] as const) {
    test(`${kind}: -0 and +0 are one value in TYPE_ORDER, two in total order; check-stats agrees with both`, async () => {
      const values = Array.from({ length: 200 }, (_, i) => [-0, 0, 1, NaN, 2][i % 5]!);
      for (const [order, want] of [['type', 4], ['total', 5]] as const) {
        const b = await write(kind, values, { floatOrder: order });
        const r = await open(b);
        const s = r.file.metadata.rowGroups[0]!.columns[0]!.metaData!.statistics!;
        assert.equal(s.distinctCount, want, `${order}: distinct_count`);
        assert.equal(s.nanCount, 40);
        await r.close();
        await assertHonest(b, `${kind} ${order}`);
        // The other count is a lie in this order.
        const other = setStat(b, 'distinctCount', 9 - want);
        const lies = (await checkStatistics(bufferSource(other))).lies;
        assert.deepEqual(lies.map((l) => [l.field, l.stored, l.actual]), [['distinct_count', String(9 - want), String(want)]]);
      }
    });
  }
});

describe('statistics equal an independent reckoning of the values', () => {
  const special = [NaN, -0, 0, Infinity, -Infinity, 1, -1, 0.5, 1e-40, -65504, 65504];
  for (const kind of ['double', 'float', 'float16'] as const) {
    test(`${kind}: random columns with NaN, zeros and infinities, small pages, both orders`, async () => {
      const value = fc.oneof(fc.constantFrom(...special, null), fc.double({ noNaN: false }));
      await fc.assert(
        fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 60 }), fc.constantFrom('type', 'total'), fc.boolean(), async (values, order, dictionary) => {
          const b = await write(kind, values, { floatOrder: order, pageRowLimit: 7, dictionary });
          const r = await open(b);
          const chunk = r.file.metadata.rowGroups[0]!.columns[0]!;
          assert.deepEqual(r.file.metadata.columnOrders![0], { type: order === 'total' ? 'IEEE_754_TOTAL_ORDER' : 'TYPE_ORDER' });
          const s = chunk.metaData!.statistics!;
          const want = expected(kind, values, order);
          assert.equal(s.nanCount, want.nanCount, 'nan_count');
          assert.equal(s.nullCount, want.nullCount, 'null_count');
          assert.equal(`${hex(s.minValue)} ${hex(s.maxValue)}`, `${hex(want.bounds?.[0])} ${hex(want.bounds?.[1])}`, 'bounds');
          const ci = await r.file.readColumnIndex(0, ['x']);
          const pages: (number | null)[][] = [];
          for (let i = 0; i < values.length; i += 7) pages.push(values.slice(i, i + 7));
          const pageWants = pages.map((p) => expected(kind, p, order));
          const allNaNPage = pageWants.some((p, i) => p.bounds === undefined && p.nullCount < pages[i]!.length);
          if (order === 'type' && allNaNPage) assert.equal(ci, null, 'TYPE_ORDER: no column index with an all-NaN page');
          else {
            assert.ok(ci, 'column index');
            assert.deepEqual(ci.nanCounts, pageWants.map((p) => p.nanCount));
            assert.deepEqual(ci.minValues.map(hex), pageWants.map((p) => hex(p.bounds?.[0] ?? new Uint8Array(0))));
            assert.deepEqual(ci.maxValues.map(hex), pageWants.map((p) => hex(p.bounds?.[1] ?? new Uint8Array(0))));
          }
          await r.close();
          await assertHonest(b, `${kind} ${order}`);
        }),
        { numRuns: 60 },
      );
    });
  }
});

/** The file with one field of its first chunk's Statistics replaced (the fuzz helpers' footer edit, which takes bytes too). */
function setStat(b: Uint8Array, field: string, value: number | Uint8Array): Uint8Array {
  return applyStructured(b, { kind: 'footerField', op: 'set', path: ['rowGroups', 0, 'columns', 0, 'metaData', 'statistics', field], value: value as number });
}

describe('check-stats catches float lies in total order', () => {
  const lies = async (b: Uint8Array) => (await checkStatistics(bufferSource(b))).lies.map((l) => [l.field, l.stored, l.actual]);

  test('a +0 min over -0, a -0 max over +0, a NaN bound over numbers', async () => {
    const b = await write('double', [-0, 0, 3], { floatOrder: 'total', pageIndex: false });
    const set = (field: string, v: number, from = b) => setStat(from, field, bytesOf('double', v));
    assert.deepEqual(await lies(set('minValue', 0)), [['min_value', '0', '-0']]);
    const onlyZeros = await write('double', [-0, 0], { floatOrder: 'total', pageIndex: false });
    assert.deepEqual(await lies(set('maxValue', -0, onlyZeros)), [['max_value', '-0', '0']]);
    assert.deepEqual(await lies(set('minValue', NaN)), [['min_value', 'NaN (0x000000000000f87f)', '-0']]);
    // TYPE_ORDER readers must allow -0 under a +0 min: the same edit is no lie there.
    const typed = await write('double', [-0, 0, 3], { pageIndex: false });
    assert.deepEqual(await lies(setStat(typed, 'minValue', bytesOf('double', 0))), []);
  });

  test('an all-NaN chunk whose bounds are not its NaNs, and a wrong nan_count', async () => {
    const nan = new Uint8Array(new Float64Array([NaN]).buffer);
    const negNaN = nan.slice();
    negNaN[7] = 0xff;
    const b = await write('double', [NaN, null, NaN], { floatOrder: 'total', pageIndex: false });
    const edited = setStat(b, 'maxValue', negNaN);
    assert.deepEqual(await lies(edited), [['max_value', 'NaN (0x000000000000f8ff)', 'NaN (0x000000000000f87f)']]);
    // A bound below every NaN (a number, say) still bounds them; a NaN above the least one does not.
    assert.deepEqual(await lies(setStat(b, 'minValue', bytesOf('double', 1))), []);
    const bigger = nan.slice();
    bigger[0] = 1;
    const above = setStat(b, 'minValue', bigger);
    assert.deepEqual(await lies(above), [['min_value', 'NaN (0x010000000000f87f)', 'NaN (0x000000000000f87f)']]);
    const count = setStat(b, 'nanCount', 1);
    assert.deepEqual(await lies(count), [['nan_count', '1', '2']]);
  });
});

describe('check-stats catches float lies in the column index', () => {
  /** The file with its first chunk's ColumnIndex edited in place (the edit keeps its length). */
  async function editIndex(b: Uint8Array, edit: (ci: ColumnIndex) => void): Promise<Uint8Array> {
    const r = await open(b);
    const chunk = r.file.metadata.rowGroups[0]!.columns[0]!;
    await r.close();
    const at = chunk.columnIndexOffset!;
    const len = chunk.columnIndexLength!;
    const ci = decodeColumnIndex(new ByteCursor(b.subarray(at, at + len)));
    edit(ci);
    const w = new ByteWriter();
    encodeColumnIndex(ci, w);
    const enc = w.finish();
    assert.equal(enc.length, len, 'the edit keeps the length');
    const out = b.slice();
    out.set(enc, at);
    return out;
  }
  const lies = async (b: Uint8Array) => (await checkStatistics(bufferSource(b))).lies.map((l) => [l.structure, l.page, l.field, l.stored, l.actual]);

  test('nan_counts, a +0 page min over -0, an all-NaN page bounded by other NaNs, a boundary order that total order breaks', async () => {
    // Pages of two: [NaN, NaN], [-0, 1], [2, 3].
    const b = await write('double', [NaN, NaN, -0, 1, 2, 3], { floatOrder: 'total', pageRowLimit: 2, dictionary: false });
    assert.deepEqual(await lies(b), []);
    assert.deepEqual(await lies(await editIndex(b, (ci) => (ci.nanCounts![1] = 1))), [['column index', 1, 'nan_counts', '1', '0']]);
    assert.deepEqual(await lies(await editIndex(b, (ci) => (ci.minValues[1] = bytesOf('double', 0)))), [['column index', 1, 'min_values', '0', '-0']]);
    const nan = ci0(b);
    const above = (await nan).slice();
    above[0] = 1;
    assert.deepEqual(await lies(await editIndex(b, (ci) => (ci.minValues[0] = above))), [['column index', 0, 'min_values', 'NaN (0x010000000000f87f)', 'NaN (0x000000000000f87f)']]);
    // The all-NaN page first: by total order its NaN bounds sort above the numbers' pages, so ASCENDING is false.
    assert.deepEqual((await lies(await editIndex(b, (ci) => (ci.boundaryOrder = 'ASCENDING')))).map((l) => l.slice(0, 4)), [['column index', 1, 'boundary_order', 'ASCENDING']]);
  });

  async function ci0(b: Uint8Array): Promise<Uint8Array> {
    const r = await open(b);
    const ci = (await r.file.readColumnIndex(0, ['x']))!;
    await r.close();
    return ci.minValues[0]!;
  }
});
