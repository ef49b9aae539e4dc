import type { LeafNode } from '../../schema/tree.js';
import type { Statistics } from '../metadata/index.js';
import { valueCount, type ByteArrays, type Values } from '../../encodings/types.js';
import { LITTLE_ENDIAN } from '../../encodings/bits.js';
import { take } from '../../encodings/dictionary.js';
import { float16 } from '../../schema/convert.js';
import { compareTotalOrder } from '../float-order.js';

type Physical = number | bigint | Uint8Array;

/**
 * How a column's values sort for min/max statistics: parquet-format's
 * type-defined orders (signed integers, unsigned for UINT/unsigned INTEGER,
 * IEEE floats without NaN, unsigned byte-wise for binary, signed numeric for
 * binary DECIMAL and FLOAT16 by value). Types with no defined order (INT96,
 * INTERVAL) get no bounds.
 */
type Order = 'signed' | 'unsigned' | 'float' | 'bytes' | 'decimal' | 'float16' | 'none';

/**
 * The column order a writer declares for float columns (FLOAT, DOUBLE,
 * FLOAT16): parquet-format's TYPE_ORDER (zeros written as -0 min and +0
 * max, NaN left out), or IEEE_754_TOTAL_ORDER (-0 below +0, an all-NaN
 * range bounded by its NaNs), which readers that do not know it ignore.
 */
export type FloatOrder = 'type' | 'total';

/** Columns whose values are floats: they count NaNs, and may take total order. */
export function isFloatColumn(leaf: LeafNode): boolean {
  const o = sortOrder(leaf);
  return o === 'float' || o === 'float16';
}

export function sortOrder(leaf: LeafNode): Order {
  const k = leaf.kind;
  switch (leaf.physicalType) {
    case 'BOOLEAN': return 'unsigned';
    case 'INT32':
    case 'INT64': return k.kind === 'int' && !k.signed ? 'unsigned' : 'signed';
    case 'FLOAT':
    case 'DOUBLE': return 'float';
    case 'INT96': return 'none';
    default: {
      if (k.kind === 'decimal') return 'decimal';
      if (k.kind === 'float16') return 'float16';
      if (k.kind === 'interval') return 'none';
      // Geometry and geography have no defined sort order: bounds would mislead readers.
      const lt = leaf.element.logicalType?.type;
      if (lt === 'GEOMETRY' || lt === 'GEOGRAPHY') return 'none';
      return 'bytes';
    }
  }
}

/**
 * Positions of the smallest and largest int64 in words[2*start .. 2*end)
 * (little-endian halves): signed when `flip` is 0, unsigned when it is
 * 0x80000000 (the high halves' sign bits flipped make signed compares unsigned).
 */
function minMax64(w: Int32Array, start: number, end: number, flip: number): [number, number] {
  let lo = start;
  let hi = start;
  let minHi = w[2 * start + 1]! ^ flip;
  let minLo = w[2 * start]! >>> 0;
  let maxHi = minHi;
  let maxLo = minLo;
  for (let i = start + 1; i < end; i++) {
    const h = w[2 * i + 1]! ^ flip;
    if (h > minHi && h < maxHi) continue;
    const l = w[2 * i]! >>> 0;
    if (h < minHi || (h === minHi && l < minLo)) {
      minHi = h;
      minLo = l;
      lo = i;
    } else if (h > maxHi || (h === maxHi && l > maxLo)) {
      maxHi = h;
      maxLo = l;
      hi = i;
    }
  }
  return [lo, hi];
}

/** A byte per dictionary entry, all zero between uses (shared: statistics are taken synchronously, one page at a time). */
let usedBuf = new Uint8Array(1024);

/** The distinct entries indices[start..end) refer to, ascending; every index must be below `size`. */
function usedEntries(indices: Int32Array, start: number, end: number, size: number): Int32Array {
  if (usedBuf.length < size) usedBuf = new Uint8Array(Math.max(size, usedBuf.length * 2));
  const used = usedBuf;
  let n = 0;
  for (let i = start; i < end; i++) {
    const k = indices[i]!;
    if (used[k] === 0) {
      used[k] = 1;
      n++;
    }
  }
  const picked = new Int32Array(n);
  for (let e = 0, j = 0; j < n; e++) {
    if (used[e]) {
      used[e] = 0;
      picked[j++] = e;
    }
  }
  return picked;
}

