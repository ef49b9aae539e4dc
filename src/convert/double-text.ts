/**
 * String(v) for a double, printed into bytes with no string made.
 * ECMAScript's Number::toString takes the fewest significant digits that
 * read back as v and, of those, the ones closest to v. They are found here
 * with exact arithmetic on doubles: v × 10^q as an exact sum of two doubles
 * (Dekker's product), rounded to the nearest integer, tried at 15 digits,
 * then 16, then 17 (which always read back). Only the common case is
 * printed: 10^-5 ≤ |v| < 10^15, not an integer (fixed notation with a
 * point). Where the rule needs more than this knows (an exact tie between
 * two candidates, a 16-digit candidate past 2^53), String(v) prints it.
 * The nearest candidate of a length is the one to take: the reals that
 * read back as v lie evenly about it, except below a power of two, and
 * the powers of two of this range that are not integers (2^-16 to 2^-1)
 * are short decimals, found at 15 digits exactly.
 */
import { LITTLE_ENDIAN } from '../encodings/bits.js';
import { POW10, SPLIT } from './exact-arithmetic.js';

/** Each power of ten's halves for Dekker's product (POW10[q] = POW10_HIGH[q] + POW10_LOW[q], each of 26 bits or fewer). */
const POW10_HIGH = POW10.map((p) => SPLIT * p - (SPLIT * p - p));
const POW10_LOW = POW10.map((p, q) => p - POW10_HIGH[q]!);

const TWO52 = 2 ** 52;
const TWO53 = 2 ** 53;

const word = new Float64Array(1);
const halves = new Uint32Array(word.buffer);
const HIGH = LITTLE_ENDIAN ? 1 : 0;

/** A digit scratch: at most 17. */
const digits = new Uint8Array(17);

/** The two digits of 0-99, tens first. */
export const PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  PAIRS[2 * i] = 48 + Math.floor(i / 10);
  PAIRS[2 * i + 1] = 48 + (i % 10);
}

/** Writes m (0 ≤ m < 10^8) as 8 digits, zeros first, into `digits` from `at`. */
function eight(m: number, at: number): void {
  for (let i = at + 6; i >= at; i -= 2) {
    const t = (m / 100) | 0;
    const r = 2 * (m - t * 100);
    digits[i] = PAIRS[r]!;
    digits[i + 1] = PAIRS[r + 1]!;
    m = t;
  }
}

/** Writes high × 10^8 + low (low < 10^8), a number of k digits (9 to 17), into `digits`: low's 8, then high's. */
function toDigits(high: number, low: number, k: number): void {
  eight(low, k - 8);
  for (let i = k - 9; i >= 0; i--) {
    const t = (high / 10) | 0;
    digits[i] = 48 + high - t * 10;
    high = t;
  }
}

/**
 * Writes String(v) for v = values[k], a finite double that is not an
 * integer, into buf at p (room for 25 bytes is the caller's) and returns
 * the end; or returns -1, having written nothing, where String(v) must
 * print it. The array and index, not the number, are passed, and the work
 * is one function: a double passed to or returned from a call that is not
 * inlined is a new heap object.
 */
export function writeDouble(buf: Uint8Array, p: number, values: Float64Array | Float32Array, k: number): number {
  const v = values[k]!;
  const a = Math.abs(v);
  if (!(a >= 1e-5 && a < 1e15)) return -1;
  word[0] = a;
  // n: a's decimal exponent, 10^(n-1) ≤ a < 10^n, estimated from its binary exponent (at most one off), then checked: its 17 digits are a × 10^(17 - n).
  let n = Math.floor(((halves[HIGH]! >>> 20) - 1022) * 0.30103) + 1;
  let top = a * POW10[17 - n]!;
  if (top < 1e16) top = a * POW10[17 - --n]!;
  if (top >= 1e17) top = a * POW10[17 - ++n]!;
  if (!(top >= 1e16 && top < 1e17)) return -1;
  const c = SPLIT * a;
  const ah = c - (c - a);
  const al = a - ah;
  // 15 digits, then 16, each read back by a division by an exact power of ten (correctly rounded, so what parsing the digits gives); then 17, which always read back.
  for (let d = 15; d <= 17; d++) {
    const q = d - n;
    // a × 10^q exactly: hi + lo (Dekker's two-product, exact while nothing overflows or underflows).
    const hi = a * POW10[q]!;
    const lo = ah * POW10_HIGH[q]! - hi + ah * POW10_LOW[q]! + al * POW10_HIGH[q]! + al * POW10_LOW[q]!;
    // The integer nearest to hi + lo, as hi + step; none where two are equally near.
    let step: number;
    if (hi >= TWO52) {
      // hi is an integer; lo, at most half its ulp, holds the rest.
      if (lo - Math.floor(lo) === 0.5) return -1;
      step = Math.round(lo);
    } else {
      const r = Math.round(hi);
      // hi - r is exact. Short of a half, it is short by at least an ulp of hi, more than lo can move it; at a half (Math.round takes it up), lo says which side the exact value lies.
      if (hi - r !== -0.5 || lo > 0) step = r - hi;
      else if (lo < 0) step = r - 1 - hi;
      else return -1;
    }
    let high: number;
    let low: number;
    if (d < 17) {
      const s = hi + step;
      if (!(s < TWO53 && s < POW10[d]!)) return -1;
      if (s / POW10[q]! !== a) continue;
      // s / 10^8 is below 2^27 and its product with 10^8 exact.
      high = Math.floor(s / 1e8);
      low = s - high * 1e8;
    } else {
      // hi ≥ 10^16 is an integer; high × 10^8 is exact (high × 390625 × 2^8, high < 2^30), so the low part is too.
      high = Math.floor(hi / 1e8);
      low = hi - high * 1e8 + step;
    }
    // The quotient, rounded, may be one off.
    if (low < 0) {
      low += 1e8;
      high--;
    } else if (low >= 1e8) {
      low -= 1e8;
      high++;
    }
    if (!(high >= POW10[d - 9]! && high < POW10[d - 8]!)) return -1;
    toDigits(high, low, d);
    return fixed(buf, p, v < 0, d, n);
  }
  return -1;
}

/** The k digits in `digits`, less trailing zeros, with the point after n of them (n ≤ 0: `0.` and -n zeros first); -1 for an integer. */
function fixed(buf: Uint8Array, p: number, negative: boolean, k: number, n: number): number {
  while (k > 1 && digits[k - 1] === 48) k--;
  if (k <= n) return -1;
  if (negative) buf[p++] = 45;
  if (n <= 0) {
    buf[p++] = 48;
    buf[p++] = 46;
    for (let i = n; i < 0; i++) buf[p++] = 48;
    for (let i = 0; i < k; i++) buf[p++] = digits[i]!;
    return p;
  }
  for (let i = 0; i < n; i++) buf[p++] = digits[i]!;
  buf[p++] = 46;
  for (let i = n; i < k; i++) buf[p++] = digits[i]!;
  return p;
}
