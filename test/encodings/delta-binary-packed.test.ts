import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { CorruptFileError } from '../../src/errors.js';
import { decodeDeltaInt32, decodeDeltaInt64, DeltaBinaryPackedStream, encodeDeltaInt32, encodeDeltaInt64 } from '../../src/encodings/delta-binary-packed.js';

const cursor = (bytes: number[], base = 0) => new ByteCursor(Uint8Array.from(bytes), 0, bytes.length, base);
const corrupt = (pattern: RegExp) => (e: unknown) => e instanceof CorruptFileError && pattern.test(e.message);

function enc32(values: number[] | Int32Array): number[] {
  const w = new ByteWriter();
  encodeDeltaInt32(w, Int32Array.from(values));
  return [...w.finish()];
}

function enc64(values: bigint[] | BigInt64Array): number[] {
  const w = new ByteWriter();
  encodeDeltaInt64(w, BigInt64Array.from(values));
  return [...w.finish()];
}

/**
 * A slow, obviously-correct encoder in BigInt, straight from Encodings.md,
 * for any block layout; `junk` fills the bit widths of unused miniblocks
 * with 0xff, which readers must ignore.
 */
function reference(values: bigint[], bits: 32 | 64, blockSize = 128, miniblocks = 4, junk = false): number[] {
  const out: number[] = [];
  const uleb = (v: bigint) => {
    do {
      const b = Number(v & 0x7fn);
      v >>= 7n;
      out.push(v ? b | 0x80 : b);
    } while (v);
  };
  const zigzag = (v: bigint) => uleb(v >= 0n ? v << 1n : (-v << 1n) - 1n);
  uleb(BigInt(blockSize));
  uleb(BigInt(miniblocks));
  uleb(BigInt(values.length));
  zigzag(values[0] ?? 0n);
  const per = blockSize / miniblocks;
  for (let i = 1; i < values.length; i += blockSize) {
    const deltas: bigint[] = [];
    for (let k = i; k < Math.min(i + blockSize, values.length); k++) deltas.push(BigInt.asIntN(bits, values[k]! - values[k - 1]!));
    const min = deltas.reduce((a, b) => (b < a ? b : a));
    zigzag(min);
    const rel = deltas.map((d) => BigInt.asUintN(bits, d - min));
    const used = Math.ceil(rel.length / per);
    const widths: number[] = [];
    for (let m = 0; m < miniblocks; m++) {
      widths.push(m < used ? Math.max(0, ...rel.slice(m * per, (m + 1) * per).map((v) => v.toString(2).length * (v ? 1 : 0))) : junk ? 0xff : 0);
    }
    out.push(...widths);
    for (let m = 0; m < used; m++) {
      let acc = 0n;
      let n = 0n;
      for (let k = 0; k < per; k++) {
        acc |= (rel[m * per + k] ?? 0n) << n;
        n += BigInt(widths[m]!);
        while (n >= 8n) {
          out.push(Number(acc & 0xffn));
          acc >>= 8n;
          n -= 8n;
        }
      }
    }
  }
  return out;
}

test('spec example 1: 1..5 (with the minimum legal block of 128 in 4 miniblocks)', () => {
  // header: 128 = 80 01, 4 miniblocks, 5 values, first 1 -> zig-zag 2
  // block: min delta 1 -> zig-zag 2, widths 0 0 0 0, no miniblock data
  const bytes = [0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00];
  assert.deepEqual(enc32([1, 2, 3, 4, 5]), bytes);
  assert.deepEqual(enc64([1n, 2n, 3n, 4n, 5n]), bytes);
  const c = cursor([...bytes, 0xee]);
  assert.deepEqual([...decodeDeltaInt32(c, 5)], [1, 2, 3, 4, 5]);
  assert.equal(c.pos, 10);
  assert.deepEqual([...decodeDeltaInt64(cursor(bytes), 5)], [1n, 2n, 3n, 4n, 5n]);
});

