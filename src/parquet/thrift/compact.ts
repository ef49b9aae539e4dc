/**
 * Thrift compact protocol: the wire constants and reading (writing is
 * compact-write.ts, so a read does not load it).
 *
 * Reference: apache/thrift doc/specs/thrift-compact-protocol.md. Only the
 * parts Parquet uses (structs, never messages) are here. Everything reads
 * through a ByteCursor and checks the bytes left before it reads or
 * allocates, so a size taken from a file can never make us allocate more than
 * the input could possibly describe.
 *
 * Compatibility notes, from the reference implementations (Java, C++, Rust):
 * - A bool that is an element of a list/set/map is one byte, 1 = true. The
 *   spec text says false is 0; Java, C++ and Rust write 2 (and Rust rejects
 *   0), so we write 2 and read anything but 1 as false.
 * - The element type of a bool collection is written as 1 by Java/C++/Rust
 *   (the spec text says 2); we write 1 and accept both.
 */

import { CorruptFileError } from '../../errors.js';
import type { ByteCursor } from '../../bytes/cursor.js';

/** Compact protocol type codes (field types; element types use the same numbers). */
export const CT = {
  STOP: 0,
  BOOLEAN_TRUE: 1,
  BOOLEAN_FALSE: 2,
  I8: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  SET: 10,
  MAP: 11,
  STRUCT: 12,
  UUID: 13,
} as const;

export const CT_NAMES: readonly string[] = [
  'STOP', 'BOOL_TRUE', 'BOOL_FALSE', 'I8', 'I16', 'I32', 'I64', 'DOUBLE',
  'BINARY', 'LIST', 'SET', 'MAP', 'STRUCT', 'UUID',
];

/**
 * The least number of bytes one value of each element type takes on the wire
 * (index = type code). Used to bound collection sizes before allocating: a
 * list of n elements of type t needs at least n * MIN_SIZE[t] bytes. Every
 * type takes at least one byte (a bool element is a byte, an empty struct is
 * its stop byte, an empty list its one-byte header, an empty map one zero
 * byte), so no count can exceed the bytes remaining. 0 = not a valid element type.
 */
export const MIN_SIZE: readonly number[] = [0, 1, 1, 1, 1, 1, 1, 8, 1, 1, 1, 1, 1, 16];

/** Default nesting limit (structs and collections) before input is called corrupt. */
export const MAX_DEPTH = 64;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const TWO_53 = 9007199254740992;

export function corrupt(c: ByteCursor, detail: string, pos = c.pos): CorruptFileError {
  return new CorruptFileError(`thrift: ${detail}`, { offset: c.base + pos });
}

/** A wire type's name; booleans (whose value is their type) as BOOL. */
export function wireName(t: number): string {
  return t === CT.BOOLEAN_TRUE || t === CT.BOOLEAN_FALSE ? 'BOOL' : (CT_NAMES[t] ?? `unknown (${t})`);
}

/** What the value at `at` (a file offset) of wire type `t` is: a collection with its element types. */
function foundName(c: ByteCursor, t: number, at: number): string {
  const buf = c.buf;
  let i = at - c.base;
  if (t === CT.LIST || t === CT.SET) return i < buf.length ? `${wireName(t)}<${wireName(buf[i]! & 15)}>` : wireName(t);
  if (t === CT.MAP) {
    while (i < buf.length && buf[i]! & 0x80) i++; // the size varint
    i++;
    return i < buf.length ? `MAP<${wireName(buf[i]! >> 4)},${wireName(buf[i]! & 15)}>` : 'MAP';
  }
  return wireName(t);
}

/**
 * A required field that did not come. When it came with the wrong wire type,
 * or as a collection of the wrong element types (`found` ≥ 0; skipped, as
 * generated Thrift code skips it), the error says what was there and where
 * (`at`, the file offset of that value) instead of calling it missing.
 * `expected` names the declared type as `foundName` would.
 */
export function missingField(c: ByteCursor, struct: string, field: string, id: number, expected: string, found: number, at: number): never {
  if (found < 0) throw new CorruptFileError(`thrift: ${struct}: required field ${field} (id ${id}) is missing`, { offset: c.base + c.pos });
  throw new CorruptFileError(`thrift: ${struct}: required field ${field} (id ${id}) is ${foundName(c, found, at)} where ${expected} is expected`, { offset: at });
}

