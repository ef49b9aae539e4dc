/**
 * SNAPPY decompression alone, in hysnappy's wasm build of the reference
 * code: what a read loads (the registry's `loadDecompressor`). snappy.ts
 * adds the compressor, for writers.
 */
/// <reference path="./hysnappy-parts.d.ts" />
import { snappyUncompressor } from 'hysnappy/js/uncompress.js';
import { CorruptFileError } from '../errors.js';
import { snappyLength } from './snappy-length.js';

/** Instantiates the decoder's wasm module, small enough to compile synchronously, even on a browser's main thread. */
export function snappyDecoder(): (input: Uint8Array, uncompressedSize: number) => Uint8Array {
  const uncompress = snappyUncompressor();
  return (input, uncompressedSize) => {
    // The wasm decoder trusts the preamble for where its output ends, so a
    // preamble larger than the buffer it was given would write past it.
    const declared = snappyLength(input);
    if (declared !== uncompressedSize) {
      throw new CorruptFileError(`SNAPPY data declares ${declared} bytes, expected ${uncompressedSize}`);
    }
    return uncompress(input, uncompressedSize);
  };
}