test('spec example 2: 7,5,3,1,2,3,4,5', () => {
  // header: 80 01, 04, 8 values, first 7 -> zig-zag 14 = 0E
  // block: min delta -2 -> zig-zag 3; relative deltas 0,0,0,3,3,3,3 need 2 bits: widths 02 00 00 00
  // miniblock 0: 32 values at 2 bits = 8 bytes; 0,0,0,3 -> 0xC0; 3,3,3,(pad 0) -> 0x3F; six zero bytes
  const bytes = [0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 0x02, 0x00, 0x00, 0x00, 0xc0, 0x3f, 0, 0, 0, 0, 0, 0];
  const values = [7, 5, 3, 1, 2, 3, 4, 5];
  assert.deepEqual(enc32(values), bytes);
  assert.deepEqual(enc64(values.map(BigInt)), bytes);
  assert.deepEqual([...decodeDeltaInt32(cursor(bytes), 8)], values);
  assert.deepEqual([...decodeDeltaInt64(cursor(bytes), 8)], values.map(BigInt));
});

test("the spec examples' block size of 8 is rejected, as the spec says it would be", () => {
  assert.throws(() => decodeDeltaInt32(cursor([0x08, 0x01, 0x05, 0x02, 0x02, 0x00]), 5), corrupt(/block size 8 is not a positive multiple of 128/));
});

test('no values, one value', () => {
  assert.deepEqual(enc32([]), [0x80, 0x01, 0x04, 0x00, 0x00]);
  assert.deepEqual([...decodeDeltaInt32(cursor([0x80, 0x01, 0x04, 0x00, 0x00]), 0)], []);
  // an empty page may have no header at all
  assert.deepEqual([...decodeDeltaInt64(cursor([]), 0)], []);
  // 42 -> zig-zag 84 = 0x54, and no blocks
  assert.deepEqual(enc32([42]), [0x80, 0x01, 0x04, 0x01, 0x54]);
  assert.deepEqual([...decodeDeltaInt32(cursor([0x80, 0x01, 0x04, 0x01, 0x54]), 1)], [42]);
  assert.deepEqual([...decodeDeltaInt64(cursor(enc64([-(2n ** 63n)])), 1)], [-(2n ** 63n)]);
});

test('block boundaries: 128, 129, 130 and 1000 values', () => {
  for (const n of [2, 32, 33, 128, 129, 130, 161, 257, 1000]) {
    const values = Int32Array.from({ length: n }, (_, i) => (i * i * 31) % 1000 - 500);
    const bytes = enc32(values);
    assert.deepEqual(bytes, reference([...values].map(BigInt), 32), `n=${n}`);
    const c = cursor([...bytes, 0xee, 0xee]);
    assert.deepEqual(decodeDeltaInt32(c, n), values, `n=${n}`);
    assert.equal(c.pos, bytes.length, `n=${n}`);
    const c64 = cursor(enc64([...values].map(BigInt)));
    assert.deepEqual([...decodeDeltaInt64(c64, n)], [...values].map(BigInt));
    assert.equal(c64.pos, c64.end);
  }
});

test('INT32 extremes wrap mod 2^32, up to a 32-bit miniblock', () => {
  const max = 2 ** 31 - 1;
  const min = -(2 ** 31);
  // deltas 2^31 - 1 and -2^31: relative to the min they span 2^32 - 1, all 32 bits
  const bytes = enc32([0, max, -1]);
  // header 80 01 04 03 00, min delta -2^31 -> zig-zag 2^32 - 1 in 5 bytes, then the widths
  assert.deepEqual(bytes.slice(5, 14), [0xff, 0xff, 0xff, 0xff, 0x0f, 32, 0, 0, 0]);
  assert.deepEqual([...decodeDeltaInt32(cursor(bytes), 3)], [0, max, -1]);
  const seesaw = Array.from({ length: 300 }, (_, i) => (i % 2 ? min : max));
  assert.deepEqual([...decodeDeltaInt32(cursor(enc32(seesaw)), 300)], seesaw);
  assert.deepEqual(enc32(seesaw), reference(seesaw.map(BigInt), 32));
});

