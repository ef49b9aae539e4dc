import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { CorruptFileError, InvalidArgumentError } from '../../src/errors.js';
import { decodePlain } from '../../src/encodings/plain.js';
import { encodePlain } from '../../src/encodings/plain-encode.js';
import type { ByteArrays, PhysicalType, Values } from '../../src/encodings/types.js';

const cursor = (bytes: number[] | Uint8Array, base = 0) => new ByteCursor(Uint8Array.from(bytes), 0, bytes.length, base);

function encode(type: PhysicalType, values: Values, typeLength?: number): number[] {
  const w = new ByteWriter();
  encodePlain(w, type, values, typeLength);
  return [...w.finish()];
}

const strings = (...s: string[]): ByteArrays => {
  const parts = s.map((x) => new TextEncoder().encode(x));
  const offsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  const data = new Uint8Array(offsets[parts.length]!);
  parts.forEach((p, i) => data.set(p, offsets[i]));
  return { data, offsets };
};

const texts = (v: Values) => {
  const { data, offsets } = v as ByteArrays;
  return Array.from({ length: offsets.length - 1 }, (_, i) => new TextDecoder().decode(data.subarray(offsets[i], offsets[i + 1])));
};

test('BOOLEAN is bit-packed LSB first', () => {
  const bytes = [0x0d, 0x01];
  const values = Uint8Array.of(1, 0, 1, 1, 0, 0, 0, 0, 1);
  assert.deepEqual(encode('BOOLEAN', values), bytes);
  const c = cursor([...bytes, 0xff]);
  assert.deepEqual(decodePlain(c, 'BOOLEAN', 9), values);
  assert.equal(c.pos, 2);
});

test('numbers are little-endian, and read from any alignment into memory of their own', () => {
  const bytes = [0xff, 0x01, 0x00, 0x00, 0x00, 0xfe, 0xff, 0xff, 0xff];
  const buf = Uint8Array.from(bytes);
  const c = new ByteCursor(buf, 1);
  const out = decodePlain(c, 'INT32', 2) as Int32Array;
  assert.deepEqual([...out], [1, -2]);
  assert.equal(c.pos, 9);
  buf[1] = 9;
  assert.equal(out[0], 1);
  assert.deepEqual(encode('INT32', out), bytes.slice(1));

  const i64 = BigInt64Array.of(-(2n ** 63n), 2n ** 63n - 1n, -1n);
  const b64 = encode('INT64', i64);
  assert.deepEqual(b64.slice(0, 8), [0, 0, 0, 0, 0, 0, 0, 0x80]);
  assert.deepEqual(decodePlain(cursor(b64), 'INT64', 3), i64);

  assert.deepEqual(encode('FLOAT', Float32Array.of(1)), [0, 0, 0x80, 0x3f]);
  assert.deepEqual(encode('DOUBLE', Float64Array.of(-2)), [0, 0, 0, 0, 0, 0, 0, 0xc0]);
  // a NaN with a payload and -0 keep their exact bits
  const odd = [0x01, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0x80];
  assert.deepEqual(encode('DOUBLE', decodePlain(cursor(odd), 'DOUBLE', 2)), odd);
  // a Node Buffer at an odd offset
  const nodeBuf = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 7]).subarray(1);
  assert.deepEqual([...(decodePlain(new ByteCursor(nodeBuf), 'DOUBLE', 1) as Float64Array)], [1]);
});

test('INT96 and FIXED_LEN_BYTE_ARRAY are raw bytes, as ByteArrays', () => {
  const int96 = Array.from({ length: 24 }, (_, i) => i);
  const v = decodePlain(cursor(int96), 'INT96', 2) as ByteArrays;
  assert.deepEqual([...v.offsets], [0, 12, 24]);
  assert.deepEqual([...v.data], int96);
  assert.deepEqual(encode('INT96', v), int96);
  const flba = decodePlain(cursor([1, 2, 3, 4, 5, 6]), 'FIXED_LEN_BYTE_ARRAY', 2, 3) as ByteArrays;
  assert.deepEqual([...flba.offsets], [0, 3, 6]);
  assert.deepEqual(encode('FIXED_LEN_BYTE_ARRAY', flba, 3), [1, 2, 3, 4, 5, 6]);
  assert.throws(() => encode('FIXED_LEN_BYTE_ARRAY', strings('ab', 'abc'), 3), InvalidArgumentError);
  assert.throws(() => encode('FIXED_LEN_BYTE_ARRAY', flba), InvalidArgumentError);
  assert.throws(() => decodePlain(cursor([1]), 'FIXED_LEN_BYTE_ARRAY', 1, 0), CorruptFileError);
});

