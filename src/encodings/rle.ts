/**
 * The RLE / bit-packing hybrid (encoding RLE = 3): definition and repetition
 * levels, dictionary indices, and RLE booleans. A stream of runs, each either
 * one value repeated (`len << 1` header) or groups of 8 values bit-packed LSB
 * first (`groups << 1 | 1` header). Decoding; encoding is rle-encode.ts, so
 * a read does not load it.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { CorruptFileError } from '../errors.js';
import { bitWidth, checkIntegerTarget, countOnes, unpackLsb } from './bits.js';
import type { IntegerArray } from './types.js';

export { bitWidth };

/** Run lengths are bounded so every implementation can hold them in an int32. */
export const MAX_RUN = 0x7fffffff;

/**
 * Levels are checked against their column's maximum while they are decoded,
 * and the entries at the maximum (the non-null values) counted: an RLE run
 * is checked and counted once, not value by value in a pass of its own.
 */
export interface LevelCheck {
  max: number;
  /** `definition` or `repetition`, for the error message. */
  what: string;
}

/**
 * Decodes exactly `count` values of `width` bits (0..32) from the hybrid
 * runs at `c.pos` (up to `c.end`) into `out[outPos ..]`, and leaves `c.pos`
 * after the last run used. Width 0 means every value is 0 and reads nothing.
 * The last bit-packed run may claim more groups than are needed, and its
 * unneeded padding bytes may be missing; anything else short is corrupt.
 * With `levels`, returns how many values equal `levels.max` and rejects any
 * above it; otherwise returns 0.
 */
export function decodeRleHybrid(c: ByteCursor, width: number, count: number, out: IntegerArray, outPos = 0, levels?: LevelCheck, rest?: RunRest): number {
  checkIntegerTarget(width, count, out, outPos);
  const oEnd = outPos + count;
  const max = levels ? levels.max : -1;
  if (width === 0 || count === 0) {
    out.fill(0, outPos, oEnd);
    return max === 0 ? count : 0;
  }
  let hits = 0;
  const { buf, end, base } = c;
  const valueBytes = (width + 7) >>> 3;
  const maxValue = 2 ** width - 1;
  let p = c.pos;
  let o = outPos;
  while (o < oEnd) {
    if (p >= end) {
      throw new CorruptFileError(`RLE/bit-packed data ended after ${o - outPos} of ${count} values`, { offset: base + p });
    }
    // The ULEB128 run header, inlined: it is read once per run, and runs can be short.
    const runAt = p;
    let b = buf[p++]!;
    let header = b & 0x7f;
    for (let scale = 128; b & 0x80; scale *= 128) {
      if (p >= end) throw new CorruptFileError('RLE/bit-packed run header is truncated', { offset: base + runAt });
      if (scale > 2 ** 28) throw new CorruptFileError('RLE/bit-packed run header is longer than 5 bytes', { offset: base + runAt });
      b = buf[p++]!;
      header += (b & 0x7f) * scale;
    }
    const packed = header % 2 === 1;
    const runLen = packed ? (header - 1) * 4 : header / 2;
    if (runLen > MAX_RUN) {
      throw new CorruptFileError(`RLE/bit-packed run of ${runLen} values is over the 2^31 - 1 limit`, { offset: base + runAt });
    }
    const n = Math.min(runLen, oEnd - o);
    if (packed) {
      const need = Math.ceil((n * width) / 8);
      if (need > end - p) {
        throw new CorruptFileError(`bit-packed run needs ${need} bytes for ${n} values but only ${end - p} remain`, { offset: base + runAt });
      }
      unpackLsb(buf, p, width, n, out, o);
      // One-bit levels of maximum 1 (a flat optional column) cannot exceed it: the ones are counted from the packed bytes.
      if (max >= 0) hits += max === 1 && width === 1 ? countOnes(buf, p, n) : countLevels(out, o, o + n, levels!);
      if (rest && n < runLen) rest.set(runLen - n, true, 0, p, n);
      p = Math.min(p + (runLen / 8) * width, end);
    } else {
      if (valueBytes > end - p) throw new CorruptFileError('RLE run value is truncated', { offset: base + p });
      let v = 0;
      for (let i = 0, scale = 1; i < valueBytes; i++, scale *= 256) v += buf[p + i]! * scale;
      if (v > maxValue) throw new CorruptFileError(`RLE run value ${v} does not fit in ${width} bits`, { offset: base + p });
      p += valueBytes;
      if (max >= 0) {
        if (v > max) throw levelError(v, levels!, base + p - valueBytes);
        if (v === max) hits += n;
      }
      if (n < 16) for (let k = o, e = o + n; k < e; k++) out[k] = v;
      else out.fill(v, o, o + n);
      if (rest && n < runLen) rest.set(runLen - n, false, v, p, n);
    }
    o += n;
  }
  c.pos = p;
  return hits;
}

