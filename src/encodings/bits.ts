/**
 * Byte- and bit-level helpers shared by the encodings: LSB-first bit
 * unpacking (the order of the RLE hybrid, DELTA_BINARY_PACKED miniblocks and
 * PLAIN booleans; packing is bit-pack.ts), byte order, owned copies of input
 * bytes, and copying many short byte ranges.
 */
import { InvalidArgumentError } from '../errors.js';
import type { IntegerArray } from './types.js';

/** Typed arrays use the platform's byte order; Parquet's is little-endian. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Bits needed to store the unsigned 32-bit value `max`; 0 for 0. */
export function bitWidth(max: number): number {
  if (!(Number.isInteger(max) && max >= 0 && max <= 0xffffffff)) {
    throw new InvalidArgumentError(`bit width asked for ${max}, which is not an unsigned 32-bit integer`);
  }
  return 32 - Math.clz32(max);
}

/**
 * A fresh copy of `buf[start, end)` in its own ArrayBuffer, so typed-array
 * views over it are aligned, and the result outlives the input. Copies through
 * the Uint8Array constructor rather than `slice`, which on a Node Buffer
 * returns a view.
 */
export function ownedCopy(buf: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(buf.subarray(start, end));
}

/**
 * Unpacks `n` values of `width` bits (0..32), packed LSB first, from `buf`
 * at byte `p` into `out[o ..]`. Reads exactly ceil(n * width / 8) bytes,
 * which the caller has checked exist. Values of width 32 land in an
 * Int32Array as their two's-complement bit pattern.
 */
export function unpackLsb(buf: Uint8Array, p: number, width: number, n: number, out: IntegerArray, o: number): void {
  const e = o + n;
  switch (width) {
    case 0:
      out.fill(0, o, e);
      return;
    case 1:
      return unpack1(buf, p, out, o, e);
    case 2:
      return unpack2(buf, p, out, o, e);
    case 4:
      return unpack4(buf, p, out, o, e);
    case 8:
      if (out instanceof Uint8Array) out.set(buf.subarray(p, p + n), o);
      else for (let k = o; k < e; k++) out[k] = buf[p++]!;
      return;
    case 16:
      for (let k = o; k < e; k++, p += 2) out[k] = buf[p]! | (buf[p + 1]! << 8);
      return;
  }
  unpackWords(buf, p, width, n, out, o);
}

/**
 * Values per pass of unpackWords: a multiple of 8, so passes start on whole
 * bytes, and few enough that bit offsets stay within int32 arithmetic.
 */
const CHUNK = 1 << 24;

/**
 * Any width 1..32 at the same cost, unlike a bit buffer whose refills depend
 * on the width: each value is cut from the little-endian word at its first
 * byte (plus a fifth byte when it spills over). The last few values, whose
 * words would reach past the checked bytes, are left to `bitsAt`.
 */
function unpackWords(buf: Uint8Array, p: number, width: number, n: number, out: IntegerArray, o: number): void {
  for (; n > CHUNK; n -= CHUNK, o += CHUNK, p += (CHUNK / 8) * width) unpackWords(buf, p, width, CHUNK, out, o);
  const limit = p + Math.ceil((n * width) / 8);
  const mask = width === 32 ? -1 : (1 << width) - 1;
  // value k's word lies within the checked bytes while floor(k * width / 8) + 3 < limit - p
  const room = limit - p - 3;
  const whole = room > 0 ? Math.min(n, Math.ceil((room * 8) / width)) : 0;
  let b = 0;
  for (let k = o, e = o + whole; k < e; k++, b += width) {
    const i = p + (b >>> 3);
    const shift = b & 7;
    let v = (buf[i]! | (buf[i + 1]! << 8) | (buf[i + 2]! << 16) | (buf[i + 3]! << 24)) >>> shift;
    if (shift + width > 32) v |= buf[i + 4]! << (32 - shift);
    out[k] = v & mask;
  }
  for (let k = o + whole, e = o + n; k < e; k++, b += width) out[k] = bitsAt(buf, p, b, width, limit);
}

/**
 * The `width` (1..32) bits found `b` bits after byte `p`, LSB first, as an
 * int32 bit pattern, read as in unpackWords; near `limit`, the end of the
 * checked bytes, it reads only the bytes before it, which then hold the whole
 * value.
 */
export function bitsAt(buf: Uint8Array, p: number, b: number, width: number, limit: number): number {
  const i = p + (b >>> 3);
  const shift = b & 7;
  let v: number;
  if (i + 3 < limit) {
    v = (buf[i]! | (buf[i + 1]! << 8) | (buf[i + 2]! << 16) | (buf[i + 3]! << 24)) >>> shift;
    if (shift + width > 32) v |= buf[i + 4]! << (32 - shift);
  } else {
    v = buf[i]!;
    if (i + 1 < limit) v |= buf[i + 1]! << 8;
    if (i + 2 < limit) v |= buf[i + 2]! << 16;
    v >>>= shift;
  }
  return width === 32 ? v | 0 : v & ((1 << width) - 1);
}