test('INT64 extremes wrap mod 2^64, up to a 64-bit miniblock', () => {
  const max = 2n ** 63n - 1n;
  const min = -(2n ** 63n);
  const bytes = enc64([0n, max, -1n]);
  // min delta -2^63 -> zig-zag 2^64 - 1 in 10 bytes, then the widths
  assert.deepEqual(bytes.slice(5, 19), [...new Array(9).fill(0xff), 0x01, 64, 0, 0, 0]);
  assert.deepEqual([...decodeDeltaInt64(cursor(bytes), 3)], [0n, max, -1n]);
  const seesaw = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? min : i % 3 === 1 ? max : BigInt(i) << 40n));
  assert.deepEqual(enc64(seesaw), reference(seesaw, 64));
  assert.deepEqual([...decodeDeltaInt64(cursor(enc64(seesaw)), 300)], seesaw);
  // min deltas whose zig-zag needs more than 7 varint bytes
  const far = [0n, 2n ** 62n, 2n ** 62n + 5n, -(2n ** 62n)];
  assert.deepEqual([...decodeDeltaInt64(cursor(enc64(far)), 4)], far);
});

test('other writers\u2019 block layouts, and junk widths of unused miniblocks', () => {
  const values = Array.from({ length: 700 }, (_, i) => BigInt((i * 7919) % 5000) * (i % 5 ? 1n : -3n));
  for (const [block, minis] of [
    [128, 1],
    [128, 4],
    [256, 8],
    [512, 4],
    [1024, 32],
  ] as const) {
    for (const junk of [false, true]) {
      const bytes = reference(values, 64, block, minis, junk);
      assert.deepEqual([...decodeDeltaInt64(cursor(bytes), values.length)], values, `${block}/${minis}`);
      const b32 = reference(values, 32, block, minis, junk);
      assert.deepEqual([...decodeDeltaInt32(cursor(b32), values.length)], values.map(Number), `${block}/${minis}`);
    }
  }
});

test('the last miniblock may lack its padding at the very end of the input', () => {
  const bytes = enc32([7, 5, 3, 1, 2, 3, 4, 5]);
  // 7 deltas at 2 bits need 2 of the 8 miniblock bytes
  assert.deepEqual([...decodeDeltaInt32(cursor(bytes.slice(0, 12)), 8)], [7, 5, 3, 1, 2, 3, 4, 5]);
  assert.throws(() => decodeDeltaInt32(cursor(bytes.slice(0, 11)), 8), corrupt(/needs 2 bytes but only 1 remain/));
});

test('round trips', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 600 }), (v) => {
      const bytes = enc32(v);
      const c = cursor(bytes);
      assert.deepEqual([...decodeDeltaInt32(c, v.length)], v);
      assert.equal(c.pos, bytes.length);
    }),
  );
  fc.assert(
    fc.property(fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 300 }), (v) => {
      const bytes = enc64(v);
      assert.deepEqual(bytes, reference(v, 64));
      const c = cursor(bytes);
      assert.deepEqual([...decodeDeltaInt64(c, v.length)], v);
      assert.equal(c.pos, bytes.length);
    }),
  );
  // slowly growing sequences: narrow miniblocks
  fc.assert(
    fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.array(fc.integer({ min: -3, max: 40 }), { maxLength: 400 }), (start, steps) => {
      let x = start;
      const v = [start, ...steps.map((s) => (x = BigInt.asIntN(64, x + BigInt(s))))];
      assert.deepEqual([...decodeDeltaInt64(cursor(enc64(v)), v.length)], v);
    }),
  );
});

