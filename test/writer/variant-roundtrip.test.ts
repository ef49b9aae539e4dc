/**
 * VARIANT columns written by our writer and read by our reader: random JS
 * values and typed values (fast-check), unshredded and under several
 * shredded shapes, read back to the form the spec's type mapping gives
 * (reckoned here from the input, not from the decoder). Also the metadata's
 * sorted flag and the field order of objects, checked on the bytes.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BufferSink, ParquetReader, ParquetWriter, bufferSource, defineSchema, field, variant, VariantValue } from '../../src/index.js';
import { encodeVariant } from '../../src/parquet/variant/encode.js';
import type { AnyField } from '../../src/schema/builder.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { checkStatistics } from '../../src/parquet/inspect/check-stats.js';
import { decodeFileMetaData } from '../../src/parquet/metadata/index.js';
import { encodeFileMetaData } from '../../src/parquet/metadata/encode.js';
import { ByteWriter } from '../../src/bytes/writer.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** ISO text of `nanos` since the epoch with `digits` fraction digits (dates within 1970-2200 here). */
function iso(nanos: bigint, digits: 6 | 9, utc: boolean): string {
  const ms = nanos / 1_000_000n - (nanos % 1_000_000n < 0n ? 1n : 0n);
  const base = new Date(Number(ms)).toISOString().slice(0, 19);
  const frac = ((nanos % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n;
  const f = String(frac).padStart(9, '0').slice(0, digits);
  return `${base}.${f}${utc ? 'Z' : ''}`;
}

function decimalText(u: bigint, scale: number): string {
  const neg = u < 0n;
  const s = String(neg ? -u : u).padStart(scale + 1, '0');
  return (neg ? '-' : '') + (scale ? `${s.slice(0, -scale)}.${s.slice(-scale)}` : s);
}

/** What reading gives back for a written value (decode.ts's table), reckoned independently. */
function expected(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return v >= -MAX_SAFE && v <= MAX_SAFE ? Number(v) : v >= -(1n << 63n) && v < 1n << 63n ? v : String(v);
  if (typeof v === 'string' || typeof v === 'boolean' || v instanceof Uint8Array) return v;
  if (v instanceof Date) return iso(BigInt(v.getTime()) * 1_000_000n, 6, true);
  if (v instanceof VariantValue) {
    const x = v.value;
    switch (v.type) {
      case 'int64': return x as bigint >= -MAX_SAFE && x as bigint <= MAX_SAFE ? Number(x) : x;
      case 'decimal4': case 'decimal8': case 'decimal16': return decimalText(x as bigint, v.scale);
      case 'date': return new Date((x as number) * 86_400_000).toISOString().slice(0, 10);
      case 'time': return iso(x as bigint * 1000n, 6, false).slice(11);
      case 'timestamp': return iso(x as bigint * 1000n, 6, true);
      case 'timestamp_ntz': return iso(x as bigint * 1000n, 6, false);
      case 'timestamp_nanos': return iso(x as bigint, 9, true);
      case 'timestamp_ntz_nanos': return iso(x as bigint, 9, false);
      case 'uuid': {
        const h = Buffer.from(x as Uint8Array).toString('hex');
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      }
      default: return x;
    }
  }
  if (Array.isArray(v)) return v.map(expected);
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).filter((k) => o[k] !== undefined).sort(byUtf8)) {
    Object.defineProperty(out, k, { value: expected(o[k]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const EPOCH_2200 = 7_258_118_400_000;
const typed: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -128, max: 127 }).map(variant.int8),
  fc.integer({ min: -32768, max: 32767 }).map(variant.int16),
  fc.integer().map(variant.int32),
  fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }).map(variant.int64),
  fc.float({ noNaN: true }).map(variant.float),
  fc.tuple(fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }), fc.integer({ min: 0, max: 38 })).map(([u, s]) => variant.decimal(decimalText(u, s))),
  fc.tuple(fc.bigInt({ min: -999_999_999n, max: 999_999_999n }), fc.integer({ min: 0, max: 9 })).map(([u, s]) => variant.decimal4(decimalText(u, s))),
  fc.integer({ min: 0, max: 80_000 }).map(variant.date),
  fc.bigInt({ min: 0n, max: 86_400_000_000n - 1n }).map(variant.time),
  fc.tuple(fc.bigInt({ min: 0n, max: BigInt(EPOCH_2200) * 1_000_000n }), fc.boolean(), fc.boolean()).map(([n, nanos, utc]) =>
    variant.timestamp(nanos ? n : n / 1000n, { unit: nanos ? 'NANOS' : 'MICROS', utc })),
  fc.uint8Array({ minLength: 16, maxLength: 16 }).map(variant.uuid),
);

