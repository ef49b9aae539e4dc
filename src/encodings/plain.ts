/**
 * PLAIN (encoding 0): values back to back. BOOLEAN bit-packed LSB first;
 * numbers little-endian; INT96 and FIXED_LEN_BYTE_ARRAY their raw bytes;
 * BYTE_ARRAY a 4-byte LE length before each value's bytes. Also the helper
 * that turns fixed-width little-endian bytes into value containers, shared
 * with BYTE_STREAM_SPLIT. Encoding is plain-encode.ts, so a read does not
 * load it.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { CorruptFileError, InvalidArgumentError, LimitError } from '../errors.js';
import { LITTLE_ENDIAN, ownedCopy, unpackLsb } from './bits.js';
import { isByteArrays, type ByteArrays, type PhysicalType, type Values } from './types.js';

/**
 * Byte width of one value of a fixed-width type, or 0 for BOOLEAN and
 * BYTE_ARRAY. `typeLength` (from the schema, so from the file) must be a
 * positive integer for FIXED_LEN_BYTE_ARRAY: with width 0 no byte count
 * could bound a value count.
 */
export function fixedWidth(type: PhysicalType, typeLength?: number): number {
  switch (type) {
    case 'INT32':
    case 'FLOAT':
      return 4;
    case 'INT64':
    case 'DOUBLE':
      return 8;
    case 'INT96':
      return 12;
    case 'FIXED_LEN_BYTE_ARRAY':
      if (typeLength === undefined || !Number.isInteger(typeLength) || typeLength < 1) {
        throw new CorruptFileError(`FIXED_LEN_BYTE_ARRAY type length ${typeLength} is not a positive integer`);
      }
      return typeLength;
    default:
      return 0;
  }
}

/**
 * Wraps `bytes` (count values of a fixed-width type, little-endian, which
 * this takes over; its offset a multiple of the element size) as the
 * container for `type`, without copying on little-endian hosts.
 */
export function fixedWidthValues(type: PhysicalType, bytes: Uint8Array, count: number, width: number): Values {
  if (!LITTLE_ENDIAN && type !== 'INT96' && type !== 'FIXED_LEN_BYTE_ARRAY') reverseEach(bytes, width);
  const { buffer, byteOffset } = bytes;
  switch (type) {
    case 'INT32':
      return new Int32Array(buffer, byteOffset, count);
    case 'FLOAT':
      return new Float32Array(buffer, byteOffset, count);
    case 'INT64':
      return new BigInt64Array(buffer, byteOffset, count);
    case 'DOUBLE':
      return new Float64Array(buffer, byteOffset, count);
    default:
      return { data: bytes, offsets: strideOffsets(count, width) };
  }
}

/** Byte-swaps each `width`-byte element in place (big-endian hosts only). */
export function reverseEach(bytes: Uint8Array, width: number): void {
  for (let i = 0; i < bytes.length; i += width) bytes.subarray(i, i + width).reverse();
}

/** Offsets 0, w, 2w, ... for `count` values of `width` bytes. */
function strideOffsets(count: number, width: number): Int32Array {
  const offsets = new Int32Array(count + 1);
  for (let i = 1; i <= count; i++) offsets[i] = i * width;
  return offsets;
}

/** The byte length of each of `values`, checking the offsets never decrease (so the values are contiguous). */
export function valueLengths(values: ByteArrays): Int32Array {
  const { offsets } = values;
  const lengths = new Int32Array(offsets.length - 1);
  for (let i = 0; i < lengths.length; i++) {
    const len = offsets[i + 1]! - offsets[i]!;
    if (len < 0) throw new InvalidArgumentError(`ByteArrays offsets decrease at value ${i}`);
    lengths[i] = len;
  }
  return lengths;
}

/** Largest data buffer ByteArrays can index with Int32Array offsets. */
export const MAX_BYTE_ARRAY_DATA = 0x7fffffff;

