/**
 * Thrift compact protocol: writing the wire primitives (compact.ts has the
 * constants and reading, and the compatibility notes both follow).
 */
import { InvalidArgumentError } from '../../errors.js';
import type { ByteWriter } from '../../bytes/writer.js';

function badValue(what: string, v: unknown): InvalidArgumentError {
  const shown = typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : String(v);
  return new InvalidArgumentError(`thrift: ${what} cannot hold ${shown}`);
}

/**
 * Writes a field header: short form (delta 1..15 in the high nibble) when it
 * can, long form (type byte, then zig-zag i16 id) otherwise. For a bool
 * field pass `type` = 1 (true) or 2 (false): the value is the header.
 */
export function writeFieldHeader(w: ByteWriter, type: number, id: number, lastId: number): void {
  const delta = id - lastId;
  if (delta > 0 && delta <= 15) {
    w.u8((delta << 4) | type);
  } else {
    w.u8(type);
    w.zigzag32(id);
  }
}

export function writeStop(w: ByteWriter): void {
  w.u8(0);
}

export function writeListHeader(w: ByteWriter, elemType: number, size: number): void {
  if (size < 15) {
    w.u8((size << 4) | elemType);
  } else {
    w.u8(0xf0 | elemType);
    w.varUint(size);
  }
}

export function writeMapHeader(w: ByteWriter, keyType: number, valueType: number, size: number): void {
  if (size === 0) {
    w.u8(0);
    return;
  }
  w.varUint(size);
  w.u8((keyType << 4) | valueType);
}

export function writeI8(w: ByteWriter, v: number): void {
  if (!Number.isInteger(v) || v < -128 || v > 127) throw badValue('i8', v);
  w.u8(v & 0xff);
}

export function writeI16(w: ByteWriter, v: number): void {
  if (!Number.isInteger(v) || v < -32768 || v > 32767) throw badValue('i16', v);
  w.zigzag32(v);
}

export function writeI32(w: ByteWriter, v: number): void {
  if ((v | 0) !== v) throw badValue('i32', v);
  w.zigzag32(v);
}

/** An i64 from a safe-integer number (or a bigint in range). */
export function writeI64(w: ByteWriter, v: number | bigint): void {
  if (typeof v === 'bigint') {
    writeI64BigInt(w, v);
    return;
  }
  if (!Number.isSafeInteger(v)) throw badValue('i64 (as a safe integer number)', v);
  if (v >= 0 && v < 0x40000000) {
    w.varUint(v * 2);
  } else if (v > -0x40000000 && v < 0) {
    w.varUint(-v * 2 - 1);
  } else {
    w.zigzag64(BigInt(v));
  }
}

export function writeI64BigInt(w: ByteWriter, v: bigint): void {
  if (typeof v !== 'bigint' || v < -(2n ** 63n) || v >= 2n ** 63n) throw badValue('i64', v);
  w.zigzag64(v);
}

export function writeDouble(w: ByteWriter, v: number): void {
  if (typeof v !== 'number') throw badValue('double', v);
  w.f64le(v);
}

export function writeBinary(w: ByteWriter, v: Uint8Array): void {
  if (!(v instanceof Uint8Array)) throw badValue('binary', v);
  w.varUint(v.length);
  w.bytes(v);
}

const utf8Encoder = new TextEncoder();

export function writeString(w: ByteWriter, v: string): void {
  if (typeof v !== 'string') throw badValue('string', v);
  // Short ASCII (column names, most of a wide table's footer) goes straight in, without an encoded copy.
  if (v.length <= 64 && isAscii(v)) {
    w.varUint(v.length);
    w.ascii(v);
    return;
  }
  const b = utf8Encoder.encode(v);
  w.varUint(b.length);
  w.bytes(b);
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

export function writeUuid(w: ByteWriter, v: Uint8Array): void {
  if (!(v instanceof Uint8Array) || v.length !== 16) throw badValue('uuid (16 bytes)', v);
  w.bytes(v);
}
