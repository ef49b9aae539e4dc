/**
 * DELTA_BYTE_ARRAY (encoding 7), front coding for BYTE_ARRAY and
 * FIXED_LEN_BYTE_ARRAY: each value's length of prefix shared with the value
 * before it (DELTA_BINARY_PACKED), then the remaining suffixes as
 * DELTA_LENGTH_BYTE_ARRAY.
 */
import type { ByteCursor } from '../bytes/cursor.js';
import type { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError, LimitError } from '../errors.js';
import { RangeCopier } from './bits.js';
import { decodeDeltaInt32, encodeDeltaInt32 } from './delta-binary-packed.js';
import { DeltaLengthStream, encodeDeltaLengthByteArray } from './delta-length-byte-array.js';
import { MAX_BYTE_ARRAY_DATA, valueLengths } from './plain.js';
import type { ByteArrays } from './types.js';

/** Decodes `count` values and leaves `c.pos` after the suffix bytes (see DeltaByteArrayStream). */
export function decodeDeltaByteArray(c: ByteCursor, count: number, typeLength?: number): ByteArrays {
  return new DeltaByteArrayStream(c, count, typeLength).read(count);
}

/**
 * A page's values read or passed over `n` at a time. Each value shares a
 * prefix with the one before it, so a skip still rebuilds every value it
 * passes, in one reused buffer that holds only the last. With `typeLength`
 * (FIXED_LEN_BYTE_ARRAY) every value must come out that long. Shared
 * prefixes let a small input spell a large output, so a read's total is
 * bounded before anything that size is allocated.
 */
export class DeltaByteArrayStream {
  private readonly at: number;
  private readonly prefixes: Int32Array;
  private readonly suffixes: DeltaLengthStream;
  private i = 0;
  /** The last value read or passed over: prev[0 .. prevLen). */
  private prev: Uint8Array = new Uint8Array(16);
  private prevLen = 0;

  constructor(c: ByteCursor, private readonly count: number, private readonly typeLength?: number) {
    this.at = c.fileOffset;
    this.prefixes = decodeDeltaInt32(c, count);
    this.suffixes = new DeltaLengthStream(c, count);
  }

  /** Value i's length, checked against the one before it (`prev` bytes long). */
  private length(i: number, prev: number): number {
    const prefix = this.prefixes[i]!;
    if (prefix < 0 || prefix > prev) {
      throw new CorruptFileError(`DELTA_BYTE_ARRAY value ${i} shares ${prefix} bytes with a previous value of ${prev}`, { offset: this.at });
    }
    const so = this.suffixes.offsets;
    const len = prefix + so[i + 1]! - so[i]!;
    if (this.typeLength !== undefined && len !== this.typeLength) {
      throw new CorruptFileError(`DELTA_BYTE_ARRAY value ${i} has ${len} bytes where the type has ${this.typeLength}`, { offset: this.at });
    }
    return len;
  }

  /** The next `n` values (at most those left). */
  read(n: number): ByteArrays {
    const from = this.i;
    const to = Math.min(from + n, this.count);
    const count = to - from;
    const offsets = new Int32Array(count + 1);
    let total = 0;
    let prev = this.prevLen;
    for (let k = 0; k < count; k++) {
      const len = this.length(from + k, prev);
      total += len;
      if (total > MAX_BYTE_ARRAY_DATA) throw new LimitError(`DELTA_BYTE_ARRAY values add up past the 2 GiB limit`, { offset: this.at });
      offsets[k + 1] = total;
      prev = len;
    }
    const data = new Uint8Array(total);
    const { buf, start, offsets: so } = this.suffixes;
    const fromPrevious = new RangeCopier(data, data);
    const fromSuffixes = new RangeCopier(data, buf);
    for (let k = 0; k < count; k++) {
      const i = from + k;
      const at = offsets[k]!;
      const prefix = this.prefixes[i]!;
      if (prefix > 0) {
        if (k === 0) data.set(this.prev.subarray(0, prefix), at);
        else fromPrevious.copy(at, offsets[k - 1]!, prefix);
      }
      fromSuffixes.copy(at + prefix, start + so[i]!, so[i + 1]! - so[i]!);
    }
    if (count > 0) this.keep(data.subarray(offsets[count - 1]!, total));
    this.i = to;
    this.suffixes.skip(count);
    return { data, offsets };
  }

  /** Passes over the next `n` values (at most those left), rebuilding each in place of the last. */
  skip(n: number): void {
    const to = Math.min(this.i + n, this.count);
    const { buf, start, offsets: so } = this.suffixes;
    for (let i = this.i; i < to; i++) {
      const len = this.length(i, this.prevLen);
      const prefix = this.prefixes[i]!;
      if (len > this.prev.length) this.prev = grow(this.prev, len);
      this.prev.set(buf.subarray(start + so[i]!, start + so[i + 1]!), prefix);
      this.prevLen = len;
    }
    this.suffixes.skip(to - this.i);
    this.i = to;
  }

  private keep(value: Uint8Array): void {
    if (value.length > this.prev.length) this.prev = new Uint8Array(value.length);
    this.prev.set(value);
    this.prevLen = value.length;
  }
}

/** A larger buffer holding `buf`'s bytes. */
function grow(buf: Uint8Array, need: number): Uint8Array {
  const next = new Uint8Array(Math.max(need, buf.length * 2));
  next.set(buf);
  return next;
}

/** Appends `values` DELTA_BYTE_ARRAY-encoded (the same for FIXED_LEN_BYTE_ARRAY). */
export function encodeDeltaByteArray(w: ByteWriter, values: ByteArrays): void {
  const { data, offsets } = values;
  const lengths = valueLengths(values);
  const n = lengths.length;
  const prefixes = new Int32Array(n);
  const suffixOffsets = new Int32Array(n + 1);
  let prevStart = 0;
  let prevLen = 0;
  for (let i = 0; i < n; i++) {
    const start = offsets[i]!;
    const len = lengths[i]!;
    const max = Math.min(len, prevLen);
    let prefix = 0;
    while (prefix < max && data[start + prefix] === data[prevStart + prefix]) prefix++;
    prefixes[i] = prefix;
    suffixOffsets[i + 1] = suffixOffsets[i]! + len - prefix;
    prevStart = start;
    prevLen = len;
  }
  const suffixData = new Uint8Array(suffixOffsets[n]!);
  const copier = new RangeCopier(suffixData, data);
  for (let i = 0; i < n; i++) {
    const len = suffixOffsets[i + 1]! - suffixOffsets[i]!;
    copier.copy(suffixOffsets[i]!, offsets[i + 1]! - len, len);
  }
  encodeDeltaInt32(w, prefixes);
  encodeDeltaLengthByteArray(w, { data: suffixData, offsets: suffixOffsets });
}
