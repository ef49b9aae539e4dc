import { copyBytes } from '../bytes/concat.js';
import { typedArray } from '../bytes/small-arrays.js';
import { LimitError } from '../errors.js';
import type { ByteArrays, PhysicalType, Values } from './types.js';

type Numeric = Uint8Array | Int32Array | BigInt64Array | Float32Array | Float64Array;

const encoder = new TextEncoder();

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const nativeWellFormed = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;

/** No lone surrogates (ES2024 String.prototype.isWellFormed: O(1) in V8 for Latin-1 strings; a search where it is missing). */
export const isWellFormed: (s: string) => boolean = nativeWellFormed
  ? (s) => nativeWellFormed.call(s)
  : (s) => !LONE_SURROGATE.test(s);
/** Strings up to this many UTF-16 units are encoded in JS rather than by TextEncoder. */
const SHORT_STRING = 64;

/** What empty builders share until their first value: never written, every push grows first. */
const EMPTY_NUMS: Partial<Record<PhysicalType, Numeric>> = {
  BOOLEAN: new Uint8Array(0), INT32: new Int32Array(0), INT64: new BigInt64Array(0), FLOAT: new Float32Array(0), DOUBLE: new Float64Array(0),
};
const EMPTY_DATA = new Uint8Array(0);
/** One offset, 0: the start of the first value. */
const EMPTY_OFFSETS = new Int32Array(1);

/**
 * A growable container of one physical type's values, filled one value at a
 * time (or in bulk) and read back as `Values` without copying. `truncate`
 * rolls back a partly written record.
 */
export class ValuesBuilder {
  length = 0;
  private nums: Numeric | undefined;
  private data: Uint8Array | undefined;
  private offsets: Int32Array | undefined;
  private bytes = 0;

  /** `capacity` 0: nothing is allocated until the first value (a wide table has builders it never fills). */
  constructor(readonly type: PhysicalType, capacity = 1024) {
    if (capacity === 0) {
      this.nums = EMPTY_NUMS[type];
      if (this.nums === undefined) [this.data, this.offsets] = [EMPTY_DATA, EMPTY_OFFSETS];
      return;
    }
    switch (type) {
      case 'BOOLEAN': this.nums = new Uint8Array(capacity); break;
      case 'INT32': this.nums = new Int32Array(capacity); break;
      case 'INT64': this.nums = new BigInt64Array(capacity); break;
      case 'FLOAT': this.nums = new Float32Array(capacity); break;
      case 'DOUBLE': this.nums = new Float64Array(capacity); break;
      default:
        this.data = new Uint8Array(capacity * 8);
        this.offsets = new Int32Array(capacity + 1);
    }
  }

  /** Bytes the values take as PLAIN, for page and row-group budgets. */
  get byteSize(): number {
    switch (this.type) {
      case 'BOOLEAN': return Math.ceil(this.length / 8);
      case 'INT32': case 'FLOAT': return this.length * 4;
      case 'INT64': case 'DOUBLE': return this.length * 8;
      case 'BYTE_ARRAY': return this.bytes + 4 * this.length;
      default: return this.bytes;
    }
  }

  /** What `byteSize` was when the builder held its first `n` values (n <= length). */
  byteSizeAt(n: number): number {
    switch (this.type) {
      case 'BOOLEAN': return Math.ceil(n / 8);
      case 'INT32': case 'FLOAT': return n * 4;
      case 'INT64': case 'DOUBLE': return n * 8;
      case 'BYTE_ARRAY': return this.offsets![n]! + 4 * n;
      default: return this.offsets![n]!;
    }
  }

  private growNums(min: number): Numeric {
    const a = this.nums!;
    if (min <= a.length) return a;
    const next = typedArray(a.constructor as Parameters<typeof typedArray<Numeric>>[0], Math.max(min, a.length * 2));
    (next as Int32Array).set(a as Int32Array);
    this.nums = next;
    return next;
  }

