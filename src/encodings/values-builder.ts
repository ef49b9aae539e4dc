import { LimitError } from '../errors.js';
import type { ByteArrays, PhysicalType, Values } from './types.js';

type Numeric = Uint8Array | Int32Array | BigInt64Array | Float32Array | Float64Array;
const encoder = new TextEncoder();

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

  constructor(readonly type: PhysicalType, capacity = 1024) {
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

  private growNums(min: number): Numeric {
    const a = this.nums!;
    if (min <= a.length) return a;
    const Ctor = a.constructor as new (n: number) => Numeric;
    const next = new Ctor(Math.max(min, a.length * 2));
    (next as Int32Array).set(a as Int32Array);
    this.nums = next;
    return next;
  }

  private growBytes(extra: number): void {
    const need = this.bytes + extra;
    if (need > 0x7fffffff) throw new LimitError('more than 2 GiB of byte-array data in one page buffer');
    if (need > this.data!.length) {
      const next = new Uint8Array(Math.max(need, this.data!.length * 2));
      next.set(this.data!.subarray(0, this.bytes));
      this.data = next;
    }
    if (this.length + 2 > this.offsets!.length) {
      const next = new Int32Array(this.offsets!.length * 2);
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

  /** A string as UTF-8, encoded straight into the buffer. */
  pushString(s: string): void {
    // At most 3 bytes per UTF-16 unit.
    this.growBytes(s.length * 3);
    const { written } = encoder.encodeInto(s, this.data!.subarray(this.bytes));
    this.bytes += written;
    this.offsets![++this.length] = this.bytes;
  }

  /** Appends many numeric values at once (the columnar write path). */
  pushAll(values: ArrayLike<number> | ArrayLike<bigint>): void {
    const a = this.growNums(this.length + values.length);
    if (ArrayBuffer.isView(values) && values.constructor === a.constructor) (a as Int32Array).set(values as Int32Array, this.length);
    else for (let i = 0; i < values.length; i++) (a as unknown as (number | bigint)[])[this.length + i] = values[i]!;
    this.length += values.length;
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
