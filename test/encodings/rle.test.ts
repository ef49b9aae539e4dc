import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { CorruptFileError, InvalidArgumentError } from '../../src/errors.js';
import { bitWidth, decodeDictionaryIndices, decodeRleBooleans, decodeRleHybrid, decodeRleHybridPrefixed } from '../../src/encodings/rle.js';
import { RleStream } from '../../src/encodings/rle-stream.js';
import { encodeDictionaryIndices, encodeRleBooleans, encodeRleHybrid, encodeRleHybridPrefixed } from '../../src/encodings/rle-encode.js';

const cursor = (bytes: number[], base = 0) => new ByteCursor(Uint8Array.from(bytes), 0, bytes.length, base);

function encode(values: ArrayLike<number>, width: number): number[] {
  const w = new ByteWriter();
  encodeRleHybrid(w, values, width);
  return [...w.finish()];
}

function decode(bytes: number[], width: number, count: number): number[] {
  const out = new Uint32Array(count);
  decodeRleHybrid(cursor(bytes), width, count, out);
  return [...out];
}

const corrupt = (pattern: RegExp) => (e: unknown) => e instanceof CorruptFileError && pattern.test(e.message);

test('spec example: 0..7 at 3 bits is one bit-packed group 03 88 C6 FA', () => {
  assert.deepEqual(encode([0, 1, 2, 3, 4, 5, 6, 7], 3), [0x03, 0x88, 0xc6, 0xfa]);
  assert.deepEqual(decode([0x03, 0x88, 0xc6, 0xfa], 3, 8), [0, 1, 2, 3, 4, 5, 6, 7]);
});

test('8 repeats make an RLE run, 7 do not', () => {
  // header 8 << 1 = 0x10, then the value in ceil(3 / 8) = 1 byte
  assert.deepEqual(encode([5, 5, 5, 5, 5, 5, 5, 5], 3), [0x10, 0x05]);
  // 7 values: one bit-packed group, padded with a zero: 5 at bits 0,3,..,18 = 0x16DB6D... worked out below
  // bits (LSB first) 101 101 101 101 101 101 101 000 -> bytes 0x6D 0xDB 0x16
  assert.deepEqual(encode([5, 5, 5, 5, 5, 5, 5], 3), [0x03, 0x6d, 0xdb, 0x16]);
  // width 9: the repeated value takes 2 bytes, little-endian
  assert.deepEqual(encode(new Array(300).fill(0x1ff), 9), [0xd8, 0x04, 0xff, 0x01]);
  assert.deepEqual(decode([0xd8, 0x04, 0xff, 0x01], 9, 300), new Array(300).fill(0x1ff));
});

test('a run lends values to complete the bit-packed group before it', () => {
  // 1,2,3 then 13 fours: 5 fours finish the group of 8, the other 8 are an RLE run.
  // group 1,2,3,4,4,4,4,4 at 3 bits = 0x9248D1 little-endian; RLE header 8 << 1, value 4
  const values = [1, 2, 3, ...new Array(13).fill(4)];
  assert.deepEqual(encode(values, 3), [0x03, 0xd1, 0x48, 0x92, 0x10, 0x04]);
  assert.deepEqual(decode([0x03, 0xd1, 0x48, 0x92, 0x10, 0x04], 3, 16), values);
  // with 12 fours only 7 would be left for the run, so everything is bit-packed
  assert.deepEqual(encode([1, 2, 3, ...new Array(12).fill(4)], 3).slice(0, 1), [0x05]);
});

test('the last bit-packed group is decoded only as far as needed', () => {
  assert.deepEqual(decode([0x03, 0x88, 0xc6, 0xfa], 3, 3), [0, 1, 2]);
  // padding bytes past the needed values may be missing at the end of the input
  const c = cursor([0x03, 0x88, 0xc6]);
  const out = new Uint8Array(3);
  decodeRleHybrid(c, 3, 3, out);
  assert.deepEqual([...out], [0, 1, 2]);
  assert.equal(c.pos, 3);
  // a bit-packed header claiming many more groups than needed is fine when the bytes for the needed values exist
  assert.deepEqual(decode([0x7f, 0x88, 0xc6, 0xfa], 3, 8), [0, 1, 2, 3, 4, 5, 6, 7]);
  // but not when they do not
  assert.throws(() => decode([0x03, 0x88], 3, 3), corrupt(/needs 2 bytes for 3 values but only 1 remain/));
});

test('the cursor ends after the last run used, and runs may be longer than needed', () => {
  const c = cursor([0x10, 0x01, 0x10, 0x02, 0xaa]);
  const out = new Uint8Array(10);
  decodeRleHybrid(c, 2, 10, out);
  assert.deepEqual([...out], [1, 1, 1, 1, 1, 1, 1, 1, 2, 2]);
  assert.equal(c.pos, 4);
});

