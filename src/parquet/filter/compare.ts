/**
 * Typed comparison of filter literals with column values and statistics.
 *
 * Every leaf column has a comparison domain: exact integers (ints of every
 * width and sign, DATE, TIME, TIMESTAMP, INT96 nanoseconds, and DECIMAL as
 * its unscaled integer), doubles (FLOAT, DOUBLE, FLOAT16, NaN above
 * everything and equal to itself, as DuckDB orders it), unsigned bytes
 * (strings as UTF-8, binary, UUID; INTERVAL without order) or booleans
 * (false < true). A literal is normalised once into the domain as the pair
 * of domain values around it (`lo <= literal <= hi`, equal when the literal
 * is exactly a domain value), so `x < 1.5` on an INT32 column is `x < 2`,
 * and `x = 1.5` matches nothing; then every test is one or two comparisons
 * of domain values (number, bigint or bytes), which JS compares exactly even
 * across number and bigint.
 */
import { InvalidArgumentError } from '../../errors.js';
import { isByteArrays, type ByteArrays, type Values } from '../../encodings/types.js';
import { bigEndianSigned, float16, int96Nanos } from '../../schema/convert.js';
import { describeValue, float16Bits, twosComplementBytes, utf8Encode, type PhysicalValue } from '../../schema/coerce.js';
import { parseUuid } from '../../schema/uuid.js';
import { parseDate, parseTime, parseTimestamp } from '../../schema/temporal-text.js';
import type { TimeUnit } from '../../schema/logical.js';
import { temporalLiteralNanos, temporalType } from './temporal-literal.js';
import type { LeafNode } from '../../schema/tree.js';

/** A value in a comparison domain. */
export type D = number | bigint | Uint8Array;

/** A normalised literal: null (every comparison unknown), NaN, or the domain values around it. */
export type Lit = { k: 'null' } | { k: 'nan' } | { k: 'val'; lo: D; hi: D; exact: boolean };

export interface Domain {
  type: 'int' | 'float' | 'bytes' | 'null';
  /** Integer domain: values are bigints (else numbers). */
  big: boolean;
  /** Has an order (`<` etc. allowed). */
  ordered: boolean;
  leaf: LeafNode;
  literal(v: unknown): Lit;
  /** Domain value of the i-th value of a decoded column (not for 'bytes': see bytesAt). */
  reader(values: Values): (i: number) => number | bigint;
  /** A statistics bound (PLAIN bytes, byte arrays without length) in the domain, or undefined. */
  stat(bytes: Uint8Array): D | undefined;
  /** The physical value a domain value is stored as, for bloom filter hashing; undefined when not hashable. */
  physical(d: D): PhysicalValue | undefined;
}

const NANOS_PER: Record<TimeUnit, bigint> = { MILLIS: 1_000_000n, MICROS: 1000n, NANOS: 1n };
const NANOS_PER_DAY = 86_400_000_000_000n;

/** Compares two domain values (no NaN): negative, zero or positive. */
export function compareD(a: D, b: D): number {
  if (a instanceof Uint8Array) return compareBytes(a, 0, a.length, b as Uint8Array);
  return a < (b as number | bigint) ? -1 : a > (b as number | bigint) ? 1 : 0;
}

/** Unsigned lexicographic comparison of data[start..end) with `b`. */
export function compareBytes(data: Uint8Array, start: number, end: number, b: Uint8Array): number {
  const n = Math.min(end - start, b.length);
  for (let i = 0; i < n; i++) {
    const d = data[start + i]! - b[i]!;
    if (d !== 0) return d;
  }
  return end - start - b.length;
}

// ------------------------------------------------------------------ rationals

/** num / den with den > 0. */
interface Rational {
  num: bigint;
  den: bigint;
}

const DECIMAL_RE = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/** Exact value of decimal text (exponent allowed), or undefined when it is not a number. */
function parseRational(s: string): Rational | undefined {
  const m = DECIMAL_RE.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  let exp = m[4] === undefined ? 0 : Number(m[4]) - frac.length;
  if (m[4] === undefined) exp = -frac.length;
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 100_000) return undefined;
  let num = BigInt((m[2] || '0') + frac);
  if (m[1] === '-') num = -num;
  return exp >= 0 ? { num: num * 10n ** BigInt(exp), den: 1n } : { num, den: 10n ** BigInt(-exp) };
}