/** Compares data[as..ae) with data[bs..be) byte-wise, unsigned: four bytes at a time (big-endian words order as their bytes do), then byte by byte. */
function compareIn(d: Uint8Array, as: number, ae: number, bs: number, be: number, dv: DataView): number {
  const n = Math.min(ae - as, be - bs);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const x = dv.getUint32(as + i);
    const y = dv.getUint32(bs + i);
    if (x !== y) return x < y ? -1 : 1;
  }
  for (; i < n; i++) {
    const x = d[as + i]!;
    const y = d[bs + i]!;
    if (x !== y) return x - y;
  }
  return ae - as - (be - bs);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function signedBig(b: Uint8Array): bigint {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return b.length ? BigInt.asIntN(b.length * 8, v) : 0n;
}

function half(b: Uint8Array): number {
  return float16(b[0]!, b[1]!);
}

function comparator(order: Order): (a: Physical, b: Physical) => number {
  switch (order) {
    case 'signed': return (a, b) => (a < b ? -1 : a > b ? 1 : 0);
    case 'unsigned': return (a, b) => {
      const x = typeof a === 'bigint' ? BigInt.asUintN(64, a) : (a as number) >>> 0;
      const y = typeof b === 'bigint' ? BigInt.asUintN(64, b) : (b as number) >>> 0;
      return x < y ? -1 : x > y ? 1 : 0;
    };
    case 'float': return (a, b) => (a as number) - (b as number);
    case 'decimal': return (a, b) => {
      const x = signedBig(a as Uint8Array);
      const y = signedBig(b as Uint8Array);
      return x < y ? -1 : x > y ? 1 : 0;
    };
    case 'float16': return (a, b) => half(a as Uint8Array) - half(b as Uint8Array);
    default: return (a, b) => compareBytes(a as Uint8Array, b as Uint8Array);
  }
}

/** Tracks min, max, null count and (for floats) NaN count of a stream of values. */
export class StatsBuilder {
  private min: Physical | undefined;
  private max: Physical | undefined;
  nullCount = 0;
  /** NaNs seen (float columns). */
  nanCount = 0;
  /** Zeros seen (float columns): bit 1 for -0, bit 2 for +0; total order tells them apart in the bounds. */
  private zeros = 0;
  /** Total order: the least and greatest NaN seen, in PLAIN bytes (the bounds of an all-NaN range). */
  private nanLo: Uint8Array | undefined;
  private nanHi: Uint8Array | undefined;
  private readonly cmp: (a: Physical, b: Physical) => number;
  private readonly order: Order;
  private readonly total: boolean;
  /**
   * plainBounds() as last made, null once anything it depends on changed: a page's bounds go to
   * its header, its ColumnIndex and (as a chunk's first page) its chunk's statistics.
   */
  private bounds: [Uint8Array, Uint8Array] | undefined | null = null;

  constructor(private readonly leaf: LeafNode, private readonly truncateLength: number, floatOrder: FloatOrder = 'type') {
    this.order = sortOrder(leaf);
    this.cmp = comparator(this.order);
    this.total = floatOrder === 'total' && isFloatColumn(leaf);
  }

  /** Takes a non-NaN value as a candidate bound. */
  private consider(v: Physical): void {
    this.bounds = null;
    if (this.min === undefined) {
      // Byte values are views into buffers that will be reused: keep copies.
      this.min = this.max = v instanceof Uint8Array ? v.slice() : v;
      return;
    }
    if (this.cmp(v, this.min) < 0) this.min = v instanceof Uint8Array ? v.slice() : v;
    else if (this.cmp(v, this.max!) > 0) this.max = v instanceof Uint8Array ? v.slice() : v;
  }

  /** Takes a NaN (PLAIN bytes) as a candidate total-order bound. */
  private considerNaN(b: Uint8Array): void {
    this.bounds = null;
    if (this.nanLo === undefined || compareTotalOrder(b, this.nanLo) < 0) this.nanLo = b.slice();
    if (this.nanHi === undefined || compareTotalOrder(b, this.nanHi) > 0) this.nanHi = b.slice();
  }

