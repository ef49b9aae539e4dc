/**
 * A growable byte buffer for building encoded output. Doubles its capacity
 * as needed; `finish()` returns a view of exactly the bytes written.
 */
import { typedArray } from './small-arrays.js';

const EMPTY = new Uint8Array(0);
const EMPTY_VIEW = new DataView(EMPTY.buffer);

export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  /** `initialCapacity` 0: nothing is allocated until the first byte (a wide table's writer has many buffers it barely fills). */
  constructor(initialCapacity = 1024) {
    this.buf = initialCapacity === 0 ? EMPTY : new Uint8Array(Math.max(16, initialCapacity));
    this.view = initialCapacity === 0 ? EMPTY_VIEW : new DataView(this.buf.buffer);
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    const need = this.length + n;
    if (need <= this.buf.length) return;
    let cap = Math.max(16, this.buf.length * 2);
    while (cap < need) cap *= 2;
    const next = typedArray(Uint8Array, cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }

  u8(v: number): void {
    this.reserve(1);
    this.buf[this.length++] = v;
  }

  i32le(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }

  u32le(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }

  i64le(v: bigint): void {
    this.reserve(8);
    this.view.setBigInt64(this.length, v, true);
    this.length += 8;
  }

  f32le(v: number): void {
    this.reserve(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
  }

  f64le(v: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }

  /** Big-endian writes, for formats read by Java's DataInputStream (RedElm). */
  u16be(v: number): void {
    this.reserve(2);
    this.view.setUint16(this.length, v);
    this.length += 2;
  }

  i32be(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, v);
    this.length += 4;
  }

  i64be(v: bigint): void {
    this.reserve(8);
    this.view.setBigInt64(this.length, v);
    this.length += 8;
  }

  /** ULEB128 of a non-negative integer up to 2^53 - 1. */
  varUint(v: number): void {
    this.reserve(8);
    while (v >= 0x80) {
      this.buf[this.length++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
  }

  /** ULEB128 of an unsigned 64-bit bigint. */
  varUint64(v: bigint): void {
    this.reserve(10);
    v = BigInt.asUintN(64, v);
    while (v >= 0x80n) {
      this.buf[this.length++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.length++] = Number(v);
  }

  zigzag32(v: number): void {
    this.varUint(((v << 1) ^ (v >> 31)) >>> 0);
  }

  zigzag64(v: bigint): void {
    this.varUint64((v << 1n) ^ (v >> 63n));
  }

  /** `s`, whose characters are all below U+0080, a byte each: ASCII text without an encoded copy first. */
  ascii(s: string): void {
    this.reserve(s.length);
    const buf = this.buf;
    const at = this.length;
    for (let i = 0; i < s.length; i++) buf[at + i] = s.charCodeAt(i);
    this.length += s.length;
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** The bytes written so far (a view; copy it if the writer will be reused). */
  finish(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  reset(): void {
    this.length = 0;
  }
}
