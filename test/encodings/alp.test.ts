/**
 * ALP (parquet-format AlpEncoding.md). The decoder against pages built byte
 * by byte from the specification's layout and its worked examples (no file
 * from another implementation could be had: see BENCHMARKS.md "ALP"); the
 * constants against exact arithmetic; the encoder by randomised round trips,
 * bit for bit, through every exception path the specification lists (values
 * that do not round-trip, NaN with any payload, infinities, -0, out of range,
 * exceptions at vector edges, all-exception vectors) at every vector size,
 * with a last partial vector, for FLOAT and DOUBLE; damaged pages give a
 * ParquetryError, never another error.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { decodeAlp, encodeAlp } from '../../src/encodings/alp.js';
import { ColumnOptionsError, CorruptFileError, ParquetryError, UnsupportedError } from '../../src/errors.js';
import { BufferSink, defineSchema, field, ParquetWriter } from '../../src/node/index.js';
import { bufferSource } from '../../src/io/source.js';
import { checkStatistics } from '../../src/parquet/inspect/check-stats.js';
import { ParquetReader } from '../../src/parquet/reader.js';

type T = 'FLOAT' | 'DOUBLE';

function encode(type: T, values: Float32Array | Float64Array, log = 10): Uint8Array {
  const w = new ByteWriter();
  encodeAlp(w, type, values, log);
  return w.finish().slice();
}

const decode = (type: T, bytes: Uint8Array, count: number) => decodeAlp(new ByteCursor(bytes), type, count);

const bitsOf = (a: Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

function le(...parts: [number, 'u8' | 'u16' | 'u32' | 'i32' | 'i64' | 'f64'][]): Uint8Array {
  const size = { u8: 1, u16: 2, u32: 4, i32: 4, i64: 8, f64: 8 };
  const out = new Uint8Array(parts.reduce((n, [, t]) => n + size[t], 0));
  const dv = new DataView(out.buffer);
  let p = 0;
  for (const [v, t] of parts) {
    if (t === 'u8') dv.setUint8(p, v);
    else if (t === 'u16') dv.setUint16(p, v, true);
    else if (t === 'u32') dv.setUint32(p, v, true);
    else if (t === 'i32') dv.setInt32(p, v, true);
    else if (t === 'i64') dv.setBigInt64(p, BigInt(v), true);
    else dv.setFloat64(p, v, true);
    p += size[t];
  }
  return out;
}

/** LSB-first packing, written out independently of the code under test. */
function pack(values: number[], bits: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((values.length * bits) / 8));
  values.forEach((v, i) => {
    for (let b = 0; b < bits; b++) if (Math.floor(v / 2 ** b) % 2) out[(i * bits + b) >> 3]! |= 1 << ((i * bits + b) & 7);
  });
  return out;
}

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

describe('the specification\'s examples decode', () => {
  test('Worked Example: { 1500.0, NaN, 2500.0, 333.5 } with e=4, f=3, one exception (a 31-byte vector)', () => {
    const vector = concat(
      le([4, 'u8'], [3, 'u8'], [1, 'u16']), // AlpInfo: exponent 4, factor 3, one exception
      le([3335, 'i64'], [15, 'u8']), // ForInfo: frame of reference 3335, 15 bits
      pack([11665, 11665, 21665, 0], 15), // the deltas, 8 bytes
      le([1, 'u16']), // exception position
      le([NaN, 'f64']), // exception value
    );
    assert.equal(vector.length, 31, 'the example says 31 bytes');
    const page = concat(le([0, 'u8'], [0, 'u8'], [10, 'u8'], [4, 'i32']), le([4, 'u32']), vector);
    const got = decode('DOUBLE', page, 4);
    assert.deepEqual([...got], [1500, NaN, 2500, 333.5]);
  });

  test('Example: Frame of Reference and Bit-Packing: [123, 456, 789, 12] in 10 bits, FLOAT and DOUBLE, two vectors of a vector size of 8', () => {
    const forVector = (t: T) => concat(le([0, 'u8'], [0, 'u8'], [0, 'u16']), le([12, t === 'FLOAT' ? 'i32' : 'i64'], [10, 'u8']), pack([111, 444, 777, 0], 10));
    for (const t of ['FLOAT', 'DOUBLE'] as const) {
      // Eight values then four (a last partial vector), the second the example's.
      const first = concat(le([0, 'u8'], [0, 'u8'], [0, 'u16']), le([-3, t === 'FLOAT' ? 'i32' : 'i64'], [0, 'u8'])); // bit width 0: all equal the frame
      const page = concat(le([0, 'u8'], [0, 'u8'], [3, 'u8'], [12, 'i32']), le([8, 'u32'], [8 + first.length, 'u32']), first, forVector(t));
      assert.equal(forVector(t).length - (t === 'FLOAT' ? 9 : 13), 5, 'the example packs 40 bits in 5 bytes');
      assert.deepEqual([...decode(t, page, 12)], [-3, -3, -3, -3, -3, -3, -3, -3, 123, 456, 789, 12]);
    }
  });

  test('the binary32 constants are the correctly rounded values of 10^k and 10^-k (k <= 10)', () => {
    // Exact check: the chosen float is nearer 10^k than both neighbours, by rational arithmetic.
    const f32 = new Float32Array(1);
    const u32 = new Uint32Array(f32.buffer);
    const exact = (x: number): [bigint, bigint] => {
      let num = 0n;
      let den = 1n;
      let v = x;
      while (!Number.isInteger(v)) {
        v *= 2;
        den *= 2n;
      }
      num = BigInt(v);
      return [num, den];
    };
    for (let k = -10; k <= 10; k++) {
      f32[0] = Math.fround(Number(`1e${k}`));
      const chosen = f32[0]!;
      const neighbours = [-1, 1].map((d) => {
        u32[0] = u32[0]! + d;
        const n = f32[0]!;
        u32[0] = u32[0]! - d;
        return n;
      });
      // |chosen - 10^k| <= |n - 10^k| for both neighbours, with 10^k = p / q exactly.
      const [p, q] = k >= 0 ? [10n ** BigInt(k), 1n] : [1n, 10n ** BigInt(-k)];
      const dist = (x: number) => {
        const [n, d] = exact(x);
        const diff = n * q - p * d;
        return [diff < 0n ? -diff : diff, d * q] as const;
      };
      const [cn, cd] = dist(chosen);
      for (const nb of neighbours) {
        const [nn, nd] = dist(nb);
        assert.ok(cn * nd <= nn * cd, `1e${k}: ${chosen} is not the nearest binary32 (${nb} is nearer)`);
      }
    }
  });
});

