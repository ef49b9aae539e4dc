/**
 * double-text.ts prints String(v) for a double without making the string:
 * held to String(v) itself, byte for byte, over random bit patterns (every
 * exponent, subnormals included), the range it prints itself, decimals of
 * few and of 17 digits, powers of ten and of two and their neighbours,
 * integers past 2^53 and negative zero. Each case is also printed through
 * TextBytes.double, which falls back to String(v) where writeDouble
 * declines: the fast path must print most of its range, or the test proves
 * nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeDouble } from '../../src/convert/double-text.js';
import { TextBytes } from '../../src/convert/text-bytes.js';

const decoder = new TextDecoder();
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** A seeded xorshift32: the same cases every run. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

/** A double from its two 32-bit halves. */
function fromWords(high: number, low: number): number {
  words[HIGH] = high;
  words[1 - HIGH] = low;
  return bits[0]!;
}

/** Checks each value: writeDouble's text (where it prints) and TextBytes.double's (always) against String(v). Returns how many writeDouble printed. */
function check(values: Iterable<number>): { cases: number; printed: number } {
  const buf = new Uint8Array(32);
  const out = new TextBytes(64);
  const one = new Float64Array(1);
  let cases = 0;
  let printed = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    cases++;
    one[0] = v;
    if (!Number.isInteger(v)) {
      const end = writeDouble(buf, 0, one, 0);
      if (end >= 0) {
        printed++;
        const text = decoder.decode(buf.subarray(0, end));
        if (text !== String(v)) assert.fail(`writeDouble printed ${text} for ${String(v)}`);
      }
    }
    out.pos = 0;
    out.double(one, 0);
    const text = decoder.decode(out.buf.subarray(0, out.pos));
    if (text !== String(v)) assert.fail(`TextBytes.double printed ${text} for ${String(v)}`);
  }
  return { cases, printed };
}

test('random bit patterns, every exponent: String(v)', () => {
  const next = random(2525);
  const { cases } = check((function* () {
    for (let i = 0; i < 200_000; i++) yield fromWords(next(), next());
  })());
  assert.ok(cases > 190_000);
});

test('random significands over the printed range and a little past it: String(v), most printed here', () => {
  const next = random(77);
  // Binary exponents -20 to 52 (about 10^-6 to 10^16), either sign.
  const { cases, printed } = check((function* () {
    for (let i = 0; i < 300_000; i++) yield fromWords((next() & 0x800fffff) | ((1023 - 20 + (next() % 73)) << 20), next());
  })());
  assert.ok(printed > cases * 0.8, `${printed} of ${cases} printed`);
});

test('decimals of few digits and of 16-17, as data holds them: String(v)', () => {
  const next = random(9);
  const { cases, printed } = check((function* () {
    for (let i = 0; i < 100_000; i++) {
      const m = next() % 10_000_000;
      yield m / 1000 - 5000; // the bench's scores: half of them 16-17 digits
      yield m / 10 ** (next() % 12);
      yield -(next() * 2 ** 21 + next()) / 10 ** (next() % 20); // up to 16 digits of integer, scaled
      yield (next() / 2 ** 32) * 10 ** ((next() % 20) - 5);
    }
  })());
  assert.ok(printed > cases * 0.9, `${printed} of ${cases} printed`);
});

test('powers of ten and of two, their neighbours, the range edges: String(v)', () => {
  const values: number[] = [];
  const around = (x: number) => {
    bits[0] = x;
    const high = words[HIGH]!;
    const low = words[1 - HIGH]!;
    for (let d = -3; d <= 3; d++) {
      // The doubles d ulps away (a carry into the high word where the low one wraps).
      const l = low + d;
      values.push(fromWords(high + Math.floor(l / 2 ** 32), ((l % 2 ** 32) + 2 ** 32) % 2 ** 32));
    }
  };
  for (let e = -8; e <= 17; e++) {
    around(10 ** e);
    around(5 * 10 ** e);
    around(9.5 * 10 ** e);
    around(0.999999999999999 * 10 ** e);
  }
  for (let e = -30; e <= 60; e++) around(2 ** e);
  around(1e-5);
  around(1e15);
  around(2 ** 53);
  check([...values, ...values.map((v) => -v)]);
});

test('integers past 2^53, subnormals, zeros, extremes: String(v)', () => {
  const next = random(31);
  const values = [0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, 2 ** -1022, 2 ** 53 + 2, 2 ** 60, 1e21, 1e21 - 2 ** 17, 123456789012345680000];
  for (let i = 0; i < 20_000; i++) {
    values.push(fromWords(next() & 0x800fffff, next())); // subnormal
    values.push((2 ** 53 + next() * 2) * 2 ** (next() % 30)); // integers past 2^53
  }
  check(values);
  const out = new TextBytes(8);
  out.double(Float64Array.of(-0), 0);
  assert.equal(decoder.decode(out.buf.subarray(0, out.pos)), '0'); // String(-0)
});
