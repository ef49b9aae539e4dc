/**
 * JS values to physical Parquet values: the inverse of src/schema/convert.ts.
 *
 * `leafCoercer(leaf)` builds, once per leaf column, a function that takes one
 * non-null JS value and gives the physical value a page stores:
 *
 * | physical type | coerced value |
 * | --- | --- |
 * | BOOLEAN | `boolean` |
 * | INT32 | `number` (the stored int32: UINT_32 values above 2^31-1 come out negative, their bit pattern) |
 * | INT64 | `bigint` (the stored int64: UINT_64 values above 2^63-1 come out negative) |
 * | FLOAT, DOUBLE | `number` |
 * | INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY | `Uint8Array` (an input Uint8Array is returned as it is, not copied) |
 *
 * Accepted values, per kind (the reader's default output, its opt-in forms, and a few conveniences):
 *
 * - BOOLEAN: `boolean`.
 * - INT32, INT(8/16/32, signed or not): integer `number` or `bigint`, range-checked for the width.
 * - INT64, INT(64): `bigint` or a safe-integer `number`; UINT_64 up to 2^64-1.
 * - ExactNumber (a number kept as its decimal text, from JSON input): in integer, DECIMAL,
 *   FLOAT, DOUBLE and FLOAT16 columns, taken exactly as its text says: an integer column
 *   refuses a fraction and a DECIMAL more digits than it holds; a float rounds to nearest.
 * - FLOAT, DOUBLE: `number`, or a `bigint` rounded to the nearest value (inference makes
 *   DOUBLE columns of integers beyond 64 bits). FLOAT16: `number`, rounded to nearest-even half precision.
 * - STRING, ENUM: `string` (encoded as UTF-8), or a `Uint8Array` taken as UTF-8 bytes as they are.
 * - JSON: a `string` is JSON text and is written as it is (not checked); any other
 *   value (object, array, number, boolean) is `JSON.stringify`-ed. So the reader's
 *   output (JSON text) round-trips, and objects can be written directly.
 * - BYTE_ARRAY, BSON: `Uint8Array`, `ArrayBuffer` or any ArrayBuffer view (its bytes).
 * - GEOMETRY, GEOGRAPHY: WKB bytes as above, Well-Known Text, or a GeoJSON geometry (object or JSON text), written as ISO WKB.
 *   FIXED_LEN_BYTE_ARRAY: the same, exactly `typeLength` bytes long.
 * - UUID: `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (hex, any case) or 16 bytes.
 * - DECIMAL: an exact decimal `string` (`"-12.30"`, `"5"`, `".5"`, `"1.5e3"`): extra
 *   fractional digits beyond the scale must be zeros (`"1.230"` at scale 2 is fine,
 *   `"1.235"` is an error, never rounded); a `number`, taken as its shortest decimal
 *   text (`0.1` at scale 2 is 10 unscaled; `1.005` at scale 2 is an error); a `bigint`,
 *   the (integer) value itself, not the unscaled integer. Output: the unscaled integer
 *   for INT32 (`number`) and INT64 (`bigint`) storage; big-endian two's complement
 *   of `typeLength` bytes for FIXED_LEN_BYTE_ARRAY, of the fewest bytes for BYTE_ARRAY.
 *   More digits than the precision is an error.
 * - DATE: a `number` of days since 1970-01-01, a `Date` at exactly 00:00:00 UTC, or `YYYY-MM-DD`.
 * - TIME: a `number` or `bigint` in the column's unit since midnight, or `HH:MM:SS[.fffffffff]`
 *   (up to 24:00:00; more fractional digits than the unit holds must be zeros).
 * - TIMESTAMP: a `bigint` or safe-integer `number` in the column's unit since the epoch, a `Date`,
 *   or ISO 8601 text (see parseTimestamp). Text with a zone (`Z`, `+02:00`) is an instant, converted
 *   to UTC; text without a zone is taken as UTC wall-clock time. For a local (not UTC-adjusted)
 *   column both store the UTC wall-clock reading, which is what the reader prints back.
 * - INT96: as TIMESTAMP(NANOS) (a bigint of nanoseconds, a Date, ISO text), written as
 *   8 bytes of nanoseconds of the day and a 4-byte Julian day, little-endian.
 * - INTERVAL: `{ months, days, millis }`, each an integer from 0 to 2^32-1.
 * - The null type (UNKNOWN): nothing; a column of it holds only nulls.
 *
 * null and undefined are not values: the writer turns them into definition
 * levels before it calls a coercer, so a coercer rejects them.
 *
 * A value of the wrong type or out of range throws InvalidArgumentError whose
 * message says what the column expects and what it was given, with the column
 * path in its context.
 */
