import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteCursor } from '../src/bytes/cursor.js';
import { ByteWriter } from '../src/bytes/writer.js';
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
