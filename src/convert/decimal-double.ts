/**
 * The double `Number` makes of a JSON number's text, read from its bytes
 * with no string: the nearest double, ties to even. Numbers of up to 19
 * significant digits with a power of ten a double holds exactly (10^0 to
 * 10^22) are read here; any other (and any whose rounding is too close to
 * call) gives NaN, for the caller to read its text with `Number`.
 *
 * Up to 2^53 the digits are an exact double, and one product or quotient by
 * the exact power of ten rounds once: the nearest double (Clinger's fast
 * path). Past 2^53 (16 to 19 digits, as a double's shortest text often has
 * 17) the digits are held exactly as two doubles, the quotient is rounded
 * once, and its remainder, computed exactly, says whether it or a neighbour
 * is the nearest; within 2^-20 of a half-way point it gives up (the
 * remainder's own error is under 2^-39).
 */

import { LITTLE_ENDIAN } from '../encodings/bits.js';

const POW10 = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
const TWO_53 = 9007199254740992;
const SPLIT = 134217729; // 2^27 + 1, Veltkamp's splitter
const MARGIN = 2 ** -20;

const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
/** A double's high word (sign, exponent, the mantissa's top): the second on a little-endian machine. */
const HIGH = LITTLE_ENDIAN ? 1 : 0;

/** The rounding error of `a * b` (whose rounded value is `p`): a * b = p + error exactly (Dekker; no overflow in this range). */
function productError(a: number, b: number, p: number): number {
  let c = SPLIT * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLIT * b;
  const bh = c - (c - b);
  const bl = b - bh;
  return ah * bh - p + ah * bl + al * bh + al * bl;
}

/**
 * The JSON number at b[start, end) (its grammar checked by the caller) as
 * `Number` reads its text; NaN when it is not read here.
 */
export function decimalDouble(b: Uint8Array, start: number, end: number): number {
  let i = start;
  const neg = b[i] === 45;
  if (neg) i++;
  /** The first 15 significant digits, the next (up to 4) and how many of those. */
  let hi = 0;
  let lo = 0;
  let loDigits = 0;
  let digits = 0;
  let scale = 0;
  let fraction = false;
  for (; i < end; i++) {
    const c = b[i]!;
    if (c === 46) {
      fraction = true;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9) break;
    if (fraction) scale++;
    if (digits === 0 && d === 0) continue; // a leading zero
    if (digits < 15) hi = hi * 10 + d;
    else if (digits < 19) {
      lo = lo * 10 + d;
      loDigits++;
    } else return NaN;
    digits++;
  }
  let exponent = 0;
  if (i < end) {
    // e or E, then an optional sign and digits.
    let c = b[++i]!;
    const negExponent = c === 45;
    if (c === 45 || c === 43) c = b[++i]!;
    for (; i < end; i++) {
      exponent = exponent * 10 + b[i]! - 48;
      if (exponent > 400) return NaN;
    }
    if (negExponent) exponent = -exponent;
  }
  const power = exponent - scale;
  let v: number;
  if (loDigits === 0 || hi * POW10[loDigits]! + lo < TWO_53) {
    const m = loDigits === 0 ? hi : hi * POW10[loDigits]! + lo;
    if (power >= 0 && power <= 22) v = m * POW10[power]!;
    else if (power < 0 && power >= -22) v = m / POW10[-power]!;
    else return NaN;
  } else {
    if (power > 0 || power < -22) return NaN;
    v = longQuotient(hi, lo, POW10[loDigits]!, POW10[-power]!);
    if (v !== v) return NaN;
  }
  return neg ? -v : v;
}

/** The double nearest (hi * scale + lo) / divisor, its numerator past 2^53 and under 10^19; NaN when too close to call. */
function longQuotient(hi: number, lo: number, scale: number, divisor: number): number {
  // The numerator exactly: m = mh + ml, ml a small integer.
  const p = hi * scale;
  const e = productError(hi, scale, p);
  const mh = p + lo;
  const ml = lo - (mh - p) + e;
  const q = mh / divisor;
  bits[0] = q;
  const high = words[HIGH]!;
  // A power of two has a closer neighbour below than above: left to Number.
  if ((high & 0xfffff) === 0 && words[1 - HIGH] === 0) return NaN;
  const qd = q * divisor;
  const r = mh - qd + (ml - productError(q, divisor, qd));
  // Half the gap between q and its neighbours, in the numerator's terms.
  words[HIGH] = (((high >>> 20) & 0x7ff) - 53) << 20;
  words[1 - HIGH] = 0;
  const half = bits[0]! * divisor;
  const ulp = 2 * bits[0]!;
  const a = Math.abs(r);
  if (a < half - MARGIN) return q;
  if (a > half + MARGIN && a < 3 * half - MARGIN) return r > 0 ? q + ulp : q - ulp;
  return NaN;
}