import { InvalidArgumentError } from '../errors.js';
import { geojsonToWkb, wktToWkb } from '../geo/encode.js';
import { isWellFormed } from '../encodings/values-builder.js';
import { ExactNumber } from './exact-number.js';
import { HEX_DIGIT, parseUuid } from './uuid.js';
import { parseDate, parseTime, parseTimestamp } from './temporal-text.js';
import type { LeafKind, TimeUnit } from './logical.js';
import { MAX_SCHEMA_DEPTH, type LeafNode } from './tree.js';

/** What a coercer gives: see the table above. */
export type PhysicalValue = number | bigint | boolean | Uint8Array;
export type Coercer = (v: unknown) => PhysicalValue;

// ------------------------------------------------------------------ messages

const MAX_SHOWN = 60;

function clip(s: string): string {
  return s.length > MAX_SHOWN ? s.slice(0, MAX_SHOWN - 1) + '…' : s;
}

/** A short description of any value for error messages: the value (clipped to ~60 characters) and its type. */
export function describeValue(v: unknown): string {
  switch (typeof v) {
    case 'string': return `${JSON.stringify(v.length > MAX_SHOWN - 10 ? v.slice(0, MAX_SHOWN - 10) + '…' : v)} (string)`;
    case 'number': return `${String(v)} (number)`;
    case 'bigint': return `${clip(String(v))}n (bigint)`;
    case 'boolean': return `${String(v)} (boolean)`;
    case 'undefined': return 'undefined';
    case 'symbol': return `${clip(v.toString())} (symbol)`;
    case 'function': return 'a function';
  }
  if (v === null) return 'null';
  if (v instanceof ExactNumber) return `${clip(v.text)} (number)`;
  if (v instanceof Date) return `Date ${Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString()}`;
  if (v instanceof Uint8Array) return `${v.constructor.name} of ${v.length} bytes`;
  if (v instanceof ArrayBuffer) return `ArrayBuffer of ${v.byteLength} bytes`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name} of ${v.byteLength} bytes`;
  if (Array.isArray(v)) return `an array of ${v.length} items`;
  const proto = Object.getPrototypeOf(v) as object | null;
  if (proto !== null && proto !== Object.prototype) {
    const name = (proto.constructor as { name?: string } | undefined)?.name;
    return `a ${name || 'class'} instance`;
  }
  let text: string;
  try {
    text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x)) ?? '{}';
  } catch {
    text = '{…}';
  }
  return `${clip(text)} (object)`;
}

function pathOf(leaf: LeafNode): string {
  return leaf.path.join('.');
}

/** Builds the failure function of one column: `expected` says what the column takes. */
function failer(leaf: LeafNode, expected: string): (v: unknown, why?: string) => never {
  const column = pathOf(leaf);
  return (v, why) => {
    throw new InvalidArgumentError(`expected ${expected}; got ${describeValue(v)}${why ? `: ${why}` : ''}`, { column });
  };
}

// ------------------------------------------------------------------ text

const encoder = new TextEncoder();

/**
 * UTF-8 bytes of a string, lone surrogates as U+FFFD (as TextEncoder does).
 * Strings up to 64 UTF-16 units are encoded here: a TextEncoder call costs
 * more than the encoding itself for short values.
 */
export function utf8Encode(s: string): Uint8Array {
  const n = s.length;
  if (n > 64) return encoder.encode(s);
  let size = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) size += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      size += 2; // a pair: 4 bytes for 2 units
      i++;
    } else size += 2;
  }
  const out = new Uint8Array(size);
  if (size === n) {
    for (let i = 0; i < n; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  let o = 0;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[o++] = c;
    } else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && (d & 0xfc00) === 0xdc00) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out[o++] = 0xf0 | (c >> 18);
        out[o++] = 0x80 | ((c >> 12) & 0x3f);
        out[o++] = 0x80 | ((c >> 6) & 0x3f);
        out[o++] = 0x80 | (c & 0x3f);
      } else {
        out[o++] = 0xef; // U+FFFD
        out[o++] = 0xbf;
        out[o++] = 0xbd;
      }
    } else {
      out[o++] = 0xe0 | (c >> 12);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    }
  }
  return out;
}

function toBytes(v: unknown): Uint8Array | undefined {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return undefined;
}

// ------------------------------------------------------------------ numbers

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

const NANOS_PER_UNIT: Record<TimeUnit, bigint> = { MILLIS: 1_000_000n, MICROS: 1000n, NANOS: 1n };
const MS_TO_UNIT: Record<TimeUnit, bigint> = { MILLIS: 1n, MICROS: 1000n, NANOS: 1_000_000n };
const UNITS_PER_DAY: Record<TimeUnit, bigint> = { MILLIS: 86_400_000n, MICROS: 86_400_000_000n, NANOS: 86_400_000_000_000n };

/** Round half to even of a finite non-negative number whose fraction is exact. */
function roundEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** IEEE 754 half-precision bits of a number: round to nearest even, subnormals, ±Infinity, -0 kept, NaN as 0x7e00. */
export function float16Bits(v: number): number {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | roundEven(a * 2 ** 24); // subnormal (1024 rounds up into the smallest normal)
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  if (e > 15) return sign | 0x7c00;
  let frac = roundEven((a / 2 ** e - 1) * 1024);
  if (frac === 1024) {
    frac = 0;
    e++;
    if (e > 15) return sign | 0x7c00;
  }
  return sign | ((e + 15) << 10) | frac;
}

/**
 * Big-endian two's complement bytes of an integer: `width` bytes (the caller
 * checked that it fits), or the fewest that hold it when `width` is -1.
 * Negative values are written as the complement of -v-1, so the work is on
 * non-negative magnitudes: number arithmetic below 2^53, hex text above
 * (several times faster than shifting a bigint 8 or 64 bits at a time).
 */
export function twosComplementBytes(v: number | bigint, width: number): Uint8Array {
  const neg = v < 0;
  const flip = neg ? 0xff : 0;
  if (typeof v === 'number') {
    let m = neg ? -v - 1 : v;
    if (width < 0) {
      width = 1;
      for (let t = m; t >= 128; t = Math.floor(t / 256)) width++;
    }
    const out = new Uint8Array(width);
    for (let i = width - 1; i >= 0; i--) {
      out[i] = (m % 256) ^ flip;
      m = Math.floor(m / 256);
    }
    return out;
  }
  const h = (neg ? -v - 1n : v).toString(16);
  if (width < 0) {
    width = (h.length + 1) >> 1;
    // One more byte when the top bit of the top byte is set (it would read as the sign).
    if (h.length % 2 === 0 && HEX_DIGIT[h.charCodeAt(0)]! >= 8) width++;
  }
  const out = new Uint8Array(width);
  let i = width - 1;
  for (let j = h.length; j > 0 && i >= 0; i--, j -= 2) {
    const lo = HEX_DIGIT[h.charCodeAt(j - 1)]!;
    const hi = j >= 2 ? HEX_DIGIT[h.charCodeAt(j - 2)]! : 0;
    out[i] = ((hi << 4) | lo) ^ flip;
  }
  if (neg) for (; i >= 0; i--) out[i] = 0xff;
  return out;
}

/** Why text is not a value at a scale: not a number, a non-zero digit beyond the scale, too large for any DECIMAL. */
type DecimalFailure = 'syntax' | 'scale' | 'range';

/**
 * Parses exact decimal text (`[+-]digits[.digits]`, either digit run may be
 * empty but not both) to the unscaled integer at `scale`: a number when it
 * has at most 15 digits, else a bigint. Gives 'syntax' or 'scale' (a
 * non-zero digit beyond the scale) on failure.
 */
export function parseDecimalText(s: string, scale: number): number | bigint | DecimalFailure {
  const n = s.length;
  let i = 0;
  let neg = false;
  let c = s.charCodeAt(0);
  if (c === 45) {
    neg = true;
    i = 1;
  } else if (c === 43) {
    i = 1;
  }
  const intStart = i;
  let acc = 0;
  while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) {
    acc = acc * 10 + (c - 48);
    i++;
  }
  const intEnd = i;
  let fracStart = i;
  let fracEnd = i;
  if (i < n && s.charCodeAt(i) === 46) {
    fracStart = ++i;
    while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) i++;
    fracEnd = i;
  }
  if (i !== n || (intEnd === intStart && fracEnd === fracStart)) return 'syntax';
  let keep = fracEnd - fracStart;
  if (keep > scale) {
    for (let j = fracStart + scale; j < fracEnd; j++) if (s.charCodeAt(j) !== 48) return 'scale';
    keep = scale;
  }
  if (intEnd - intStart + scale <= 15) {
    let u = acc;
    for (let j = fracStart; j < fracStart + keep; j++) u = u * 10 + (s.charCodeAt(j) - 48);
    for (let k = keep; k < scale; k++) u *= 10;
    return neg && u !== 0 ? -u : u;
  }
  const u = BigInt(s.slice(intStart, intEnd) + s.slice(fracStart, fracStart + keep) + '0'.repeat(scale - keep));
  return neg ? -u : u;
}

/** The unscaled integer of a finite number at `scale`, through its shortest round-trip text (exponent form included). */
function decimalFromNumber(v: number, scale: number): number | bigint | DecimalFailure {
  if (Number.isSafeInteger(v)) {
    if (scale <= 15) {
      const u = v * 10 ** scale;
      if (Number.isSafeInteger(u)) return u === 0 ? 0 : u;
    }
    return BigInt(v) * 10n ** BigInt(scale);
  }
  if (!Number.isFinite(v)) return 'syntax';
  if (scale <= 22) {
    // Fast path: v * 10^scale rounded is the answer when it maps back to v exactly and
    // the doubles near v are closer than 10^-scale (|u| < 2^51), so no other decimal
    // of `scale` digits maps to v: then it is what the shortest text would give.
    const p = 10 ** scale;
    const u = v * p;
    if (u < 2 ** 51 && u > -(2 ** 51)) {
      const r = Math.round(u);
      if (r / p === v) return r === 0 ? 0 : r;
    }
  }
  return decimalFromText(String(v), scale);
}

/** Integer digits beyond any DECIMAL's (precision is at most 1000): text with more is out of range without being written out. */
const MAX_INTEGER_DIGITS = 1100;

/**
 * The unscaled integer at `scale` of decimal text with an optional exponent
 * (`-1.25`, `1.1234567890123457e+18`, `5e-324`): the exponent shifts the
 * point, then parseDecimalText reads it exactly. 'range' when the value has
 * more integer digits than any DECIMAL holds.
 */
export function decimalFromText(text: string, scale: number): number | bigint | DecimalFailure {
  const e = text.search(/[eE]/);
  if (e < 0) return parseDecimalText(text, scale);
  const exp = Number(text.slice(e + 1));
  if (!Number.isInteger(exp) || !/^[+-]?\d+$/.test(text.slice(e + 1))) return 'syntax';
  const neg = text.charCodeAt(0) === 45;
  const mant = text.slice(neg || text.charCodeAt(0) === 43 ? 1 : 0, e);
  const dot = mant.indexOf('.');
  const digits = dot < 0 ? mant : mant.slice(0, dot) + mant.slice(dot + 1);
  if (!/^\d+$/.test(digits)) return 'syntax';
  if (/^0+$/.test(digits)) return 0;
  const first = digits.search(/[1-9]/);
  // The point's place among the digits; the first non-zero digit sits at 10^(point - first - 1).
  const point = (dot < 0 ? mant.length : dot) + exp;
  if (point - first > MAX_INTEGER_DIGITS) return 'range';
  if (point - first < -scale) return 'scale';
  let shifted: string;
  if (point <= 0) shifted = '0.' + '0'.repeat(-point) + digits;
  else if (point >= digits.length) shifted = digits + '0'.repeat(point - digits.length);
  else shifted = digits.slice(0, point) + '.' + digits.slice(point);
  return parseDecimalText((neg ? '-' : '') + shifted, scale);
}

// ------------------------------------------------------------------ coercers

function isJsonLeaf(leaf: LeafNode): boolean {
  return leaf.element.logicalType?.type === 'JSON' || (leaf.element.logicalType === undefined && leaf.element.convertedType === 'JSON');
}

/** An ExactNumber's integer value, or why it has none: a fraction, or more digits than any integer column holds. */
function exactIntegerOf(v: ExactNumber, fail: (v: unknown, why?: string) => never): bigint {
  const u = decimalFromText(v.text, 0);
  if (u === 'scale') return fail(v, 'not an integer (values are not rounded)');
  if (u === 'range') return fail(v, 'out of range');
  if (u === 'syntax') return fail(v);
  return BigInt(u);
}

function intCoercer(leaf: LeafNode, k: Extract<LeafKind, { kind: 'int' }>): Coercer {
  const name = `${k.signed ? 'INT' : 'UINT'}_${k.bitWidth}`;
  if (k.bitWidth === 64) {
    if (k.signed) {
      const fail = failer(leaf, `an ${leaf.element.logicalType || leaf.element.convertedType ? name : 'INT64'} integer: a bigint from -2^63 to 2^63-1, or a safe integer number`);
      const int64 = (v: unknown, b: bigint) => (b >= INT64_MIN && b <= INT64_MAX ? b : fail(v, 'out of range'));
      return (v) => {
        if (typeof v === 'bigint') return int64(v, v);
        if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
        if (v instanceof ExactNumber) return int64(v, exactIntegerOf(v, fail));
        return fail(v);
      };
    }
    const fail = failer(leaf, `a UINT_64 integer: a bigint from 0 to 2^64-1, or a non-negative safe integer number`);
    const uint64 = (v: unknown, b: bigint) => (b >= 0n && b <= UINT64_MAX ? BigInt.asIntN(64, b) : fail(v, 'out of range'));
    return (v) => {
      if (typeof v === 'bigint') return uint64(v, v);
      if (typeof v === 'number' && Number.isSafeInteger(v)) return v >= 0 ? BigInt(v) : fail(v, 'out of range');
      if (v instanceof ExactNumber) return uint64(v, exactIntegerOf(v, fail));
      return fail(v);
    };
  }
  const lo = k.signed ? -(2 ** (k.bitWidth - 1)) : 0;
  const hi = k.signed ? 2 ** (k.bitWidth - 1) - 1 : 2 ** k.bitWidth - 1;
  const loN = BigInt(lo);
  const hiN = BigInt(hi);
  const annotated = leaf.element.logicalType !== undefined || leaf.element.convertedType !== undefined;
  const fail = failer(leaf, `${annotated ? `${k.signed ? 'an' : 'a'} ${name}` : 'an INT32'} integer from ${lo} to ${hi} (number or bigint)`);
  return (v) => {
    if (typeof v === 'number') {
      if (v >= lo && v <= hi && Number.isInteger(v)) return v | 0;
      return fail(v, Number.isInteger(v) ? 'out of range' : undefined);
    }
    const b = typeof v === 'bigint' ? v : v instanceof ExactNumber ? exactIntegerOf(v, fail) : undefined;
    if (b !== undefined) return b >= loN && b <= hiN ? Number(b) | 0 : fail(v, 'out of range');
    return fail(v);
  };
}

function decimalCoercer(leaf: LeafNode, k: Extract<LeafKind, { kind: 'decimal' }>): Coercer {
  const { precision, scale } = k;
  const path = pathOf(leaf);
  if (!Number.isInteger(scale) || scale < 0 || scale > 1000 || !Number.isInteger(precision) || precision > 1000) {
    throw new InvalidArgumentError(`cannot write DECIMAL(${precision}, ${scale}): scale must be 0 to 1000 and precision at most 1000`, { column: path });
  }
  const what = `DECIMAL(${precision}, ${scale})`;
  const fail = failer(leaf, `a ${what} value: exact decimal text like "-12.30" or "1.5e3", a number, or an integer bigint`);
  const physical = leaf.physicalType;
  // Limits on the unscaled value: from the precision, and from the storage.
  const checkPrecision = precision >= 1;
  const maxNum = checkPrecision && precision <= 15 ? 10 ** precision - 1 : Number.MAX_SAFE_INTEGER;
  const maxBig = checkPrecision ? 10n ** BigInt(precision) - 1n : undefined;
  let storeMin: bigint | undefined;
  let storeMax: bigint | undefined;
  if (physical === 'INT32') [storeMin, storeMax] = [BigInt(INT32_MIN), BigInt(INT32_MAX)];
  else if (physical === 'INT64') [storeMin, storeMax] = [INT64_MIN, INT64_MAX];
  else if (physical === 'FIXED_LEN_BYTE_ARRAY') {
    const bits = BigInt(8 * leaf.typeLength! - 1);
    [storeMin, storeMax] = leaf.typeLength! > 0 ? [-(1n << bits), (1n << bits) - 1n] : [0n, -1n];
  }
  const scalePow = 10n ** BigInt(scale);

  /** The unscaled value of v, checked against the precision and the storage. */
  const unscaled = (v: unknown): number | bigint => {
    let u: number | bigint | DecimalFailure;
    // Text with an exponent too (`1.5e3`), as DuckDB casts it: read exactly, never rounded.
    if (typeof v === 'string') u = decimalFromText(v, scale);
    else if (typeof v === 'number') u = decimalFromNumber(v, scale);
    else if (typeof v === 'bigint') u = v * scalePow;
    else if (v instanceof ExactNumber) u = decimalFromText(v.text, scale);
    else return fail(v);
    if (u === 'syntax') return fail(v);
    if (u === 'scale') return fail(v, `more than ${scale} fractional digits (values are not rounded)`);
    if (u === 'range') return fail(v, `more than ${precision} digits`);
    if (typeof u === 'number') {
      if (u > maxNum || u < -maxNum) return fail(v, `more than ${precision} digits`);
    } else if (maxBig !== undefined && (u > maxBig || u < -maxBig)) {
      return fail(v, `more than ${precision} digits`);
    }
    if (storeMin !== undefined && (u < storeMin || u > storeMax!)) return fail(v, `does not fit ${physical}${physical === 'FIXED_LEN_BYTE_ARRAY' ? `(${leaf.typeLength})` : ''} storage`);
    return u;
  };
  switch (physical) {
    case 'INT32':
      return (v) => Number(unscaled(v));
    case 'INT64':
      return (v) => BigInt(unscaled(v));
    case 'FIXED_LEN_BYTE_ARRAY': {
      const width = leaf.typeLength!;
      return (v) => twosComplementBytes(unscaled(v), width);
    }
    default:
      return (v) => twosComplementBytes(unscaled(v), -1);
  }
}

/** Integer count in a unit from a bigint or a safe-integer number, within [min, max]. */
function unitInteger(v: unknown, min: bigint, max: bigint): bigint | undefined | null {
  if (typeof v === 'bigint') return v >= min && v <= max ? v : null;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) return undefined;
    const b = BigInt(v);
    return b >= min && b <= max ? b : null;
  }
  return undefined;
}

function timestampCoercer(leaf: LeafNode, unit: TimeUnit): Coercer {
  const per = NANOS_PER_UNIT[unit];
  const msTo = MS_TO_UNIT[unit];
  const fail = failer(leaf, `a TIMESTAMP(${unit}): a bigint or safe integer number of ${unit.toLowerCase()} since the epoch, a Date, or ISO 8601 text like "2024-01-31T10:00:00.123Z"`);
  return (v) => {
    if (typeof v === 'bigint') return v >= INT64_MIN && v <= INT64_MAX ? v : fail(v, 'out of range');
    if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : fail(v);
    let r: bigint;
    if (typeof v === 'string') {
      const p = parseTimestamp(v);
      if (!p) return fail(v);
      if (p.nanos % per !== 0n) return fail(v, `finer than ${unit.toLowerCase()}`);
      r = p.nanos / per;
    } else if (v instanceof Date) {
      const ms = v.getTime();
      if (Number.isNaN(ms)) return fail(v);
      r = BigInt(ms) * msTo;
    } else {
      return fail(v);
    }
    return r >= INT64_MIN && r <= INT64_MAX ? r : fail(v, `out of the range of TIMESTAMP(${unit})`);
  };
}

const JULIAN_EPOCH_DAY = 2440588n;
const NANOS_PER_DAY = 86_400_000_000_000n;

/** INT96 bytes of nanoseconds since the epoch (convert.ts int96Nanos reads them back exactly). */
export function int96Bytes(nanos: bigint): Uint8Array {
  let day = nanos / NANOS_PER_DAY;
  let nod = nanos - day * NANOS_PER_DAY;
  if (nod < 0n) {
    nod += NANOS_PER_DAY;
    day -= 1n;
  }
  const out = new Uint8Array(12);
  const dv = new DataView(out.buffer);
  dv.setBigInt64(0, nod, true);
  dv.setInt32(8, Number(day + JULIAN_EPOCH_DAY), true);
  return out;
}

function int96Coercer(leaf: LeafNode): Coercer {
  const fail = failer(leaf, 'an INT96 timestamp: a bigint or safe integer number of nanoseconds since the epoch, a Date, or ISO 8601 text');
  return (v) => {
    let n: bigint;
    if (typeof v === 'bigint') n = v;
    else if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) return fail(v);
      n = BigInt(v);
    } else if (typeof v === 'string') {
      const p = parseTimestamp(v);
      if (!p) return fail(v);
      n = p.nanos;
    } else if (v instanceof Date) {
      const ms = v.getTime();
      if (Number.isNaN(ms)) return fail(v);
      n = BigInt(ms) * 1_000_000n;
    } else {
      return fail(v);
    }
    // The reader (like Spark) computes microseconds in 64 bits, and the Julian day is an int32.
    const micros = n >= 0n ? n / 1000n : -((-n + 999n) / 1000n);
    if (micros < INT64_MIN || micros > INT64_MAX) return fail(v, 'out of range');
    return int96Bytes(n);
  };
}

function timeCoercer(leaf: LeafNode, unit: TimeUnit): Coercer {
  const per = NANOS_PER_UNIT[unit];
  const max = UNITS_PER_DAY[unit];
  const fail = failer(leaf, `a TIME(${unit}): a number or bigint of ${unit.toLowerCase()} since midnight (0 to ${max}), or text like "10:00:00.123"`);
  const check = (v: unknown): bigint => {
    if (typeof v === 'string') {
      const n = parseTime(v);
      if (n === undefined) return fail(v);
      if (n % per !== 0n) return fail(v, `finer than ${unit.toLowerCase()}`);
      return n / per;
    }
    const r = unitInteger(v, 0n, max);
    if (r === null) return fail(v, 'out of range');
    if (r === undefined) return fail(v);
    return r;
  };
  if (leaf.physicalType === 'INT32') {
    const maxNum = Number(max);
    return (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= maxNum ? v : Number(check(v)));
  }
  return (v) => check(v);
}

function dateCoercer(leaf: LeafNode): Coercer {
  const fail = failer(leaf, 'a DATE: a number of days since 1970-01-01, a Date at 00:00:00 UTC, or text like "2024-01-31"');
  return (v) => {
    if (typeof v === 'number') {
      if (v >= INT32_MIN && v <= INT32_MAX && Number.isInteger(v)) return v | 0;
      return fail(v, Number.isInteger(v) ? 'out of range' : undefined);
    }
    if (typeof v === 'string') {
      const d = parseDate(v);
      if (d === undefined) return fail(v);
      return d >= INT32_MIN && d <= INT32_MAX ? d : fail(v, 'out of range');
    }
    if (v instanceof Date) {
      const ms = v.getTime();
      if (Number.isNaN(ms)) return fail(v);
      if (ms % 86_400_000 !== 0) return fail(v, 'not a whole day (a Date for a DATE must be at 00:00:00.000 UTC)');
      return ms / 86_400_000;
    }
    return fail(v);
  };
}

function uint32Field(x: unknown): number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 0xffffffff ? x : -1;
}

function intervalCoercer(leaf: LeafNode): Coercer {
  const fail = failer(leaf, 'an INTERVAL: { months, days, millis }, each an integer from 0 to 4294967295');
  return (v) => {
    if (typeof v !== 'object' || v === null) return fail(v);
    const o = v as { months?: unknown; days?: unknown; millis?: unknown };
    const months = uint32Field(o.months);
    const days = uint32Field(o.days);
    const millis = uint32Field(o.millis);
    if (months < 0 || days < 0 || millis < 0) return fail(v);
    const out = new Uint8Array(12);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, months, true);
    dv.setUint32(4, days, true);
    dv.setUint32(8, millis, true);
    return out;
  };
}

function bytesCoercer(leaf: LeafNode, what: string): Coercer {
  if (leaf.physicalType === 'FIXED_LEN_BYTE_ARRAY') {
    const width = leaf.typeLength!;
    const fail = failer(leaf, `${what} of exactly ${width} bytes (Uint8Array or ArrayBuffer)`);
    return (v) => {
      const b = toBytes(v);
      if (b === undefined) return fail(v);
      return b.length === width ? b : fail(v, 'wrong length');
    };
  }
  const fail = failer(leaf, `${what} (Uint8Array or ArrayBuffer)`);
  return (v) => toBytes(v) ?? fail(v);
}

/**
 * GEOMETRY and GEOGRAPHY: WKB bytes as they are; text as hex WKB (what CSV
 * output and PostGIS write), WKT or GeoJSON; a GeoJSON geometry object.
 */
function geometryCoercer(leaf: LeafNode, type: string): Coercer {
  const fail = failer(leaf, `${type} as WKB bytes, hex WKB, WKT text or a GeoJSON geometry`);
  return (v) => {
    const bytes = toBytes(v);
    if (bytes !== undefined) return bytes;
    try {
      if (typeof v === 'string') {
        if (/^0[01](?:[0-9a-fA-F]{2})+$/.test(v)) return Uint8Array.from(v.match(/../g)!, (h) => parseInt(h, 16));
        return v.trimStart().startsWith('{') ? geojsonToWkb(JSON.parse(v)) : wktToWkb(v);
      }
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return geojsonToWkb(v);
    } catch (e) {
      return fail(v, e instanceof Error ? e.message : String(e));
    }
    return fail(v);
  };
}

function stringCoercer(leaf: LeafNode, onReplaced: (() => void) | undefined): Coercer {
  const width = leaf.physicalType === 'FIXED_LEN_BYTE_ARRAY' ? leaf.typeLength! : -1;
  const json = isJsonLeaf(leaf);
  const fail = failer(leaf, json
    ? 'JSON: text (a string, written as it is) or a value JSON.stringify can write'
    : `a string${width >= 0 ? ` of exactly ${width} UTF-8 bytes` : ''} (or its UTF-8 bytes as a Uint8Array)`);
  const sized = (v: unknown, b: Uint8Array): Uint8Array => (width < 0 || b.length === width ? b : fail(v, 'wrong length'));
  const encode = (v: string): Uint8Array => {
    const b = sized(v, utf8Encode(v));
    if (onReplaced && !isWellFormed(v)) onReplaced();
    return b;
  };
  if (!json) {
    return (v) => {
      if (typeof v === 'string') return encode(v);
      if (v instanceof Uint8Array) return sized(v, v);
      return fail(v);
    };
  }
  return (v) => {
    if (typeof v === 'string') return encode(v);
    if (v instanceof Uint8Array) return sized(v, v);
    if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') return fail(v);
    let text: string | undefined;
    try {
      text = JSON.stringify(v);
    } catch (e) {
      // JSON.stringify recurses: a value thousands of levels deep exhausts the stack.
      if (e instanceof RangeError) return fail(v, `it nests deeper than the nesting limit (${MAX_SCHEMA_DEPTH} levels)`);
      return fail(v, `JSON.stringify failed (${e instanceof Error ? e.message : String(e)})`);
    }
    if (text === undefined) return fail(v);
    return sized(v, utf8Encode(text));
  };
}

/**
 * The coercer of one leaf column: a function from a non-null JS value to the
 * physical value of the leaf's type (see the module comment for what each
 * kind accepts and gives). Built once per leaf; the per-value work is a type
 * test and a range check for numbers, bigints and strings. `onReplaced`
 * hears of each string written with U+FFFD for its lone surrogates.
 *
 * ```ts
 * const { schema } = defineSchema({ price: f.decimal(9, 2) });
 * const coerce = leafCoercer(schema.leaves[0]!);
 * coerce('-12.30');   // -1230
 * coerce(0.1);        // 10
 * coerce('1.234');    // InvalidArgumentError: expected a DECIMAL(9, 2) value: ...; got "1.234" (string): more than 2 fractional digits (values are not rounded) (column price)
 * ```
 */
export function leafCoercer(leaf: LeafNode, onReplaced?: () => void): Coercer {
  const k = leaf.kind;
  switch (k.kind) {
    case 'boolean': {
      const fail = failer(leaf, 'a boolean');
      return (v) => (typeof v === 'boolean' ? v : fail(v));
    }
    case 'int':
      return intCoercer(leaf, k);
    case 'float': {
      const fail = failer(leaf, `a number or bigint (${leaf.physicalType})`);
      // A bigint (or an ExactNumber) rounds to the nearest value, as a number does in a FLOAT column.
      const toNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'bigint' || v instanceof ExactNumber ? Number(v) : fail(v));
      // Rounded here, not only when stored: the dictionary then keys the value the column holds, so two numbers that store as one float are one entry.
      if (leaf.physicalType === 'FLOAT') return (v) => Math.fround(toNumber(v));
      return toNumber;
    }
    case 'float16': {
      const fail = failer(leaf, 'a number (FLOAT16)');
      return (v) => {
        if (typeof v !== 'number' && !(v instanceof ExactNumber)) return fail(v);
        const bits = float16Bits(Number(v));
        const out = new Uint8Array(2);
        out[0] = bits & 0xff;
        out[1] = bits >> 8;
        return out;
      };
    }
    case 'int96':
      return int96Coercer(leaf);
    case 'string':
      return stringCoercer(leaf, onReplaced);
    case 'bytes': {
      const t = leaf.element.logicalType?.type;
      if (t === 'GEOMETRY' || t === 'GEOGRAPHY') return geometryCoercer(leaf, t);
      const what = t === 'BSON' || t === 'GEOMETRY' || t === 'GEOGRAPHY' ? `${t} bytes` : leaf.element.convertedType === 'BSON' ? 'BSON bytes' : 'bytes';
      return bytesCoercer(leaf, what);
    }
    case 'uuid': {
      const fail = failer(leaf, 'a UUID: text like "123e4567-e89b-12d3-a456-426614174000", or 16 bytes');
      return (v) => {
        if (typeof v === 'string') return parseUuid(v) ?? fail(v);
        const b = toBytes(v);
        if (b === undefined) return fail(v);
        return b.length === 16 ? b : fail(v, 'wrong length');
      };
    }
    case 'decimal':
      return decimalCoercer(leaf, k);
    case 'date':
      return dateCoercer(leaf);
    case 'time':
      return timeCoercer(leaf, k.unit);
    case 'timestamp':
      return timestampCoercer(leaf, k.unit);
    case 'interval':
      return intervalCoercer(leaf);
    case 'null': {
      const fail = failer(leaf, 'only nulls (the column has the null type)');
      return (v) => fail(v);
    }
  }
}
