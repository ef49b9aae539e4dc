/**
 * JS values to the Variant binary encoding (parquet-format VariantEncoding.md),
 * the inverse of decode.ts:
 *
 * | JS value | variant type |
 * | --- | --- |
 * | `null` (and `undefined` in an array) | null |
 * | boolean | boolean |
 * | integer number within ±(2^53-1) (not -0) | the smallest of int8, int16, int32, int64 |
 * | other number | double; with `exactDecimals`, a finite one is the decimal of its shortest text when that fits 38 digits |
 * | bigint | the smallest int type; beyond int64, decimal16 (scale 0) |
 * | string | string (short string under 64 bytes) |
 * | Uint8Array, ArrayBuffer, other views | binary |
 * | Date | timestamp (micros, UTC) |
 * | array | array |
 * | plain object | object (keys whose value is `undefined` are left out, as JSON does) |
 * | `variant.*(...)` | the type named |
 *
 * The metadata dictionary holds every key of the value, sorted by UTF-8 bytes
 * (so its `sorted` flag is set; an empty one is `01 00`, as the spec's examples
 * write it), and each object's fields are listed in key order.
 */
import { InvalidArgumentError } from '../../errors.js';
import { ExactNumber } from '../../schema/exact-number.js';
import { parseUuid } from '../../schema/coerce.js';
import { parseDate, parseTime, parseTimestamp } from '../../schema/temporal-text.js';
import { compareUtf8 } from '../../text/utf8.js';
import { MAX_VARIANT_DEPTH } from './decode.js';
import { VariantValue, type VariantType } from './value.js';

export { VariantValue, type VariantType };

/** VariantEncoding.md's primitive type ids. */
const TYPE_ID: Record<VariantType, number> = {
  int8: 3, int16: 4, int32: 5, int64: 6, double: 7, decimal4: 8, decimal8: 9, decimal16: 10, date: 11,
  timestamp: 12, timestamp_ntz: 13, float: 14, binary: 15, string: 16, time: 17, timestamp_nanos: 18, timestamp_ntz_nanos: 19, uuid: 20,
};

const INT_RANGE = { int8: 0x80, int16: 0x8000, int32: 0x8000_0000 } as const;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
/** Largest unscaled magnitude (exclusive) of decimal4, decimal8, decimal16: 10^9, 10^18, 10^38. */
const DECIMAL_LIMIT = { decimal4: 10n ** 9n, decimal8: 10n ** 18n, decimal16: 10n ** 38n } as const;
const MICROS_PER_DAY = 86_400_000_000n;

function bad(what: string, v: unknown): never {
  throw new InvalidArgumentError(`variant.${what}: ${typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : String(v)} is not ${what === 'decimal' ? 'a decimal of at most 38 digits' : `a valid ${what}`}`);
}

function integer(type: 'int8' | 'int16' | 'int32', v: number | bigint): VariantValue {
  const n = typeof v === 'bigint' ? Number(v) : v;
  const r = INT_RANGE[type];
  if (!Number.isInteger(n) || n < -r || n >= r || (typeof v === 'bigint' && BigInt(n) !== v)) bad(type, v);
  return new VariantValue(type, n === 0 ? 0 : n);
}

function int64(v: number | bigint): VariantValue {
  if (typeof v === 'number' && !Number.isSafeInteger(v)) bad('int64', v);
  const b = BigInt(v);
  if (b < INT64_MIN || b > INT64_MAX) bad('int64', v);
  return new VariantValue('int64', b);
}

/** `[+-]digits[.digits][e±digits]` as an unscaled integer and a scale (at least 0), or undefined. */
function parseDecimal(text: string): { unscaled: bigint; scale: number } | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  let scale = frac.length - exp;
  let digits = (m[2]! + frac).replace(/^0+(?=\d)/, '');
  if (scale < 0) {
    if (-scale > 40) return undefined;
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  if (scale > 38 || digits.length > 40) return undefined;
  const u = BigInt(digits || '0');
  return { unscaled: m[1] === '-' ? -u : u, scale };
}

function decimalWidth(unscaled: bigint): 'decimal4' | 'decimal8' | 'decimal16' | undefined {
  const a = unscaled < 0n ? -unscaled : unscaled;
  return a < DECIMAL_LIMIT.decimal4 ? 'decimal4' : a < DECIMAL_LIMIT.decimal8 ? 'decimal8' : a < DECIMAL_LIMIT.decimal16 ? 'decimal16' : undefined;
}

