/**
 * The deprecated BIT_PACKED encoding (4) of v1 levels: values back to back
 * at a fixed width, most significant bit first, no headers, the last byte
 * zero-padded. The byte count follows from the value count.
 */
import type { ByteCursor } from '../bytes/cursor.js';
import type { ByteWriter } from '../bytes/writer.js';
import { InvalidArgumentError } from '../errors.js';
import { checkIntegerTarget } from './bits.js';
import { countLevels, levelError, type LevelCheck } from './rle.js';
import type { IntegerArray } from './types.js';

/**
 * Decodes `count` values of `width` (0..32) bits into `out[outPos ..]` and
 * advances `c.pos` past ceil(count * width / 8) bytes.
 */
export function decodeBitPacked(c: ByteCursor, width: number, count: number, out: IntegerArray, outPos = 0): void {
  checkIntegerTarget(width, count, out, outPos);
  new BitPackedStream(c, width, count).read(count, out, outPos);
}

/**
 * `count` values of `width` (0..32) bits at `c.pos`, read or passed over
 * `n` at a time (v1 levels of a page whose selected rows start or end inside
 * it). Value k starts at bit k * width, so a position is arithmetic; a skip
 * still looks at each level passed, to check it against the maximum and
 * count those equal to it, but writes none. Advances `c.pos` past the
 * ceil(count * width / 8) bytes on opening.
 */
export class BitPackedStream {
  private readonly buf: Uint8Array;
  private readonly start: number;
  private readonly limit: number;
  private k = 0;

  constructor(c: ByteCursor, private readonly width: number, private readonly count: number) {
    const size = Math.ceil((count * width) / 8);
    c.need(size, `${count} BIT_PACKED values of ${width} bits`);
    this.buf = c.buf;
    this.start = c.pos;
    this.limit = c.pos + size;
    c.pos += size;
  }

  /** Decodes the next `n` values (at most those left) into out[outPos ..]; with `levels`, checks them and returns how many equal its maximum. */
  read(n: number, out: IntegerArray, outPos = 0, levels?: LevelCheck): number {
    n = Math.min(n, this.count - this.k);
    // In order from bit k * width through one accumulator; at() (a position found by arithmetic) is for skips.
    const { buf, width } = this;
    const b = this.k * width;
    let p = this.start + Math.floor(b / 8);
    let bits = b % 8 === 0 ? 0 : 8 - (b % 8);
    let acc = bits === 0 ? 0 : buf[p++]! & ((1 << bits) - 1);
    const take = (m: number): number => {
      while (bits < m) {
        acc = (acc << 8) | buf[p++]!;
        bits += 8;
      }
      bits -= m;
      const v = acc >>> bits;
      acc &= (1 << bits) - 1;
      return v;
    };
    for (let j = outPos, e = outPos + n; j < e; j++) out[j] = width <= 16 ? take(width) : take(width - 16) * 65536 + take(16);
    this.k += n;
    return levels ? countLevels(out, outPos, outPos + n, levels) : 0;
  }

  /** Passes over the next `n` values (at most those left), checked and counted as read does. */
  skip(n: number, levels?: LevelCheck): number {
    n = Math.min(n, this.count - this.k);
    const from = this.k;
    this.k += n;
    if (!levels) return 0;
    let hits = 0;
    for (let j = from, e = from + n; j < e; j++) {
      const v = this.at(j);
      if (v > levels.max) throw levelError(v, levels);
      if (v === levels.max) hits++;
    }
    return hits;
  }

  /** An independent stream at the same place. */
  clone(): BitPackedStream {
    const copy = Object.create(BitPackedStream.prototype) as BitPackedStream;
    return Object.assign(copy, this);
  }

  /** Value k: the `width` bits from bit k * width on, most significant first, from the bytes before `limit` (the last byte's padding is zeros). */
  private at(k: number): number {
    const { buf, width, limit } = this;
    if (width === 0) return 0;
    const b = k * width;
    const i = this.start + Math.floor(b / 8);
    const need = (b % 8) + width; // bits from byte i's top, at most 39
    let acc = 0;
    let got = 0;
    for (let q = i; got < need; q++, got += 8) acc = acc * 256 + (q < limit ? buf[q]! : 0);
    return Math.floor(acc / 2 ** (got - need)) % 2 ** width;
  }
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
