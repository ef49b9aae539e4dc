/**
 * SNAPPY: the raw snappy block format (no framing), a varint of the
 * uncompressed length followed by literal and copy elements. Both directions
 * run in hysnappy's wasm build of the reference code.
 */
import { snappyCompressor, snappyUncompressor } from 'hysnappy';
import { CorruptFileError } from '../errors.js';
import { type Codec, defineCodec } from './codec.js';
import { snappyLength } from './snappy-length.js';

export { snappyLength };

/** Instantiates the two wasm modules; both are small enough to compile synchronously, even on a browser's main thread. */
export function createSnappy(): Codec {
  const uncompress = snappyUncompressor();
  const compress = snappyCompressor();
  return defineCodec(
    'SNAPPY',
    (input, uncompressedSize) => {
      // The wasm decoder trusts the preamble for where its output ends, so a
      // preamble larger than the buffer it was given would write past it.
      const declared = snappyLength(input);
      if (declared !== uncompressedSize) {
        throw new CorruptFileError(`SNAPPY data declares ${declared} bytes, expected ${uncompressedSize}`);
      }
      return uncompress(input, uncompressedSize);
    },
    (input) => compress(input),
  );
}
