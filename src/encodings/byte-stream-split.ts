/**
 * BYTE_STREAM_SPLIT (encoding 9) for FLOAT, DOUBLE, INT32, INT64 and
 * FIXED_LEN_BYTE_ARRAY: byte k of every value, then byte k + 1 of every
 * value, and so on. No header: the stream length is width * count, and it
 * fills the rest of the page.
 */
import type { ByteCursor } from '../bytes/cursor.js';
import type { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError, InvalidArgumentError } from '../errors.js';
import { LITTLE_ENDIAN } from './bits.js';
import { fixedWidth, fixedWidthValues } from './plain.js';
import { fixedWidthBytes } from './plain-encode.js';
import type { PhysicalType, Values } from './types.js';

function splittable(type: PhysicalType): boolean {
  return type === 'FLOAT' || type === 'DOUBLE' || type === 'INT32' || type === 'INT64' || type === 'FIXED_LEN_BYTE_ARRAY';
}

/**
 * Decodes `count` values of `type` from `c.pos` to `c.end`, which must hold
 * exactly width * count bytes (the streams' stride is the count, so any other
 * length means the count or the page is wrong). Leaves `c.pos` at `c.end`.
 */
export function decodeByteStreamSplit(c: ByteCursor, type: PhysicalType, count: number, typeLength?: number): Values {
  const s = new ByteStreamSplitStream(c, type, count, typeLength);
  return s.read(count);
}

/**
 * A page's BYTE_STREAM_SPLIT values read or passed over `n` at a time:
 * value i is byte i of each stream, so a skip only moves the index. The
 * streams' stride is the page's count, so the page must hold exactly
 * width * count bytes (any other length means the count or the page is
 * wrong). Leaves `c.pos` at `c.end`.
 */
export class ByteStreamSplitStream {
  private readonly buf: Uint8Array;
  private readonly pos: number;
  private readonly width: number;
  private i = 0;

  constructor(c: ByteCursor, private readonly type: PhysicalType, private readonly count: number, typeLength?: number) {
    if (!splittable(type)) throw new CorruptFileError(`BYTE_STREAM_SPLIT does not apply to ${type}`, { offset: c.fileOffset });
    const width = fixedWidth(type, typeLength);
    if (!(Number.isInteger(count) && count >= 0) || count * width !== c.remaining) {
      throw new CorruptFileError(`BYTE_STREAM_SPLIT of ${count} ${type} values needs ${count * width} bytes but the page has ${c.remaining}`, {
        offset: c.fileOffset,
      });
    }
    this.buf = c.buf;
    this.pos = c.pos;
    this.width = width;
    c.pos = c.end;
  }

  /** The next `n` values (at most those left). */
  read(n: number): Values {
    const { buf, pos, width, count } = this;
    n = Math.min(n, count - this.i);
    const from = this.i;
    this.i += n;
    const out = new Uint8Array(n * width);
    if (LITTLE_ENDIAN && width % 4 === 0) {
      // Four streams at a time make one 32-bit word of each value: a quarter of the stores.
      const words = new Int32Array(out.buffer);
      const stride = width / 4;
      for (let j = 0; j < stride; j++) {
        const s0 = pos + 4 * j * count + from;
        const s1 = s0 + count;
        const s2 = s1 + count;
        const s3 = s2 + count;
        for (let i = 0, dst = j; i < n; i++, dst += stride) {
          words[dst] = buf[s0 + i]! | (buf[s1 + i]! << 8) | (buf[s2 + i]! << 16) | (buf[s3 + i]! << 24);
        }
      }
    } else {
      for (let k = 0; k < width; k++) {
        for (let i = 0, src = pos + k * count + from, dst = k; i < n; i++, dst += width) out[dst] = buf[src + i]!;
      }
    }
    return fixedWidthValues(this.type, out, n, width);
  }

  /** Passes over the next `n` values (at most those left). */
  skip(n: number): void {
    this.i += Math.min(n, this.count - this.i);
  }
}

/** Appends `values` of `type` BYTE_STREAM_SPLIT-encoded. */
export function encodeByteStreamSplit(w: ByteWriter, type: PhysicalType, values: Values, typeLength?: number): void {
  if (!splittable(type)) throw new InvalidArgumentError(`BYTE_STREAM_SPLIT does not apply to ${type}`);
  const bytes = fixedWidthBytes(type, values, typeLength);
  const width = fixedWidth(type, typeLength);
  const count = bytes.length / width;
  const out = new Uint8Array(bytes.length);
  for (let k = 0; k < width; k++) {
    for (let i = 0, src = k, dst = k * count; i < count; i++, src += width) out[dst + i] = bytes[src]!;
  }
  w.bytes(out);
}
