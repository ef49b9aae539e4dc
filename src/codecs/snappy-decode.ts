/**
 * SNAPPY decompression alone, in JavaScript from the block format (google/
 * snappy's format_description.txt): what a read loads (the registry's
 * `loadDecompressor`), in a quarter of the bytes of hysnappy's wasm decoder
 * that it replaced, at about half its speed (BENCHMARKS.md, "SNAPPY in
 * JavaScript"). snappy.ts adds the compressor, for writers.
 *
 * After the length preamble come elements, each a tag byte whose low two
 * bits say its kind: a literal (its length in the tag's upper six bits, or
 * in 1-4 bytes after it) or a copy of earlier output (length and offset in
 * the tag and 1, 2 or 4 bytes after it). The output is allocated once at the
 * size the page header gives, and every length and offset is checked before
 * it is used, so no element reads or writes outside its buffer. The
 * preamble alone (`snappyLength`) serves the native codec's and Hadoop's
 * framing's checks.
 */
import { CorruptFileError } from '../errors.js';

/**
 * Elements are short (Parquet pages average 6 bytes an element), so what
 * costs is the branch that ends a byte loop after a length it cannot
 * predict. An element of at most this many bytes, with as many left in
 * input and output, is moved as four 32-bit words whatever its length; the
 * bytes past its end are written again by the elements that follow, since
 * the output must be filled to its end.
 */
const WIDE = 16;

/** Decompresses one raw Snappy block to exactly `uncompressedSize` bytes, else CorruptFileError. */
export function snappyDecompress(input: Uint8Array, uncompressedSize: number): Uint8Array {
  const declared = snappyLength(input);
  if (declared !== uncompressedSize) throw new CorruptFileError(`SNAPPY data declares ${declared} bytes, expected ${uncompressedSize}`);
  let ip = 1;
  while (input[ip - 1]! >= 0x80) ip++;
  const end = input.length;
  const size = uncompressedSize;
  const out = new Uint8Array(size);
  const inWords = new DataView(input.buffer, input.byteOffset, end);
  const outWords = new DataView(out.buffer);
  let op = 0;
  while (ip < end) {
    const at = ip;
    const tag = input[ip++]!;
    const kind = tag & 3;
    let len: number;
    if (kind === 0) {
      len = (tag >>> 2) + 1;
      if (len <= WIDE && end - ip >= WIDE && size - op >= WIDE) {
        outWords.setUint32(op, inWords.getUint32(ip, true), true);
        outWords.setUint32(op + 4, inWords.getUint32(ip + 4, true), true);
        outWords.setUint32(op + 8, inWords.getUint32(ip + 8, true), true);
        outWords.setUint32(op + 12, inWords.getUint32(ip + 12, true), true);
        ip += len;
        op += len;
        continue;
      }
      if (len > 60) {
        // len - 1 in the next 1-4 bytes, little-endian, kept a small integer:
        // a fourth byte of 0x80 or more reads negative, longer than any input.
        const n = len - 60;
        if (n > end - ip) throw truncated(at);
        let v = input[ip]!;
        if (n > 1) v |= input[ip + 1]! << 8;
        if (n > 2) v |= input[ip + 2]! << 16;
        if (n > 3) v |= input[ip + 3]! << 24;
        ip += n;
        if (v < 0 || v >= end - ip) throw truncated(at);
        len = v + 1;
      } else if (len > end - ip) {
        throw truncated(at);
      }
      if (len > size - op) throw overrun(at, size);
      if (len <= WIDE) {
        for (const stop = ip + len; ip < stop; ) out[op++] = input[ip++]!;
      } else {
        out.set(input.subarray(ip, ip + len), op);
        ip += len;
        op += len;
      }
      continue;
    }
    let offset: number;
    if (kind === 1) {
      if (ip >= end) throw truncated(at);
      len = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | input[ip++]!;
    } else if (kind === 2) {
      if (end - ip < 2) throw truncated(at);
      len = (tag >>> 2) + 1;
      offset = input[ip]! | (input[ip + 1]! << 8);
      ip += 2;
    } else {
      if (end - ip < 4) throw truncated(at);
      len = (tag >>> 2) + 1;
      // Signed, to stay a small integer: an offset of 2^31 or more reads negative, refused below.
      offset = input[ip]! | (input[ip + 1]! << 8) | (input[ip + 2]! << 16) | (input[ip + 3]! << 24);
      ip += 4;
    }
    if (offset <= 0 || offset > op) throw new CorruptFileError(`SNAPPY copy at byte ${at} has offset ${offset >>> 0} with ${op} bytes decoded`);
    let from = op - offset;
    // Word by word is right for an overlapping copy too when the offset is
    // 4 or more: each word read was written before (here and below).
    if (offset >= 4 && len <= WIDE && size - op >= WIDE) {
      outWords.setUint32(op, outWords.getUint32(from, true), true);
      outWords.setUint32(op + 4, outWords.getUint32(from + 4, true), true);
      outWords.setUint32(op + 8, outWords.getUint32(from + 8, true), true);
      outWords.setUint32(op + 12, outWords.getUint32(from + 12, true), true);
      op += len;
      continue;
    }
    if (len > size - op) throw overrun(at, size);
    if (offset >= 4 && size - op >= len + 3) {
      for (let k = 0; k < len; k += 4) outWords.setUint32(op + k, outWords.getUint32(from + k, true), true);
      op += len;
    } else if (offset === 1) {
      // A run of one byte, as highly compressible pages are full of.
      out.fill(out[from]!, op, op + len);
      op += len;
    } else {
      // Byte by byte: a copy whose offset is shorter than its length repeats its last `offset` bytes.
      for (const stop = op + len; op < stop; ) out[op++] = out[from++]!;
    }
  }
  if (op !== size) throw new CorruptFileError(`SNAPPY data ends after ${op} of its ${size} bytes`);
  return out;
}

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

function truncated(at: number): CorruptFileError {
  return new CorruptFileError(`SNAPPY element at byte ${at} runs past the end of the data`);
}

function overrun(at: number, size: number): CorruptFileError {
  return new CorruptFileError(`SNAPPY element at byte ${at} goes past the ${size} bytes declared`);
}
