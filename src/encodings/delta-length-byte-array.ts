/**
 * DELTA_LENGTH_BYTE_ARRAY (encoding 6): every value's length,
 * DELTA_BINARY_PACKED, then all the values' bytes back to back.
 */
import type { ByteCursor } from '../bytes/cursor.js';
import type { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError } from '../errors.js';
import { copyBytes } from './bits.js';
import { decodeDeltaInt32, encodeDeltaInt32 } from './delta-binary-packed.js';
import { valueLengths } from './plain.js';
import type { ByteArrays } from './types.js';

/** Decodes `count` values and leaves `c.pos` after their bytes. */
export function decodeDeltaLengthByteArray(c: ByteCursor, count: number): ByteArrays {
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
  const data = copyBytes(c.buf, c.pos, c.pos + total);
  c.pos += total;
  return { data, offsets };
}

/** Appends `values` DELTA_LENGTH_BYTE_ARRAY-encoded. */
export function encodeDeltaLengthByteArray(w: ByteWriter, values: ByteArrays): void {
  const { data, offsets } = values;
  const lengths = valueLengths(values);
  encodeDeltaInt32(w, lengths);
  w.bytes(data.subarray(offsets[0], offsets[lengths.length]));
}
