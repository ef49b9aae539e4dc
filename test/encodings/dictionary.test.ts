import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CorruptFileError } from '../../src/errors.js';
import { take } from '../../src/encodings/dictionary.js';
import type { ByteArrays } from '../../src/encodings/types.js';

const texts = ({ data, offsets }: ByteArrays) =>
  Array.from({ length: offsets.length - 1 }, (_, i) => new TextDecoder().decode(data.subarray(offsets[i], offsets[i + 1])));

test('numbers keep their type and exact bits', () => {
  const idx = Int32Array.of(2, 0, 0, 1);
  assert.deepEqual(take(Int32Array.of(10, -20, 30), idx), Int32Array.of(30, 10, 10, -20));
  assert.deepEqual(take(BigInt64Array.of(-(2n ** 63n), 1n, 2n ** 63n - 1n), idx), BigInt64Array.of(2n ** 63n - 1n, -(2n ** 63n), -(2n ** 63n), 1n));
  assert.deepEqual(take(Float32Array.of(0.5, -0, 3), idx), Float32Array.of(3, 0.5, 0.5, -0));
  assert.deepEqual(take(Uint8Array.of(1, 0, 1), idx), Uint8Array.of(1, 1, 1, 0));
  const nan = new Float64Array(new BigInt64Array([0x7ff8000000000123n]).buffer);
  const out = take(Float64Array.of(nan[0]!, 1, 2), idx) as Float64Array;
  assert.equal(new BigInt64Array(out.buffer)[1], 0x7ff8000000000123n);
  // a dictionary that is a view into a larger buffer
  const big = new Float64Array([9, 9, 4, 5]).subarray(2);
  assert.deepEqual(take(big, Int32Array.of(1, 0)), Float64Array.of(5, 4));
});

test('byte arrays, from a dictionary whose offsets do not start at 0', () => {
  const dict: ByteArrays = { data: new TextEncoder().encode('__one' + 'two' + 'x'.repeat(100)), offsets: Int32Array.of(2, 5, 8, 108) };
  const v = take(dict, Int32Array.of(1, 2, 0, 1)) as ByteArrays;
  assert.deepEqual(texts(v), ['two', 'x'.repeat(100), 'one', 'two']);
  assert.deepEqual([...v.offsets], [0, 3, 103, 106, 109]);
  assert.deepEqual(texts(take(dict, new Int32Array(0)) as ByteArrays), []);
});

test('random gathers agree with a plain loop', () => {
  fc.assert(
    fc.property(fc.array(fc.integer(), { minLength: 1, maxLength: 50 }), fc.array(fc.nat(), { maxLength: 100 }), (dict, raw) => {
      const idx = Int32Array.from(raw, (k) => k % dict.length);
      assert.deepEqual(take(Int32Array.from(dict), idx), Int32Array.from(idx, (k) => dict[k]!));
    }),
  );
});

test('an index outside the dictionary names the index and the size', () => {
  const bad = (re: RegExp) => (e: unknown) => e instanceof CorruptFileError && re.test(e.message);
  assert.throws(() => take(Int32Array.of(1, 2), Int32Array.of(0, 2)), bad(/index 2 at position 1 .* dictionary of 2 values/));
  assert.throws(() => take(Float64Array.of(1), Int32Array.of(-1)), bad(/index -1 at position 0 .* dictionary of 1 values/));
  assert.throws(() => take(Uint8Array.of(1), Int32Array.of(1)), bad(/index 1/));
  assert.throws(() => take({ data: new Uint8Array(0), offsets: Int32Array.of(0) }, Int32Array.of(0)), bad(/dictionary of 0 values/));
});