/** The decimal a finite JS number prints as (0.1 is one tenth), integers exactly. */
function numberRational(v: number): Rational {
  if (Number.isInteger(v)) return { num: BigInt(v), den: 1n };
  return parseRational(String(v))!;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** Exact value of a finite double. */
function doubleRational(d: number): Rational {
  if (Number.isInteger(d)) return { num: BigInt(d), den: 1n };
  let k = 0n;
  let x = d;
  while (!Number.isInteger(x)) {
    x *= 2;
    k++;
  }
  return { num: BigInt(x), den: 1n << k };
}

function cmpRational(a: Rational, b: Rational): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);

/** The next double toward +Infinity (finite d). */
function nextUp(d: number): number {
  if (d === 0) return Number.MIN_VALUE;
  f64[0] = d;
  i64[0] = d > 0 ? i64[0]! + 1n : i64[0]! - 1n;
  return f64[0]!;
}

function nextDown(d: number): number {
  return -nextUp(-d);
}

/** The doubles around an exact value: lo <= r <= hi, equal when r is a double. */
function doubleBounds(r: Rational, approx: number): Lit {
  let d = Number.isNaN(approx) ? 0 : approx;
  if (d === Infinity) return { k: 'val', lo: Number.MAX_VALUE, hi: Infinity, exact: false };
  if (d === -Infinity) return { k: 'val', lo: -Infinity, hi: -Number.MAX_VALUE, exact: false };
  for (let guard = 0; guard < 64; guard++) {
    const c = cmpRational(doubleRational(d), r);
    if (c === 0) return { k: 'val', lo: d, hi: d, exact: true };
    if (c > 0) {
      const down = nextDown(d);
      if (down === -Infinity || cmpRational(doubleRational(down), r) < 0) return { k: 'val', lo: down, hi: d, exact: false };
      d = down;
    } else {
      const up = nextUp(d);
      if (up === Infinity || cmpRational(doubleRational(up), r) > 0) return { k: 'val', lo: d, hi: up, exact: false };
      d = up;
    }
  }
  throw new Error('unreachable: double bounds did not converge');
}

// ------------------------------------------------------------------ domains

function fail(leaf: LeafNode, v: unknown, what: string): never {
  const column = leaf.path.join('.');
  const typed = temporalType(v);
  if (typed) what = `a ${typed.toUpperCase()} literal compares with DATE and TIMESTAMP columns only`;
  throw new InvalidArgumentError(`filter value ${describeValue(v)} cannot be compared with column ${column} (${what})`, { column });
}

/** Integer domain literal: exact value r in domain units → floor/ceil in the domain's representation. */
function intBounds(r: Rational, big: boolean): Lit {
  let lo = floorDiv(r.num, r.den);
  const exact = r.num % r.den === 0n;
  let hi = exact ? lo : lo + 1n;
  if (big) return { k: 'val', lo, hi, exact };
  const LIM = 2n ** 53n;
  const toNum = (x: bigint): number => (x > LIM ? Infinity : x < -LIM ? -Infinity : Number(x));
  return { k: 'val', lo: toNum(lo), hi: toNum(hi), exact };
}

type IntKind = 'int' | 'bool' | 'date' | 'time' | 'timestamp' | 'decimal' | 'int96';