/** Values of every kind the encoder must keep: decimals, NaN payloads, infinities, zeros, subnormals, out of range, noise. */
function valueArb(type: T): fc.Arbitrary<number | Uint8Array> {
  const width = type === 'FLOAT' ? 4 : 8;
  const nanBits = fc.uint8Array({ minLength: width, maxLength: width }).map((b) => {
    // Exponent all ones, a non-zero payload: a NaN with any sign and payload.
    const out = b.slice();
    if (width === 8) {
      out[7] = (out[7]! & 0x80) | 0x7f;
      out[6] = out[6]! | 0xf0;
      if (out.slice(0, 6).every((x) => x === 0) && (out[6]! & 0x0f) === 0) out[0] = 1;
    } else {
      out[3] = (out[3]! & 0x80) | 0x7f;
      out[2] = out[2]! | 0x80;
      if (out[0] === 0 && out[1] === 0 && (out[2]! & 0x7f) === 0) out[0] = 1;
    }
    return out;
  });
  const decimal = fc.tuple(fc.integer({ min: -99_999_999, max: 99_999_999 }), fc.integer({ min: 0, max: 8 })).map(([n, d]) => n / 10 ** d);
  return fc.oneof(
    { weight: 6, arbitrary: decimal },
    { weight: 1, arbitrary: fc.constantFrom(-0, 0, Infinity, -Infinity, NaN, 5e-324, 1e-45, 3.4e38, 1e300, -(2 ** 62), 2 ** 53 + 2, 1 / 3) },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: nanBits },
  );
}

function toArray(type: T, values: (number | Uint8Array)[]): Float32Array | Float64Array {
  const a = type === 'FLOAT' ? new Float32Array(values.length) : new Float64Array(values.length);
  const bytes = new Uint8Array(a.buffer);
  values.forEach((v, i) => {
    if (v instanceof Uint8Array) bytes.set(v, i * a.BYTES_PER_ELEMENT);
    else a[i] = v;
  });
  return a;
}

function roundTrip(type: T, a: Float32Array | Float64Array, log: number): void {
  const bytes = encode(type, a, log);
  const back = decode(type, bytes, a.length);
  assert.equal(bitsOf(back), bitsOf(a));
}

describe('the encoder round-trips bit for bit', () => {
  for (const type of ['FLOAT', 'DOUBLE'] as const) {
    test(`${type}: random mixes at vector sizes 8 to 4096, last vectors partial`, () => {
      fc.assert(
        fc.property(fc.array(valueArb(type), { maxLength: 700 }), fc.integer({ min: 3, max: 12 }), (values, log) => roundTrip(type, toArray(type, values), log)),
        { numRuns: 300 },
      );
    });

    test(`${type}: exceptions at the edges of vectors, all-exception vectors, one-value vectors`, () => {
      for (const log of [3, 4, 10]) {
        const size = 1 << log;
        for (const n of [1, size - 1, size, size + 1, 3 * size + 5]) {
          const base = Array.from({ length: n }, (_, i) => (i % 17) / 4 + 100);
          const edges = base.map((v, i) => (i % size === 0 || i % size === size - 1 || i === n - 1 ? [NaN, -0, Infinity, 1 / 3][i % 4]! : v));
          roundTrip(type, toArray(type, edges), log);
          roundTrip(type, toArray(type, base.map((_, i) => [NaN, -0, -Infinity, 2 ** 70][i % 4]!)), log);
          roundTrip(type, toArray(type, base.map(() => 7.25)), log); // bit width 0
        }
      }
      roundTrip(type, toArray(type, []), 10);
    });
  }

  test('decimal-like doubles take far less room than PLAIN; noise costs at most its exceptions', () => {
    const prices = Float64Array.from({ length: 10_000 }, (_, i) => Math.round(1000 + 500 * Math.sin(i / 50)) / 100);
    assert.ok(encode('DOUBLE', prices).length < prices.byteLength / 3);
    const noise = Float64Array.from({ length: 10_000 }, (_, i) => Math.sin(i) * Math.PI);
    // Each exception is its 8 bytes and a 2-byte position.
    assert.ok(encode('DOUBLE', noise).length <= noise.length * 10 + 7 + 4 * 10 + 13 * 10);
  });
});

