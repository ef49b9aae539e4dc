import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bitWidth, countOnes, ownedCopy, unpackLsb } from '../../src/encodings/bits.js';
import { sumLsb, unpackLsb64 } from '../../src/encodings/bits64.js';
import { packLsb, packLsb64 } from '../../src/encodings/bit-pack.js';
import { InvalidArgumentError } from '../../src/errors.js';

test('spec example: 0..7 at 3 bits pack LSB first into 88 C6 FA', () => {
  const dst = new Uint8Array(3);
  packLsb([0, 1, 2, 3, 4, 5, 6, 7], 0, 8, 3, dst, 0);
  assert.deepEqual([...dst], [0x88, 0xc6, 0xfa]);
  const out = new Int32Array(8);
  unpackLsb(dst, 0, 3, 8, out, 0);
  assert.deepEqual([...out], [0, 1, 2, 3, 4, 5, 6, 7]);
});

test('every width 0..32 round trips, at any count and output offset', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 70 }), fc.integer({ min: 0, max: 3 }), fc.integer(), (width, n, o, seed) => {
      const mask = width === 32 ? 0xffffffff : 2 ** width - 1;
      const src = Array.from({ length: n }, (_, i) => (Math.imul(seed ^ i, 0x9e3779b1) >>> 0) % (mask + 1));
      const bytes = new Uint8Array(Math.ceil((n * width) / 8) + 2).fill(0xee); // trailing bytes must stay untouched
      packLsb(src, 0, n, width, bytes, 1);
      assert.equal(bytes[0], 0xee);
      assert.equal(bytes[Math.ceil((n * width) / 8) + 1], 0xee);
      const out = new Uint32Array(n + o);
      unpackLsb(bytes, 1, width, n, out, o);
      assert.deepEqual([...out.subarray(o)], src);
    }),
  );
});

test('specialised widths agree with the bit-level definition into every target type', () => {
  const bytes = Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 0xff);
  for (const width of [1, 2, 4, 8, 16]) {
    const n = Math.floor((64 * 8) / width) - 3; // not a whole number of groups
    const expect: number[] = [];
    for (let i = 0; i < n; i++) {
      let v = 0;
      for (let b = 0; b < width; b++) {
        const bit = i * width + b;
        v |= ((bytes[bit >> 3]! >> (bit & 7)) & 1) << b;
      }
      expect.push(v);
    }
    const targets = width <= 8 ? [Uint8Array, Uint16Array, Int32Array, Uint32Array] : [Uint16Array, Int32Array, Uint32Array];
    for (const T of targets) {
      const out = new T(n);
      unpackLsb(bytes, 0, width, n, out, 0);
      assert.deepEqual([...out], expect, `width ${width} into ${T.name}`);
    }
  }
});

test('widths 33..64 round trip as 32-bit halves', () => {
  fc.assert(
    fc.property(fc.integer({ min: 33, max: 64 }), fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { maxLength: 40 }), (width, big) => {
      const vals = big.map((v) => BigInt.asUintN(width, v));
      const lo = Int32Array.from(vals, (v) => Number(v & 0xffffffffn));
      const hi = Int32Array.from(vals, (v) => Number(v >> 32n));
      const bytes = new Uint8Array(Math.ceil((vals.length * width) / 8));
      packLsb64(lo, hi, 0, vals.length, width, bytes, 0);
      const lo2 = new Int32Array(vals.length);
      const hi2 = new Int32Array(vals.length);
      unpackLsb64(bytes, 0, width, vals.length, lo2, hi2);
      assert.deepEqual(
        [...lo2].map((l, i) => (BigInt(hi2[i]! >>> 0) << 32n) | BigInt(l >>> 0)),
        vals,
      );
    }),
  );
});

test('packing refuses values wider than the width', () => {
  assert.throws(() => packLsb([4], 0, 1, 2, new Uint8Array(1), 0), InvalidArgumentError);
  assert.throws(() => packLsb([-1], 0, 1, 31, new Uint8Array(4), 0), InvalidArgumentError);
  assert.throws(() => packLsb([1], 0, 1, 0, new Uint8Array(1), 0), InvalidArgumentError);
  packLsb([-1], 0, 1, 32, new Uint8Array(4), 0);
});

test('bitWidth', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 7, 8, 255, 256, 0x7fffffff, 0xffffffff].map(bitWidth), [0, 1, 2, 2, 3, 3, 4, 8, 9, 31, 32]);
  assert.throws(() => bitWidth(-1), InvalidArgumentError);
  assert.throws(() => bitWidth(2 ** 32), InvalidArgumentError);
});

test('ownedCopy makes an aligned copy even from a Node Buffer view', () => {
  const backing = Buffer.from([9, 1, 0, 0, 0, 2, 0, 0, 0]);
  const copy = ownedCopy(backing, 1, 9);
  assert.equal(copy.byteOffset, 0);
  assert.equal(copy.buffer.byteLength, 8);
  backing[1] = 7;
  assert.deepEqual([...new Int32Array(copy.buffer)], [1, 2]);
});

test('sumLsb is the sum mod 2^64 of what unpackLsb and unpackLsb64 give, at every width', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 5 }), (width, n, skew) => {
      const bytes = Uint8Array.from({ length: Math.ceil((n * width) / 8) + skew }, (_, i) => (i * 151 + width * 7 + n) & 0xff);
      const p = Math.min(skew, bytes.length);
      const checked = bytes.subarray(0, p + Math.ceil((n * width) / 8));
      let want = 0n;
      const lo = new Int32Array(n);
      const hi = new Int32Array(n);
      if (width <= 32) unpackLsb(checked, p, width, n, lo, 0);
      else unpackLsb64(checked, p, width, n, lo, hi);
      for (let k = 0; k < n; k++) want += (BigInt(hi[k]! >>> 0) << 32n) + BigInt(lo[k]! >>> 0);
      const out = new Uint32Array(2);
      sumLsb(checked, p, width, n, out);
      assert.equal((BigInt(out[1]!) << 32n) + BigInt(out[0]!), BigInt.asUintN(64, want), `width ${width} n ${n}`);
    }),
    { numRuns: 400 },
  );
});

test('countOnes counts the ones unpackLsb gives at width 1, from any byte and for any count', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 40 }), fc.nat({ max: 8 }), fc.nat({ max: 320 }), (bytes, start, want) => {
      const p = Math.min(start, bytes.length);
      const n = Math.min(want, (bytes.length - p) * 8);
      const bits = new Uint8Array(n);
      unpackLsb(bytes, p, 1, n, bits, 0);
      assert.equal(countOnes(bytes, p, n), bits.reduce((a, b) => a + b, 0));
    }),
    { numRuns: 500 },
  );
});
