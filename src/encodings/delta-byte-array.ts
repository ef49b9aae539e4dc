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
import { decodeDeltaLengthByteArray, encodeDeltaLengthByteArray } from './delta-length-byte-array.js';
import { MAX_BYTE_ARRAY_DATA, valueLengths } from './plain.js';
import type { ByteArrays } from './types.js';

/**
 * Decodes `count` values and leaves `c.pos` after the suffix bytes. With
 * `typeLength` (FIXED_LEN_BYTE_ARRAY) every value must come out that long.
 * Shared prefixes let a small input spell a large output, so the total is
 * bounded before anything that size is allocated.
 */
export function decodeDeltaByteArray(c: ByteCursor, count: number, typeLength?: number): ByteArrays {
  const at = c.fileOffset;
  const prefixes = decodeDeltaInt32(c, count);
  const suffixes = decodeDeltaLengthByteArray(c, count);
  const so = suffixes.offsets;
  const offsets = new Int32Array(count + 1);
  let total = 0;
  let prev = 0;
  for (let i = 0; i < count; i++) {
    const prefix = prefixes[i]!;
    if (prefix < 0 || prefix > prev) {
      throw new CorruptFileError(`DELTA_BYTE_ARRAY value ${i} shares ${prefix} bytes with a previous value of ${prev}`, { offset: at });
    }
    const len = prefix + so[i + 1]! - so[i]!;
    if (typeLength !== undefined && len !== typeLength) {
      throw new CorruptFileError(`DELTA_BYTE_ARRAY value ${i} has ${len} bytes where the type has ${typeLength}`, { offset: at });
    }
    total += len;
    if (total > MAX_BYTE_ARRAY_DATA) throw new LimitError(`DELTA_BYTE_ARRAY values add up past the 2 GiB limit`, { offset: at });
    offsets[i + 1] = total;
    prev = len;
  }
  const data = new Uint8Array(total);
  const fromPrevious = new RangeCopier(data, data);
  const fromSuffixes = new RangeCopier(data, suffixes.data);
  for (let i = 0; i < count; i++) {
    const start = offsets[i]!;
    const prefix = prefixes[i]!;
    if (prefix > 0) fromPrevious.copy(start, offsets[i - 1]!, prefix);
    fromSuffixes.copy(start + prefix, so[i]!, so[i + 1]! - so[i]!);
  }
  return { data, offsets };
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