  private growBytes(extra: number): void {
    const need = this.bytes + extra;
    if (need > 0x7fffffff) throw new LimitError('more than 2 GiB of byte-array data in one page buffer');
    if (need > this.data!.length) {
      const next = typedArray(Uint8Array, Math.max(need, this.data!.length * 2));
      next.set(this.data!.subarray(0, this.bytes));
      this.data = next;
    }
    if (this.length + 2 > this.offsets!.length) {
      const next = typedArray(Int32Array, this.offsets!.length * 2);
      next.set(this.offsets!);
      this.offsets = next;
    }
  }

  push(v: number | bigint | boolean | Uint8Array): void {
    if (this.nums) {
      const a = this.length < this.nums.length ? this.nums : this.growNums(this.length + 1);
      (a as unknown as (number | bigint)[])[this.length++] = typeof v === 'boolean' ? (v ? 1 : 0) : (v as number | bigint);
      return;
    }
    const b = v as Uint8Array;
    this.growBytes(b.length);
    this.data!.set(b, this.bytes);
    this.bytes += b.length;
    this.offsets![++this.length] = this.bytes;
  }

  /** The bytes src[start, end) as a value (a BYTE_ARRAY's or FIXED_LEN_BYTE_ARRAY's). */
  pushRange(src: Uint8Array, start: number, end: number): void {
    this.growBytes(end - start);
    copyBytes(this.data!, this.bytes, src, start, end);
    this.bytes += end - start;
    this.offsets![++this.length] = this.bytes;
  }

  /**
   * A string as UTF-8, encoded straight into the buffer. Short strings are
   * encoded here: for them a TextEncoder call (and the view it writes into)
   * costs more than the encoding. Lone surrogates become U+FFFD, as
   * TextEncoder makes them; then the result is true.
   */
  pushString(s: string): boolean {
    const n = s.length;
    // At most 3 bytes per UTF-16 unit.
    this.growBytes(n * 3);
    const d = this.data!;
    let o = this.bytes;
    let replaced = false;
    if (n > SHORT_STRING) {
      o += encoder.encodeInto(s, d.subarray(o)).written;
      replaced = !isWellFormed(s);
    } else {
      for (let i = 0; i < n; i++) {
        let c = s.charCodeAt(i);
        if (c < 0x80) {
          d[o++] = c;
        } else if (c < 0x800) {
          d[o++] = 0xc0 | (c >> 6);
          d[o++] = 0x80 | (c & 0x3f);
        } else if (c >= 0xd800 && c <= 0xdfff) {
          const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
          if (c <= 0xdbff && (next & 0xfc00) === 0xdc00) {
            c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
            i++;
            d[o++] = 0xf0 | (c >> 18);
            d[o++] = 0x80 | ((c >> 12) & 0x3f);
            d[o++] = 0x80 | ((c >> 6) & 0x3f);
            d[o++] = 0x80 | (c & 0x3f);
          } else {
            d[o++] = 0xef; // U+FFFD
            d[o++] = 0xbf;
            d[o++] = 0xbd;
            replaced = true;
          }
        } else {
          d[o++] = 0xe0 | (c >> 12);
          d[o++] = 0x80 | ((c >> 6) & 0x3f);
          d[o++] = 0x80 | (c & 0x3f);
        }
      }
    }
    this.bytes = o;
    this.offsets![++this.length] = o;
    return replaced;
  }