function intDomain(leaf: LeafNode, kind: IntKind, big: boolean, scale: number, unit: TimeUnit | null, ordered = true): Domain {
  const k = leaf.kind;
  const unsigned = k.kind === 'int' && !k.signed;
  const bitWidth = k.kind === 'int' ? k.bitWidth : 32;
  const scaleBy = 10n ** BigInt(scale);
  const physical = leaf.physicalType;
  /** Exact rational value of a literal in the domain's units. */
  const rational = (v: unknown): Rational | 'nan' | 'inf+' | 'inf-' => {
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return 'nan';
      if (v === Infinity) return 'inf+';
      if (v === -Infinity) return 'inf-';
      return numberRational(v);
    }
    if (typeof v === 'bigint') return { num: v, den: 1n };
    const typed = temporalLiteralNanos(v);
    if (typed !== undefined) {
      if (kind !== 'date' && kind !== 'timestamp' && kind !== 'int96') fail(leaf, v, '');
      return { num: typed, den: kind === 'date' ? NANOS_PER_DAY : kind === 'int96' ? 1n : NANOS_PER[unit!] };
    }
    if (typeof v === 'string') {
      const r = parseRational(v);
      if (r) return r;
      if (kind === 'date' || kind === 'timestamp' || kind === 'int96') {
        const ts = parseTimestamp(v.trim());
        if (ts) {
          const per = kind === 'date' ? NANOS_PER_DAY : kind === 'int96' ? 1n : NANOS_PER[unit!];
          return { num: ts.nanos, den: per };
        }
      }
      if (kind === 'time') {
        const t = parseTime(v.trim());
        if (t !== undefined) return { num: t, den: NANOS_PER[unit!] };
      }
      const s = v.trim().toLowerCase();
      if (s === 'nan') return 'nan';
      if (s === 'infinity' || s === '+infinity' || s === 'inf') return 'inf+';
      if (s === '-infinity' || s === '-inf') return 'inf-';
      fail(leaf, v, `not a number${kind === 'date' || kind === 'timestamp' ? ' or ISO date/time' : kind === 'time' ? ' or time of day' : ''}`);
    }
    if (v instanceof Date && (kind === 'date' || kind === 'timestamp' || kind === 'int96')) {
      const ms = v.getTime();
      if (Number.isNaN(ms)) fail(leaf, v, 'an invalid Date');
      const nanos = BigInt(ms) * 1_000_000n;
      const per = kind === 'date' ? NANOS_PER_DAY : kind === 'int96' ? 1n : NANOS_PER[unit!];
      return { num: nanos, den: per };
    }
    return fail(leaf, v, 'not a number');
  };
  return {
    type: 'int',
    big,
    ordered,
    leaf,
    literal(v) {
      if (v === null || v === undefined) return { k: 'null' };
      if (kind === 'bool') {
        if (typeof v !== 'boolean') fail(leaf, v, 'a BOOLEAN column takes true or false');
        return { k: 'val', lo: v ? 1 : 0, hi: v ? 1 : 0, exact: true };
      }
      const r = rational(v);
      // NaN sorts above every number (as DuckDB orders it); no integer equals it.
      if (r === 'nan' || r === 'inf+') return { k: 'val', lo: Infinity, hi: Infinity, exact: false };
      if (r === 'inf-') return { k: 'val', lo: -Infinity, hi: -Infinity, exact: false };
      return intBounds(scale > 0 ? { num: r.num * scaleBy, den: r.den } : r, big);
    },
    reader(values) {
      if (kind === 'int96') {
        const { data, offsets } = values as ByteArrays;
        return (i) => int96Nanos(data, offsets[i]!);
      }
      if (isByteArrays(values)) {
        const { data, offsets } = values;
        return (i) => bigEndianSigned(data, offsets[i]!, offsets[i + 1]!);
      }
      if (values instanceof BigInt64Array) {
        if (unsigned) return (i) => BigInt.asUintN(64, values[i]!);
        return (i) => values[i]!;
      }
      const a = values as Int32Array | Uint8Array;
      if (unsigned && bitWidth === 32) return (i) => a[i]! >>> 0;
      if (unsigned) {
        const mask = bitWidth === 8 ? 0xff : 0xffff;
        return (i) => a[i]! & mask;
      }
      return (i) => a[i]!;
    },
    stat(bytes) {
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      switch (physical) {
        case 'BOOLEAN':
          return bytes.length === 1 ? bytes[0]! & 1 : undefined;
        case 'INT32': {
          if (bytes.length !== 4) return undefined;
          const x = dv.getInt32(0, true);
          if (!unsigned) return x;
          return bitWidth === 32 ? x >>> 0 : x & (bitWidth === 8 ? 0xff : 0xffff);
        }
        case 'INT64': {
          if (bytes.length !== 8) return undefined;
          return unsigned ? dv.getBigUint64(0, true) : dv.getBigInt64(0, true);
        }
        case 'BYTE_ARRAY':
        case 'FIXED_LEN_BYTE_ARRAY':
          if (kind !== 'decimal' || bytes.length === 0 || bytes.length > 64) return undefined;
          return bigEndianSigned(bytes, 0, bytes.length);
        default:
          return undefined;
      }
    },
    physical(d) {
      switch (physical) {
        case 'BOOLEAN':
          return d === 1;
        case 'INT32':
          return Number(d) | 0;
        case 'INT64':
          return BigInt.asIntN(64, BigInt(d as number | bigint));
        case 'FIXED_LEN_BYTE_ARRAY': {
          const w = leaf.typeLength!;
          const x = d as bigint;
          const lim = 1n << BigInt(8 * w - 1);
          if (kind !== 'decimal' || x >= lim || x < -lim) return undefined;
          return twosComplementBytes(x, w);
        }
        default:
          return undefined; // BYTE_ARRAY decimals have no one width; INT96 no one form
      }
    },
  };
}

