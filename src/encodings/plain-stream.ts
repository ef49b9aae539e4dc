/**
 * PLAIN values read or passed over a window at a time (plain.ts decodes a
 * page whole): what parquet/chunk-stream.ts streams. Apart from plain.ts,
 * so a read that decodes whole pages does not load it.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { ownedCopy } from './bits.js';
import { compactByteArrays, fixedWidth, fixedWidthValues, overrunValue, truncatedLength } from './plain.js';
import type { PhysicalType, Values } from './types.js';

/**
 * A page's PLAIN values read or passed over `n` at a time: a skip moves the
 * position (by the widths, by bits for BOOLEAN, along the length prefixes
 * for BYTE_ARRAY, each checked) and makes nothing. Reads copy, as
 * decodePlain does for input it does not own.
 */
export class PlainStream {
  private readonly width: number;
  /** BOOLEAN: the next value's bit, from c.pos. */
  private bit = 0;

  constructor(private readonly c: ByteCursor, private readonly type: PhysicalType, typeLength?: number) {
    this.width = fixedWidth(type, typeLength);
  }

  read(n: number): Values {
    const c = this.c;
    if (this.type === 'BYTE_ARRAY') {
      const start = c.pos;
      const end = this.pass(n);
      return compactByteArrays(new ByteCursor(c.buf.slice(start, end), 0, end - start, c.base + start), n);
    }
    if (this.type === 'BOOLEAN') {
      const out = new Uint8Array(n);
      const first = this.bit;
      this.passBits(n);
      for (let k = 0, b = first; k < n; k++, b++) out[k] = (c.buf[c.pos + (b >>> 3)]! >>> (b & 7)) & 1;
      return out;
    }
    const start = c.pos;
    this.pass(n);
    return fixedWidthValues(this.type, ownedCopy(c.buf, start, c.pos), n, this.width);
  }

  skip(n: number): void {
    if (this.type === 'BOOLEAN') this.passBits(n);
    else this.pass(n);
  }

  /** BOOLEAN: checks that `n` more bits remain and moves `bit` past them (the bytes stay at c.pos). */
  private passBits(n: number): void {
    this.c.need(Math.ceil((this.bit + n) / 8), `${n} PLAIN booleans`);
    this.bit += n;
  }

  /** Moves c.pos past `n` values of a byte-aligned type, checking every length; returns the new position. */
  private pass(n: number): number {
    const c = this.c;
    if (this.type !== 'BYTE_ARRAY') {
      c.skip(n * this.width, `${n} PLAIN ${this.type} values`);
      return c.pos;
    }
    const { buf, end, base, view } = c;
    let p = c.pos;
    for (let i = 0; i < n; i++) {
      if (end - p < 4) truncatedLength(i, n, base + p);
      const len = view.getUint32(p, true);
      p += 4;
      if (len > end - p) overrunValue(i, n, len, end - p, base + p - 4);
      p += len;
    }
    c.pos = p;
    return p;
  }
}
