/**
 * Walks the frames of a Zstandard stream (RFC 8878, section 3.1) without
 * decoding them: headers, block headers and frame boundaries. zstd.ts uses
 * this to check declared sizes against the page header before libzstd
 * allocates anything, and to see whether the first data frame declares its
 * size (libzstd's one-shot call sizes its output from that header alone).
 */
import { CorruptFileError, UnsupportedError } from '../errors.js';

const ZSTD_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC = 0x184d2a50;
const MAX_BLOCK = 128 * 1024;

export interface ZstdFrame {
  start: number;
  end: number;
  /** From the header; undefined when the header omits it. */
  contentSize: number | undefined;
  windowSize: number;
  /** Absolute position of the window descriptor byte, or -1 for single-segment frames. */
  windowDescriptorAt: number;
}

function u32(d: Uint8Array, p: number): number {
  return (d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0;
}

function uint(d: Uint8Array, p: number, bytes: number): number {
  let v = 0;
  for (let i = bytes - 1; i >= 0; i--) v = v * 256 + d[p + i]!;
  return v;
}

/** Window size for a descriptor byte: 2^(10+exponent) plus mantissa eighths. */
export function windowSizeOf(descriptor: number): number {
  const base = 2 ** (10 + (descriptor >>> 3));
  return base + (base / 8) * (descriptor & 7);
}

function truncated(at: number): CorruptFileError {
  return new CorruptFileError(`ZSTD data is truncated (frame at byte ${at})`);
}

/** All data frames of `d` in order; skippable frames are checked and left out. */
export function zstdFrames(d: Uint8Array): ZstdFrame[] {
  const frames: ZstdFrame[] = [];
  let p = 0;
  while (p < d.length) {
    if (d.length - p < 4) throw truncated(p);
    const magic = u32(d, p);
    if ((magic & 0xfffffff0) >>> 0 === SKIPPABLE_MAGIC) {
      if (d.length - p < 8) throw truncated(p);
      p += 8 + u32(d, p + 4);
      if (p > d.length) throw truncated(p);
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw new CorruptFileError(`ZSTD frame at byte ${p} has a bad magic number`);
    const frame = readFrame(d, p);
    frames.push(frame);
    p = frame.end;
  }
  return frames;
}

function readFrame(d: Uint8Array, start: number): ZstdFrame {
  let q = start + 4;
  if (q >= d.length) throw truncated(start);
  const fhd = d[q++]!;
  if (fhd & 8) throw new CorruptFileError(`ZSTD frame at byte ${start} sets the reserved header bit`);
  const singleSegment = (fhd & 0x20) !== 0;
  const hasChecksum = (fhd & 4) !== 0;
  const dictBytes = [0, 1, 2, 4][fhd & 3]!;
  const fcsFlag = fhd >>> 6;
  const fcsBytes = fcsFlag === 0 ? (singleSegment ? 1 : 0) : 1 << fcsFlag;
  const headerEnd = q + (singleSegment ? 0 : 1) + dictBytes + fcsBytes;
  if (headerEnd > d.length) throw truncated(start);

  let windowSize = 0;
  let windowDescriptorAt = -1;
  if (!singleSegment) {
    windowDescriptorAt = q;
    windowSize = windowSizeOf(d[q++]!);
  }
  if (uint(d, q, dictBytes) !== 0) throw new UnsupportedError('ZSTD frames that need a dictionary are not supported');
  q += dictBytes;
  let contentSize: number | undefined;
  if (fcsBytes > 0) {
    contentSize = uint(d, q, fcsBytes) + (fcsBytes === 2 ? 256 : 0);
    q += fcsBytes;
  }
  if (singleSegment) windowSize = contentSize!;

  const maxBlock = Math.min(windowSize, MAX_BLOCK);
  for (let last = false; !last; ) {
    if (d.length - q < 3) throw truncated(start);
    const header = d[q]! | (d[q + 1]! << 8) | (d[q + 2]! << 16);
    q += 3;
    last = (header & 1) === 1;
    const type = (header >>> 1) & 3;
    const size = header >>> 3;
    if (type === 3) throw new CorruptFileError(`ZSTD block at byte ${q - 3} has the reserved block type`);
    if (size > maxBlock) throw new CorruptFileError(`ZSTD block at byte ${q - 3} is larger than the frame's ${maxBlock}-byte block limit`);
    q += type === 1 ? 1 : size;
    if (q > d.length) throw truncated(start);
  }
  if (hasChecksum) {
    q += 4;
    if (q > d.length) throw truncated(start);
  }
  return { start, end: q, contentSize, windowSize, windowDescriptorAt };
}
