import { CorruptFileError } from '../errors.js';

/**
 * A bounds-checked read cursor over a Uint8Array. Every read checks against
 * `end` first, so a length taken from a file can never walk past its bytes.
 * `base` is the absolute file offset of `buf[0]`, used only for error messages.
 */
export class ByteCursor {
  readonly buf: Uint8Array;
  readonly view: DataView;
  pos: number;
  readonly end: number;
  readonly base: number;

  constructor(buf: Uint8Array, start = 0, end = buf.length, base = 0) {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.pos = start;
    this.end = end;
    this.base = base;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  /** Absolute file offset of the cursor. */
  get fileOffset(): number {
    return this.base + this.pos;
  }

  /** Throws unless `n` more bytes are available. */
  need(n: number, what = 'data'): void {
    if (!(n >= 0) || n > this.end - this.pos) {
      throw new CorruptFileError(`${what} needs ${n} bytes but only ${this.end - this.pos} remain`, { offset: this.base + this.pos });
    }
  }

  u8(): number {
    if (this.pos >= this.end) this.need(1, 'byte');
    return this.buf[this.pos++]!;
  }

  i32le(): number {
    this.need(4, 'int32');
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u32le(): number {
    this.need(4, 'uint32');
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  i64le(): bigint {
    this.need(8, 'int64');
    const v = this.view.getBigInt64(this.pos, true);
    this.pos += 8;
    return v;
  }

  f32le(): number {
    this.need(4, 'float');
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64le(): number {
    this.need(8, 'double');
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Big-endian reads, for formats written by Java's DataOutputStream (RedElm). */
  u16be(): number {
    this.need(2, 'uint16');
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }

  i32be(): number {
    this.need(4, 'int32');
    const v = this.view.getInt32(this.pos);
    this.pos += 4;
    return v;
  }

  i64be(): bigint {
    this.need(8, 'int64');
    const v = this.view.getBigInt64(this.pos);
    this.pos += 8;
    return v;
  }

  /** ULEB128 up to 2^53 - 1, as a number. */
  varUint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 8; i++) {
      const b = this.u8();
      result += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return result;
      mul *= 128;
    }
    throw new CorruptFileError('varint longer than 8 bytes where a number was expected', { offset: this.base + this.pos });
  }

  /** ULEB128 up to 64 bits, as an unsigned bigint. */
  varUint64(): bigint {
    let lo = 0;
    let shift = 0;
    // Fast path: the first 28 bits fit a number.
    for (; shift < 28; shift += 7) {
      const b = this.u8();
      lo |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt(lo >>> 0);
    }
    let result = BigInt(lo >>> 0);
    let bshift = 28n;
    for (let i = 0; i < 6; i++) {
      const b = this.u8();
      result |= BigInt(b & 0x7f) << bshift;
      if ((b & 0x80) === 0) return BigInt.asUintN(64, result);
      bshift += 7n;
    }
    throw new CorruptFileError('varint longer than 10 bytes', { offset: this.base + this.pos });
  }

  /** Zig-zag varint that must fit a signed 32-bit int. */
  zigzag32(): number {
    const u = this.varUint();
    if (u > 0xffffffff) throw new CorruptFileError('zig-zag int32 out of range', { offset: this.base + this.pos });
    return (u % 2 === 0 ? u / 2 : -(u + 1) / 2) | 0;
  }

  /** Zig-zag varint of up to 64 bits, as a signed bigint. */
  zigzag64(): bigint {
    const u = this.varUint64();
    return (u >> 1n) ^ -(u & 1n);
  }

  /** A view (no copy) of the next `n` bytes. */
  bytes(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  skip(n: number, what = 'skipped bytes'): void {
    this.need(n, what);
    this.pos += n;
  }
}
