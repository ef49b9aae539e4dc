/**
 * The `variant.*` helpers and the checks behind them: they make
 * VariantValues from JavaScript values, and the VARIANT encoder uses the same
 * checks. The root exports `variant` from schema/public.ts, not from here
 * (see there).
 */
import { InvalidArgumentError } from '../errors.js';
import { parseDate, parseTime, parseTimestamp } from './temporal-text.js';
import { parseUuid } from './uuid.js';
import { VariantValue, type VariantType } from './variant-value.js';

const INT_RANGE = { int8: 0x80, int16: 0x8000, int32: 0x8000_0000 } as const;
export const INT64_MIN = -9_223_372_036_854_775_808n;
export const INT64_MAX = 9_223_372_036_854_775_807n;
/** Largest unscaled magnitude (exclusive) of decimal4, decimal8, decimal16: 10^9, 10^18, 10^38. */
const DECIMAL_LIMIT = { decimal4: 1_000_000_000n, decimal8: 1_000_000_000_000_000_000n, decimal16: 100_000_000_000_000_000_000_000_000_000_000_000_000n } as const;
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
export function parseDecimal(text: string): { unscaled: bigint; scale: number } | undefined {
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

export function decimalWidth(unscaled: bigint): 'decimal4' | 'decimal8' | 'decimal16' | undefined {
  const a = unscaled < 0n ? -unscaled : unscaled;
  return a < DECIMAL_LIMIT.decimal4 ? 'decimal4' : a < DECIMAL_LIMIT.decimal8 ? 'decimal8' : a < DECIMAL_LIMIT.decimal16 ? 'decimal16' : undefined;
}

/** A decimal from exact text, a number (its shortest text) or a bigint, at its own scale or rescaled to `scale` without rounding. */
export function decimal(v: string | number | bigint, scale: number | undefined, width?: 'decimal4' | 'decimal8' | 'decimal16'): VariantValue {
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

export function bytes(what: string, v: unknown): Uint8Array {
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

/** `variant.timestamp`'s unit and time zone. */
export interface VariantTimestampOptions {
  /** MICROS (default) or NANOS. */
  unit?: 'MICROS' | 'NANOS';
  /** true (default): an instant (timestamp with time zone); false: wall-clock time (timestamp_ntz). */
  utc?: boolean;
}

/** The `variant.*` helpers, exported by the root from schema/public.ts, which documents them. */
export const variant = {
  /** An int8 (range-checked). */
  int8: (v: number | bigint) => integer('int8', v),
  /** An int16 (range-checked). */
  int16: (v: number | bigint) => integer('int16', v),
  /** An int32 (range-checked). */
  int32: (v: number | bigint) => integer('int32', v),
  /** An int64 (range-checked). */
  int64: (v: number | bigint) => int64(v),
  /** Rounded to the nearest single-precision float. */
  float: (v: number) => (typeof v === 'number' ? new VariantValue('float', Math.fround(v)) : bad('float', v)),
  /** A double. */
  double: (v: number) => (typeof v === 'number' ? new VariantValue('double', v) : bad('double', v)),
  /**
   * A decimal from exact text (`"12.30"`, `"-1e-3"`), a number (its shortest
   * text) or a bigint, in the narrowest of decimal4/8/16 that holds it. `scale`
   * rescales it (adding zeros, never rounding).
   */
  decimal: (v: string | number | bigint, scale?: number) => decimal(v, scale),
  /** A decimal4 (at most 9 digits): see `decimal`. */
  decimal4: (v: string | number | bigint, scale?: number) => decimal(v, scale, 'decimal4'),
  /** A decimal8 (at most 18 digits): see `decimal`. */
  decimal8: (v: string | number | bigint, scale?: number) => decimal(v, scale, 'decimal8'),
  /** A decimal16 (at most 38 digits): see `decimal`. */
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
  /** Binary: the bytes of any view or ArrayBuffer. */
  binary: (v: Uint8Array | ArrayBuffer | ArrayBufferView) => new VariantValue('binary', bytes('binary', v)),
  /** A string. */
  string: (v: string) => (typeof v === 'string' ? new VariantValue('string', v) : bad('string', v)),
};