test('bit width 0: all zeros, nothing read', () => {
  const c = cursor([0x99]);
  const out = new Int32Array(5).fill(7);
  decodeRleHybrid(c, 0, 5, out);
  assert.deepEqual([...out], [0, 0, 0, 0, 0]);
  assert.equal(c.pos, 0);
  // the encoder still writes run headers, for readers that read them
  assert.deepEqual(encode([0, 0, 0, 0, 0, 0, 0, 0, 0], 0), [0x12]);
  assert.deepEqual(encode([0, 0], 0), [0x03]);
});

test('bit width 32 and 1, and output offsets', () => {
  assert.deepEqual(decode([0x02, 0xff, 0xff, 0xff, 0xff], 32, 1), [0xffffffff]);
  const values = Uint32Array.of(0, 0xffffffff, 1, 0x80000000, 5, 6, 7, 8, 9);
  const bytes = encode(values, 32);
  assert.deepEqual(decode(bytes, 32, values.length), [...values]);
  const i32 = new Int32Array(3);
  decodeRleHybrid(cursor([0x02, 0xff, 0xff, 0xff, 0xff]), 32, 1, i32, 2);
  assert.deepEqual([...i32], [0, 0, -1]);
  assert.deepEqual(encode([1, 0, 1, 1, 0, 0, 0, 0, 1], 1), [0x05, 0x0d, 0x01]);
});

test('round trips at every width, with runs and noise', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 32 }),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 40 })), { maxLength: 30 }),
      (width, runs) => {
        const max = width === 32 ? 0xffffffff : 2 ** width - 1;
        const values = Uint32Array.from(runs.flatMap(([v, len]) => new Array<number>(len).fill(v % (max + 1))));
        const bytes = encode(values, width);
        const c = cursor(bytes);
        const out = new Uint32Array(values.length);
        decodeRleHybrid(c, width, values.length, out);
        assert.deepEqual(out, values);
        if (width > 0) assert.equal(c.pos, bytes.length);
      },
    ),
  );
});

test('length-prefixed form skips the whole prefixed region', () => {
  const c = cursor([0x03, 0, 0, 0, 0x10, 0x01, 0xee, 0x42]);
  const out = new Uint16Array(8);
  decodeRleHybridPrefixed(c, 1, 8, out);
  assert.deepEqual([...out], [1, 1, 1, 1, 1, 1, 1, 1]);
  assert.equal(c.pos, 7);
  const w = new ByteWriter();
  encodeRleHybridPrefixed(w, [1, 1, 1, 1, 1, 1, 1, 1], 1);
  assert.deepEqual([...w.finish()], [0x02, 0, 0, 0, 0x10, 0x01]);
  assert.throws(() => decodeRleHybridPrefixed(cursor([0x09, 0, 0, 0, 0x10, 0x01]), 1, 8, out), CorruptFileError);
  // runs that need more than the prefixed length are corrupt even if bytes follow
  assert.throws(() => decodeRleHybridPrefixed(cursor([0x01, 0, 0, 0, 0x10, 0x01]), 1, 8, out), corrupt(/truncated/));
});

test('RLE booleans', () => {
  const values = Uint8Array.from({ length: 100 }, (_, i) => (i % 7 === 0 || i > 60 ? 1 : 0));
  const w = new ByteWriter();
  encodeRleBooleans(w, values);
  assert.deepEqual(decodeRleBooleans(new ByteCursor(w.finish()), 100), values);
  assert.throws(() => decodeRleBooleans(cursor([0x02, 0, 0, 0, 0x02, 0x02]), 1), corrupt(/value 2 does not fit in 1 bits/));
});