  /** A FLOAT16 value: counted as a NaN, or noted as a zero and taken as a bound. */
  private addHalf(b: Uint8Array): void {
    const h = half(b);
    if (Number.isNaN(h)) {
      this.nanCount++;
      if (this.total) this.considerNaN(b);
      return;
    }
    if (h === 0) this.zeros |= b[1]! & 0x80 ? 1 : 2;
    this.consider(b);
  }

  /** FLOAT or DOUBLE values[start..end): bounds, NaNs and zeros in one pass. */
  private addFloats(a: Float32Array | Float64Array, start: number, end: number): void {
    let mn = Infinity;
    let mx = -Infinity;
    let nans = 0;
    let zeros = 0;
    for (let i = start; i < end; i++) {
      const v = a[i]!;
      if (v < mn) mn = v;
      if (v > mx) mx = v;
      if (v !== v) nans++;
      else if (v === 0) zeros |= 1 / v < 0 ? 1 : 2;
    }
    this.nanCount += nans;
    this.zeros |= zeros;
    this.bounds = null;
    if (nans > 0 && this.total) {
      // NaN payloads are only in the bytes: read them there.
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      const w = a.BYTES_PER_ELEMENT;
      for (let i = start; i < end; i++) if (a[i] !== a[i]) this.considerNaN(bytes.subarray(i * w, (i + 1) * w));
    }
    // NaN never wins a comparison, so it is skipped; a range of only NaN adds nothing.
    if (mn <= mx) {
      this.consider(mn);
      this.consider(mx);
    }
  }

  /**
   * Adds values[start..end) in one pass: a tight loop per order with no
   * per-value allocation (a per-value path would copy every byte string
   * it inspects).
   */
  addRange(values: Values, start: number, end: number): void {
    if (this.order === 'none' || start >= end) return;
    if ('offsets' in values) {
      if (this.order !== 'bytes') {
        const half = this.order === 'float16';
        for (let i = start; i < end; i++) {
          const b = values.data.subarray(values.offsets[i]!, values.offsets[i + 1]!);
          if (half) this.addHalf(b);
          else this.consider(b);
        }
        return;
      }
      const { data, offsets } = values;
      const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
      let lo = -1;
      let hi = -1;
      for (let i = start; i < end; i++) {
        const s = offsets[i]!;
        const e = offsets[i + 1]!;
        if (lo < 0) {
          lo = hi = i;
          continue;
        }
        if (compareIn(data, s, e, offsets[lo]!, offsets[lo + 1]!, dv) < 0) lo = i;
        else if (compareIn(data, s, e, offsets[hi]!, offsets[hi + 1]!, dv) > 0) hi = i;
      }
      this.consider(data.subarray(offsets[lo]!, offsets[lo + 1]!));
      this.consider(data.subarray(offsets[hi]!, offsets[hi + 1]!));
      return;
    }
    if (values instanceof BigInt64Array) {
      if (!LITTLE_ENDIAN) {
        for (let i = start; i < end; i++) this.consider(values[i]!);
        return;
      }
      // Compared as 32-bit halves: reading a BigInt64Array element makes a BigInt, so only the two winners are read that way.
      const w = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
      const [lo, hi] = this.order === 'unsigned' ? minMax64(w, start, end, 0x80000000) : minMax64(w, start, end, 0);
      this.consider(values[lo]!);
      this.consider(values[hi]!);
      return;
    }
    if (this.order === 'unsigned') {
      // INT32 stores UINT_32 values as their bit patterns: compare them unsigned.
      let lo = start;
      let hi = start;
      let mn = values[start]! as number >>> 0;
      let mx = mn;
      for (let i = start + 1; i < end; i++) {
        const v = (values[i]! as number) >>> 0;
        if (v < mn) {
          mn = v;
          lo = i;
        } else if (v > mx) {
          mx = v;
          hi = i;
        }
      }
      this.consider(values[lo]! as number);
      this.consider(values[hi]! as number);
      return;
    }
    if (this.order === 'float') {
      this.addFloats(values as Float32Array | Float64Array, start, end);
      return;
    }
    const a = values as Int32Array | Uint8Array;
    let mn = Infinity;
    let mx = -Infinity;
    for (let i = start; i < end; i++) {
      const v = a[i]!;
      if (v < mn) mn = v;
      if (v > mx) mx = v;
    }
    this.consider(mn);
    this.consider(mx);
  }