describe('damaged pages are ParquetryErrors', () => {
  const good = encode('DOUBLE', Float64Array.from({ length: 3000 }, (_, i) => (i % 100 === 0 ? NaN : i / 8)), 9);

  test('header fields out of range, counts that disagree, offsets and sizes past the page', () => {
    const edit = (at: number, v: number) => {
      const b = good.slice();
      b[at] = v;
      return b;
    };
    assert.throws(() => decode('DOUBLE', edit(0, 1), 3000), UnsupportedError);
    assert.throws(() => decode('DOUBLE', edit(1, 2), 3000), UnsupportedError);
    assert.throws(() => decode('DOUBLE', edit(2, 2), 3000), CorruptFileError);
    assert.throws(() => decode('DOUBLE', edit(2, 16), 3000), CorruptFileError);
    assert.throws(() => decode('DOUBLE', good, 2999), CorruptFileError);
    assert.throws(() => decode('DOUBLE', good.subarray(0, good.length - 1), 3000), CorruptFileError);
    assert.throws(() => decode('DOUBLE', concat(good, Uint8Array.of(0)), 3000), CorruptFileError);
    assert.throws(() => decode('DOUBLE', good.subarray(0, 5), 3000), CorruptFileError);
    assert.throws(() => decode('FLOAT', good, 3000), CorruptFileError);
  });

  test('random damage: values or a ParquetryError', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: good.length }), (edits, cut) => {
        const b = good.slice(0, Math.max(cut, 7));
        for (const [at, v] of edits) if (at < b.length) b[at] = v;
        try {
          decode('DOUBLE', b, 3000);
        } catch (e) {
          if (!(e instanceof ParquetryError)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('ALP in files', () => {
  test('the writer\'s opt-in encoding: nullable FLOAT and DOUBLE columns, pages v1 and v2, compressed; our reader and check-stats agree', async () => {
    const n = 5000;
    const d = Array.from({ length: n }, (_, i) => (i % 11 === 0 ? null : i % 97 === 0 ? NaN : Math.round(Math.cos(i) * 1e4) / 100));
    const fl = d.map((v) => (v === null ? null : Math.fround(v)));
    for (const pageVersion of [1, 2] as const) {
      const sink = new BufferSink();
      const w = await ParquetWriter.open(sink, defineSchema({ d: field.double(), f: field.float() }), {
        pageVersion, codec: 'ZSTD', pageRowLimit: 1500, floatOrder: 'total',
        columns: { d: { encoding: 'ALP', dictionary: false }, f: { encoding: 'ALP', dictionary: false } },
      });
      await w.writeColumns({ d, f: fl });
      await w.close();
      const r = await ParquetReader.fromSource(bufferSource(sink.bytes()));
      for (const c of r.file.metadata.rowGroups[0]!.columns) assert.ok(c.metaData!.encodings.includes('ALP'), String(c.metaData!.encodings));
      const rows = await r.readRows();
      assert.equal(JSON.stringify(rows.map((x) => [x.d, x.f]), (_k, v: unknown) => (typeof v === 'number' && Number.isNaN(v) ? 'NaN' : v)),
        JSON.stringify(d.map((v, i) => [v, fl[i]]), (_k, v: unknown) => (typeof v === 'number' && Number.isNaN(v) ? 'NaN' : v)));
      assert.deepEqual((await checkStatistics(r.file)).lies, []);
      await r.close();
    }
  });
});

test('ALP on a column that is not FLOAT or DOUBLE is a ColumnOptionsError at open, naming the encodings the column takes', async () => {
  const open = (encoding: 'ALP' | 'BYTE_STREAM_SPLIT') => ParquetWriter.open(new BufferSink(), defineSchema({ n: field.int64(), s: field.string() }), { columns: { [encoding === 'ALP' ? 'n' : 's']: { encoding } } });
  await assert.rejects(open('ALP'), (e: unknown) => e instanceof ColumnOptionsError && e.column === 'n' && e.type === 'INT64' && e.encodings!.join() === 'PLAIN,DELTA_BINARY_PACKED,BYTE_STREAM_SPLIT');
  await assert.rejects(open('BYTE_STREAM_SPLIT'), (e: unknown) => e instanceof ColumnOptionsError && e.message === 'encoding BYTE_STREAM_SPLIT cannot be used for BYTE_ARRAY column s; it takes PLAIN, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY (column s)');
});
