import { isByteArrays, type ByteArrays, type Values } from '../encodings/types.js';
import { formatDate, formatTime, formatTimestamp } from './temporal-format.js';
import { utf8Column } from '../bytes/utf8.js';
import type { LeafKind, TimeUnit } from './logical.js';

/**
 * Turns decoded physical values into the JS values users see. Lossless by
 * default (docs/reading.md, "Type mapping"); each option trades exactness for
 * convenience and is off unless asked for.
 */
export interface ValueOptions {
  /** INT64 (and UINT_64, INT96 nanos, 64-bit times) as `number` instead of `bigint`. Values beyond 2^53 lose precision. */
  int64?: 'bigint' | 'number';
  /** DECIMAL as an exact string (default) or a `number`. */
  decimal?: 'string' | 'number';
  /**
   * DATE, TIME, TIMESTAMP and INT96: `raw` (default) gives the stored integer in
   * its unit (days, ms/us/ns); `iso` the exact ISO-8601 text; `date` a JS Date
   * (DATE and TIMESTAMP only; sub-millisecond digits are dropped).
   */
  temporal?: 'raw' | 'iso' | 'date';
}

/**
 * The JS value of the i-th value of a column. Readers for the common kinds
 * also carry `fill`, which converts a run of values in one loop: record
 * assembly uses it to convert a column at a time instead of calling per value.
 */
export interface ValueAt {
  (i: number): unknown;
  /** Sets out[k] to the value at `from + k`, for k < count. */
  fill?: (out: unknown[], from: number, count: number) => void;
  /** Present when the value at i is exactly array[i]: the assembler may read the array itself. */
  array?: ArrayLike<unknown>;
}

function withFill(at: (i: number) => unknown, fill: (out: unknown[], from: number, count: number) => void): ValueAt {
  const f = at as ValueAt;
  f.fill = fill;
  return f;
}

/** A reader that returns the array's elements as they are. */
function direct(a: ArrayLike<unknown>): ValueAt {
  const f = withFill(
    (i) => a[i],
    (out, from, count) => {
      for (let k = 0; k < count; k++) out[k] = a[from + k];
    },
  );
  f.array = a;
  return f;
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function hex(data: Uint8Array, start = 0, end = data.length): string {
  let s = '';
  for (let i = start; i < end; i++) s += HEX[data[i]!];
  return s;
}

/** Big-endian two's-complement bytes as a bigint (DECIMAL on binary storage). */
export function bigEndianSigned(data: Uint8Array, start: number, end: number): bigint {
  if (end <= start) return 0n;
  let v = 0n;
  // Eight bytes at a time keeps the bigint work small for 16-byte decimals.
  let i = start;
  for (; i + 8 <= end; i += 8) {
    let hi = 0;
    let lo = 0;
    for (let j = 0; j < 4; j++) hi = hi * 256 + data[i + j]!;
    for (let j = 4; j < 8; j++) lo = lo * 256 + data[i + j]!;
    v = (v << 64n) | (BigInt(hi) << 32n) | BigInt(lo);
  }
  for (; i < end; i++) v = (v << 8n) | BigInt(data[i]!);
  const bits = BigInt((end - start) * 8);
  return BigInt.asIntN(Number(bits), v);
}

/** An unscaled integer as exact decimal text with `scale` digits after the point. */
export function formatDecimal(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale <= 0) return (neg ? '-' : '') + digits + (scale < 0 ? '0'.repeat(-scale) : '');
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  return (neg ? '-' : '') + digits.slice(0, digits.length - scale) + '.' + digits.slice(digits.length - scale);
}