test('dictionary indices: a width byte, then runs to the end', () => {
  assert.deepEqual([...decodeDictionaryIndices(cursor([0x03, 0x03, 0x88, 0xc6, 0xfa]), 8)], [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual([...decodeDictionaryIndices(cursor([]), 0)], []);
  const out = new Int32Array(4);
  decodeDictionaryIndices(cursor([0x00]), 2, out, 2);
  assert.deepEqual([...out], [0, 0, 0, 0]);
  const w = new ByteWriter();
  encodeDictionaryIndices(w, [0, 1, 2, 3, 4, 5, 6, 7], 8);
  assert.deepEqual([...w.finish()], [0x03, 0x03, 0x88, 0xc6, 0xfa]);
  const one = new ByteWriter();
  encodeDictionaryIndices(one, new Array(10).fill(0), 1);
  assert.deepEqual([...one.finish()], [0x00, 0x14]);
  assert.throws(() => decodeDictionaryIndices(cursor([33, 0x02, 0, 0, 0, 0, 0]), 1), corrupt(/bit width 33/));
  assert.throws(() => decodeDictionaryIndices(cursor([]), 1), CorruptFileError);
});

test('corrupt and truncated input is a CorruptFileError with the offset', () => {
  assert.throws(
    () => decodeRleHybrid(cursor([0x06, 0x01], 1000), 1, 5, new Uint8Array(5)),
    (e: unknown) => e instanceof CorruptFileError && /ended after 3 of 5 values/.test(e.message) && e.context.offset === 1002,
  );
  assert.throws(() => decode([], 1, 1), corrupt(/ended after 0 of 1/));
  assert.throws(() => decode([0x80], 1, 1), corrupt(/header is truncated/));
  assert.throws(() => decode([0x80, 0x80, 0x80, 0x80, 0x80, 0x01], 1, 1), corrupt(/longer than 5 bytes/));
  assert.throws(() => decode([0x10], 9, 1), corrupt(/value is truncated/));
  assert.throws(() => decode([0x10, 0xff, 0x02], 9, 1), corrupt(/does not fit in 9 bits/));
  // a run of 2^31 values is over the spec's limit, whatever the count asked for
  assert.throws(() => decode([0x80, 0x80, 0x80, 0x80, 0x10, 0x01], 1, 1), corrupt(/over the 2\^31 - 1 limit/));
  // 2^27 groups of 8 at 3 bits, and three bytes
  assert.throws(() => decode([0x81, 0x80, 0x80, 0x80, 0x01, 0x88, 0xc6, 0xfa], 3, 2 ** 20), corrupt(/bit-packed run needs/));
});

test('the caller must give a target that can hold the width', () => {
  assert.throws(() => decodeRleHybrid(cursor([0x02, 0x01, 0x01]), 9, 1, new Uint8Array(1)), InvalidArgumentError);
  assert.throws(() => decodeRleHybrid(cursor([0x02, 0x01]), 1, 2, new Uint8Array(1)), InvalidArgumentError);
  assert.throws(() => encode([4], 2), InvalidArgumentError);
  assert.throws(() => encode(new Array(9).fill(4), 2), InvalidArgumentError);
  assert.equal(bitWidth(3), 2);
});

test('levels are checked and counted while they decode, in RLE and bit-packed runs', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 7 }), fc.array(fc.nat(), { maxLength: 300 }), (max, raw) => {
      const levels = raw.map((v) => v % (max + 1));
      const bytes = encode(levels, bitWidth(max));
      const out = new Uint8Array(levels.length);
      const hits = decodeRleHybrid(cursor(bytes), bitWidth(max), levels.length, out, 0, { max, what: 'definition' });
      assert.deepEqual([...out], levels);
      assert.equal(hits, levels.filter((v) => v === max).length);
    }),
  );
  // 3 fits the 2-bit width but not a maximum level of 2: as an RLE run and inside a bit-packed group.
  for (const levels of [[3, 3, 3, 3, 3, 3, 3, 3, 3], [0, 1, 2, 3, 0, 1, 2, 0]]) {
    assert.throws(
      () => decodeRleHybrid(cursor(encode(levels, 2)), 2, levels.length, new Uint8Array(levels.length), 0, { max: 2, what: 'repetition' }),
      (e: unknown) => e instanceof CorruptFileError && /repetition level 3 exceeds the column's maximum 2/.test(e.message),
    );
  }
});

test('RleStream: any split into windows decodes what one call does, inside runs of either kind', () => {
  fc.assert(fc.property(
    fc.integer({ min: 1, max: 20 }),
    fc.array(fc.tuple(fc.nat({ max: 2 ** 20 }), fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 30 }),
    fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 40 }),
    (width, runs, windows) => {
      const values: number[] = [];
      // Repeats (long runs) mixed with varied stretches (bit-packed).
      for (const [v, len] of runs) for (let i = 0; i < len; i++) values.push((len % 3 === 0 ? v + i * 7 : v) % 2 ** width);
      const w = new ByteWriter();
      encodeRleHybrid(w, values, width);
      const bytes = w.finish();
      const stream = new RleStream(new ByteCursor(bytes), width);
      const got = new Int32Array(values.length);
      const levels = { max: 2 ** width - 1, what: 'definition' };
      let at = 0;
      let hits = 0;
      for (let k = 0; at < values.length; k++) {
        const n = Math.min(windows[k % windows.length]!, values.length - at);
        hits += stream.read(n, got, at, levels);
        at += n;
      }
      assert.deepEqual([...got], values);
      assert.equal(hits, values.filter((v) => v === levels.max).length);
    },
  ), { numRuns: 300 });
});

test('RleStream: a window of 3 from one run of 2^28 reads 3 values', () => {
  const w = new ByteWriter();
  w.varUint(2 ** 28 * 2);
  w.u8(1);
  const stream = new RleStream(new ByteCursor(w.finish()), 1);
  const out = new Uint8Array(3);
  assert.equal(stream.read(3, out, 0, { max: 1, what: 'definition' }), 3);
  assert.deepEqual([...out], [1, 1, 1]);
  assert.equal(stream.read(3, out, 0, { max: 1, what: 'definition' }), 3);
});

test('RleStream: a bit-packed run cut short is an error when the window reaches the missing bytes', () => {
  // Claims 2 groups (16 values of width 4 = 8 bytes) but holds 5 bytes: 10 values.
  const bytes = new Uint8Array([(2 << 1) | 1, 0x21, 0x43, 0x65, 0x87, 0xa9]);
  const stream = new RleStream(new ByteCursor(bytes), 4);
  const out = new Uint8Array(16);
  stream.read(3, out, 0);
  stream.read(7, out, 3);
  assert.deepEqual([...out.subarray(0, 10)], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.throws(() => stream.read(2, out, 10), CorruptFileError);
});
