import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { CorruptFileError, InvalidArgumentError } from '../../src/errors.js';
import { decodeBitPacked, encodeBitPacked } from '../../src/encodings/bit-packed.js';

const cursor = (bytes: number[]) => new ByteCursor(Uint8Array.from(bytes));

function encode(values: number[], width: number): number[] {
  const w = new ByteWriter();
  encodeBitPacked(w, values, width);
  return [...w.finish()];
}

test('spec example: 0..7 at 3 bits pack MSB first into 05 39 77', () => {
  assert.deepEqual(encode([0, 1, 2, 3, 4, 5, 6, 7], 3), [0x05, 0x39, 0x77]);
  const c = cursor([0x05, 0x39, 0x77, 0xee]);
  const out = new Uint8Array(8);
  decodeBitPacked(c, 3, 8, out);
  assert.deepEqual([...out], [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.equal(c.pos, 3);
});

test('spec: 30 values at 2 bits take 8 bytes, the last padded with zeros', () => {
  const values = Array.from({ length: 30 }, (_, i) => i % 4);
  const bytes = encode(values, 2);
  assert.equal(bytes.length, 8);
  // 0,1,2,3 -> 00 01 10 11 = 0x1B; the last byte holds 0,1 then four zero bits
  assert.deepEqual(bytes, [0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x1b, 0x10]);
  const c = cursor(bytes);
  const out = new Uint16Array(31);
  decodeBitPacked(c, 2, 30, out, 1);
  assert.deepEqual([...out], [0, ...values]);
  assert.equal(c.pos, 8);
});

test('width 0 reads nothing; widths up to 32 round trip', () => {
  const c = cursor([]);
  const zero = new Uint8Array(4).fill(9);
  decodeBitPacked(c, 0, 4, zero);
  assert.deepEqual([...zero], [0, 0, 0, 0]);
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 32 }), fc.array(fc.nat(), { maxLength: 50 }), (width, raw) => {
      const values = raw.map((v) => (width === 32 ? (v * 2654435761) >>> 0 : v % 2 ** width));
      const out = new Uint32Array(values.length);
      decodeBitPacked(cursor(encode(values, width)), width, values.length, out);
      assert.deepEqual([...out], values);
    }),
  );
});

test('truncated input and bad arguments', () => {
  assert.throws(() => decodeBitPacked(cursor([0x05, 0x39]), 3, 8, new Uint8Array(8)), CorruptFileError);
  assert.throws(() => decodeBitPacked(cursor([0x05, 0x39, 0x77]), 9, 1, new Uint8Array(1)), InvalidArgumentError);
  assert.throws(() => encode([8], 3), InvalidArgumentError);
});
