/**
 * Deterministic test data for the writer tests: a seeded PRNG, and value
 * generators driven by a field declaration (`field.*` builders).
 *
 * A generator gives pairs: `v`, the value in the reader's lossless form
 * (docs/reading.md, "Type mapping": bigint INT64, decimal text, days for DATE, ...),
 * which is what reading the file back must give; and `in`, what is handed to
 * the writer: usually `v` itself, sometimes another form the writer accepts
 * (a Date, ISO text, a number for an INT64, a Map for a map, UTF-8 bytes for
 * a string, a double for a FLOAT...) that must be normalised to `v`.
 */
import type { AnyField, FieldBuilder, LeafSpec } from '../../src/schema/builder.js';

// ------------------------------------------------------------------ PRNG

/** mulberry32: small, fast, good enough, and the same on every platform. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi] (both safe integers). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(a: readonly T[]): T {
    return a[Math.floor(this.next() * a.length)]!;
  }
  u32(): number {
    return Math.floor(this.next() * 4294967296);
  }
  /** A bigint in [lo, hi]. */
  big(lo: bigint, hi: bigint): bigint {
    const span = hi - lo + 1n;
    let x = 0n;
    for (let i = 0; i < 4; i++) x = (x << 32n) | BigInt(this.u32());
    return lo + (x % span);
  }
  bytes(n: number): Uint8Array {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = this.int(0, 255);
    return b;
  }
}

/** The same generator as a function, for tests that only draw floats. */
export function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

// ------------------------------------------------------------------ value helpers

export function hex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

