/**
 * DELTA_LENGTH_BYTE_ARRAY (encoding 6): every value's length,
 * DELTA_BINARY_PACKED, then all the values' bytes back to back.
 */
import type { ByteCursor } from '../bytes/cursor.js';
import type { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError } from '../errors.js';
import { ownedCopy } from './bits.js';
import { decodeDeltaInt32, encodeDeltaInt32 } from './delta-binary-packed.js';
import { valueLengths } from './plain.js';
import type { ByteArrays } from './types.js';

/** Decodes `count` values and leaves `c.pos` after their bytes. */
export function decodeDeltaLengthByteArray(c: ByteCursor, count: number): ByteArrays {
  return new DeltaLengthStream(c, count).read(count);
}

/**
 * A page's values read or passed over `n` at a time. The lengths come
 * first, so they are decoded (and checked against the bytes) on opening;
 * the values' bytes are then found by their offsets, and a skip moves an
 * index. Leaves `c.pos` after the values' bytes.
 */
export class DeltaLengthStream {
  /** Value i is buf[start + offsets[i] .. start + offsets[i + 1]). */
  readonly offsets: Int32Array;
  readonly buf: Uint8Array;
  readonly start: number;
  private i = 0;

  constructor(c: ByteCursor, private readonly count: number) {
    const lengths = decodeDeltaInt32(c, count);
    const offsets = new Int32Array(count + 1);
    let total = 0;
    for (let i = 0; i < count; i++) {
      const len = lengths[i]!;
      if (len < 0) throw new CorruptFileError(`DELTA_LENGTH_BYTE_ARRAY value ${i} has negative length ${len}`, { offset: c.fileOffset });
      total += len;
      // Checked as it grows, so the sum stays within the input, and so within an int32.
      if (total > c.remaining) {
        throw new CorruptFileError(`DELTA_LENGTH_BYTE_ARRAY lengths add up past the ${c.remaining} bytes that remain`, { offset: c.fileOffset });
      }
      offsets[i + 1] = total;
    }
    this.offsets = offsets;
    this.buf = c.buf;
    this.start = c.pos;
    c.pos += total;
  }

  /** The next `n` values (at most those left), copied out. */
  read(n: number): ByteArrays {
    const { offsets, start } = this;
    const from = this.i;
    const to = Math.min(from + n, this.count);
    this.i = to;
    const base = offsets[from]!;
    const data = ownedCopy(this.buf, start + base, start + offsets[to]!);
    const out = from === 0 && to === this.count ? offsets : offsets.slice(from, to + 1);
    if (base !== 0) for (let k = 0; k < out.length; k++) out[k] -= base;
    return { data, offsets: out };
  }

  /** Passes over the next `n` values (at most those left). */
  skip(n: number): void {
    this.i = Math.min(this.i + n, this.count);
  }
}

/** Appends `values` DELTA_LENGTH_BYTE_ARRAY-encoded. */
export function encodeDeltaLengthByteArray(w: ByteWriter, values: ByteArrays): void {
  const { data, offsets } = values;
  const lengths = valueLengths(values);
  encodeDeltaInt32(w, lengths);
  w.bytes(data.subarray(offsets[0], offsets[lengths.length]));
}