/**
 * The column's precision for literals: FLOAT and FLOAT16 columns compare with
 * the literal rounded to the nearest float (half), as SQL casts a literal to
 * the column's type, so `f = 0.1` finds the FLOAT nearest 0.1 (as DuckDB does).
 */
function precisionOf(physical: string): ((x: number) => number) | undefined {
  if (physical === 'FLOAT') return Math.fround;
  if (physical === 'DOUBLE') return undefined;
  return (x) => {
    const bits = float16Bits(x);
    return float16(bits & 0xff, bits >> 8);
  };
}

/** Rounds an exact value bracketed by adjacent doubles (`lit`) to the nearest value of a narrower float. */
function roundLiteral(lit: Lit, r: Rational, round: (x: number) => number): Lit {
  if (lit.k !== 'val') return lit;
  const lo = round(lit.lo as number);
  if (lit.exact) return { k: 'val', lo, hi: lo, exact: true };
  const hi = round(lit.hi as number);
  // r lies strictly between two adjacent doubles; a midpoint of the narrower
  // type is itself a double, so r is never one: compare r with it to choose.
  const pick = lo === hi || cmpRational(r, doubleRational((lo + hi) / 2)) < 0 ? lo : hi;
  return { k: 'val', lo: pick, hi: pick, exact: true };
}

function floatDomain(leaf: LeafNode): Domain {
  const physical = leaf.physicalType;
  const round = precisionOf(physical);
  const bounds = (r: Rational, approx: number): Lit => (round ? roundLiteral(doubleBounds(r, approx), r, round) : doubleBounds(r, approx));
  return {
    type: 'float',
    big: false,
    ordered: true,
    leaf,
    literal(v) {
      if (v === null || v === undefined) return { k: 'null' };
      if (typeof v === 'number') {
        if (Number.isNaN(v)) return { k: 'nan' };
        const x = round ? round(v) : v;
        return { k: 'val', lo: x, hi: x, exact: true };
      }
      if (typeof v === 'bigint') return bounds({ num: v, den: 1n }, Number(v));
      if (typeof v === 'string') {
        const s = v.trim().toLowerCase();
        if (s === 'nan') return { k: 'nan' };
        if (s === 'infinity' || s === '+infinity' || s === 'inf') return { k: 'val', lo: Infinity, hi: Infinity, exact: true };
        if (s === '-infinity' || s === '-inf') return { k: 'val', lo: -Infinity, hi: -Infinity, exact: true };
        const r = parseRational(v);
        if (!r) fail(leaf, v, 'not a number');
        return bounds(r, Number(v.trim()));
      }
      return fail(leaf, v, 'not a number');
    },
    reader(values) {
      if (isByteArrays(values)) {
        const { data, offsets } = values;
        return (i) => float16(data[offsets[i]!]!, data[offsets[i]! + 1]!);
      }
      const a = values as Float32Array | Float64Array;
      return (i) => a[i]!;
    },
    stat(bytes) {
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (physical === 'FLOAT') return bytes.length === 4 ? dv.getFloat32(0, true) : undefined;
      if (physical === 'DOUBLE') return bytes.length === 8 ? dv.getFloat64(0, true) : undefined;
      return bytes.length === 2 ? float16(bytes[0]!, bytes[1]!) : undefined;
    },
    physical(d) {
      const x = d as number;
      // NaN has many bit patterns and zero two: a bloom filter cannot answer for them.
      if (Number.isNaN(x) || x === 0) return undefined;
      if (physical === 'DOUBLE') return x;
      if (physical === 'FLOAT') return Math.fround(x) === x ? x : undefined;
      return undefined;
    },
  };
}

