/** LZ4_RAW: a page is exactly one LZ4 block, with no framing. */
import { CorruptFileError } from '../errors.js';
import { defineCodec } from './codec.js';
import { decodeLz4Block, encodeLz4Block, lz4BlockBound } from './lz4-block.js';

export function decompressLz4Raw(input: Uint8Array, uncompressedSize: number): Uint8Array {
  const out = new Uint8Array(uncompressedSize);
  const end = decodeLz4Block(input, 0, input.length, out, 0, uncompressedSize, 0);
  if (end !== uncompressedSize) throw new CorruptFileError(`LZ4 block decoded to ${end} bytes, expected ${uncompressedSize}`);
  return out;
}

export function compressLz4Raw(input: Uint8Array): Uint8Array {
  const out = new Uint8Array(lz4BlockBound(input.length));
  return out.slice(0, encodeLz4Block(input, 0, input.length, out, 0));
}

export const lz4Raw = defineCodec('LZ4_RAW', decompressLz4Raw, compressLz4Raw);
