/** Raw Snappy's length preamble, apart from the wasm codec so framings can read it without loading that. */
import { CorruptFileError } from '../errors.js';

/** The length preamble: a little-endian base-128 varint of at most 32 bits. */
export function snappyLength(input: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (i >= input.length) throw new CorruptFileError('SNAPPY data ends inside its length preamble');
    const b = input[i]!;
    value += (b & 0x7f) * 2 ** (7 * i);
    if (b < 0x80) {
      if (value > 0xffffffff) break;
      return value;
    }
  }
  throw new CorruptFileError('SNAPPY length preamble is longer than 32 bits');
}
