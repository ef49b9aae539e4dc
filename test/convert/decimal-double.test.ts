/**
 * decimalDouble (src/convert/decimal-double.ts) against `Number` of the same
 * text, its truth: every number it reads is the double Number gives, sign
 * of zero included; what it does not read (NaN) the caller reads with Number.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decimalDouble } from '../../src/convert/decimal-double.js';
import { rng } from '../writer/gen.js';

const enc = new TextEncoder();

/** Checks each text; returns how many were read here (not left to Number). */
function check(texts: Iterable<string>): { read: number; all: number } {
  let read = 0;
  let all = 0;
  for (const s of texts) {
    const b = enc.encode(` ${s} `);
    const v = decimalDouble(b, 1, b.length - 1);
    all++;
    if (v !== v) continue;
    read++;
    if (!Object.is(v, Number(s))) assert.fail(`${s}: ${v}, Number gives ${Number(s)}`);
  }
  return { read, all };
}

test('random decimals of 1 to 20 digits, the point anywhere, with and without exponents: the double Number gives, or left to it', () => {
  const r = rng(2517);
  const digits = (k: number) => Array.from({ length: k }, (_, j) => String(j === 0 ? 1 + Math.floor(r() * 9) : Math.floor(r() * 10))).join('');
  const texts = function* () {
    for (let t = 0; t < 300_000; t++) {
      const k = 1 + Math.floor(r() * 20);
      const d = digits(k);
      const point = Math.floor(r() * (k + 4));
      let s = point === 0 || point === k ? d : point < k ? `${d.slice(0, point)}.${d.slice(point)}` : `0.${'0'.repeat(point - k)}${d}`;
      if (r() < 0.25) s += `${r() < 0.5 ? 'e' : 'E'}${pick(r, ['', '+', '-'])}${Math.floor(r() * 40)}`;
      yield r() < 0.5 ? `-${s}` : s;
    }
  };
  const { read, all } = check(texts());
  assert.ok(read > all * 0.7, `most read here (${read} of ${all})`);
});

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

test('doubles’ shortest texts (15 to 17 digits) and the bench’s sums: nearly all read here, each the same double', () => {
  const r = rng(99);
  const shortest = check(Array.from({ length: 200_000 }, () => String(r() * 10 ** Math.floor(r() * 34 - 12))));
  // Past 10^21 and under 10^-22 (about a fifth of these) their powers of ten are left to Number.
  assert.ok(shortest.read > shortest.all * 0.75, `most read here (${shortest.read} of ${shortest.all})`);
  const sums = check(Array.from({ length: 200_000 }, () => String(Math.floor(r() * 1e7) / 1000 - 5000)));
  assert.ok(sums.read > sums.all * 0.99, `nearly all read here (${sums.read} of ${sums.all})`);
});

test('half-way points between doubles (ties to even), powers of two and their neighbours, the edges of int64 and of a double’s range', () => {
  const texts: string[] = [];
  for (let k = 0; k < 3000; k++) {
    texts.push(String(2n ** 53n + BigInt(2 * k + 1)), String(2n ** 54n + BigInt(4 * k + 2)), String(2n ** 60n + BigInt(128 * k + 64)), String(2n ** 63n - BigInt(1024 * k + 512)));
    // The same half-way points scaled down: their digits with the point moved.
    const t = String(2n ** 56n + BigInt(16 * k + 8));
    texts.push(`${t.slice(0, 5)}.${t.slice(5)}`, `0.${t}`, `${t}e-7`);
  }
  for (let e = 0; e < 64; e++) for (const d of [-1n, 0n, 1n]) texts.push(String(2n ** BigInt(e) + d));
  texts.push(
    '0', '-0', '0.0', '-0.0', '0e5', '-0e-5', '0.000', '1', '-1', '1e22', '1e23', '1e-22', '1e-23', '9e22',
    '9223372036854775807', '-9223372036854775808', '9223372036854775808', '18446744073709551615', '9999999999999999999', '99999999999999999999',
    '1.7976931348623157e308', '-1.7976931348623157e308', '1.7976931348623159e308', '1e400', '5e-324', '2.2250738585072014e-308', '1e-400',
    '0.1', '0.2', '0.30000000000000004', '248.78700000000026', '-4999.999999999999', '1234567890123456789e-22', '123456789.12345678e-5',
    '1.00000000000000011102230246251565404236316680908203125', '4.35', '0.000001', '1e-7', '100000000000000000000', '12345678901234567e+3',
  );
  check(texts);
});