/** The part of a run that a decode of fewer values than the run holds left unread. */
export class RunRest {
  /** Values of the run still unread (0: none). */
  left = 0;
  packed = false;
  /** A repeated run's value. */
  value = 0;
  /** A bit-packed run's first data byte, and how many of its values were read. */
  at = 0;
  index = 0;
  set(left: number, packed: boolean, value: number, at: number, index: number): void {
    this.left = left;
    this.packed = packed;
    this.value = value;
    this.at = at;
    this.index = index;
  }
}

/** Checks `levels[start .. end)` against `check.max` and counts the entries equal to it. */
export function countLevels(levels: IntegerArray, start: number, end: number, check: LevelCheck): number {
  const max = check.max;
  let hits = 0;
  for (let k = start; k < end; k++) {
    const v = levels[k]!;
    if (v > max) throw levelError(v, check);
    if (v === max) hits++;
  }
  return hits;
}

/** The error for a level above its column's maximum. */
export function levelError(v: number, check: LevelCheck, offset?: number): CorruptFileError {
  return new CorruptFileError(`${check.what} level ${v} exceeds the column's maximum ${check.max}`, offset === undefined ? {} : { offset });
}

/**
 * The length-prefixed form (4-byte LE byte length, then hybrid runs) of
 * data page v1 levels and of RLE booleans. Leaves `c.pos` after the whole
 * prefixed region, whatever the runs used of it.
 */
export function decodeRleHybridPrefixed(c: ByteCursor, width: number, count: number, out: IntegerArray, outPos = 0, levels?: LevelCheck): number {
  return decodeRleHybrid(prefixedRuns(c), width, count, out, outPos, levels);
}

/** The runs of a length-prefixed region at `c.pos`, as a cursor of their own; leaves `c.pos` after the region. */
export function prefixedRuns(c: ByteCursor): ByteCursor {
  const length = c.u32le();
  c.need(length, 'length-prefixed RLE/bit-packed data');
  const runs = new ByteCursor(c.buf, c.pos, c.pos + length, c.base);
  c.pos += length;
  return runs;
}

/** RLE-encoded BOOLEAN values (length-prefixed, width 1) as 0/1 bytes. */
export function decodeRleBooleans(c: ByteCursor, count: number): Uint8Array {
  const out = new Uint8Array(count);
  decodeRleHybridPrefixed(c, 1, count, out);
  return out;
}

/**
 * RLE_DICTIONARY / PLAIN_DICTIONARY data: one byte of bit width, then hybrid
 * runs to the end of the page. A page with no non-null values may omit even
 * the width byte. Index ranges are checked where they are used (see `take`).
 */
export function decodeDictionaryIndices(c: ByteCursor, count: number, out: Int32Array = new Int32Array(count), outPos = 0): Int32Array {
  if (count === 0) return out;
  decodeRleHybrid(c, dictionaryIndexWidth(c), count, out, outPos);
  return out;
}

/** The bit width byte that starts dictionary indices. */
export function dictionaryIndexWidth(c: ByteCursor): number {
  const at = c.pos;
  const width = c.u8();
  if (width > 32) throw new CorruptFileError(`dictionary index bit width ${width} is over 32`, { offset: c.base + at });
  return width;
}