  /** Adds dict[indices[start..end)], materialising the values only where needed (floats count NaNs per occurrence). */
  addIndexed(dict: Values, indices: Int32Array, start: number, end: number): void {
    if (this.order === 'none' || start >= end) return;
    // Floats count NaNs and zeros per occurrence: every index's value is taken.
    if (this.order === 'float' || this.order === 'float16') {
      this.addRange(take(dict, indices.subarray(start, end)), 0, end - start);
      return;
    }
    const size = valueCount(dict);
    if (size <= end - start) {
      // No more entries than indices: mark the entries used, then look at each used entry once.
      const picked = usedEntries(indices, start, end, size);
      if ('offsets' in dict) this.addIndexedBytes(dict, picked, 0, picked.length);
      else this.addRange(take(dict, picked), 0, picked.length);
      return;
    }
    if (dict instanceof BigInt64Array || this.order === 'unsigned') {
      this.addRange(take(dict, indices.subarray(start, end)), 0, end - start);
      return;
    }
    if ('offsets' in dict) {
      this.addIndexedBytes(dict, indices, start, end);
      return;
    }
    // Numbers: one pass over the indices, no values copied.
    let mn = Infinity;
    let mx = -Infinity;
    const d = dict as Int32Array | Uint8Array;
    for (let i = start; i < end; i++) {
      const v = d[indices[i]!]!;
      if (v < mn) mn = v;
      if (v > mx) mx = v;
    }
    this.consider(mn);
    this.consider(mx);
  }

  private addIndexedBytes(dict: ByteArrays, indices: Int32Array, start: number, end: number): void {
    if (this.order !== 'bytes') {
      for (let i = start; i < end; i++) {
        const k = indices[i]!;
        this.consider(dict.data.subarray(dict.offsets[k]!, dict.offsets[k + 1]!));
      }
      return;
    }
    const { data, offsets } = dict;
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let lo = indices[start]!;
    let hi = lo;
    for (let i = start + 1; i < end; i++) {
      const k = indices[i]!;
      if (k === lo || k === hi) continue;
      if (compareIn(data, offsets[k]!, offsets[k + 1]!, offsets[lo]!, offsets[lo + 1]!, dv) < 0) lo = k;
      else if (compareIn(data, offsets[k]!, offsets[k + 1]!, offsets[hi]!, offsets[hi + 1]!, dv) > 0) hi = k;
    }
    this.consider(data.subarray(offsets[lo]!, offsets[lo + 1]!));
    this.consider(data.subarray(offsets[hi]!, offsets[hi + 1]!));
  }

  merge(other: StatsBuilder): void {
    // Merged into nothing, the bounds are the other's.
    const adopted = this.min === undefined && this.nanLo === undefined && this.zeros === 0 ? other.bounds : null;
    this.nullCount += other.nullCount;
    this.nanCount += other.nanCount;
    this.zeros |= other.zeros;
    if (other.nanLo) {
      this.considerNaN(other.nanLo);
      this.considerNaN(other.nanHi!);
    }
    if (other.min !== undefined) {
      this.consider(other.min);
      this.consider(other.max!);
    }
    this.bounds = adopted;
  }

  reset(): void {
    this.min = this.max = undefined;
    this.nanLo = this.nanHi = undefined;
    this.nullCount = this.nanCount = this.zeros = 0;
    this.bounds = null;
  }

  /**
   * PLAIN bytes of min and max; undefined when there are none. Zeros follow
   * the column order: TYPE_ORDER writes a zero min as -0 and a zero max as +0
   * (the spec's rule), total order the zeros there are. An all-NaN range has
   * bounds only in total order: its least and greatest NaN.
   */
  private plainBounds(): [Uint8Array, Uint8Array] | undefined {
    if (this.bounds === null) this.bounds = this.makeBounds();
    return this.bounds;
  }

  private makeBounds(): [Uint8Array, Uint8Array] | undefined {
    if (this.min === undefined) return this.nanLo && [this.nanLo.slice(), this.nanHi!.slice()];
    let min = this.min;
    let max = this.max!;
    const negMin = !this.total || (this.zeros & 1) !== 0;
    const posMax = !this.total || (this.zeros & 2) !== 0;
    if (this.order === 'float') {
      if (min === 0) min = negMin ? -0 : 0;
      if (max === 0) max = posMax ? 0 : -0;
    } else if (this.order === 'float16') {
      if (half(min as Uint8Array) === 0) min = Uint8Array.of(0x00, negMin ? 0x80 : 0x00);
      if (half(max as Uint8Array) === 0) max = Uint8Array.of(0x00, posMax ? 0x00 : 0x80);
    }
    return [plainBytes(this.leaf, min), plainBytes(this.leaf, max)];
  }