export function uuidText(b: Uint8Array): string {
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Exact decimal text of an unscaled integer with `scale` fraction digits. */
export function decimalText(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale === 0) return (neg ? '-' : '') + digits;
  digits = digits.padStart(scale + 1, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** The unscaled integer of exact decimal text (`-12.30` at scale 2 is -1230n). */
export function unscaledOf(text: string, scale: number): bigint {
  const neg = text.startsWith('-');
  const body = neg ? text.slice(1) : text;
  const [int, frac = ''] = body.split('.');
  const u = BigInt((int || '0') + frac.padEnd(scale, '0'));
  return neg ? -u : u;
}

/** IEEE half precision bits to a number. */
export function halfToNumber(bits: number): number {
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  const mag = exp === 0 ? frac * 2 ** -24 : exp === 31 ? (frac ? NaN : Infinity) : (1 + frac / 1024) * 2 ** (exp - 15);
  return bits & 0x8000 ? -mag : mag;
}

const MS_PER_DAY = 86_400_000;
export const NANOS_PER: Record<'MILLIS' | 'MICROS' | 'NANOS', bigint> = { MILLIS: 1_000_000n, MICROS: 1000n, NANOS: 1n };

/** `YYYY-MM-DD` of days since the epoch (years 0000-9999). */
export function dateText(days: number): string {
  return new Date(days * MS_PER_DAY).toISOString().slice(0, 10);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** ISO text of a timestamp in nanoseconds, with the unit's fraction digits and `Z` when `zone`. */
export function timestampText(nanos: bigint, digits: number, zone: boolean): string {
  const ms = floorDiv(nanos, 1_000_000n);
  const sub = nanos - ms * 1_000_000n;
  const iso = new Date(Number(ms)).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const frac = (iso.slice(20, 23) + sub.toString().padStart(6, '0')).slice(0, digits);
  return `${iso.slice(0, 19)}.${frac}${zone ? 'Z' : ''}`;
}

/** `HH:MM:SS.fffffffff` of nanoseconds since midnight. */
export function timeText(nanos: bigint): string {
  const s = nanos / 1_000_000_000n;
  const f = nanos % 1_000_000_000n;
  const p = (x: bigint) => x.toString().padStart(2, '0');
  return `${p(s / 3600n)}:${p((s / 60n) % 60n)}:${p(s % 60n)}.${f.toString().padStart(9, '0')}`;
}

/** A WKB (little-endian) point or line string, with the odd empty line string. */
export function randomWkb(r: Rng): Uint8Array {
  const coord = () => (r.chance(0.1) ? r.pick([0, -0, 180, -90, 1e-300]) : Math.round((r.next() - 0.5) * 360 * 1e6) / 1e6);
  if (r.chance(0.5)) {
    const b = new Uint8Array(21);
    const d = new DataView(b.buffer);
    d.setUint8(0, 1);
    d.setUint32(1, 1, true);
    d.setFloat64(5, coord(), true);
    d.setFloat64(13, coord(), true);
    return b;
  }
  const n = r.int(0, 4);
  const b = new Uint8Array(9 + 16 * n);
  const d = new DataView(b.buffer);
  d.setUint8(0, 1);
  d.setUint32(1, 2, true);
  d.setUint32(5, n, true);
  for (let i = 0; i < n; i++) {
    d.setFloat64(9 + 16 * i, coord(), true);
    d.setFloat64(17 + 16 * i, coord(), true);
  }
  return b;
}

/** GeoJSON of the WKB `randomWkb` makes (what hyparquet gives for GEOMETRY and GEOGRAPHY). */
export function wkbToGeoJson(b: Uint8Array): unknown {
  const d = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const type = d.getUint32(1, true);
  if (type === 1) return { type: 'Point', coordinates: [d.getFloat64(5, true), d.getFloat64(13, true)] };
  const n = d.getUint32(5, true);
  return { type: 'LineString', coordinates: Array.from({ length: n }, (_, i) => [d.getFloat64(9 + 16 * i, true), d.getFloat64(17 + 16 * i, true)]) };
}

const utf8 = new TextEncoder();
export function utf8Bytes(s: string): Uint8Array {
  return utf8.encode(s);
}

// ------------------------------------------------------------------ leaf classes

export type LeafClass =
  | { c: 'boolean' }
  | { c: 'int'; bits: 8 | 16 | 32 | 64; signed: boolean }
  | { c: 'float' }
  | { c: 'double' }
  | { c: 'float16' }
  | { c: 'int96' }
  | { c: 'binary' }
  | { c: 'fixed'; n: number }
  | { c: 'string' }
  | { c: 'enum' }
  | { c: 'json' }
  | { c: 'bson' }
  | { c: 'geo' }
  | { c: 'uuid' }
  | { c: 'decimal'; precision: number; scale: number; storage: string; n?: number }
  | { c: 'date' }
  | { c: 'time'; unit: 'MILLIS' | 'MICROS' | 'NANOS'; utc: boolean }
  | { c: 'timestamp'; unit: 'MILLIS' | 'MICROS' | 'NANOS'; utc: boolean }
  | { c: 'interval' }
  | { c: 'null' };

/** What a leaf declaration is, from its spec. */
export function classify(spec: LeafSpec): LeafClass {
  const lt = spec.logicalType as ({ type: string } & Record<string, unknown>) | undefined;
  const t = lt?.type;
  if (t === 'INTEGER') return { c: 'int', bits: lt!.bitWidth as 8 | 16 | 32 | 64, signed: Boolean(lt!.isSigned) };
  if (t === 'DECIMAL' || spec.convertedType === 'DECIMAL') {
    return { c: 'decimal', precision: spec.precision!, scale: spec.scale!, storage: spec.type, ...(spec.typeLength !== undefined ? { n: spec.typeLength } : {}) };
  }
  if (t === 'STRING') return { c: 'string' };
  if (t === 'ENUM') return { c: 'enum' };
  if (t === 'JSON') return { c: 'json' };
  if (t === 'BSON') return { c: 'bson' };
  if (t === 'GEOMETRY' || t === 'GEOGRAPHY') return { c: 'geo' };
  if (t === 'UUID') return { c: 'uuid' };
  if (t === 'FLOAT16') return { c: 'float16' };
  if (t === 'DATE') return { c: 'date' };
  if (t === 'TIME' || t === 'TIMESTAMP') return { c: t === 'TIME' ? 'time' : 'timestamp', unit: lt!.unit as 'MILLIS', utc: Boolean(lt!.isAdjustedToUTC) };
  if (t === 'UNKNOWN') return { c: 'null' };
  if (spec.convertedType === 'INTERVAL') return { c: 'interval' };
  switch (spec.type) {
    case 'BOOLEAN': return { c: 'boolean' };
    case 'INT32': return { c: 'int', bits: 32, signed: true };
    case 'INT64': return { c: 'int', bits: 64, signed: true };
    case 'FLOAT': return { c: 'float' };
    case 'DOUBLE': return { c: 'double' };
    case 'INT96': return { c: 'int96' };
    case 'BYTE_ARRAY': return { c: 'binary' };
    case 'FIXED_LEN_BYTE_ARRAY': return { c: 'fixed', n: spec.typeLength! };
  }
  throw new Error(`test generator: unknown leaf ${JSON.stringify(spec)}`);
}

// ------------------------------------------------------------------ generators

export interface Pair {
  /** Reader form (null for null). */
  v: unknown;
  /** What the writer is given. */
  in: unknown;
}

export interface GenOptions {
  /** Chance that an optional value is null (default 0.15). */
  nullRate?: number;
  /** Chance that a list or map is empty (default 0.1). */
  emptyRate?: number;
  /** Longest list / map (default 4). */
  maxLen?: number;
  /** Give alternative input forms sometimes (default true). */
  alt?: boolean;
  /** Chance a leaf value comes from a small per-column pool, so dictionaries pay (default 0.5). */
  poolRate?: number;
  /** Keep INTERVAL fields below 2^31 (DuckDB reads them signed); default true. */
  intervalSigned?: boolean;
  /** Strings of 70-200 characters sometimes (statistics truncation); default true. */
  longStrings?: boolean;
}

export interface ValueGen {
  next(r: Rng): Pair;
}

const same = (v: unknown): Pair => ({ v, in: v });

const STRINGS = ['', 'a', 'apple', 'ünïcødé 😀 ✓', 'quote" back\\slash', 'tab\tnew\nline', '\u0000nul', 'Zürich', '日本語', 'zzz', '~', '\u007f', 'é'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function intRange(bits: number, signed: boolean): [bigint, bigint] {
  return signed ? [-(2n ** BigInt(bits - 1)), 2n ** BigInt(bits - 1) - 1n] : [0n, 2n ** BigInt(bits) - 1n];
}

function randomString(r: Rng, long: boolean): string {
  if (long && r.chance(0.08)) {
    // Long strings with a shared prefix, so truncated statistics matter; some end in multi-byte characters.
    return 'L'.repeat(60) + r.pick(['', 'é', '😀', 'zz']) + String(r.int(0, 1e6)).repeat(r.int(1, 20)) + r.pick(['', '\u{10FFFF}', 'ÿ']);
  }
  if (r.chance(0.4)) return r.pick(STRINGS) + (r.chance(0.5) ? String(r.int(0, 99)) : '');
  const n = r.int(0, 12);
  let s = '';
  for (let i = 0; i < n; i++) {
    const k = r.int(0, 9);
    s += k < 6 ? String.fromCharCode(r.int(32, 126)) : k < 8 ? String.fromCharCode(r.int(0xa0, 0x7ff)) : k < 9 ? String.fromCharCode(r.int(0x800, 0xd7ff)) : String.fromCodePoint(r.int(0x10000, 0x10ffff));
  }
  return s;
}

/** A generator of non-null leaf values (reader form and input form). */
function leafGen(spec: LeafSpec, o: Required<GenOptions>): (r: Rng) => Pair {
  const k = classify(spec);
  const alt = o.alt;
  switch (k.c) {
    case 'boolean':
      return (r) => same(r.chance(0.5));
    case 'int': {
      const [lo, hi] = intRange(k.bits, k.signed);
      const extremes = [lo, hi, 0n, k.signed ? -1n : 1n, hi / 2n + 1n];
      if (k.bits === 64) extremes.push(2n ** 53n, -(2n ** 53n) - 1n, 2n ** 53n + 1n);
      const narrow = (r: Rng) => {
        // Mostly small values (delta encoding, dictionaries), sometimes the whole range.
        const x = r.chance(0.15) ? r.pick(extremes) : r.chance(0.5) ? r.big(lo, hi) : BigInt(k.signed ? r.int(-1000, 1000) : r.int(0, 2000));
        return x < lo ? lo : x > hi ? hi : x;
      };
      if (k.bits === 64) {
        return (r) => {
          const x = narrow(r);
          if (alt && r.chance(0.2) && x <= BigInt(Number.MAX_SAFE_INTEGER) && x >= -BigInt(Number.MAX_SAFE_INTEGER)) return { v: x, in: Number(x) };
          return same(x);
        };
      }
      return (r) => {
        const x = narrow(r);
        return { v: Number(x), in: alt && r.chance(0.1) ? x : Number(x) };
      };
    }
    case 'float': {
      const extremes = [NaN, Infinity, -Infinity, -0, 0, 3.4028234663852886e38, -3.4028234663852886e38, 1.401298464324817e-45, -1.1754943508222875e-38, 1];
      return (r) => {
        if (r.chance(0.1)) return same(r.pick(extremes));
        const x = (r.next() - 0.5) * 10 ** r.int(-5, 8);
        const v = Math.fround(x);
        return alt && r.chance(0.3) ? { v, in: x } : same(v);
      };
    }
    case 'double': {
      const extremes = [NaN, Infinity, -Infinity, -0, 0, 5e-324, -5e-324, 1.7976931348623157e308, -1.7976931348623157e308, 2.2250738585072014e-308, 0.1];
      return (r) => same(r.chance(0.1) ? r.pick(extremes) : r.chance(0.3) ? r.int(-100, 100) / 4 : (r.next() - 0.5) * 10 ** r.int(-30, 30));
    }
    case 'float16': {
      // Numbers that are not halves, with what round-to-nearest-even makes of them.
      const rounded: [number, number][] = [[0.1, 0.0999755859375], [65520, Infinity], [65519, 65504], [-65520, -Infinity], [1e-8, 0], [-1e-8, -0], [2.9802322387695312e-8, 0], [2.98023223876953125e-8 * 1.0001, 5.960464477539063e-8], [1.00048828125, 1], [1.00146484375, 1.001953125]];
      return (r) => {
        if (alt && r.chance(0.1)) {
          const [x, v] = r.pick(rounded);
          return { v, in: x };
        }
        return same(halfToNumber(r.int(0, 0xffff)));
      };
    }
    case 'int96': {
      return (r) => {
        const v = r.chance(0.2) ? r.pick([0n, -1n, 1n, 86_399_999_999_999n, -86_400_000_000_000n, -62135596800000000000n + 1n]) : r.big(-5_000_000_000_000_000_000n, 5_000_000_000_000_000_000n);
        if (alt && r.chance(0.15)) {
          const ms = floorDiv(v, 1_000_000n);
          return { v: ms * 1_000_000n, in: new Date(Number(ms)) };
        }
        return same(v);
      };
    }
    case 'binary':
    case 'bson':
      return (r) => same(r.chance(0.1) ? new Uint8Array(0) : r.bytes(r.int(1, 24)));
    case 'geo':
      return (r) => same(randomWkb(r));
    case 'fixed':
      return (r) => same(r.chance(0.1) ? new Uint8Array(k.n).fill(r.pick([0, 255, 0x80])) : r.bytes(k.n));
    case 'string': {
      return (r) => {
        const s = randomString(r, o.longStrings);
        return alt && r.chance(0.1) ? { v: s, in: utf8Bytes(s) } : same(s);
      };
    }
    case 'enum':
      return (r) => same(r.pick(['red', 'green', 'blue', '', 'ü']));
    case 'json': {
      return (r) => {
        const obj = { i: r.int(-1000, 1000), s: randomString(r, false), l: [1, 'x', null, true], n: { d: r.next() } };
        if (alt && r.chance(0.3)) return { v: JSON.stringify(obj), in: obj };
        return same(r.chance(0.2) ? ` { "spaced" : [ ${r.int(0, 9)} ] } ` : JSON.stringify(obj));
      };
    }
    case 'uuid': {
      return (r) => {
        const b = r.chance(0.1) ? new Uint8Array(16).fill(r.pick([0, 255, 0x80])) : r.bytes(16);
        const v = uuidText(b);
        if (alt && r.chance(0.15)) return { v, in: b };
        if (alt && r.chance(0.1)) return { v, in: v.toUpperCase() };
        return same(v);
      };
    }
    case 'decimal': {
      const max = 10n ** BigInt(k.precision) - 1n;
      const extremes = [max, -max, 0n, 1n, -1n, 10n ** BigInt(k.scale)];
      return (r) => {
        const u = r.chance(0.15) ? r.pick(extremes) : r.chance(0.5) ? r.big(-max, max) : BigInt(r.int(-100000, 100000)) % (max + 1n);
        const v = decimalText(u, k.scale);
        if (alt && r.chance(0.15) && k.precision <= 15) return { v, in: Number(v) };
        if (alt && r.chance(0.1) && k.scale > 0) return { v, in: v + '00' };
        if (alt && r.chance(0.05) && u % 10n ** BigInt(k.scale) === 0n) return { v, in: u / 10n ** BigInt(k.scale) };
        return same(v);
      };
    }
    case 'date': {
      return (r) => {
        const v = r.chance(0.1) ? r.pick([-719162, 2932896, 0, -1, 11016, -141427]) : r.int(-719162, 2932896);
        if (alt && r.chance(0.1)) return { v, in: dateText(v) };
        if (alt && r.chance(0.1)) return { v, in: new Date(v * MS_PER_DAY) };
        return same(v);
      };
    }
    case 'time': {
      const per = NANOS_PER[k.unit];
      const dayUnits = 86_400_000_000_000n / per;
      return (r) => {
        const u = r.chance(0.1) ? r.pick([0n, dayUnits - 1n, dayUnits / 2n]) : r.big(0n, dayUnits - 1n);
        const v = k.unit === 'MILLIS' ? Number(u) : u;
        if (alt && r.chance(0.1)) return { v, in: timeText(u * per) };
        if (alt && r.chance(0.1)) return { v, in: k.unit === 'MILLIS' ? u : Number(u) };
        return same(v);
      };
    }
    case 'timestamp': {
      const per = NANOS_PER[k.unit];
      // Years 0001-9999 for MILLIS and MICROS; NANOS spans what INT64 holds (1677-2262), less a margin.
      const [lo, hi] = k.unit === 'NANOS'
        ? [-9_200_000_000_000_000_000n, 9_200_000_000_000_000_000n]
        : k.unit === 'MICROS' ? [-62135596800000000n, 253402300799999999n] : [-62135596800000n, 253402300799999n];
      const extremes = [lo, hi, 0n, -1n, 1n];
      return (r) => {
        const v = r.chance(0.1) ? r.pick(extremes) : r.big(lo, hi);
        const nanos = v * per;
        const inDateRange = nanos >= -62135596800000000000n && nanos <= 253402300799999999999n;
        if (alt && inDateRange && r.chance(0.1)) return { v, in: timestampText(nanos, k.unit === 'MILLIS' ? 3 : k.unit === 'MICROS' ? 6 : 9, r.chance(0.5)) };
        if (alt && inDateRange && nanos % 1_000_000n === 0n && r.chance(0.1)) return { v, in: new Date(Number(nanos / 1_000_000n)) };
        if (alt && r.chance(0.1) && v >= -BigInt(Number.MAX_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) return { v, in: Number(v) };
        return same(v);
      };
    }
    case 'interval': {
      const top = o.intervalSigned ? 0x7fffffff : 0xffffffff;
      return (r) => same(r.chance(0.1)
        ? { months: r.pick([0, top]), days: r.pick([0, top]), millis: r.pick([0, top]) }
        : { months: r.int(0, 50), days: r.int(0, 400), millis: r.int(0, 86_400_000) });
    }
    case 'null':
      return () => same(null);
  }
}

function spec(fb: AnyField) {
  return fb.spec;
}

/** Generators for a field declaration, with nulls and empties at every optional level. */
export function makeGen(fb: AnyField, options: GenOptions = {}): ValueGen {
  const o: Required<GenOptions> = {
    nullRate: options.nullRate ?? 0.15,
    emptyRate: options.emptyRate ?? 0.1,
    maxLen: options.maxLen ?? 4,
    alt: options.alt ?? true,
    poolRate: options.poolRate ?? 0.5,
    intervalSigned: options.intervalSigned ?? true,
    longStrings: options.longStrings ?? true,
  };
  return build(fb, o);
}

function build(fb: AnyField, o: Required<GenOptions>): ValueGen {
  const nullable = fb.repetition === 'OPTIONAL';
  const s = spec(fb);
  const orNull = (inner: (r: Rng) => Pair): ValueGen => ({
    next(r) {
      if (nullable && r.chance(o.nullRate)) return { v: null, in: r.chance(0.3) ? undefined : null };
      return inner(r);
    },
  });
  switch (s.node) {
    case 'leaf': {
      const k = classify(s);
      if (k.c === 'null') return { next: (r) => ({ v: null, in: r.chance(0.5) ? undefined : null }) };
      const g = leafGen(s, o);
      let pool: Pair[] | undefined;
      return orNull((r) => {
        if (o.poolRate > 0 && r.chance(o.poolRate)) {
          pool ??= Array.from({ length: 12 }, () => g(r));
          return r.pick(pool);
        }
        return g(r);
      });
    }
    case 'struct': {
      const fields = s.fields.map(([name, child]) => [name, build(child, o)] as const);
      return orNull((r) => {
        const v: Record<string, unknown> = {};
        const input: Record<string, unknown> = {};
        for (const [name, g] of fields) {
          const p = g.next(r);
          v[name] = p.v;
          if (p.in !== undefined || r.chance(0.5)) input[name] = p.in; // sometimes leave an absent value out altogether
        }
        return { v, in: input };
      });
    }
    case 'list': {
      const el = build(s.element, o);
      return orNull((r) => {
        if (r.chance(o.emptyRate)) return { v: [], in: [] };
        const n = r.int(1, o.maxLen);
        const v: unknown[] = [];
        const input: unknown[] = [];
        for (let i = 0; i < n; i++) {
          const p = el.next(r);
          v.push(p.v);
          input.push(p.in);
        }
        return { v, in: input };
      });
    }
    case 'map': {
      const key = build(s.key, { ...o, poolRate: 0 });
      const val = build(s.value, o);
      const keyText = (x: unknown) => (x instanceof Uint8Array ? hex(x) : String(x));
      return orNull((r) => {
        if (r.chance(o.emptyRate)) return { v: [], in: r.chance(0.3) ? new Map() : [] };
        const n = r.int(1, o.maxLen);
        const v: { key: unknown; value: unknown }[] = [];
        const input: { key: unknown; value: unknown }[] = [];
        const seen = new Set<string>();
        for (let i = 0; i < n; i++) {
          const kp = key.next(r);
          if (seen.has(keyText(kp.v))) continue; // keys are unique
          seen.add(keyText(kp.v));
          const vp = val.next(r);
          v.push({ key: kp.v, value: vp.v });
          input.push({ key: kp.in, value: vp.in });
        }
        if (o.alt && r.chance(0.2)) return { v, in: new Map(input.map((e) => [e.key, e.value])) };
        // A plain object keeps insertion order only for keys that are not integer-like.
        if (o.alt && r.chance(0.2) && input.every((e) => typeof e.key === 'string' && !/^(0|[1-9]\d*)$/.test(e.key))) {
          return { v, in: Object.fromEntries(input.map((e) => [e.key as string, e.value])) };
        }
        return { v, in: input };
      });
    }
    case 'variant':
      throw new Error('makeGen has no generator for variants (test/writer/variant-roundtrip.test.ts has its own)');
  }
}

/** Records for a set of top-level fields: `expected` in reader form, `input` for the writer. */
export function makeRecords(fields: ReadonlyArray<readonly [string, AnyField]>, n: number, seed: number, options: GenOptions = {}): { expected: Record<string, unknown>[]; input: Record<string, unknown>[] } {
  const gens = fields.map(([name, fb], i) => [name, makeGen(fb, options), new Rng(seed * 7919 + i * 104729 + 1)] as const);
  const expected: Record<string, unknown>[] = [];
  const input: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const e: Record<string, unknown> = {};
    const x: Record<string, unknown> = {};
    for (const [name, g, r] of gens) {
      const p = g.next(r);
      e[name] = p.v;
      if (p.in !== undefined || r.chance(0.5)) x[name] = p.in;
    }
    expected.push(e);
    input.push(x);
  }
  return { expected, input };
}

export type { FieldBuilder };