  /**
   * Appends the strings among values[start..end) (null and undefined are
   * skipped; the caller has checked that everything else is a string and
   * that their lengths add up to `units`) when they are all ASCII, as one
   * joined string encoded in one call: for short strings several times
   * faster than one call each. Gives false, having appended nothing, when
   * some character is not ASCII.
   */
  pushAsciiStrings(values: ArrayLike<unknown>, start: number, end: number, units: number): boolean {
    // join() writes null and undefined as nothing.
    const joined = (Array.prototype.slice.call(values, start, end) as unknown[]).join('');
    if (joined.length !== units) return false;
    this.growBytes(units);
    this.growOffsets(end - start);
    // Room for exactly `units` bytes: a character that is not ASCII takes two or more, so it stops the encoder short.
    const { read, written } = encoder.encodeInto(joined, this.data!.subarray(this.bytes, this.bytes + units));
    if (read !== units || written !== units) return false;
    const offsets = this.offsets!;
    let o = this.bytes;
    let n = this.length;
    for (let i = start; i < end; i++) {
      const v = values[i];
      if (typeof v === 'string') {
        o += v.length;
        offsets[++n] = o;
      }
    }
    this.length = n;
    this.bytes = o;
    return true;
  }

  private growOffsets(extra: number): void {
    if (this.length + extra + 1 > this.offsets!.length) {
      const next = typedArray(Int32Array, Math.max(this.length + extra + 1, this.offsets!.length * 2));
      next.set(this.offsets!);
      this.offsets = next;
    }
  }

  /**
   * The numeric container with room for `extra` more values past `length`,
   * for a caller that writes them in place and then advances `length`
   * (a view: valid until the next push or reset).
   */
  room(extra: number): Uint8Array | Int32Array | BigInt64Array | Float32Array | Float64Array {
    return this.growNums(this.length + extra);
  }

  /** Appends many numeric values at once (the columnar write path). */
  pushAll(values: ArrayLike<number> | ArrayLike<bigint>): void {
    const a = this.growNums(this.length + values.length);
    if (ArrayBuffer.isView(values) && values.constructor === a.constructor) (a as Int32Array).set(values as Int32Array, this.length);
    else for (let i = 0; i < values.length; i++) (a as unknown as (number | bigint)[])[this.length + i] = values[i]!;
    this.length += values.length;
  }

  /** Appends the byte strings data[starts[i]..ends[i]) of a byte-array column. */
  pushRanges(data: Uint8Array, starts: Int32Array, ends: Int32Array): void {
    const count = starts.length;
    let total = 0;
    // Strings that follow one another in `data` (a column's values without nulls between) are copied in one go.
    let adjacent = true;
    for (let i = 0; i < count; i++) {
      total += ends[i]! - starts[i]!;
      if (i > 0 && starts[i] !== ends[i - 1]) adjacent = false;
    }
    this.growBytes(total);
    this.growOffsets(count);
    const d = this.data!;
    const offsets = this.offsets!;
    let o = this.bytes;
    let n = this.length;
    if (adjacent && count > 0) {
      const base = o - starts[0]!;
      d.set(data.subarray(starts[0]!, ends[count - 1]!), o);
      for (let i = 0; i < count; i++) offsets[++n] = base + ends[i]!;
      o += total;
    } else {
      for (let i = 0; i < count; i++) {
        const s = starts[i]!;
        const e = ends[i]!;
        copyBytes(d, o, data, s, e);
        o += e - s;
        offsets[++n] = o;
      }
    }
    this.length = n;
    this.bytes = o;
  }

  truncate(n: number): void {
    if (n >= this.length) return;
    this.length = n;
    if (this.offsets) this.bytes = this.offsets[n]!;
  }

  /** The values so far (a view: valid until the next push or reset). */
  values(): Values {
    if (this.nums) return this.nums.subarray(0, this.length);
    return { data: this.data!.subarray(0, this.bytes), offsets: this.offsets!.subarray(0, this.length + 1) } as ByteArrays;
  }

  /** The i-th value (numbers and bigints as stored; byte arrays as views). */
  at(i: number): number | bigint | Uint8Array {
    if (this.nums) return this.nums[i]!;
    return this.data!.subarray(this.offsets![i]!, this.offsets![i + 1]!);
  }

  reset(): void {
    this.length = 0;
    this.bytes = 0;
  }
}
