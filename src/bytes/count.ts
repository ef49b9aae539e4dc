/**
 * Counts of byte values in a range, four bytes at a time: cutting a CSV
 * input into blocks counts every line break and quote on the thread that
 * cuts it (and its UTF-8 check every line break), where an indexOf per hit
 * (a line every 100 bytes) cost about twice as much.
 */

/** Per byte of a 32-bit word, 0x80 where the byte is zero, else 0 (exact: no carry crosses a byte). */
function zeroBytes(w: number): number {
  return ~(((w & 0x7f7f7f7f) + 0x7f7f7f7f) | w | 0x7f7f7f7f);
}

/** How many of b[from, to) are `x`, and how many are `y` (x !== y). */
export function countBytes(b: Uint8Array, from: number, to: number, x: number, y: number): [number, number] {
  let nx = 0;
  let ny = 0;
  let i = from;
  // Bytes up to a 4-byte boundary of the buffer, then whole words, then the rest.
  const start = Math.min(to, from + ((4 - ((b.byteOffset + from) & 3)) & 3));
  for (; i < start; i++) {
    const c = b[i]!;
    if (c === x) nx++;
    else if (c === y) ny++;
  }
  const words = (to - i) >> 2;
  if (words > 0) {
    const w = new Int32Array(b.buffer, b.byteOffset + i, words);
    const xs = x * 0x01010101;
    const ys = y * 0x01010101;
    for (let k = 0; k < words; k++) {
      const v = w[k]!;
      const ax = zeroBytes(v ^ xs);
      const ay = zeroBytes(v ^ ys);
      // Each byte of (a >>> 7) is 0 or 1: the multiply sums them into the top byte.
      if (ax !== 0) nx += Math.imul(ax >>> 7, 0x01010101) >>> 24;
      if (ay !== 0) ny += Math.imul(ay >>> 7, 0x01010101) >>> 24;
    }
    i += words * 4;
  }
  for (; i < to; i++) {
    const c = b[i]!;
    if (c === x) nx++;
    else if (c === y) ny++;
  }
  return [nx, ny];
}

/** How many of b[from, to) are `x`: one test a word (countBytes' two cost the UTF-8 check's line count about a third more). */
export function countByte(b: Uint8Array, from: number, to: number, x: number): number {
  let n = 0;
  let i = from;
  const start = Math.min(to, from + ((4 - ((b.byteOffset + from) & 3)) & 3));
  for (; i < start; i++) if (b[i] === x) n++;
  const words = (to - i) >> 2;
  if (words > 0) {
    const w = new Int32Array(b.buffer, b.byteOffset + i, words);
    const xs = x * 0x01010101;
    for (let k = 0; k < words; k++) {
      const a = zeroBytes(w[k]! ^ xs);
      if (a !== 0) n += Math.imul(a >>> 7, 0x01010101) >>> 24;
    }
    i += words * 4;
  }
  for (; i < to; i++) if (b[i] === x) n++;
  return n;
}