function bytesDomain(leaf: LeafNode): Domain {
  const k = leaf.kind.kind;
  const column = leaf.path.join('.');
  return {
    type: 'bytes',
    big: false,
    ordered: k !== 'interval',
    leaf,
    literal(v) {
      if (v === null || v === undefined) return { k: 'null' };
      let b: Uint8Array | undefined;
      if (k === 'uuid') {
        if (typeof v === 'string') b = parseUuid(v.trim().toLowerCase());
        else if (v instanceof Uint8Array && v.length === 16) b = v;
        if (!b) fail(leaf, v, 'not a UUID');
      } else if (k === 'interval') {
        if (v instanceof Uint8Array && v.length === 12) b = v;
        else if (v && typeof v === 'object' && 'months' in v && 'days' in v && 'millis' in v) {
          const o = v as { months: unknown; days: unknown; millis: unknown };
          b = new Uint8Array(12);
          const dv = new DataView(b.buffer);
          const parts = [o.months, o.days, o.millis];
          parts.forEach((p, i) => {
            if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p > 0xffffffff) fail(leaf, v, 'an INTERVAL takes unsigned 32-bit months, days, millis');
            dv.setUint32(i * 4, p, true);
          });
        } else fail(leaf, v, 'not an INTERVAL { months, days, millis }');
      } else if (typeof v === 'string') b = utf8Encode(v);
      else if (v instanceof Uint8Array) b = v;
      else fail(leaf, v, k === 'string' ? 'a text column takes strings' : 'a binary column takes Uint8Array or string');
      return { k: 'val', lo: b!, hi: b!, exact: true };
    },
    reader() {
      throw new InvalidArgumentError(`column ${column}: byte values are compared in place`);
    },
    stat(bytes) {
      return bytes;
    },
    physical(d) {
      return d as Uint8Array;
    },
  };
}

function nullDomain(leaf: LeafNode): Domain {
  return {
    type: 'null',
    big: false,
    ordered: true,
    leaf,
    literal: (v) => (v === null || v === undefined ? { k: 'null' } : { k: 'val', lo: 0, hi: 0, exact: false }),
    reader: () => () => 0,
    stat: () => undefined,
    physical: () => undefined,
  };
}

/** The comparison domain of a leaf column. */
export function domainOf(leaf: LeafNode): Domain {
  const k = leaf.kind;
  const big = leaf.physicalType !== 'INT32' && leaf.physicalType !== 'BOOLEAN';
  switch (k.kind) {
    case 'boolean':
      return intDomain(leaf, 'bool', false, 0, null);
    case 'int':
      return intDomain(leaf, 'int', big, 0, null);
    case 'date':
      return intDomain(leaf, 'date', false, 0, null);
    case 'time':
      return intDomain(leaf, 'time', big, 0, k.unit);
    case 'timestamp':
      return intDomain(leaf, 'timestamp', true, 0, k.unit);
    case 'decimal':
      return intDomain(leaf, 'decimal', big, k.scale, null);
    case 'int96':
      return intDomain(leaf, 'int96', true, 0, 'NANOS');
    case 'float':
    case 'float16':
      return floatDomain(leaf);
    case 'null':
      return nullDomain(leaf);
    default:
      return bytesDomain(leaf);
  }
}