export function formatUuid(b: Uint8Array, o: number): string {
  const h = hex(b, o, o + 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** IEEE half precision to double (exact). */
export function float16(lo: number, hi: number): number {
  const bits = (hi << 8) | lo;
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

const JULIAN_EPOCH_DAY = 2440588n;
const MICROS_PER_DAY = 86_400_000_000n;

/**
 * INT96 timestamp: 8 bytes of nanoseconds within the day, then a 4-byte Julian
 * day, little-endian. Spark computes the microseconds in wrapping 64-bit
 * arithmetic, and writes dates past the int64-nanosecond range (year 2262) in a
 * form only that arithmetic reads back (int96_from_spark.md), so we do the same:
 * the result is exact for every value Spark can write.
 */
export function int96Nanos(b: Uint8Array, o: number): bigint {
  const dv = new DataView(b.buffer, b.byteOffset + o, 12);
  const nanos = dv.getBigInt64(0, true);
  const day = BigInt(dv.getInt32(8, true));
  const micros = BigInt.asIntN(64, (day - JULIAN_EPOCH_DAY) * MICROS_PER_DAY + nanos / 1000n);
  return micros * 1000n + (nanos % 1000n);
}

const MS_PER_UNIT: Record<TimeUnit, bigint> = { MILLIS: 1n, MICROS: 1000n, NANOS: 1_000_000n };

/** Integers of this magnitude are exact in a double: below it, Dates are computed without bigints. */
const SAFE = 2 ** 53;

/**
 * floor(v / per) for an integer |v| < 2^53 and an integer per >= 1, without
 * `%` (a call to fmod: it was a quarter of a Date's cost). The rounded
 * quotient is off by at most |v / per| * 2^-53 < 1 / per, less than the
 * distance from a quotient that is not an integer to the next integer
 * (at least 1 / per), so rounding never carries it across one.
 */
function floorDiv(v: number, per: number): number {
  return Math.floor(v / per);
}

/**
 * TIMESTAMP values as Dates, read from the 64-bit integers' two 32-bit
 * halves: a bigint per value (and two more for the division) was most of
 * what a Date read allocated. Values beyond 2^53 take the exact bigint path.
 */
function timestampDates(a: BigInt64Array, unit: TimeUnit, utc: boolean, opts: ValueOptions): ValueAt {
  const words = new Int32Array(a.buffer, a.byteOffset, a.length * 2);
  const per = Number(MS_PER_UNIT[unit]);
  const at = (i: number): Date => {
    const v = words[2 * i + 1]! * 4294967296 + (words[2 * i]! >>> 0);
    if (v < SAFE && v > -SAFE) return new Date(per === 1 ? v : floorDiv(v, per));
    return temporalOut(a[i]!, unit, utc, opts) as Date;
  };
  return withFill(at, (out, from, count) => {
    for (let k = 0; k < count; k++) out[k] = at(from + k);
  });
}

/**
 * INT96 as a Date by number arithmetic, exact while the nanoseconds of the
 * day and the whole count fit in 2^53 (where Spark's wrapping arithmetic,
 * int96Nanos, cannot wrap); the bigint path otherwise.
 */
function int96Date(b: Uint8Array, o: number, dv: DataView, opts: ValueOptions): Date {
  const nanos = dv.getInt32(o + 4, true) * 4294967296 + dv.getUint32(o, true);
  const day = dv.getInt32(o + 8, true) - Number(JULIAN_EPOCH_DAY);
  const ms = day * 86_400_000 + floorDiv(nanos, 1_000_000);
  if (nanos < SAFE && nanos > -SAFE && ms < SAFE && ms > -SAFE) return new Date(ms);
  return temporalOut(int96Nanos(b, o), 'NANOS', true, opts) as Date;
}

function int64Out(v: bigint, opts: ValueOptions): bigint | number {
  return opts.int64 === 'number' ? Number(v) : v;
}

export function temporalOut(v: bigint, unit: TimeUnit, utc: boolean, opts: ValueOptions): unknown {
  switch (opts.temporal) {
    case 'iso': return formatTimestamp(v, unit, utc);
    case 'date': {
      const per = MS_PER_UNIT[unit];
      const q = v / per;
      return new Date(Number(v % per !== 0n && v < 0n ? q - 1n : q));
    }
    default: return int64Out(v, opts);
  }
}

/**
 * A function giving the JS value of the i-th value in `values`, for a leaf of
 * the given kind. Built once per column chunk, so the per-value path is a
 * closure call with no type dispatch.
 */
export function valueReader(kind: LeafKind, values: Values, opts: ValueOptions = {}): ValueAt {
  if (isByteArrays(values)) return bytesReader(kind, values, opts);
  const bigintOut = opts.int64 !== 'number';
  switch (kind.kind) {
    case 'boolean': {
      const a = values as Uint8Array;
      return withFill(
        (i) => a[i] !== 0,
        (out, from, count) => {
          for (let k = 0; k < count; k++) out[k] = a[from + k] !== 0;
        },
      );
    }
    case 'float':
      return direct(values as Float32Array | Float64Array);
    case 'null':
      return withFill(
        () => null,
        (out, _from, count) => {
          for (let k = 0; k < count; k++) out[k] = null;
        },
      );
    case 'date': {
      const a = values as Int32Array;
      if (opts.temporal === 'iso') return (i) => formatDate(a[i]!);
      if (opts.temporal === 'date') return (i) => new Date(a[i]! * 86_400_000);
      return direct(a);
    }
    case 'time': {
      const { unit } = kind;
      if (values instanceof Int32Array) {
        return opts.temporal === 'iso' ? (i) => formatTime(values[i]!, unit) : direct(values);
      }
      const a = values as BigInt64Array;
      if (opts.temporal === 'iso') return (i) => formatTime(a[i]!, unit);
      return bigintOut ? direct(a) : int64Number(a);
    }
    case 'timestamp': {
      const { unit, utc } = kind;
      const a = values as BigInt64Array;
      if (opts.temporal === 'date') return timestampDates(a, unit, utc, opts);
      if (opts.temporal === 'iso') return (i) => temporalOut(a[i]!, unit, utc, opts);
      return bigintOut ? direct(a) : int64Number(a);
    }
    case 'decimal': {
      const { scale } = kind;
      const a = values as Int32Array | BigInt64Array;
      // Through the exact text: dividing by 10^scale would round twice.
      if (opts.decimal === 'number') return (i) => Number(formatDecimal(BigInt(a[i]!), scale));
      return (i) => formatDecimal(BigInt(a[i]!), scale);
    }
    case 'int': {
      if (values instanceof BigInt64Array) {
        if (!kind.signed) return opts.int64 === 'number' ? (i) => Number(BigInt.asUintN(64, values[i]!)) : (i) => BigInt.asUintN(64, values[i]!);
        return bigintOut ? direct(values) : int64Number(values);
      }
      const a = values as Int32Array;
      if (kind.signed) return direct(a);
      // Unsigned 8/16/32-bit values are stored in INT32; reinterpret the bits.
      if (kind.bitWidth === 32) {
        return withFill(
          (i) => a[i]! >>> 0,
          (out, from, count) => {
            for (let k = 0; k < count; k++) out[k] = a[from + k]! >>> 0;
          },
        );
      }
      const mask = kind.bitWidth === 8 ? 0xff : 0xffff;
      return withFill(
        (i) => a[i]! & mask,
        (out, from, count) => {
          for (let k = 0; k < count; k++) out[k] = a[from + k]! & mask;
        },
      );
    }
    default: {
      // A kind that does not fit the physical type falls back to the physical value.
      const a = values as Int32Array | BigInt64Array | Float32Array | Float64Array | Uint8Array;
      if (a instanceof BigInt64Array) return bigintOut ? direct(a) : int64Number(a);
      return direct(a);
    }
  }
}

/** INT64 values as (possibly rounded) numbers. */
function int64Number(a: BigInt64Array): ValueAt {
  return withFill(
    (i) => Number(a[i]!),
    (out, from, count) => {
      for (let k = 0; k < count; k++) out[k] = Number(a[from + k]!);
    },
  );
}

function bytesReader(kind: LeafKind, v: ByteArrays, opts: ValueOptions): ValueAt {
  const { data, offsets } = v;
  switch (kind.kind) {
    case 'string': {
      const text = utf8Column(data, offsets);
      return withFill(text.at, text.fill);
    }
    case 'uuid':
      return (i) => formatUuid(data, offsets[i]!);
    case 'float16':
      return (i) => float16(data[offsets[i]!]!, data[offsets[i]! + 1]!);
    case 'decimal': {
      const { scale } = kind;
      if (opts.decimal === 'number') return (i) => Number(formatDecimal(bigEndianSigned(data, offsets[i]!, offsets[i + 1]!), scale));
      return (i) => formatDecimal(bigEndianSigned(data, offsets[i]!, offsets[i + 1]!), scale);
    }
    case 'interval': {
      const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
      return (i) => {
        const o = offsets[i]!;
        return { months: dv.getUint32(o, true), days: dv.getUint32(o + 4, true), millis: dv.getUint32(o + 8, true) };
      };
    }
    case 'int96': {
      if (opts.temporal === 'date') {
        const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
        return (i) => int96Date(data, offsets[i]!, dv, opts);
      }
      return (i) => temporalOut(int96Nanos(data, offsets[i]!), 'NANOS', true, opts);
    }
    case 'null':
      return () => null;
    default:
      return (i) => data.slice(offsets[i]!, offsets[i + 1]!);
  }
}