  /**
   * The bounds as a ColumnIndex stores them: PLAIN bytes, BYTE_ARRAY bounds
   * longer than `truncateLength` cut (the max rounded up; kept whole when no
   * shorter upper bound exists). Undefined when there are no bounds.
   */
  indexBounds(truncateLength: number): { min: Uint8Array; max: Uint8Array } | undefined {
    const b = this.plainBounds();
    if (b === undefined) return undefined;
    const [lo, hi] = b;
    if (this.order === 'bytes' && this.leaf.physicalType === 'BYTE_ARRAY') {
      const utf8 = this.leaf.kind.kind === 'string';
      return { min: truncateMin(lo, truncateLength, utf8), max: truncateMax(hi, truncateLength, utf8) ?? hi };
    }
    return { min: lo, max: hi };
  }

  /** The Thrift Statistics: min_value/max_value in PLAIN form, binary bounds truncated. */
  toThrift(distinctCount?: number): Statistics {
    const s: Statistics = { nullCount: this.nullCount };
    if (distinctCount !== undefined) s.distinctCount = distinctCount;
    // parquet-format asks for nan_count on float columns in either order, even when 0.
    if (this.order === 'float' || this.order === 'float16') s.nanCount = this.nanCount;
    const b = this.plainBounds();
    if (b === undefined) return s;
    const [lo, hi] = b;
    if (this.order === 'bytes' && this.leaf.physicalType === 'BYTE_ARRAY') {
      const tmin = truncateMin(lo, this.truncateLength, this.leaf.kind.kind === 'string');
      const tmax = truncateMax(hi, this.truncateLength, this.leaf.kind.kind === 'string');
      s.minValue = tmin;
      s.isMinValueExact = tmin.length === lo.length;
      if (tmax) {
        s.maxValue = tmax;
        s.isMaxValueExact = tmax.length === hi.length && compareBytes(tmax, hi) === 0;
      }
      return s;
    }
    s.minValue = lo;
    s.maxValue = hi;
    s.isMinValueExact = true;
    s.isMaxValueExact = true;
    return s;
  }
}

/**
 * Compares two PLAIN-encoded bounds of `leaf`'s column in its sort order
 * (as `indexBounds` gives them), for a ColumnIndex's boundary_order.
 * Undefined for types without an order.
 */
export function boundsComparator(leaf: LeafNode, floatOrder: FloatOrder = 'type'): ((a: Uint8Array, b: Uint8Array) => number) | undefined {
  const order = sortOrder(leaf);
  if (floatOrder === 'total' && isFloatColumn(leaf)) return compareTotalOrder;
  const t = leaf.physicalType;
  switch (order) {
    case 'none': return undefined;
    case 'signed': return t === 'INT32' ? compareInt32 : t === 'INT64' ? compareInt64 : compareBytes;
    case 'unsigned': return t === 'INT32' ? compareUint32 : t === 'INT64' ? compareUint64 : compareBytes; // BOOLEAN: one byte
    case 'float': return t === 'FLOAT' ? compareFloat32 : compareFloat64;
    case 'decimal': return compareDecimal;
    case 'float16': return compareFloat16;
    default: return compareBytes;
  }
}

/**
 * The comparators of plain bounds, made once: one made per chunk (and a
 * DataView per comparison) was a few hundred bytes of garbage a column,
 * which a table of 200,000 columns writes at close. Bounds are read through
 * one 8-byte scratch: each side is read to a number before the other.
 */