test('BYTE_ARRAY: a 4-byte length before each value; the data holds only the values', () => {
  const bytes = [1, 0, 0, 0, 0x61, 0, 0, 0, 0, 3, 0, 0, 0, 0x62, 0x63, 0x64];
  const v = decodePlain(cursor(bytes), 'BYTE_ARRAY', 3) as ByteArrays;
  assert.deepEqual(texts(v), ['a', '', 'bcd']);
  assert.deepEqual([...v.offsets], [0, 1, 1, 4]);
  assert.equal(v.data.length, 4);
  assert.deepEqual(encode('BYTE_ARRAY', v), bytes);
  // long values take the bulk-copy path
  const long = 'x'.repeat(100) + 'y';
  assert.deepEqual(texts(decodePlain(new ByteCursor(Uint8Array.from(encode('BYTE_ARRAY', strings(long, 'z')))), 'BYTE_ARRAY', 2)), [long, 'z']);
  // a view whose offsets do not start at 0
  const view: ByteArrays = { data: new TextEncoder().encode('__abcd'), offsets: Int32Array.of(2, 3, 6) };
  assert.deepEqual(encode('BYTE_ARRAY', view), [1, 0, 0, 0, 0x61, 3, 0, 0, 0, 0x62, 0x63, 0x64]);
});

test('BYTE_ARRAY of an owned input is compacted in place: the same values as from a copy, the input untouched otherwise', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ minLength: 60, maxLength: 200 })), { maxLength: 40 }),
      fc.nat(7),
      fc.nat(5),
      (values, lead, tail) => {
        const encoded = encode('BYTE_ARRAY', strings(...values));
        const page = Uint8Array.from([...Array<number>(lead).fill(0xee), ...encoded, ...Array<number>(tail).fill(0xdd)]);
        const before = page.slice();
        const shared = new ByteCursor(page, lead, page.length, 1000);
        assert.deepEqual(texts(decodePlain(shared, 'BYTE_ARRAY', values.length)), values);
        assert.deepEqual(page, before);
        const owned = new ByteCursor(page, lead, page.length, 1000);
        const v = decodePlain(owned, 'BYTE_ARRAY', values.length, undefined, true) as ByteArrays;
        assert.deepEqual(texts(v), values);
        assert.equal(owned.pos, shared.pos);
        assert.equal(v.data.buffer, page.buffer);
        assert.equal(v.data.byteOffset, lead);
      },
    ),
  );
});

test('BYTE_ARRAY compacted in place reports a bad length where a copy does', () => {
  // 'abcde' (long enough to move word by word), then a value claiming more bytes than remain, then a truncated length
  const bytes = [5, 0, 0, 0, 0x61, 0x62, 0x63, 0x64, 0x65, 9, 0, 0, 0, 1, 2];
  for (const [count, bad] of [[2, bytes], [2, bytes.slice(0, 11)]] as const) {
    const errors = [false, true].map((owned) => {
      try {
        decodePlain(cursor(bad, 100), 'BYTE_ARRAY', count, undefined, owned);
      } catch (e) {
        assert.ok(e instanceof CorruptFileError);
        return e.message;
      }
      return 'no error';
    });
    assert.match(errors[0]!, /BYTE_ARRAY value 1 of 2/);
    assert.equal(errors[1], errors[0]);
  }
});

