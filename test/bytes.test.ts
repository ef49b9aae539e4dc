import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteCursor } from '../src/bytes/cursor.js';
import { ByteWriter } from '../src/bytes/writer.js';
import { typedArray } from '../src/bytes/small-arrays.js';
import { bytesEqual } from '../src/bytes/equal.js';
import { CorruptFileError } from '../src/errors.js';

test('ULEB128 vectors from the spec examples', () => {
  // 300 = 0b1_0010_1100 -> 0xAC 0x02
  assert.equal(new ByteCursor(Uint8Array.of(0xac, 0x02)).varUint(), 300);
  assert.equal(new ByteCursor(Uint8Array.of(0x7f)).varUint(), 127);
  const max = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
  assert.equal(new ByteCursor(max).varUint64(), 0xffffffffffffffffn);
});

test('zig-zag maps 0,-1,1,-2 to 0,1,2,3', () => {
  const c = new ByteCursor(Uint8Array.of(0, 1, 2, 3));
  assert.deepEqual([c.zigzag32(), c.zigzag32(), c.zigzag32(), c.zigzag32()], [0, -1, 1, -2]);
  const w = new ByteWriter();
  for (const v of [0n, -1n, 1n, -2n, -(2n ** 63n), 2n ** 63n - 1n]) w.zigzag64(v);
  const r = new ByteCursor(w.finish());
  assert.deepEqual([0, 1, 2, 3, 4, 5].map(() => r.zigzag64()), [0n, -1n, 1n, -2n, -(2n ** 63n), 2n ** 63n - 1n]);
});

test('reads past the end are typed errors with the file offset', () => {
  const c = new ByteCursor(Uint8Array.of(1, 2), 0, 2, 1000);
  c.u8();
  assert.throws(() => c.i32le(), (e: unknown) => e instanceof CorruptFileError && e.context.offset === 1001);
  assert.throws(() => new ByteCursor(Uint8Array.of(0x80, 0x80)).varUint(), CorruptFileError);
});

test('writer grows and round-trips fixed-width values', () => {
  const w = new ByteWriter(1);
  for (let i = 0; i < 1000; i++) w.i32le(i * 7919);
  w.f64le(Math.PI);
  w.i64le(-5n);
  const r = new ByteCursor(w.finish());
  for (let i = 0; i < 1000; i++) assert.equal(r.i32le(), i * 7919);
  assert.equal(r.f64le(), Math.PI);
  assert.equal(r.i64le(), -5n);
  assert.equal(r.remaining, 0);
});

test('small typed arrays from shared slabs are zeroed, aligned and apart from each other', () => {
  const made: (Uint8Array | Int32Array | BigInt64Array | Float64Array)[] = [];
  // Odd sizes between wide ones, across several slabs.
  for (let i = 0; i < 3000; i++) {
    made.push(typedArray(Uint8Array, 1 + (i % 13)), typedArray(BigInt64Array, 1 + (i % 5)), typedArray(Int32Array, 3), typedArray(Float64Array, 2));
  }
  for (const a of made) {
    assert.ok(a.every((v: number | bigint) => v === 0 || v === 0n), 'zeroed');
    assert.equal(a.byteOffset % a.BYTES_PER_ELEMENT, 0);
  }
  made.forEach((a, i) => a.fill((a instanceof BigInt64Array ? BigInt(i) : i % 200) as never));
  made.forEach((a, i) => assert.ok(a.every((v: number | bigint) => v === (a instanceof BigInt64Array ? BigInt(i) : i % 200)), `array ${i} kept its own values`));
  // Past the small size: a buffer of its own.
  const big = typedArray(Uint8Array, 4096);
  assert.equal(big.byteOffset, 0);
  assert.equal(big.buffer.byteLength, 4096);
});

test('a ByteWriter grown from empty in a slab writes at its own offset', () => {
  const writers = Array.from({ length: 50 }, () => new ByteWriter(0));
  writers.forEach((w, i) => {
    w.u8(i);
    w.i32le(-i - 1);
    w.f64le(i / 3);
  });
  writers.forEach((w, i) => {
    const c = new ByteCursor(w.finish(), 0, 13, 0);
    assert.deepEqual([c.u8(), c.i32le(), c.f64le()], [i, -i - 1, i / 3]);
  });
});

test('bytesEqual', () => {
  assert.ok(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(9, 1, 2).subarray(1)));
  assert.ok(!bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3)));
  assert.ok(!bytesEqual(Uint8Array.of(1), Uint8Array.of(1, 0)));
});
