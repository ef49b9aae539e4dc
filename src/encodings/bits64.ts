/**
 * Bit-packed values of up to 64 bits unpacked into 32-bit halves, and
 * summed without unpacking: for DELTA_BINARY_PACKED and ALP, decoded by
 * page-encodings.ts. Apart from bits.ts, which every read loads.
 */
import { bitsAt } from './bits.js';

/**
 * Unpacks `n` values of `width` bits (33..64), LSB first, into their low and
 * high 32-bit halves, so 64-bit deltas decode without a BigInt per value.
 */
export function unpackLsb64(buf: Uint8Array, p: number, width: number, n: number, lo: Int32Array, hi: Int32Array): void {
  const limit = p + Math.ceil((n * width) / 8);
  const hiWidth = width - 32;
  for (let k = 0; k < n; k += 8, p += width) {
    for (let j = k, b = 0, g = Math.min(k + 8, n); j < g; j++, b += width) {
      lo[j] = bitsAt(buf, p, b, 32, limit);
      hi[j] = bitsAt(buf, p, b + 32, hiWidth, limit);
    }
  }
}

/** Values summed per pass of sumLsb: each below 2^32, so the running sum stays an exact number. */
const SUM_CHUNK = 1 << 20;

/**
 * The sum mod 2^64 of `n` values of `width` bits (0..64), packed LSB first
 * from byte `p`, as unpackLsb and unpackLsb64 would give them (unsigned),
 * without writing them anywhere: into out[0] (low 32 bits) and out[1] (high).
 * Reads exactly ceil(n * width / 8) bytes, which the caller has checked exist.
 */
export function sumLsb(buf: Uint8Array, p: number, width: number, n: number, out: Uint32Array): void {
  const limit = p + Math.ceil((n * width) / 8);
  const loWidth = Math.min(width, 32);
  const hiWidth = width - loWidth;
  let lo = 0;
  let hi = 0;
  for (let k = 0, b = 0; k < n && width > 0; ) {
    let s = 0;
    let t = 0;
    const e = Math.min(n, k + SUM_CHUNK);
    // The fast path of unpackWords while value k's 32-bit word (and a fifth byte) lies within the checked bytes.
    if (width < 32) {
      const mask = (1 << width) - 1;
      for (; k < e && p + (b >>> 3) + 4 < limit; k++, b += width) {
        const i = p + (b >>> 3);
        const shift = b & 7;
        let v = (buf[i]! | (buf[i + 1]! << 8) | (buf[i + 2]! << 16) | (buf[i + 3]! << 24)) >>> shift;
        if (shift + width > 32) v |= buf[i + 4]! << (32 - shift);
        s += v & mask;
      }
    }
    for (; k < e; k++, b += width) {
      s += bitsAt(buf, p, b, loWidth, limit) >>> 0;
      if (hiWidth > 0) t += bitsAt(buf, p, b + 32, hiWidth, limit) >>> 0;
    }
    lo += s;
    hi = (hi + t + Math.floor(lo / 4294967296)) % 4294967296;
    lo %= 4294967296;
  }
  out[0] = lo;
  out[1] = hi;
}