test('no values', () => {
  for (const type of ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY'] as const) {
    const c = cursor([]);
    const v = decodePlain(c, type, 0);
    assert.equal('offsets' in v ? v.offsets.length : v.length, 'offsets' in v ? 1 : 0);
    assert.equal(c.pos, 0);
  }
});

test('round trips', () => {
  const check = (type: PhysicalType, values: Values, typeLength?: number) => {
    const bytes = Uint8Array.from(encode(type, values, typeLength));
    const c = new ByteCursor(bytes);
    const n = 'offsets' in values ? values.offsets.length - 1 : values.length;
    assert.deepEqual(decodePlain(c, type, n, typeLength), values);
    assert.equal(c.pos, bytes.length);
  };
  fc.assert(
    fc.property(fc.array(fc.boolean()), (b) => check('BOOLEAN', Uint8Array.from(b, Number))),
  );
  fc.assert(fc.property(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), (v) => check('INT32', Int32Array.from(v))));
  fc.assert(fc.property(fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })), (v) => check('INT64', BigInt64Array.from(v))));
  fc.assert(fc.property(fc.array(fc.double({ noNaN: true })), (v) => check('DOUBLE', Float64Array.from(v))));
  fc.assert(fc.property(fc.array(fc.float({ noNaN: true })), (v) => check('FLOAT', Float32Array.from(v))));
  fc.assert(fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 50 })), (v) => check('BYTE_ARRAY', strings(...v))));
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 20 }), (len, n) => {
      const data = Uint8Array.from({ length: len * n }, (_, i) => i * 7);
      const offsets = Int32Array.from({ length: n + 1 }, (_, i) => i * len);
      check('FIXED_LEN_BYTE_ARRAY', { data, offsets }, len);
    }),
  );
});

test('a count the bytes cannot hold fails before anything is allocated', () => {
  assert.throws(() => decodePlain(cursor([1, 0, 0, 0, 2, 0, 0, 0]), 'INT32', 3), CorruptFileError);
  assert.throws(() => decodePlain(cursor([1, 0, 0, 0]), 'INT64', 1), CorruptFileError);
  assert.throws(() => decodePlain(cursor([0xff]), 'BOOLEAN', 9), CorruptFileError);
  assert.throws(() => decodePlain(cursor(new Array(8).fill(0)), 'BYTE_ARRAY', 2 ** 31), CorruptFileError);
  assert.throws(() => decodePlain(cursor(new Array(8).fill(0)), 'DOUBLE', 2 ** 40), CorruptFileError);
  assert.throws(() => decodePlain(cursor([]), 'INT32', -1), CorruptFileError);
});

test('BYTE_ARRAY lengths are checked against the bytes left', () => {
  assert.throws(
    () => decodePlain(cursor([1, 0, 0, 0, 0x61, 5, 0, 0, 0, 0x62], 500), 'BYTE_ARRAY', 2),
    (e: unknown) => e instanceof CorruptFileError && /value 1 of 2 claims 5 bytes but only 1 remain/.test(e.message) && e.context.offset === 505,
  );
  assert.throws(() => decodePlain(cursor([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]), 'BYTE_ARRAY', 2), CorruptFileError);
  assert.throws(() => decodePlain(cursor([2, 0, 0, 0, 0x61, 0x62, 0, 0, 0]), 'BYTE_ARRAY', 2), /value 1 of 2: length is truncated/);
});

test('the container must match the type', () => {
  assert.throws(() => encode('INT32', Float32Array.of(1)), InvalidArgumentError);
  assert.throws(() => encode('INT64', Int32Array.of(1)), InvalidArgumentError);
  assert.throws(() => encode('BYTE_ARRAY', Int32Array.of(1)), InvalidArgumentError);
  assert.throws(() => encode('BOOLEAN', Int32Array.of(1)), InvalidArgumentError);
  assert.throws(() => encode('BOOLEAN', Uint8Array.of(2)), InvalidArgumentError);
  assert.throws(() => encode('BYTE_ARRAY', { data: new Uint8Array(30), offsets: Int32Array.of(0, 20, 5) }), InvalidArgumentError);
});
