/**
 * LZ4, Parquet's deprecated codec. parquet-mr wrote Hadoop's block framing:
 * chunks of [uncompressed length][compressed length][LZ4 block]..., lengths
 * 32-bit big-endian. Other writers put a plain LZ4 block or an LZ4 frame
 * under the same codec id, so reading tries those in turn, as Arrow does.
 * Writing uses the Hadoop framing, in frames that every reader takes (see
 * compressLz4).
 */
import { CorruptFileError } from '../errors.js';
import { defineCodec } from './codec.js';
import { decodeLz4Block, encodeLz4Block, encodeLz4Literals, lz4BlockBound, lz4LiteralsSize } from './lz4-block.js';
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

/**
 * Hadoop framing that the three readers in use all take:
 * - Hadoop's own decoder (parquet-java) decompresses each frame into a
 *   256 KiB buffer, so no frame holds more than HADOOP_CHUNK bytes; a page
 *   is cut into equal frames, the larger ones (by a byte) last;
 * - arrow-rs (parquet-wasm) reads on past a frame only while the bytes after
 *   it outnumber its compressed size, and otherwise fails the page, so a
 *   short last frame after a long one broke every page over HADOOP_CHUNK.
 *   No frame is stored larger than its literals-only block, and when a frame
 *   would still outsize what follows it, the last frame is stored as
 *   literals, which the frames being equal makes large enough;
 * - Arrow C++ takes any sequence of frames.
 */
export function compressLz4(input: Uint8Array): Uint8Array {
  const n = input.length;
  const frames = Math.max(1, Math.ceil(n / HADOOP_CHUNK));
  const base = Math.floor(n / frames);
  const longer = n % frames;
  const out = new Uint8Array(lz4BlockBound(n) + frames * (8 + 16));
  const sizes: number[] = [];
  let dp = 0;
  let start = 0;
  for (let f = 0; f < frames; f++) {
    const end = start + base + (f >= frames - longer ? 1 : 0);
    const blockAt = dp + 8;
    putBe32(out, dp, end - start);
    dp = encodeLz4Block(input, start, end, out, blockAt);
    if (dp - blockAt > lz4LiteralsSize(end - start)) dp = encodeLz4Literals(input, start, end, out, blockAt);
    putBe32(out, blockAt - 4, dp - blockAt);
    sizes.push(dp - blockAt);
    start = end;
  }
  let after = 0;
  for (let f = frames - 1; f > 0; f--) {
    after += 8 + sizes[f]!;
    if (sizes[f - 1]! >= after) {
      const lastAt = dp - sizes[frames - 1]!;
      dp = encodeLz4Literals(input, n - (base + (longer > 0 ? 1 : 0)), n, out, lastAt);
      putBe32(out, lastAt - 4, dp - lastAt);
      break;
    }
  }
  return out.slice(0, dp);
}

export const lz4 = defineCodec('LZ4', decompressLz4, compressLz4);