// Widths 1, 2 and 4 divide a byte, so each byte unpacks whole, with constant
// shifts; these carry most levels and all booleans. The last, partial byte
// is unpacked first: V8 compiles a hot loop while it runs and enters that
// code again from later calls, and code after the loop that had never run
// when it was compiled threw it away each time (1,325 times in a 200,000-row
// read to text, from one long run of levels before many short ones).
function unpack1(buf: Uint8Array, p: number, out: IntegerArray, k: number, e: number): void {
  const whole = e - ((e - k) & 7);
  if (whole < e) for (let j = whole, b = buf[p + ((whole - k) >> 3)]!; j < e; j++, b >>= 1) out[j] = b & 1;
  for (; k < whole; k += 8) {
    const b = buf[p++]!;
    out[k] = b & 1;
    out[k + 1] = (b >> 1) & 1;
    out[k + 2] = (b >> 2) & 1;
    out[k + 3] = (b >> 3) & 1;
    out[k + 4] = (b >> 4) & 1;
    out[k + 5] = (b >> 5) & 1;
    out[k + 6] = (b >> 6) & 1;
    out[k + 7] = b >> 7;
  }
}

/** Set bits per byte value. */
const ONES = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let v = b; v > 0; v >>= 1) n += v & 1;
  return n;
});

/** How many of the `n` 1-bit values packed LSB first at `buf[p]` are 1: a byte at a time, not a value at a time. */
export function countOnes(buf: Uint8Array, p: number, n: number): number {
  const whole = n >> 3;
  let count = 0;
  for (let i = p, e = p + whole; i < e; i++) count += ONES[buf[i]!]!;
  const rest = n & 7;
  if (rest > 0) count += ONES[buf[p + whole]! & ((1 << rest) - 1)]!;
  return count;
}

function unpack2(buf: Uint8Array, p: number, out: IntegerArray, k: number, e: number): void {
  const whole = e - ((e - k) & 3);
  if (whole < e) for (let j = whole, b = buf[p + ((whole - k) >> 2)]!; j < e; j++, b >>= 2) out[j] = b & 3;
  for (; k < whole; k += 4) {
    const b = buf[p++]!;
    out[k] = b & 3;
    out[k + 1] = (b >> 2) & 3;
    out[k + 2] = (b >> 4) & 3;
    out[k + 3] = b >> 6;
  }
}

function unpack4(buf: Uint8Array, p: number, out: IntegerArray, k: number, e: number): void {
  const whole = e - ((e - k) & 1);
  if (whole < e) out[whole] = buf[p + ((whole - k) >> 1)]! & 15;
  for (; k < whole; k += 2) {
    const b = buf[p++]!;
    out[k] = b & 15;
    out[k + 1] = b >> 4;
  }
}

/**
 * Checks that `out[outPos .. outPos + count)` exists and its element type can
 * hold `width`-bit values: both are the caller's choices, not the file's.
 */
export function checkIntegerTarget(width: number, count: number, out: IntegerArray, outPos: number): void {
  const room = out instanceof Uint8Array ? 8 : out instanceof Uint16Array ? 16 : 32;
  if (!(Number.isInteger(width) && width >= 0 && width <= room)) {
    throw new InvalidArgumentError(`bit width ${width} does not fit a ${out.constructor.name}`);
  }
  if (!(Number.isInteger(count) && count >= 0 && Number.isInteger(outPos) && outPos >= 0 && outPos + count <= out.length)) {
    throw new InvalidArgumentError(`cannot decode ${count} values at index ${outPos} into an array of ${out.length}`);
  }
}

/**
 * Copies many short byte ranges from one buffer into another (or within
 * one), as byte-array decoders do per value. `subarray` + `set` allocate a
 * view per call, which costs more than copying a short string, so short
 * ranges move four bytes at a time through DataViews made once.
 */
export class RangeCopier {
  private readonly to: DataView;
  private readonly from: DataView;
  constructor(
    private readonly dst: Uint8Array,
    private readonly src: Uint8Array,
  ) {
    this.to = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
    this.from = new DataView(src.buffer, src.byteOffset, src.byteLength);
  }

  /** Copies `src[srcPos, srcPos + len)` to `dst[dstPos ..]`; the ranges must not overlap. */
  copy(dstPos: number, srcPos: number, len: number): void {
    if (len > 64) {
      this.dst.set(this.src.subarray(srcPos, srcPos + len), dstPos);
      return;
    }
    const end = dstPos + len;
    for (; dstPos + 4 <= end; dstPos += 4, srcPos += 4) this.to.setInt32(dstPos, this.from.getInt32(srcPos));
    for (; dstPos < end; dstPos++, srcPos++) this.dst[dstPos] = this.src[srcPos]!;
  }
}
