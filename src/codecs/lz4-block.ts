/**
 * The LZ4 block format (lz4/doc/lz4_Block_format.md): a run of sequences,
 * each a token (literal count, match length), the literals, then a 2-byte
 * little-endian offset and the match; the last sequence is literals only.
 * Shared by LZ4_RAW, the Hadoop-framed LZ4 codec and the LZ4 frame format.
 */
import { CorruptFileError } from '../errors.js';

const MIN_MATCH = 4;
/** The spec's end-of-block rules, which fast decoders elsewhere rely on. */
const LAST_LITERALS = 5;
const MF_LIMIT = 12;
const MAX_OFFSET = 65535;

/** Worst-case size of one compressed block: incompressible input grows by 1/255 plus a token. */
export function lz4BlockBound(n: number): number {
  return n + Math.floor(n / 255) + 16;
}

function corrupt(what: string, at: number): CorruptFileError {
  return new CorruptFileError(`LZ4 block: ${what} (at compressed byte ${at})`);
}

/**
 * Decodes the block src[ip, ipEnd) into dst from `op`, never writing at or past
 * `opEnd`; matches may reach back to `windowStart` (the start of this block's
 * output, or of the frame for linked blocks). Returns the new output position.
 */
export function decodeLz4Block(
  src: Uint8Array,
  ip: number,
  ipEnd: number,
  dst: Uint8Array,
  op: number,
  opEnd: number,
  windowStart: number,
): number {
  const blockStart = ip;
  for (;;) {
    if (ip >= ipEnd) throw corrupt('ends where a sequence token should be', ip - blockStart);
    const token = src[ip++]!;
    let lit = token >>> 4;
    if (lit === 15) {
      let b: number;
      do {
        if (ip >= ipEnd) throw corrupt('literal length runs past the end of the input', ip - blockStart);
        b = src[ip++]!;
        lit += b;
      } while (b === 255);
    }
    if (lit > ipEnd - ip) throw corrupt(`${lit} literals run past the end of the input`, ip - blockStart);
    if (lit > opEnd - op) throw corrupt(`${lit} literals run past the uncompressed size`, ip - blockStart);
    if (lit < 32) {
      for (const end = ip + lit; ip < end; ) dst[op++] = src[ip++]!;
    } else {
      dst.set(src.subarray(ip, ip + lit), op);
      ip += lit;
      op += lit;
    }
    if (ip === ipEnd) return op;

    if (ipEnd - ip < 2) throw corrupt('match offset runs past the end of the input', ip - blockStart);
    const offset = src[ip]! | (src[ip + 1]! << 8);
    if (offset === 0) throw corrupt('match offset 0', ip - blockStart);
    if (offset > op - windowStart) throw corrupt(`match offset ${offset} reaches before the start of the output`, ip - blockStart);
    ip += 2;
    let len = (token & 15) + MIN_MATCH;
    if (len === 15 + MIN_MATCH) {
      let b: number;
      do {
        if (ip >= ipEnd) throw corrupt('match length runs past the end of the input', ip - blockStart);
        b = src[ip++]!;
        len += b;
      } while (b === 255);
    }
    if (len > opEnd - op) throw corrupt(`match of ${len} bytes runs past the uncompressed size`, ip - blockStart);
    let m = op - offset;
    if (offset >= len && len >= 32) {
      dst.copyWithin(op, m, m + len);
      op += len;
    } else {
      // Overlapping copies (offset < length) must go byte by byte: they re-read what they write.
      for (const end = op + len; op < end; ) dst[op++] = dst[m++]!;
    }
  }
}

function writeLength(dst: Uint8Array, dp: number, rest: number): number {
  for (; rest >= 255; rest -= 255) dst[dp++] = 255;
  dst[dp++] = rest;
  return dp;
}

function writeLiterals(dst: Uint8Array, dp: number, src: Uint8Array, from: number, count: number): number {
  if (count < 32) {
    for (let i = 0; i < count; i++) dst[dp++] = src[from + i]!;
    return dp;
  }
  dst.set(src.subarray(from, from + count), dp);
  return dp + count;
}

function read32(src: Uint8Array, i: number): number {
  return src[i]! | (src[i + 1]! << 8) | (src[i + 2]! << 16) | (src[i + 3]! << 24);
}

/**
 * Compresses src[start, end) as one independent block into dst at `dp`
 * (dst needs lz4BlockBound(end - start) bytes free); returns the new position.
 * A greedy single-probe hash matcher: the speed class of LZ4's fast mode,
 * not its ratio class.
 */
export function encodeLz4Block(src: Uint8Array, start: number, end: number, dst: Uint8Array, dp: number): number {
  let anchor = start;
  const n = end - start;
  if (n > MF_LIMIT) {
    const bits = Math.min(16, Math.max(8, 32 - Math.clz32(n)));
    const shift = 32 - bits;
    // Positions are stored +1 so the zero-filled table reads as empty.
    const table = new Int32Array(1 << bits);
    const lastMatchStart = end - MF_LIMIT;
    const matchLimit = end - LAST_LITERALS;
    let ip = start;
    let misses = 0;
    while (ip <= lastMatchStart) {
      const seq = read32(src, ip);
      const h = Math.imul(seq, 0x9e3779b1) >>> shift;
      const ref = table[h]! - 1;
      table[h] = ip + 1;
      if (ref < 0 || ip - ref > MAX_OFFSET || read32(src, ref) !== seq) {
        // Skip faster through data that keeps missing, as LZ4 does, so
        // incompressible input costs little.
        ip += 1 + (misses++ >> 6);
        continue;
      }
      misses = 0;
      let s = ip;
      let r = ref;
      while (s > anchor && r > start && src[s - 1] === src[r - 1]) {
        s--;
        r--;
      }
      let e = ip + MIN_MATCH;
      for (let re = ref + MIN_MATCH; e < matchLimit && src[e] === src[re]; re++) e++;

      const lit = s - anchor;
      const matchLen = e - s - MIN_MATCH;
      const tokenAt = dp++;
      dst[tokenAt] = ((lit >= 15 ? 15 : lit) << 4) | (matchLen >= 15 ? 15 : matchLen);
      if (lit >= 15) dp = writeLength(dst, dp, lit - 15);
      dp = writeLiterals(dst, dp, src, anchor, lit);
      const offset = s - r;
      dst[dp++] = offset & 0xff;
      dst[dp++] = offset >>> 8;
      if (matchLen >= 15) dp = writeLength(dst, dp, matchLen - 15);

      anchor = ip = e;
      // Index a position inside the match so the next sequence can find it.
      if (e - 2 <= lastMatchStart) table[Math.imul(read32(src, e - 2), 0x9e3779b1) >>> shift] = e - 2 + 1;
    }
  }
  return encodeLz4Literals(src, anchor, end, dst, dp);
}

/**
 * src[start, end) as the literals-only last sequence of a block: alone, the
 * block that stores its input as is, whose size (lz4LiteralsSize) no encoding
 * of the same bytes needs to exceed.
 */
export function encodeLz4Literals(src: Uint8Array, start: number, end: number, dst: Uint8Array, dp: number): number {
  const lit = end - start;
  dst[dp++] = (lit >= 15 ? 15 : lit) << 4;
  if (lit >= 15) dp = writeLength(dst, dp, lit - 15);
  return writeLiterals(dst, dp, src, start, lit);
}

/** The size of the literals-only block of n bytes. */
export function lz4LiteralsSize(n: number): number {
  return 1 + n + (n >= 15 ? 1 + Math.floor((n - 15) / 255) : 0);
}