const boundBytes = new Uint8Array(8);
const boundView = new DataView(boundBytes.buffer);
function bound(b: Uint8Array): DataView {
  boundBytes.set(b.length > 8 ? b.subarray(0, 8) : b);
  return boundView;
}
const sign = (x: number | bigint) => (x < 0 ? -1 : x > 0 ? 1 : 0);
const compareInt32 = (a: Uint8Array, b: Uint8Array) => bound(a).getInt32(0, true) - bound(b).getInt32(0, true);
const compareUint32 = (a: Uint8Array, b: Uint8Array) => bound(a).getUint32(0, true) - bound(b).getUint32(0, true);
const compareInt64 = (a: Uint8Array, b: Uint8Array) => sign(bound(a).getBigInt64(0, true) - bound(b).getBigInt64(0, true));
const compareUint64 = (a: Uint8Array, b: Uint8Array) => sign(bound(a).getBigUint64(0, true) - bound(b).getBigUint64(0, true));
const compareFloat32 = (a: Uint8Array, b: Uint8Array) => sign(bound(a).getFloat32(0, true) - bound(b).getFloat32(0, true));
const compareFloat64 = (a: Uint8Array, b: Uint8Array) => sign(bound(a).getFloat64(0, true) - bound(b).getFloat64(0, true));
const compareDecimal = (a: Uint8Array, b: Uint8Array) => sign(signedBig(a) - signedBig(b));
const compareFloat16 = (a: Uint8Array, b: Uint8Array) => sign(half(a) - half(b));

/** Numbers are written here and copied out: one array a bound, not a buffer, a view and an array (a wide table's close makes six a column). */
const plainScratch = new Uint8Array(8);
const plainView = new DataView(plainScratch.buffer);

function plainBytes(leaf: LeafNode, v: Physical): Uint8Array {
  if (v instanceof Uint8Array) return v.slice();
  switch (leaf.physicalType) {
    case 'BOOLEAN': return Uint8Array.of(v ? 1 : 0);
    case 'INT32': plainView.setInt32(0, v as number, true); return plainScratch.slice(0, 4);
    case 'FLOAT': plainView.setFloat32(0, v as number, true); return plainScratch.slice(0, 4);
    case 'DOUBLE': plainView.setFloat64(0, v as number, true); return plainScratch.slice(0, 8);
    default: plainView.setBigInt64(0, v as bigint, true); return plainScratch.slice(0, 8);
  }
}

/** Where a UTF-8 prefix of at most `n` bytes may end without splitting a character. */
function utf8Cut(b: Uint8Array, n: number): number {
  let i = n;
  while (i > 0 && (b[i]! & 0xc0) === 0x80) i--;
  return i;
}

/** A lower bound of at most `n` bytes: a prefix sorts before the value. */
export function truncateMin(b: Uint8Array, n: number, utf8: boolean): Uint8Array {
  if (b.length <= n) return b;
  return b.slice(0, utf8 ? utf8Cut(b, n) : n);
}

/**
 * An upper bound of at most `n` bytes: a prefix with its last byte incremented
 * (carrying leftwards past 0xff bytes). Undefined when no shorter bound exists
 * (all 0xff), in which case the max is left out.
 */
export function truncateMax(b: Uint8Array, n: number, utf8: boolean): Uint8Array | undefined {
  if (b.length <= n) return b;
  let end = utf8 ? utf8Cut(b, n) : n;
  while (end > 0) {
    const out = b.slice(0, end);
    const last = out[end - 1]!;
    // For UTF-8 only ASCII bytes are incremented, so the bound stays valid UTF-8.
    if (last < (utf8 ? 0x7f : 0xff)) {
      out[end - 1] = last + 1;
      return out;
    }
    end = utf8 ? utf8Cut(b, end - 1) : end - 1;
  }
  return undefined;
}

/**
 * distinct_count of a chunk whose values are the dictionary `dict` (one
 * entry per bit pattern the writer keeps). Values are distinct as the column
 * order tells them apart: total order counts -0 and +0 (and each NaN) apart;
 * TYPE_ORDER compares floats by value, so -0 and +0 are one value, and all
 * NaNs one more.
 */
export function distinctCount(leaf: LeafNode, dict: Values, floatOrder: FloatOrder): number {
  const n = valueCount(dict);
  if (!isFloatColumn(leaf) || floatOrder === 'total') return n;
  let zeros = 0;
  let nans = 0;
  for (let i = 0; i < n; i++) {
    const v = 'offsets' in dict ? half(dict.data.subarray(dict.offsets[i]!, dict.offsets[i + 1]!)) : (dict as Float32Array | Float64Array)[i]!;
    if (v === 0) zeros++;
    else if (v !== v) nans++;
  }
  return n - Math.max(0, zeros - 1) - Math.max(0, nans - 1);
}
