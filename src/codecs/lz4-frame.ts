/**
 * The LZ4 frame format (lz4/doc/lz4_Frame_format.md): magic, a descriptor,
 * size-prefixed blocks up to an end mark, optional xxHash-32 checksums (read
 * past, not verified; the spec allows that). Concatenated and skippable
 * frames are accepted, as the lz4 tool does.
 */
import { CorruptFileError, UnsupportedError } from '../errors.js';
import { decodeLz4Block } from './lz4-block.js';

const FRAME_MAGIC = 0x184d2204;
const SKIPPABLE_MAGIC = 0x184d2a50;

function u32(d: Uint8Array, p: number): number {
  return (d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0;
}

function truncated(): CorruptFileError {
  return new CorruptFileError('LZ4 frame is truncated');
}

/** Decodes every frame of `src` into `dst`; returns how many bytes were written. */
export function decodeLz4Frames(src: Uint8Array, dst: Uint8Array): number {
  let ip = 0;
  let op = 0;
  while (ip < src.length) {
    if (src.length - ip < 8) throw truncated();
    const magic = u32(src, ip);
    if ((magic & 0xfffffff0) >>> 0 === SKIPPABLE_MAGIC) {
      ip += 8 + u32(src, ip + 4);
      if (ip > src.length) throw truncated();
      continue;
    }
    if (magic !== FRAME_MAGIC) throw new CorruptFileError(`no LZ4 frame magic at byte ${ip}`);
    [ip, op] = decodeFrame(src, ip + 4, dst, op);
  }
  return op;
}

function decodeFrame(src: Uint8Array, ip: number, dst: Uint8Array, op: number): [number, number] {
  const flg = src[ip]!;
  const bd = src[ip + 1]!;
  if (flg >>> 6 !== 1) throw new CorruptFileError(`LZ4 frame version ${flg >>> 6} is not 1`);
  if (flg & 2 || bd & 0x8f) throw new CorruptFileError('LZ4 frame sets reserved descriptor bits');
  const sizeCode = (bd >>> 4) & 7;
  if (sizeCode < 4) throw new CorruptFileError(`LZ4 frame block size code ${sizeCode} is undefined`);
  const blockMax = 1 << (8 + 2 * sizeCode);
  const independent = (flg & 0x20) !== 0;
  const blockChecksum = (flg & 0x10) !== 0;
  const hasContentSize = (flg & 8) !== 0;
  const contentChecksum = (flg & 4) !== 0;
  if (flg & 1) throw new UnsupportedError('LZ4 frames that need a dictionary are not supported');
  ip += 2;
  let contentSize = -1;
  if (hasContentSize) {
    if (src.length - ip < 8) throw truncated();
    contentSize = u32(src, ip) + u32(src, ip + 4) * 2 ** 32;
    ip += 8;
  }
  ip++; // header checksum

  const frameStart = op;
  for (;;) {
    if (src.length - ip < 4) throw truncated();
    const word = u32(src, ip);
    ip += 4;
    if (word === 0) break;
    const size = word & 0x7fffffff;
    if (size > blockMax) throw new CorruptFileError(`LZ4 frame block of ${size} bytes exceeds the frame's ${blockMax}-byte maximum`);
    if (size > src.length - ip) throw truncated();
    const opEnd = Math.min(dst.length, op + blockMax);
    if (word & 0x80000000) {
      if (size > opEnd - op) throw new CorruptFileError('LZ4 frame holds more data than expected');
      dst.set(src.subarray(ip, ip + size), op);
      op += size;
    } else {
      op = decodeLz4Block(src, ip, ip + size, dst, op, opEnd, independent ? op : frameStart);
    }
    ip += size + (blockChecksum ? 4 : 0);
  }
  if (contentChecksum) ip += 4;
  if (ip > src.length) throw truncated();
  if (contentSize >= 0 && contentSize !== op - frameStart) {
    throw new CorruptFileError(`LZ4 frame declares ${contentSize} bytes but holds ${op - frameStart}`);
  }
  return [ip, op];
}
