/**
 * Trevni's value encodings, read and write side by side: zig-zag varints
 * (int, long, and every length and count), little-endian fixed32/fixed64/
 * float/double, length-prefixed string and bytes, bit-packed booleans, and
 * array lengths with the negative run code for runs of 0s and 1s.
 *
 * Booleans: the first value of a byte is its least significant bit. Each
 * block starts at a fresh byte, and so does the first value after every array
 * length (the Java writer and reader both reset the bit position there).
 */
import { ByteCursor } from '../bytes/cursor.js';
import { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError } from '../errors.js';
import type { TrevniType, TrevniValue } from './types.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Reads values from one block's uncompressed bytes (or a descriptor's first value). */
export class ValueReader {
  readonly cur: ByteCursor;
  private bitCount = 0;
  private bits = 0;
  private runLength = 0;
  private runValue = 0;

  /** `lengthRuns`: array lengths may be run codes (version 2); in version 1 a negative length is corrupt. */
  constructor(cur: ByteCursor, private readonly lengthRuns = true) {
    this.cur = cur;
  }

  static over(buf: Uint8Array, base = 0): ValueReader {
    return new ValueReader(new ByteCursor(buf, 0, buf.length, base));
  }

  /** Bytes not yet read. */
  get remaining(): number {
    return this.cur.remaining;
  }

  /** Starts booleans at a fresh byte (each descriptor's first value is read alone). */
  resetBits(): void {
    this.bitCount = 0;
  }

  int(): number {
    return this.cur.zigzag32();
  }

  long(): bigint {
    return this.cur.zigzag64();
  }

  boolean(): boolean {
    if (this.bitCount === 0) this.bits = this.cur.u8();
    const bit = (this.bits >>> this.bitCount) & 1;
    this.bitCount = (this.bitCount + 1) & 7;
    return bit === 1;
  }

  private size(what: string): number {
    const n = this.cur.zigzag32();
    if (n < 0) throw new CorruptFileError(`negative ${what} length ${n}`, { offset: this.cur.fileOffset });
    this.cur.need(n, what);
    return n;
  }

  string(): string {
    const n = this.size('string');
    const { buf } = this.cur;
    const start = this.cur.pos;
    this.cur.pos += n;
    if (n < 32) {
      let ascii = true;
      for (let i = start; i < start + n; i++) if (buf[i]! >= 0x80) { ascii = false; break; }
      if (ascii) return String.fromCharCode.apply(null, buf.subarray(start, start + n) as unknown as number[]);
    }
    try {
      return strictUtf8.decode(buf.subarray(start, start + n));
    } catch {
      throw new CorruptFileError('string value is not valid UTF-8', { offset: this.cur.base + start });
    }
  }

  /** A copy of the bytes, so values outlive the block buffer. */
  bytes(): Uint8Array {
    const n = this.size('bytes');
    return this.cur.bytes(n).slice();
  }

  value(type: TrevniType): TrevniValue {
    switch (type) {
      case 'null': return null;
      case 'boolean': return this.boolean();
      case 'int': return this.int();
      case 'long': return this.long();
      case 'fixed32': return this.cur.i32le();
      case 'fixed64': return this.cur.i64le();
      case 'float': return this.cur.f32le();
      case 'double': return this.cur.f64le();
      case 'string': return this.string();
      case 'bytes': return this.bytes();
    }
  }

  skip(type: TrevniType): void {
    switch (type) {
      case 'null': return;
      case 'boolean': this.boolean(); return;
      case 'int': this.int(); return;
      case 'long': this.long(); return;
      case 'fixed32':
      case 'float': this.cur.skip(4, type); return;
      case 'fixed64':
      case 'double': this.cur.skip(8, type); return;
      case 'string':
      case 'bytes': this.cur.skip(this.size(type), type); return;
    }
  }

  /** An array length: a plain length, or the next of a run of 0s or 1s. */
  length(): number {
    this.bitCount = 0;
    if (this.runLength > 0) {
      this.runLength--;
      return this.runValue;
    }
    const at = this.cur.fileOffset;
    const n = this.cur.zigzag32();
    if (n >= 0) return n;
    if (!this.lengthRuns) throw new CorruptFileError(`negative array length ${n} (Trevni version 1 has no run codes)`, { offset: at });
    // -1: two 0s, -2: two 1s, -3: three 0s, ... (the first is returned now).
    this.runLength = Math.floor((1 - n) / 2);
    this.runValue = (n + 1) & 1;
    if (this.runLength < 1) throw new CorruptFileError(`invalid array length run code ${n}`, { offset: at });
    return this.runValue;
  }

  /** The lengths a run code still holds and their value (0 or 1): a walk passes them in one step. */
  get run(): { left: number; value: number } {
    return { left: this.runLength, value: this.runValue };
  }

  /** Passes `n` (at most `run.left`) lengths of the pending run, as `n` calls of `length()` would. */
  passRun(n: number): void {
    this.bitCount = 0;
    this.runLength -= n;
  }

  /** True when lengths of a run are still pending (a block must not end inside one). */
  get inRun(): boolean {
    return this.runLength > 0;
  }
}

/**
 * Writes values the way the Java writer does: booleans packed into the
 * current byte until 8 are in it, `length` resets the bit position.
 */
export class ValueWriter {
  readonly out: ByteWriter;
  private bitCount = 0;
  private bitPos = 0;

  constructor(initialCapacity = 1024) {
    this.out = new ByteWriter(initialCapacity);
  }

  /** Bytes written so far. */
  get size(): number {
    return this.out.length;
  }

  boolean(v: boolean): void {
    if (this.bitCount === 0) {
      this.bitPos = this.out.length;
      this.out.u8(0);
    }
    if (v) {
      const bytes = this.out.finish();
      bytes[this.bitPos]! |= 1 << this.bitCount;
    }
    this.bitCount = (this.bitCount + 1) & 7;
  }

  int(v: number): void {
    this.out.zigzag32(v);
  }

  /** A length, count or run code (Java's writeLength: resets the boolean bit position). */
  writeLength(n: number): void {
    this.bitCount = 0;
    this.out.zigzag32(n);
  }

  value(type: TrevniType, v: TrevniValue): void {
    switch (type) {
      case 'null': return;
      case 'boolean': this.boolean(v as boolean); return;
      case 'int': this.out.zigzag32(v as number); return;
      case 'long': this.out.zigzag64(v as bigint); return;
      case 'fixed32': this.out.i32le(v as number); return;
      case 'fixed64': this.out.i64le(v as bigint); return;
      case 'float': this.out.f32le(v as number); return;
      case 'double': this.out.f64le(v as number); return;
      case 'string': {
        const b = encoder.encode(v as string);
        this.out.zigzag32(b.length);
        this.out.bytes(b);
        return;
      }
      case 'bytes': {
        const b = v as Uint8Array;
        this.out.zigzag32(b.length);
        this.out.bytes(b);
        return;
      }
    }
  }

  finish(): Uint8Array {
    return this.out.finish();
  }

  reset(): void {
    this.out.reset();
    this.bitCount = 0;
  }
}

/** The encoding of one value alone (a descriptor's first value): a boolean is one byte with bit 0. */
export function encodeValue(type: TrevniType, v: TrevniValue): Uint8Array {
  const w = new ValueWriter(16);
  w.value(type, v);
  return w.finish().slice();
}