function eof(c: ByteCursor, what: string): CorruptFileError {
  return corrupt(c, `unexpected end of data reading ${what}`);
}

// ---------------------------------------------------------------- reading

/** One byte. */
export function readByte(c: ByteCursor): number {
  if (c.pos >= c.end) throw eof(c, 'a byte');
  return c.buf[c.pos++]!;
}

/** Signed 8-bit value. */
export function readI8(c: ByteCursor): number {
  if (c.pos >= c.end) throw eof(c, 'an i8');
  return (c.buf[c.pos++]! << 24) >> 24;
}

/** Unsigned varint that must fit 32 bits (sizes, and i32 before zig-zag). */
export function readVarU32(c: ByteCursor): number {
  const buf = c.buf;
  const end = c.end;
  let pos = c.pos;
  const start = pos;
  let result = 0;
  for (let shift = 0; shift < 28; shift += 7) {
    if (pos >= end) throw eof(c, 'a varint');
    const b = buf[pos++]!;
    result |= (b & 0x7f) << shift;
    if (b < 0x80) {
      c.pos = pos;
      return result >>> 0;
    }
  }
  if (pos >= end) throw eof(c, 'a varint');
  const b = buf[pos++]!;
  if (b > 0x0f) throw corrupt(c, 'varint does not fit 32 bits', start);
  c.pos = pos;
  return (result >>> 0) + b * 268435456;
}

/** A zig-zag i32 (also used for i16 and enums). */
export function readI32(c: ByteCursor): number {
  const u = readVarU32(c);
  return (u >>> 1) ^ -(u & 1);
}

/**
 * A zig-zag i16. Like Java's readI16, a value outside the i16 range is
 * wrapped to 16 bits rather than rejected (so it can always be written back).
 */
export function readI16(c: ByteCursor): number {
  const u = readVarU32(c);
  return (((u >>> 1) ^ -(u & 1)) << 16) >> 16;
}

/**
 * A zig-zag i64 as a number. Values beyond +-2^53 - 1 cannot be held exactly
 * and are a CorruptFileError: callers use this for offsets, sizes and counts.
 */
export function readI64Number(c: ByteCursor): number {
  const buf = c.buf;
  const end = c.end;
  const start = c.pos;
  let pos = start;
  let u = 0;
  let mul = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) throw eof(c, 'a varint');
    const b = buf[pos++]!;
    u += (b & 0x7f) * mul;
    if (b < 0x80) {
      if (i < 7 || u < TWO_53) {
        c.pos = pos;
        // u is exact here (below 2^53)
        return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
      }
      // Slow path: exact value with bigint, then range check.
      c.pos = start;
      const v = readI64BigInt(c);
      if (v > BigInt(MAX_SAFE) || v < -BigInt(MAX_SAFE)) {
        throw corrupt(c, `i64 value ${v} is beyond the safe integer range`, start);
      }
      return Number(v);
    }
    mul *= 128;
  }
  throw corrupt(c, 'varint longer than 10 bytes', start);
}

/** A zig-zag i64 as a bigint (full 64-bit range). */
export function readI64BigInt(c: ByteCursor): bigint {
  const start = c.pos;
  let u = 0n;
  let shift = 0n;
  for (let i = 0; i < 10; i++) {
    if (c.pos >= c.end) throw eof(c, 'a varint');
    const b = c.buf[c.pos++]!;
    u |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) {
      u = BigInt.asUintN(64, u);
      return (u >> 1n) ^ -(u & 1n);
    }
    shift += 7n;
  }
  throw corrupt(c, 'varint longer than 10 bytes', start);
}

/** A little-endian IEEE 754 double (compact protocol, unlike binary, is LE). */
export function readDouble(c: ByteCursor): number {
  if (c.end - c.pos < 8) throw eof(c, 'a double');
  const v = c.view.getFloat64(c.pos, true);
  c.pos += 8;
  return v;
}