const key = fc.oneof(fc.constantFrom('a', 'b', 'c', 'é', '__proto__', 'Z', 'aa', ''), fc.string({ maxLength: 4 }));
const scalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.maxSafeInteger(),
  fc.bigInt({ min: -(10n ** 37n), max: 10n ** 37n }), fc.string({ maxLength: 80 }), fc.uint8Array({ maxLength: 8 }),
  fc.integer({ min: 0, max: EPOCH_2200 }).map((ms) => new Date(ms)), typed,
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie('v')), { maxLength: 4 }).map((es) => {
      const o: Record<string, unknown> = {};
      for (const [k, x] of es) Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
      return o;
    }),
  ),
})).v;

const SHAPES: Array<[string, AnyField | undefined]> = [
  ['unshredded', undefined],
  ['int64', field.int64()],
  ['string', field.string()],
  ['object', field.struct({ a: field.int64(), b: field.string(), c: field.struct({ a: field.double(), b: field.list(field.int32()) }) })],
  ['list', field.list(field.struct({ a: field.boolean() }))],
  ['decimal', field.decimal(9, 2)],
  ['timestamp', field.timestamp('NANOS', { utc: false })],
];

async function roundTrip(shape: AnyField | undefined, values: unknown[], required = false, v = field.variant(shape ? { shredded: shape } : {})): Promise<unknown[]> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open(sink, defineSchema({ v: required ? v.required() : v }), { rowGroupRows: 7 });
  for (const x of values) await w.write({ v: x });
  await w.close();
  const out: unknown[] = [];
  for await (const row of (await ParquetReader.open(bufferSource(sink.bytes()))).rows()) out.push((row as { v: unknown }).v);
  return out;
}

describe('VARIANT write and read back', () => {
  for (const [name, shape] of SHAPES) {
    test(`random values, ${name}`, async () => {
      await fc.assert(fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 12 }), async (values) => {
        const got = await roundTrip(shape, values);
        assert.deepStrictEqual(got, values.map(expected));
        // Keys in UTF-8 order, but for the integer-like ones JS always puts first.
        for (const g of got) {
          if (!g || typeof g !== 'object' || Array.isArray(g) || g instanceof Uint8Array) continue;
          const keys = Object.keys(g).filter((k) => !/^(0|[1-9]\d*)$/.test(k));
          assert.deepEqual(keys, [...keys].sort(byUtf8));
        }
      }), { numRuns: 40 });
    });
  }

  test('a required variant takes null as variant null; an optional one as a null group', async () => {
    assert.deepStrictEqual(await roundTrip(undefined, [null, 1], true), [null, 1]);
    assert.deepStrictEqual(await roundTrip(field.int64(), [null, undefined, 1]), [null, null, 1]);
  });

  test('numbers: smallest integer type, -0 and unsafe integers as doubles, exact decimals on request', async () => {
    const types = (v: unknown, exactDecimals = false) => encodeVariant(v, { exactDecimals }).value[0]! >> 2;
    assert.deepEqual([1, 300, 70000, 2 ** 40, -0, 2 ** 60, 0.5].map((v) => types(v)), [3, 4, 5, 6, 7, 7, 7]);
    assert.deepEqual([0.1, 1e-30, 123456789.123, 1.2345678901234567e+25, 1e300].map((v) => types(v, true)), [8, 8, 9, 10, 7]);
    assert.deepEqual(await roundTrip(undefined, [{ p: 0.1, q: 12.5, r: 3 }], false, field.variant({ exactDecimals: true })), [{ p: '0.1', q: '12.5', r: 3 }]);
  });

  test('metadata: dictionary sorted by UTF-8 bytes with the flag set; object ids in key order', () => {
    const { metadata, value: bytes } = encodeVariant({ zeta: 1, é: 2, alpha: { b: 1, a: 2 }, Z: 3 });
    assert.equal(metadata[0], 0x11);
    const n = metadata[1]!;
    const offs = Array.from({ length: n + 1 }, (_, i) => metadata[2 + i]!);
    const strs = Array.from({ length: n }, (_, i) => Buffer.from(metadata.subarray(2 + n + 1 + offs[i]!, 2 + n + 1 + offs[i + 1]!)).toString());
    assert.deepEqual(strs, ['Z', 'a', 'alpha', 'b', 'zeta', 'é']);
    // Top-level object: 4 fields, 1-byte ids: Z, alpha, zeta, é.
    assert.deepEqual([...bytes.subarray(2, 6)], [0, 2, 4, 5]);
    assert.deepEqual([...encodeVariant(5).metadata], [1, 0, 0]);
  });

  test('values that do not fit are refused with the column named', async () => {
    const sink = new BufferSink();
    const w = await ParquetWriter.open(sink, defineSchema({ v: field.variant() }));
    await assert.rejects(w.write({ v: () => 1 }), (e: unknown) => e instanceof InvalidArgumentError && /column v|field v|\bv\b/.test(String(e)));
    await assert.rejects(w.write({ v: new Map([[1, 2]]) }), InvalidArgumentError);
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep];
    await assert.rejects(w.write({ v: deep }), InvalidArgumentError);
    await w.write({ v: 1 });
    await w.close();
    assert.throws(() => variant.int8(128), InvalidArgumentError);
    assert.throws(() => variant.decimal4('12345678901'), InvalidArgumentError);
    assert.throws(() => variant.decimal('1.25', 1), InvalidArgumentError);
    assert.throws(() => variant.time('24:00:00'), InvalidArgumentError);
    assert.throws(() => field.variant({ shredded: field.map(field.string(), field.int32()) }), InvalidArgumentError);
    await assert.rejects(ParquetWriter.open(new BufferSink(), defineSchema({ v: field.variant({ shredded: field.uint32() }) })), InvalidArgumentError);
  });
});