test('corrupt headers and blocks', () => {
  const good = enc32([7, 5, 3, 1, 2, 3, 4, 5]);
  assert.throws(() => decodeDeltaInt32(cursor(good, 100), 9), (e: unknown) => corrupt(/counts 8 values where the page has 9/)(e) && (e as CorruptFileError).context.offset === 100);
  assert.throws(() => decodeDeltaInt32(cursor([0x00, 0x01, 0x01, 0x00]), 1), corrupt(/block size 0/));
  assert.throws(() => decodeDeltaInt32(cursor([0x80, 0x01, 0x03, 0x01, 0x00]), 1), corrupt(/cannot have 3 miniblocks/));
  assert.throws(() => decodeDeltaInt32(cursor([0x80, 0x01, 0x08, 0x01, 0x00]), 1), corrupt(/cannot have 8 miniblocks/));
  assert.throws(() => decodeDeltaInt32(cursor([0x80, 0x01, 0x00, 0x01, 0x00]), 1), corrupt(/cannot have 0 miniblocks/));
  assert.throws(() => decodeDeltaInt32(cursor([0x80, 0x01, 0x04]), 1), CorruptFileError);
  // widths over the type's size
  const w33 = [0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 33, 0, 0, 0, ...new Array(33 * 4).fill(0)];
  // DuckDB writes 33-bit INT32 miniblocks (deltas computed in 64 bits): read, keeping the low 32 bits.
  assert.deepEqual([...decodeDeltaInt32(cursor(w33), 2)], [0, 0]);
  assert.deepEqual([...decodeDeltaInt64(cursor(w33), 2)], [0n, 0n]);
  const w65 = [0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 65, 0, 0, 0, ...new Array(65 * 4).fill(0)];
  assert.throws(() => decodeDeltaInt64(cursor(w65), 2), corrupt(/bit width 65 is over the 64 bits/));
  assert.throws(() => decodeDeltaInt32(cursor(w65), 2), corrupt(/bit width 65 is over the 64 bits/));
  // truncated widths, truncated min delta
  assert.throws(() => decodeDeltaInt32(cursor(good.slice(0, 8)), 8), CorruptFileError);
  assert.throws(() => decodeDeltaInt32(cursor(good.slice(0, 5)), 8), CorruptFileError);
  // a billion values claimed by a header with no room for their blocks fails before allocating
  assert.throws(() => decodeDeltaInt64(cursor([0x80, 0x01, 0x04, 0x80, 0x94, 0xeb, 0xdc, 0x03, 0x00, 0x00]), 1e9), corrupt(/blocks needs/));
  assert.throws(() => decodeDeltaInt32(cursor([]), -1), CorruptFileError);
});

test('INT32 deltas packed in 33 bits, as DuckDB writes them, wrap to the right values', () => {
  // Values 2147483647, -2147483648: delta -4294967295 needs 33 bits when computed in 64-bit arithmetic.
  // Header: block 128, 4 miniblocks, 2 values, first = zigzag(2147483647) = 4294967294.
  const header = [0x80, 0x01, 0x04, 0x02, 0xfe, 0xff, 0xff, 0xff, 0x0f];
  // Block: min delta zigzag(-4294967295) = 8589934589, widths [33, 0, 0, 0], one delta of 0 packed in 33 bits (32 values).
  const minDelta = [0xfd, 0xff, 0xff, 0xff, 0x1f];
  const bytes = Uint8Array.from([...header, ...minDelta, 33, 0, 0, 0, ...new Array(33 * 4).fill(0)]);
  assert.deepEqual([...decodeDeltaInt32(new ByteCursor(bytes), 2)], [2147483647, -2147483648]);
});

test('skip then read over other writers\u2019 layouts, 64-bit INT32 deltas among them, gives the values at those places', () => {
  const layouts = [[128, 1], [128, 4], [256, 8], [1024, 32], [2048, 1]] as const;
  fc.assert(
    fc.property(
      fc.constantFrom(...layouts),
      fc.boolean(),
      fc.array(fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -50n, max: 50n })), { maxLength: 3000, size: 'max' }),
      fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 2500 })), { maxLength: 8 }),
      ([block, minis], wide, raw, plan) => {
        // INT32 values with deltas computed in 64 bits (DuckDB's), so miniblocks up to 33 bits wide.
        const values = wide ? raw : raw.map((v) => BigInt.asIntN(32, v));
        const s = new DeltaBinaryPackedStream(cursor(reference(values, 64, block, minis, true)), values.length, wide);
        let at = 0;
        for (const [skip, n0] of [...plan, [false, values.length] as const]) {
          const n = Math.min(n0, values.length - at);
          if (skip) s.skip(n);
          else assert.deepEqual([...s.read(n)].map(BigInt), values.slice(at, at + n), `${block}/${minis} values ${at}..${at + n}`);
          at += n;
        }
      },
    ),
    { numRuns: 150 },
  );
});