/** Length of a binary/string, checked against the bytes remaining. */
function readBinaryLength(c: ByteCursor): number {
  const start = c.pos;
  const n = readVarU32(c);
  if (n > c.end - c.pos) {
    throw corrupt(c, `binary of ${n} bytes but only ${c.end - c.pos} remain`, start);
  }
  return n;
}

/** Binary as a copy (so the result does not pin or alias the input buffer). */
export function readBinary(c: ByteCursor): Uint8Array {
  const n = readBinaryLength(c);
  const out = c.buf.slice(c.pos, c.pos + n);
  c.pos += n;
  return out;
}

/** Binary as a view into the input (no copy). */
export function readBinaryView(c: ByteCursor): Uint8Array {
  const n = readBinaryLength(c);
  const out = c.buf.subarray(c.pos, c.pos + n);
  c.pos += n;
  return out;
}

/** A UUID: 16 raw bytes (copied). */
export function readUuid(c: ByteCursor): Uint8Array {
  if (c.end - c.pos < 16) throw eof(c, 'a uuid');
  const out = c.buf.slice(c.pos, c.pos + 16);
  c.pos += 16;
  return out;
}

// Non-fatal: invalid UTF-8 becomes U+FFFD rather than an error; ignoreBOM
// keeps a leading U+FEFF as data instead of silently dropping it.
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** UTF-8 text from `n` bytes at `pos` (no bounds check: the caller did it). */
export function decodeUtf8(buf: Uint8Array, pos: number, n: number): string {
  if (n <= 48) {
    // Short ASCII (nearly every schema name) without a TextDecoder call.
    let ascii = true;
    for (let i = pos, e = pos + n; i < e; i++) {
      if (buf[i]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, buf.subarray(pos, pos + n) as unknown as number[]);
  }
  return utf8Decoder.decode(buf.subarray(pos, pos + n));
}

/** A string (binary decoded as UTF-8, invalid sequences replaced). */
export function readString(c: ByteCursor): string {
  const n = readBinaryLength(c);
  const s = decodeUtf8(c.buf, c.pos, n);
  c.pos += n;
  return s;
}

/** A list/set header: the element type and the element count. */
export interface ListHeader {
  elemType: number;
  size: number;
}

/**
 * Reads a list/set header and checks the count against the bytes left.
 * Returns `size * 16 + elemType` packed in one number to stay allocation-free
 * on hot paths; `readListHeader` unpacks it.
 */
export function readListHeaderPacked(c: ByteCursor): number {
  const start = c.pos;
  if (c.pos >= c.end) throw eof(c, 'a list header');
  const h = c.buf[c.pos++]!;
  const elemType = h & 0x0f;
  let size = h >> 4;
  if (size === 15) {
    size = readVarU32(c);
    if (size > 0x7fffffff) throw corrupt(c, `list size ${size} is negative as an i32`, start);
  }
  if (size > 0) {
    const min = elemType === 1 || elemType === 2 ? 1 : MIN_SIZE[elemType] ?? 0;
    if (min === 0) throw corrupt(c, `list element type ${elemType} is not a valid type`, start);
    if (size * min > c.end - c.pos) {
      throw corrupt(
        c,
        `list of ${size} ${CT_NAMES[elemType]} elements needs at least ${size * min} bytes but only ${c.end - c.pos} remain`,
        start,
      );
    }
  }
  return size * 16 + elemType;
}

export function readListHeader(c: ByteCursor): ListHeader {
  const p = readListHeaderPacked(c);
  return { elemType: p & 15, size: Math.floor(p / 16) };
}

/** A map header: key and value element types and the entry count. */
export interface MapHeader {
  keyType: number;
  valueType: number;
  size: number;
}

export function readMapHeader(c: ByteCursor): MapHeader {
  const start = c.pos;
  const size = readVarU32(c);
  if (size === 0) return { keyType: 0, valueType: 0, size: 0 };
  if (size > 0x7fffffff) throw corrupt(c, `map size ${size} is negative as an i32`, start);
  const kv = readByte(c);
  const keyType = kv >> 4;
  const valueType = kv & 0x0f;
  const kmin = keyType === 1 || keyType === 2 ? 1 : MIN_SIZE[keyType] ?? 0;
  const vmin = valueType === 1 || valueType === 2 ? 1 : MIN_SIZE[valueType] ?? 0;
  if (kmin === 0 || vmin === 0) throw corrupt(c, `map key/value types ${keyType}/${valueType} are not valid types`, start);
  if (size * (kmin + vmin) > c.end - c.pos) {
    throw corrupt(c, `map of ${size} entries needs at least ${size * (kmin + vmin)} bytes but only ${c.end - c.pos} remain`, start);
  }
  return { keyType, valueType, size };
}

/**
 * Reads a field header. `lastId` is the previous field id in this struct.
 * Returns the compact type (0 = stop) and stores the field id in `out.id`.
 */
export function readFieldHeader(c: ByteCursor, lastId: number, out: { id: number }): number {
  if (c.pos >= c.end) throw eof(c, 'a field header');
  const h = c.buf[c.pos++]!;
  if (h === 0) return 0;
  const delta = h >> 4;
  out.id = delta !== 0 ? lastId + delta : readI32(c);
  return h & 0x0f;
}

/**
 * Skips one value of compact type `type`. `inCollection` matters only for
 * bools: a bool field lives in its header (0 bytes), a bool element is a byte.
 * `depth` is the nesting level of the value; past `maxDepth` the input is
 * called corrupt (it would otherwise recurse without bound).
 */
export function skipValue(c: ByteCursor, type: number, depth: number, inCollection = false, maxDepth = MAX_DEPTH): void {
  switch (type) {
    case 1:
    case 2:
      if (inCollection) {
        if (c.pos >= c.end) throw eof(c, 'a bool');
        c.pos++;
      }
      return;
    case 3:
      if (c.pos >= c.end) throw eof(c, 'an i8');
      c.pos++;
      return;
    case 4:
    case 5:
    case 6: {
      const start = c.pos;
      for (let i = 0; ; i++) {
        if (i === 10) throw corrupt(c, 'varint longer than 10 bytes', start);
        if (c.pos >= c.end) throw eof(c, 'a varint');
        if (c.buf[c.pos++]! < 0x80) return;
      }
    }
    case 7:
      if (c.end - c.pos < 8) throw eof(c, 'a double');
      c.pos += 8;
      return;
    case 8: {
      const n = readBinaryLength(c);
      c.pos += n;
      return;
    }
    case 13:
      if (c.end - c.pos < 16) throw eof(c, 'a uuid');
      c.pos += 16;
      return;
    case 9:
    case 10: {
      if (depth > maxDepth) throw corrupt(c, `nesting deeper than ${maxDepth}`);
      const p = readListHeaderPacked(c);
      const elemType = p & 15;
      const size = Math.floor(p / 16);
      if (size === 0) return;
      const fixed = elemType === 7 ? 8 : elemType === 13 ? 16 : elemType <= 3 ? 1 : 0;
      if (fixed !== 0) {
        // size * fixed <= remaining was checked by the header
        c.pos += size * fixed;
        return;
      }
      for (let i = 0; i < size; i++) skipValue(c, elemType, depth + 1, true, maxDepth);
      return;
    }
    case 11: {
      if (depth > maxDepth) throw corrupt(c, `nesting deeper than ${maxDepth}`);
      const m = readMapHeader(c);
      for (let i = 0; i < m.size; i++) {
        skipValue(c, m.keyType, depth + 1, true, maxDepth);
        skipValue(c, m.valueType, depth + 1, true, maxDepth);
      }
      return;
    }
    case 12: {
      if (depth > maxDepth) throw corrupt(c, `nesting deeper than ${maxDepth}`);
      let last = 0;
      for (;;) {
        if (c.pos >= c.end) throw eof(c, 'a field header');
        const h = c.buf[c.pos++]!;
        if (h === 0) return;
        const delta = h >> 4;
        last = delta !== 0 ? last + delta : readI32(c);
        skipValue(c, h & 0x0f, depth + 1, false, maxDepth);
      }
    }
    default:
      throw corrupt(c, `unknown compact type ${type}`, c.pos - 1);
  }
}