/**
 * Decodes `count` PLAIN values of `type` from `c.pos`, into the container
 * for the type (see types.ts), and advances `c.pos` past them. The result
 * never shares memory with the input, unless `owned` says the input is the
 * caller's to give away (a decompressed page): byte arrays are then
 * compacted in it, not copied out.
 */
export function decodePlain(c: ByteCursor, type: PhysicalType, count: number, typeLength?: number, owned = false): Values {
  if (!(Number.isInteger(count) && count >= 0)) throw new CorruptFileError(`invalid value count ${count}`, { offset: c.fileOffset });
  if (type === 'BYTE_ARRAY') return owned ? compactByteArrays(c, count) : decodePlainByteArrays(c, count);
  if (type === 'BOOLEAN') {
    const size = Math.ceil(count / 8);
    c.need(size, `${count} PLAIN booleans`);
    const out = new Uint8Array(count);
    unpackLsb(c.buf, c.pos, 1, count, out, 0);
    c.pos += size;
    return out;
  }
  const width = fixedWidth(type, typeLength);
  const size = count * width;
  c.need(size, `${count} PLAIN ${type} values`);
  const values = fixedWidthValues(type, ownedCopy(c.buf, c.pos, c.pos + size), count, width);
  c.pos += size;
  return values;
}

/** Byte arrays from a copy of the rest of the input, compacted there. */
function decodePlainByteArrays(c: ByteCursor, count: number): ByteArrays {
  c.need(count * 4, `${count} PLAIN BYTE_ARRAY values`);
  const own = new ByteCursor(c.buf.slice(c.pos, c.end), 0, c.end - c.pos, c.fileOffset);
  const values = compactByteArrays(own, count);
  c.pos += own.pos;
  return values;
}

/**
 * One pass, in place: each value's bytes move left over the length prefixes
 * before them, so the values end up back to back from `c.pos`, and the
 * result views `c.buf` (which must be the caller's to change). Every length
 * is checked against the bytes left before it moves anything. The errors are
 * raised out of line: with their messages built inside the loop, V8's
 * optimized loop took twice the time (60 against 33 ms of CPU for the read
 * benchmark's 2M `uid` strings).
 */
export function compactByteArrays(c: ByteCursor, count: number): ByteArrays {
  const { buf, end, base } = c;
  c.need(count * 4, `${count} PLAIN BYTE_ARRAY values`);
  const offsets = new Int32Array(count + 1);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const start = c.pos;
  let p = start;
  let d = start;
  for (let i = 0; i < count; i++) {
    if (end - p < 4) truncatedLength(i, count, base + p);
    const len = view.getUint32(p, true);
    p += 4;
    if (len > end - p) overrunValue(i, count, len, end - p, base + p - 4);
    const e = p + len;
    if (len > 64) {
      buf.copyWithin(d, p, e);
      d += len;
      p = e;
    } else {
      // Short values word by word, two words a step while they last (the
      // destination is at least 4 bytes behind, and both words are read
      // before either is written, so no write overwrites a byte not yet read).
      for (; p + 8 <= e; p += 8, d += 8) {
        const w0 = view.getInt32(p);
        const w1 = view.getInt32(p + 4);
        view.setInt32(d, w0);
        view.setInt32(d + 4, w1);
      }
      for (; p + 4 <= e; p += 4, d += 4) view.setInt32(d, view.getInt32(p));
      for (; p < e; p++, d++) buf[d] = buf[p]!;
    }
    offsets[i + 1] = d - start;
  }
  if (d - start > MAX_BYTE_ARRAY_DATA) throw new LimitError(`${d - start} bytes of BYTE_ARRAY data is over the 2 GiB limit`, { offset: base + start });
  c.pos = p;
  return { data: buf.subarray(start, d), offsets };
}

export function truncatedLength(i: number, count: number, offset: number): never {
  throw new CorruptFileError(`BYTE_ARRAY value ${i} of ${count}: length is truncated`, { offset });
}

export function overrunValue(i: number, count: number, len: number, left: number, offset: number): never {
  throw new CorruptFileError(`BYTE_ARRAY value ${i} of ${count} claims ${len} bytes but only ${left} remain`, { offset });
}
