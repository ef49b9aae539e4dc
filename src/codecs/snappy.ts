/**
 * SNAPPY: the raw snappy block format (no framing), a varint of the
 * uncompressed length followed by literal and copy elements. Compression runs
 * in hysnappy's wasm build of the reference code; decompression is
 * snappy-decode.ts, in JavaScript, what reads load alone.
 */
/// <reference path="./hysnappy-parts.d.ts" />
import { snappyCompressor } from 'hysnappy/js/compress.js';
import { type Codec, defineCodec } from './codec.js';
import { snappyDecompress } from './snappy-decode.js';

/** Instantiates the compressor's wasm module, small enough to compile synchronously, even on a browser's main thread. */
export function createSnappy(): Codec {
  const compress = snappyCompressor();
  return defineCodec('SNAPPY', snappyDecompress, (input) => compress(input));
}