/** A decimal from exact text, a number (its shortest text) or a bigint, at its own scale or rescaled to `scale` without rounding. */
function decimal(v: string | number | bigint, scale: number | undefined, width?: 'decimal4' | 'decimal8' | 'decimal16'): VariantValue {
  const what = width ?? 'decimal';
  const d = typeof v === 'bigint' ? { unscaled: v, scale: 0 } : (typeof v === 'number' && !Number.isFinite(v)) || (typeof v !== 'number' && typeof v !== 'string') ? undefined : parseDecimal(String(v));
  if (!d) bad(what, v);
  let { unscaled, scale: s } = d;
  if (scale !== undefined) {
    if (!Number.isInteger(scale) || scale < 0 || scale > 38) throw new InvalidArgumentError(`variant.${what}: scale must be an integer from 0 to 38, got ${String(scale)}`);
    const p = 10n ** BigInt(Math.abs(scale - s));
    if (scale >= s) unscaled *= p;
    else if (unscaled % p !== 0n) throw new InvalidArgumentError(`variant.${what}: ${String(v)} has digits beyond scale ${scale}`);
    else unscaled /= p;
    s = scale;
  }
  const fits = decimalWidth(unscaled);
  if (!fits || (width && (unscaled < 0n ? -unscaled : unscaled) >= DECIMAL_LIMIT[width])) bad(what, v);
  return new VariantValue(width ?? fits, unscaled, s);
}

function bytes(what: string, v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  bad(what, v);
}

/** Microseconds or nanoseconds since the epoch of a Date, ISO text or an integer already in the unit. */
function instant(what: string, v: Date | string | bigint | number, nanos: boolean): bigint {
  if (v instanceof Date) {
    const ms = v.getTime();
    if (Number.isNaN(ms)) bad(what, v);
    return BigInt(ms) * (nanos ? 1_000_000n : 1000n);
  }
  if (typeof v === 'string') {
    const t = parseTimestamp(v);
    if (!t) bad(what, v);
    if (nanos) return t.nanos;
    if (t.nanos % 1000n !== 0n) throw new InvalidArgumentError(`variant.${what}: ${JSON.stringify(v)} is finer than a microsecond`);
    return t.nanos / 1000n;
  }
  if (typeof v === 'number' && !Number.isSafeInteger(v)) bad(what, v);
  if (typeof v !== 'number' && typeof v !== 'bigint') bad(what, v);
  const b = BigInt(v);
  if (b < INT64_MIN || b > INT64_MAX) bad(what, v);
  return b;
}

export interface VariantTimestampOptions {
  /** MICROS (default) or NANOS. */
  unit?: 'MICROS' | 'NANOS';
  /** true (default): an instant (timestamp with time zone); false: wall-clock time (timestamp_ntz). */
  utc?: boolean;
}

/**
 * Typed variant values, for the types JavaScript has no form of its own for:
 *
 * ```ts
 * import { variant } from 'parquetry';
 * await writer.write({ payload: { n: variant.int8(5), price: variant.decimal('12.30'), day: variant.date('2024-11-07') } });
 * ```
 *
 * Each checks its value and throws InvalidArgumentError when it does not fit.
 */