describe('statistics of shredded VARIANT columns', () => {
  test('check-stats verifies every statistic written for a shredded variant, and catches a lying typed column', async () => {
    const sink = new BufferSink();
    const shape = field.struct({ a: field.struct({ b: field.int64() }), t: field.list(field.double()), d: field.decimal(9, 2), ts: field.timestamp('NANOS') });
    const w = await ParquetWriter.open(sink, defineSchema({ id: field.int32().required(), v: field.variant({ shredded: shape }) }), { rowGroupRows: 100, pageRowLimit: 30 });
    for (let i = 0; i < 300; i++) {
      await w.write({ id: i, v: i % 7 === 0 ? 'str' : { a: { b: i % 5 === 0 ? 'x' : i }, t: [i / 3, -0, NaN], d: variant.decimal4(`${i}.25`), ts: variant.timestamp(BigInt(i) * 1000n, { unit: 'NANOS' }), z: i } });
    }
    await w.close();
    const file = sink.bytes();
    const report = await checkStatistics(bufferSource(file));
    assert.deepEqual(report.lies, []);
    assert.ok(report.checked.statistics >= 3 * 12, String(report.checked.statistics));
    // The typed leaf of v.a.b claims a maximum below the one it holds.
    const footerLength = new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);
    const start = file.length - 8 - footerLength;
    const meta = decodeFileMetaData(file.subarray(start, file.length - 8));
    const chunk = meta.rowGroups[0]!.columns.find((c) => c.metaData!.pathInSchema.join('.') === 'v.typed_value.a.typed_value.b.typed_value')!;
    chunk.metaData!.statistics!.maxValue = Uint8Array.of(50, 0, 0, 0, 0, 0, 0, 0);
    const out = new ByteWriter();
    out.bytes(file.subarray(0, start));
    const before = out.length;
    encodeFileMetaData(meta, out);
    out.u32le(out.length - before);
    out.bytes(Uint8Array.from([0x50, 0x41, 0x52, 0x31]));
    const lies = (await checkStatistics(bufferSource(out.finish()))).lies;
    assert.deepEqual(lies.map((l) => [l.column, l.field]), [['v.typed_value.a.typed_value.b.typed_value', 'max_value']]);
  });
});
