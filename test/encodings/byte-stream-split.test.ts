import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { CorruptFileError, InvalidArgumentError } from '../../src/errors.js';
import { decodeByteStreamSplit, encodeByteStreamSplit } from '../../src/encodings/byte-stream-split.js';
import type { ByteArrays, PhysicalType, Values } from '../../src/encodings/types.js';

function encode(type: PhysicalType, values: Values, typeLength?: number): number[] {
  const w = new ByteWriter();
  encodeByteStreamSplit(w, type, values, typeLength);
  return [...w.finish()];
}

const cursor = (bytes: number[]) => new ByteCursor(Uint8Array.from(bytes));

test('spec example: three floats AA BB CC DD, 00 11 22 33, A3 B4 C5 D6', () => {
  const raw = [0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x11, 0x22, 0x33, 0xa3, 0xb4, 0xc5, 0xd6];
  const split = [0xaa, 0x00, 0xa3, 0xbb, 0x11, 0xb4, 0xcc, 0x22, 0xc5, 0xdd, 0x33, 0xd6];
  const floats = new Float32Array(Uint8Array.from(raw).buffer);
  assert.deepEqual(encode('FLOAT', floats), split);
  const c = cursor(split);
  const out = decodeByteStreamSplit(c, 'FLOAT', 3) as Float32Array;
  assert.deepEqual([...new Uint8Array(out.buffer, out.byteOffset, out.byteLength)], raw);
  assert.equal(c.pos, 12);
  // the same bytes as INT32, and as a 4-byte FIXED_LEN_BYTE_ARRAY
  assert.deepEqual(decodeByteStreamSplit(cursor(split), 'INT32', 3), new Int32Array(Uint8Array.from(raw).buffer));
  const flba = decodeByteStreamSplit(cursor(split), 'FIXED_LEN_BYTE_ARRAY', 3, 4) as ByteArrays;
  assert.deepEqual([...flba.data], raw);
  assert.deepEqual([...flba.offsets], [0, 4, 8, 12]);
});

test('round trips for every supported type', () => {
  const check = (type: PhysicalType, values: Values, n: number, typeLength?: number) => {
    const bytes = encode(type, values, typeLength);
    assert.deepEqual(decodeByteStreamSplit(cursor(bytes), type, n, typeLength), values);
  };
  fc.assert(fc.property(fc.array(fc.double({ noNaN: true })), (v) => check('DOUBLE', Float64Array.from(v), v.length)));
  fc.assert(fc.property(fc.array(fc.float({ noNaN: true })), (v) => check('FLOAT', Float32Array.from(v), v.length)));
  fc.assert(fc.property(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), (v) => check('INT32', Int32Array.from(v), v.length)));
  fc.assert(fc.property(fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })), (v) => check('INT64', BigInt64Array.from(v), v.length)));
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 17 }), fc.integer({ min: 0, max: 30 }), (len, n) => {
      const data = Uint8Array.from({ length: len * n }, (_, i) => (i * 31) & 0xff);
      check('FIXED_LEN_BYTE_ARRAY', { data, offsets: Int32Array.from({ length: n + 1 }, (_, i) => i * len) }, n, len);
    }),
  );
});

test('the stream must be exactly width * count bytes, and only for the listed types', () => {
  assert.throws(() => decodeByteStreamSplit(cursor([1, 2, 3, 4, 5]), 'FLOAT', 1), CorruptFileError);
  assert.throws(() => decodeByteStreamSplit(cursor([1, 2, 3]), 'FLOAT', 1), CorruptFileError);
  assert.throws(() => decodeByteStreamSplit(cursor(new Array(12).fill(0)), 'INT96', 1), CorruptFileError);
  assert.throws(() => decodeByteStreamSplit(cursor([1]), 'BOOLEAN', 1), CorruptFileError);
  assert.throws(() => decodeByteStreamSplit(cursor([]), 'FIXED_LEN_BYTE_ARRAY', 0, 0), CorruptFileError);
  assert.deepEqual(decodeByteStreamSplit(cursor([]), 'DOUBLE', 0), new Float64Array(0));
  assert.throws(() => encode('BYTE_ARRAY', { data: new Uint8Array(0), offsets: Int32Array.of(0) }), InvalidArgumentError);
  assert.throws(() => encode('DOUBLE', Float32Array.of(1)), InvalidArgumentError);
});