export const variant = {
  int8: (v: number | bigint) => integer('int8', v),
  int16: (v: number | bigint) => integer('int16', v),
  int32: (v: number | bigint) => integer('int32', v),
  int64: (v: number | bigint) => int64(v),
  /** Rounded to the nearest single-precision float. */
  float: (v: number) => (typeof v === 'number' ? new VariantValue('float', Math.fround(v)) : bad('float', v)),
  double: (v: number) => (typeof v === 'number' ? new VariantValue('double', v) : bad('double', v)),
  /**
   * A decimal from exact text (`"12.30"`, `"-1e-3"`), a number (its shortest
   * text) or a bigint, in the narrowest of decimal4/8/16 that holds it. `scale`
   * rescales it (adding zeros, never rounding).
   */
  decimal: (v: string | number | bigint, scale?: number) => decimal(v, scale),
  decimal4: (v: string | number | bigint, scale?: number) => decimal(v, scale, 'decimal4'),
  decimal8: (v: string | number | bigint, scale?: number) => decimal(v, scale, 'decimal8'),
  decimal16: (v: string | number | bigint, scale?: number) => decimal(v, scale, 'decimal16'),
  /** Days since 1970-01-01, `YYYY-MM-DD`, or a Date at 00:00:00 UTC. */
  date: (v: number | string | Date) => {
    const days = typeof v === 'string' ? parseDate(v) : v instanceof Date ? v.getTime() / 86_400_000 : v;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < -(2 ** 31) || days >= 2 ** 31) bad('date', v);
    return new VariantValue('date', days);
  },
  /** Time of day without zone: microseconds since midnight, or `HH:MM:SS[.ffffff]`. */
  time: (v: number | bigint | string) => {
    let micros: bigint | undefined;
    if (typeof v === 'string') {
      const ns = parseTime(v);
      micros = ns !== undefined && ns % 1000n === 0n ? ns / 1000n : undefined;
    } else if ((typeof v === 'number' && Number.isSafeInteger(v)) || typeof v === 'bigint') {
      micros = BigInt(v);
    }
    if (micros === undefined || micros < 0n || micros >= MICROS_PER_DAY) bad('time', v);
    return new VariantValue('time', micros);
  },
  /**
   * A timestamp from a Date, ISO text (a zone converts it to UTC; text without
   * one is read as UTC) or an integer in the unit since the epoch.
   */
  timestamp: (v: Date | string | bigint | number, options: VariantTimestampOptions = {}) => {
    const nanos = options.unit === 'NANOS';
    if (options.unit !== undefined && !nanos && options.unit !== 'MICROS') throw new InvalidArgumentError(`variant.timestamp: unit must be 'MICROS' or 'NANOS', got ${String(options.unit)}`);
    const utc = options.utc ?? true;
    const type = utc ? (nanos ? 'timestamp_nanos' : 'timestamp') : nanos ? 'timestamp_ntz_nanos' : 'timestamp_ntz';
    return new VariantValue(type, instant('timestamp', v, nanos));
  },
  /** `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` or 16 bytes. */
  uuid: (v: string | Uint8Array) => {
    const b = typeof v === 'string' ? parseUuid(v) : bytes('uuid', v);
    if (!b || b.length !== 16) bad('uuid', v);
    return new VariantValue('uuid', b);
  },
  binary: (v: Uint8Array | ArrayBuffer | ArrayBufferView) => new VariantValue('binary', bytes('binary', v)),
  string: (v: string) => (typeof v === 'string' ? new VariantValue('string', v) : bad('string', v)),
};

export interface VariantEncodeOptions {
  /** Numbers that are not integers as the decimal of their shortest text (when it fits 38 digits) rather than double. */
  exactDecimals?: boolean;
}

/** What a JS value is to the encoder: a primitive, or a container to walk. */
export type Scalar = null | boolean | VariantValue;

/** The variant primitive of a JS value that is not an array or object; undefined when it is one of those. */
export function scalarOf(v: unknown, options: VariantEncodeOptions): Scalar | undefined {
  switch (typeof v) {
    case 'boolean': return v;
    case 'string': return new VariantValue('string', v);
    case 'number': return numberValue(v, options);
    case 'bigint': return v >= INT64_MIN && v <= INT64_MAX ? smallestInt(v) : decimal(v, undefined);
    case 'undefined': return null;
    case 'object':
      if (v === null) return null;
      if (v instanceof VariantValue) return v;
      if (v instanceof ExactNumber) return exactNumber(v, options);
      if (v instanceof Date) return variant.timestamp(v);
      if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return new VariantValue('binary', bytes('binary', v));
      return undefined;
    default:
      throw new InvalidArgumentError(`a variant cannot hold a ${typeof v}`);
  }
}

function smallestInt(v: bigint): VariantValue {
  const n = Number(v);
  if (n >= -0x80 && n < 0x80) return new VariantValue('int8', n);
  if (n >= -0x8000 && n < 0x8000) return new VariantValue('int16', n);
  if (n >= -0x8000_0000 && n < 0x8000_0000) return new VariantValue('int32', n);
  return new VariantValue('int64', v);
}

