/**
 * IEEE 754 totalOrder (parquet-format's IEEE_754_TOTAL_ORDER column order)
 * on floats in their PLAIN bytes (little-endian FLOAT16, FLOAT or DOUBLE):
 * -NaN < -Infinity < ... < -0 < +0 < ... < +Infinity < +NaN, NaNs ordered
 * by payload. Used for the NaN bounds of an all-NaN page or chunk and the
 * order of written bounds; numbers compare as numbers elsewhere.
 */
import { float16 } from '../schema/convert.js';
import { float16Bits } from '../schema/coerce.js';

/** Compares two floats of the same width by total order: negative, zero or positive. */
export function compareTotalOrder(a: Uint8Array, b: Uint8Array): number {
  const top = a.length - 1;
  // Flipping every bit of a negative value and the sign bit of a positive one makes unsigned order total order.
  const fa = a[top]! & 0x80 ? 0xff : 0;
  const fb = b[top]! & 0x80 ? 0xff : 0;
  for (let i = top; i >= 0; i--) {
    const x = a[i]! ^ fa ^ (i === top && !fa ? 0x80 : 0);
    const y = b[i]! ^ fb ^ (i === top && !fb ? 0x80 : 0);
    if (x !== y) return x - y;
  }
  return 0;
}

/** The value of PLAIN float bytes of width 2, 4 or 8. */
export function floatOf(b: Uint8Array): number {
  if (b.length === 2) return float16(b[0]!, b[1]!);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return b.length === 8 ? dv.getFloat64(0, true) : dv.getFloat32(0, true);
}

/** PLAIN bytes of a float of width 2, 4 or 8 (the sign of a zero kept). */
export function floatBytes(v: number, width: number): Uint8Array {
  const b = new Uint8Array(width);
  const dv = new DataView(b.buffer);
  if (width === 8) dv.setFloat64(0, v, true);
  else if (width === 4) dv.setFloat32(0, v, true);
  else dv.setUint16(0, float16Bits(v), true);
  return b;
}
