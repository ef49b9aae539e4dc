/**
 * LZ4, Parquet's deprecated codec. parquet-mr wrote Hadoop's block framing:
 * chunks of [uncompressed length][compressed length][LZ4 block]..., lengths
 * 32-bit big-endian. Other writers put a plain LZ4 block or an LZ4 frame
 * under the same codec id, so reading tries those in turn, as Arrow does.
 * Writing always uses the Hadoop framing, which every reader accepts.
 */
import { CorruptFileError } from '../errors.js';
import { defineCodec } from './codec.js';
import { decodeLz4Block, encodeLz4Block, lz4BlockBound } from './lz4-block.js';
import { decodeLz4Frames } from './lz4-frame.js';

/**
 * Hadoop's Lz4Codec reads through a 256 KiB buffer and keeps n/255 + 16 of
 * it spare for expansion, so a larger chunk would overflow Java readers.
 */
export const HADOOP_CHUNK = 256 * 1024 - (Math.floor((256 * 1024) / 255) + 16);

function be32(d: Uint8Array, p: number): number {
  return ((d[p]! << 24) | (d[p + 1]! << 16) | (d[p + 2]! << 8) | d[p + 3]!) >>> 0;
}

function putBe32(d: Uint8Array, p: number, v: number): void {
  d[p] = v >>> 24;
  d[p + 1] = (v >>> 16) & 0xff;
  d[p + 2] = (v >>> 8) & 0xff;
  d[p + 3] = v & 0xff;
}

/** Decodes the Hadoop framing into `dst`; returns the bytes written. */
function decodeHadoop(src: Uint8Array, dst: Uint8Array): number {
  let ip = 0;
  let op = 0;
  while (ip < src.length) {
    if (src.length - ip < 4) throw new CorruptFileError('Hadoop LZ4 chunk header is truncated');
    const chunkSize = be32(src, ip);
    ip += 4;
    if (chunkSize > dst.length - op) throw new CorruptFileError(`Hadoop LZ4 chunk of ${chunkSize} bytes exceeds the uncompressed size`);
    const chunkEnd = op + chunkSize;
    // A chunk may be split into several compressed blocks; each consumes input, so this ends.
    do {
      if (src.length - ip < 4) throw new CorruptFileError('Hadoop LZ4 block header is truncated');
      const blockSize = be32(src, ip);
      ip += 4;
      if (blockSize > src.length - ip) throw new CorruptFileError(`Hadoop LZ4 block of ${blockSize} bytes runs past the input`);
      op = decodeLz4Block(src, ip, ip + blockSize, dst, op, chunkEnd, op);
      ip += blockSize;
    } while (op < chunkEnd);
  }
  return op;
}

function decodeRaw(src: Uint8Array, dst: Uint8Array): number {
  return decodeLz4Block(src, 0, src.length, dst, 0, dst.length, 0);
}

export function decompressLz4(input: Uint8Array, uncompressedSize: number): Uint8Array {
  const out = new Uint8Array(uncompressedSize);
  const failures: string[] = [];
  for (const [name, decode] of [
    ['Hadoop framing', decodeHadoop],
    ['raw block', decodeRaw],
    ['LZ4 frame', decodeLz4Frames],
  ] as const) {
    try {
      const n = decode(input, out);
      if (n === uncompressedSize) return out;
      failures.push(`${name}: ${n} bytes instead of ${uncompressedSize}`);
    } catch (e) {
      if (!(e instanceof CorruptFileError)) throw e;
      failures.push(`${name}: ${e.detail}`);
    }
  }
  throw new CorruptFileError(`LZ4 data fits none of the known layouts (${failures.join('; ')})`);
}

export function compressLz4(input: Uint8Array): Uint8Array {
  const chunks = Math.max(1, Math.ceil(input.length / HADOOP_CHUNK));
  const out = new Uint8Array(lz4BlockBound(input.length) + chunks * (8 + 16));
  let dp = 0;
  let start = 0;
  do {
    const end = Math.min(input.length, start + HADOOP_CHUNK);
    putBe32(out, dp, end - start);
    const blockAt = dp + 8;
    dp = encodeLz4Block(input, start, end, out, blockAt);
    putBe32(out, blockAt - 4, dp - blockAt);
    start = end;
  } while (start < input.length);
  return out.slice(0, dp);
}

export const lz4 = defineCodec('LZ4', decompressLz4, compressLz4);