function numberValue(n: number, options: VariantEncodeOptions): VariantValue {
  // -0 and integers past 2^53 stay doubles: as int64 they would read back as 0 and as bigints.
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return smallestInt(BigInt(n));
  if (options.exactDecimals && Number.isFinite(n) && !Object.is(n, -0)) {
    const d = parseDecimal(String(n));
    if (d && decimalWidth(d.unscaled)) return decimal(String(n), undefined);
  }
  return new VariantValue('double', n);
}

/** A JSON number kept as its text: exact as an integer or (with `exactDecimals`) a decimal where one holds it, else the nearest double. */
function exactNumber(x: ExactNumber, options: VariantEncodeOptions): VariantValue {
  const d = parseDecimal(x.text);
  if (d && d.scale === 0 && d.unscaled >= INT64_MIN && d.unscaled <= INT64_MAX) return smallestInt(d.unscaled);
  if (d && (d.scale === 0 || options.exactDecimals) && decimalWidth(d.unscaled)) return new VariantValue(decimalWidth(d.unscaled)!, d.unscaled, d.scale);
  return new VariantValue('double', Number(x.text));
}

/** Own enumerable keys of an object whose values are not undefined. */
export function presentKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined);
}

export function isVariantObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && scalarOf(v, {}) === undefined && !(v instanceof Map);
}

const utf8 = new TextEncoder();

/** Little-endian unsigned `size`-byte integer into `out` at `pos`. */
function putUint(out: Uint8Array, pos: number, v: number, size: number): void {
  for (let i = 0; i < size; i++, v = Math.floor(v / 256)) out[pos + i] = v & 0xff;
}

function sizeFor(max: number): number {
  return max < 0x100 ? 1 : max < 0x10000 ? 2 : max < 0x1000000 ? 3 : 4;
}

/**
 * Encodes values against one metadata dictionary: make it from every key the
 * values hold (`collectKeys`), then encode each value (or part of one, for
 * shredding) with `value`.
 */
export class VariantEncoder {
  readonly metadata: Uint8Array;
  private readonly ids = new Map<string, number>();

  constructor(keys: Iterable<string>, private readonly options: VariantEncodeOptions = {}) {
    const sorted = [...new Set(keys)].sort(compareUtf8);
    const encoded = sorted.map((k) => utf8.encode(k));
    sorted.forEach((k, i) => this.ids.set(k, i));
    const total = encoded.reduce((s, b) => s + b.length, 0);
    const size = sizeFor(Math.max(total, sorted.length));
    const out = new Uint8Array(1 + size * (sorted.length + 2) + total);
    out[0] = 1 | (sorted.length > 0 ? 0x10 : 0) | ((size - 1) << 6);
    putUint(out, 1, sorted.length, size);
    let off = 0;
    encoded.forEach((b, i) => {
      putUint(out, 1 + size * (i + 1), off, size);
      out.set(b, 1 + size * (sorted.length + 2) + off);
      off += b.length;
    });
    putUint(out, 1 + size * (sorted.length + 1), off, size);
    this.metadata = out;
  }

  /** Every object key in `v`, at any depth. */
  static collectKeys(v: unknown, out: Set<string> = new Set(), depth = 0): Set<string> {
    if (depth > MAX_VARIANT_DEPTH) throw new InvalidArgumentError(`a variant value nests deeper than ${MAX_VARIANT_DEPTH} levels`);
    if (Array.isArray(v)) for (const e of v) VariantEncoder.collectKeys(e, out, depth + 1);
    else if (isVariantObject(v)) {
      for (const k of presentKeys(v)) {
        out.add(k);
        VariantEncoder.collectKeys(v[k], out, depth + 1);
      }
    }
    return out;
  }

  /** The encoded value of `v`. */
  value(v: unknown, depth = 0): Uint8Array {
    if (depth > MAX_VARIANT_DEPTH) throw new InvalidArgumentError(`a variant value nests deeper than ${MAX_VARIANT_DEPTH} levels`);
    if (Array.isArray(v)) return this.container(v.map((e) => this.value(e, depth + 1)), undefined);
    const s = scalarOf(v, this.options);
    if (s !== undefined) return primitive(s);
    if (!isVariantObject(v)) throw new InvalidArgumentError('a variant cannot hold a Map: give a plain object');
    return this.object(v, presentKeys(v), depth);
  }

