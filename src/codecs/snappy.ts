/**
 * SNAPPY: the raw snappy block format (no framing), a varint of the
 * uncompressed length followed by literal and copy elements. Both directions
 * run in hysnappy's wasm build of the reference code; decompression alone is
 * snappy-decode.ts, what reads load.
 */
/// <reference path="./hysnappy-parts.d.ts" />
import { snappyCompressor } from 'hysnappy/js/compress.js';
import { type Codec, defineCodec } from './codec.js';
import { snappyDecoder } from './snappy-decode.js';
import { snappyLength } from './snappy-length.js';

export { snappyLength };

/** Instantiates the two wasm modules; both are small enough to compile synchronously, even on a browser's main thread. */
export function createSnappy(): Codec {
  const compress = snappyCompressor();
  return defineCodec('SNAPPY', snappyDecoder(), (input) => compress(input));
}
