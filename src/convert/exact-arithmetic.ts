/**
 * Exact arithmetic on doubles, shared by the reader of decimal text
 * (`decimal-double.ts`) and the shortest-digits printer (`double-text.ts`):
 * both hold a product by a power of ten as the sum of two doubles.
 */

/** 10^0 to 10^22: the powers of ten a double holds exactly. */
export const POW10 = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/** 2^27 + 1: Veltkamp's splitter of a double into two halves of 26 bits or fewer. */
export const SPLIT = 134217729;

/** The rounding error of `a * b` (whose rounded value is `p`): a * b = p + error exactly (Dekker; no overflow in this range). */
export function productError(a: number, b: number, p: number): number {
  let c = SPLIT * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLIT * b;
  const bh = c - (c - b);
  const bl = b - bh;
  return ah * bh - p + ah * bl + al * bh + al * bl;
}