  /** An object of the given keys of `o` (a partially shredded object's rest). */
  object(o: Record<string, unknown>, keys: string[], depth: number): Uint8Array {
    const sorted = [...keys].sort(compareUtf8);
    const ids = sorted.map((k) => {
      const id = this.ids.get(k);
      if (id === undefined) throw new InvalidArgumentError(`variant key ${JSON.stringify(k)} is not in the metadata`);
      return id;
    });
    return this.container(sorted.map((k) => this.value(o[k], depth + 1)), ids);
  }

  /** An array (no ids) or an object (ids in key order) of encoded values. */
  private container(values: Uint8Array[], ids: number[] | undefined): Uint8Array {
    const n = values.length;
    const total = values.reduce((s, b) => s + b.length, 0);
    const large = n > 0xff;
    const offSize = sizeFor(total);
    const idSize = ids ? sizeFor(Math.max(0, this.ids.size - 1)) : 0;
    const countSize = large ? 4 : 1;
    const head = 1 + countSize + n * idSize + (n + 1) * offSize;
    const out = new Uint8Array(head + total);
    out[0] = ids
      ? 2 | (((offSize - 1) | ((idSize - 1) << 2) | (large ? 16 : 0)) << 2)
      : 3 | (((offSize - 1) | (large ? 4 : 0)) << 2);
    putUint(out, 1, n, countSize);
    let p = 1 + countSize;
    if (ids) for (const id of ids) (putUint(out, p, id, idSize), (p += idSize));
    let off = 0;
    for (const b of values) {
      putUint(out, p, off, offSize);
      p += offSize;
      off += b.length;
    }
    putUint(out, p, off, offSize);
    p = head;
    for (const b of values) {
      out.set(b, p);
      p += b.length;
    }
    return out;
  }
}

function header(type: number, payload: number): Uint8Array {
  const out = new Uint8Array(1 + payload);
  out[0] = type << 2;
  return out;
}

/** The encoding of one primitive. */
export function primitive(s: Scalar): Uint8Array {
  if (s === null) return Uint8Array.of(0);
  if (typeof s === 'boolean') return Uint8Array.of(s ? 4 : 8);
  const id = TYPE_ID[s.type];
  const v = s.value;
  switch (s.type) {
    case 'string': {
      const b = utf8.encode(v as string);
      if (b.length < 64) {
        const out = new Uint8Array(1 + b.length);
        out[0] = (b.length << 2) | 1;
        out.set(b, 1);
        return out;
      }
      return sized(id, b);
    }
    case 'binary': return sized(id, v as Uint8Array);
    case 'uuid': {
      const out = header(id, 16);
      out.set(v as Uint8Array, 1);
      return out;
    }
    case 'int8': { const o = header(id, 1); new DataView(o.buffer).setInt8(1, v as number); return o; }
    case 'int16': { const o = header(id, 2); new DataView(o.buffer).setInt16(1, v as number, true); return o; }
    case 'int32': case 'date': { const o = header(id, 4); new DataView(o.buffer).setInt32(1, v as number, true); return o; }
    case 'float': { const o = header(id, 4); new DataView(o.buffer).setFloat32(1, v as number, true); return o; }
    case 'double': { const o = header(id, 8); new DataView(o.buffer).setFloat64(1, v as number, true); return o; }
    case 'decimal4': case 'decimal8': case 'decimal16': {
      const width = s.type === 'decimal4' ? 4 : s.type === 'decimal8' ? 8 : 16;
      const o = header(id, 1 + width);
      o[1] = s.scale;
      let u = BigInt.asUintN(width * 8, v as bigint);
      for (let i = 0; i < width; i++, u >>= 8n) o[2 + i] = Number(u & 0xffn);
      return o;
    }
    default: { // int64, time, timestamps
      const o = header(id, 8);
      new DataView(o.buffer).setBigInt64(1, v as bigint, true);
      return o;
    }
  }
}

function sized(id: number, b: Uint8Array): Uint8Array {
  const out = header(id, 4 + b.length);
  new DataView(out.buffer).setUint32(1, b.length, true);
  out.set(b, 5);
  return out;
}

/** The metadata and value of one JS value (see the table above). */
export function encodeVariant(v: unknown, options: VariantEncodeOptions = {}): { metadata: Uint8Array; value: Uint8Array } {
  const enc = new VariantEncoder(VariantEncoder.collectKeys(v), options);
  return { metadata: enc.metadata, value: enc.value(v) };
}
