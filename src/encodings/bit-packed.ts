/**
 * The deprecated BIT_PACKED encoding (4) of v1 levels: values back to back
 * at a fixed width, most significant bit first, no headers, the last byte
 * zero-padded. The byte count follows from the value count.
 */
import type { ByteCursor } from '../bytes/cursor.js';
import type { ByteWriter } from '../bytes/writer.js';
import { InvalidArgumentError } from '../errors.js';
import { checkIntegerTarget } from './bits.js';
import type { IntegerArray } from './types.js';

/**
 * Decodes `count` values of `width` (0..32) bits into `out[outPos ..]` and
 * advances `c.pos` past ceil(count * width / 8) bytes.
 */
export function decodeBitPacked(c: ByteCursor, width: number, count: number, out: IntegerArray, outPos = 0): void {
  checkIntegerTarget(width, count, out, outPos);
  const size = Math.ceil((count * width) / 8);
  c.need(size, `${count} BIT_PACKED values of ${width} bits`);
  const buf = c.buf;
  let p = c.pos;
  // The bit buffer holds the not yet used low bits of the bytes read. A value
  // wider than 16 bits is read as two parts so the buffer stays below 24 bits.
  let acc = 0;
  let bits = 0;
  const take = (n: number): number => {
    while (bits < n) {
      acc = (acc << 8) | buf[p++]!;
      bits += 8;
    }
    bits -= n;
    const v = acc >>> bits;
    acc &= (1 << bits) - 1;
    return v;
  };
  for (let k = outPos, e = outPos + count; k < e; k++) {
    out[k] = width <= 16 ? take(width) : take(width - 16) * 65536 + take(16);
  }
  c.pos += size;
}

/** Appends `values` at `width` (0..32) bits each, MSB first; they must fit the width. */
export function encodeBitPacked(w: ByteWriter, values: ArrayLike<number>, width: number): void {
  if (!(Number.isInteger(width) && width >= 0 && width <= 32)) throw new InvalidArgumentError(`BIT_PACKED bit width ${width} is not in 0..32`);
  const bytes = new Uint8Array(Math.ceil((values.length * width) / 8));
  let p = 0;
  let acc = 0; // pending bits, fewer than 8 between values
  let bits = 0;
  const put = (v: number, n: number): void => {
    acc = (acc << n) | v;
    bits += n;
    while (bits >= 8) {
      bits -= 8;
      bytes[p++] = acc >>> bits;
      acc &= (1 << bits) - 1;
    }
  };
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (width < 32 && v >>> width !== 0) throw new InvalidArgumentError(`value ${v} at index ${i} does not fit in ${width} bits`);
    if (width <= 16) put(v, width);
    else {
      put(v >>> 16, width - 16);
      put(v & 0xffff, 16);
    }
  }
  if (bits > 0) bytes[p] = acc << (8 - bits);
  w.bytes(bytes);
}
