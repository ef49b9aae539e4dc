/**
 * What text holds, by the rules CSV inference reads cells with (and JSON
 * inference may read strings with): booleans, integers, numbers, dates,
 * timestamps (with or without seconds' fractions, zone or none) and UUIDs,
 * each exactly or not at all; and a column's narrowest type over the texts
 * it has held (`TextColumn`). One module, so CSV and JSON infer alike; the
 * exported names are kept stable for that.
 */
import { field as f, type AnyField } from './builder.js';
import { parseDate, parseTimestamp, type ParsedTimestamp } from './temporal-text.js';
import { parseUuid } from './uuid.js';

export { parseDate, parseTimestamp, type ParsedTimestamp };

/** What text can be, narrowest first. */
const BOOLEAN = 1;
const INT = 2;
const DOUBLE = 4;
const DATE = 8;
const TIMESTAMP = 16;
const UUID = 32;
const ALL = BOOLEAN | INT | DOUBLE | DATE | TIMESTAMP;
/**
 * What JSON strings are read as (records inferred with `textTypes`): text
 * in quotes that is a number or a boolean stays a string, as DuckDB's
 * read_json keeps it, and UUIDs are UUIDs, as read_json infers them.
 */
export const JSON_TEXT_KINDS = DATE | TIMESTAMP | UUID;

const INT_TEXT = /^[+-]?(?:0|[1-9][0-9]*)$/;
const SPECIAL_DOUBLE = /^[+-]?(?:nan|inf|infinity)$/i;
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** `true` / `false` in any case, or undefined. */
export function booleanText(s: string): boolean | undefined {
  if (s.length === 4 && s.toLowerCase() === 'true') return true;
  if (s.length === 5 && s.toLowerCase() === 'false') return false;
  return undefined;
}

/**
 * Integer text within 64 bits: an optional sign and digits without
 * superfluous leading zeros ("007" is not a number here: leading zeros are
 * kept as text, so ZIP codes and zero-padded ids stay strings).
 */
export function integerText(s: string): bigint | undefined {
  if (!INT_TEXT.test(s)) return undefined;
  const v = BigInt(s);
  return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
}

/** Integer text as `integerText` reads it, but beyond 64 bits: inference makes its column DOUBLE. */
export function integerBeyondInt64(s: string): boolean {
  return INT_TEXT.test(s) && integerText(s) === undefined;
}

/** Where the digits from `i` on in `s` end. */
function digitsEnd(s: string, i: number): number {
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
  }
  return i;
}

/**
 * `^[+-]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`,
 * scanned by hand (the regular expression took a tenth of a CSV
 * conversion's time on number columns).
 */
function isDoubleText(s: string): boolean {
  const n = s.length;
  let i = 0;
  let c = s.charCodeAt(0);
  if (c === 43 || c === 45) c = s.charCodeAt(++i);
  if (c === 46) {
    const end = digitsEnd(s, i + 1);
    if (end === i + 1) return false;
    i = end;
  } else {
    if (c === 48) i++;
    else if (c > 48 && c <= 57) i = digitsEnd(s, i + 1);
    else return false;
    if (s.charCodeAt(i) === 46) i = digitsEnd(s, i + 1);
  }
  if (i < n) {
    c = s.charCodeAt(i);
    if (c !== 101 && c !== 69) return false;
    c = s.charCodeAt(++i);
    if (c === 43 || c === 45) i++;
    const end = digitsEnd(s, i);
    if (end === i) return false;
    i = end;
  }
  return i === n;
}

/** Decimal or exponent text (no superfluous leading zeros), or nan / inf / infinity in any case, with an optional sign. */
export function doubleText(s: string): number | undefined {
  if (isDoubleText(s)) return Number(s);
  if (SPECIAL_DOUBLE.test(s)) {
    const neg = s.charCodeAt(0) === 45;
    return s.toLowerCase().includes('nan') ? NaN : neg ? -Infinity : Infinity;
  }
  return undefined;
}

/** `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (hex digits, any case): its 16 bytes, or undefined. */
export function uuidText(s: string): Uint8Array | undefined {
  return parseUuid(s);
}

const NANOS_INT64_MIN = INT64_MIN;
const NANOS_INT64_MAX = INT64_MAX;
const MICROS_INT64_MIN = INT64_MIN * 1000n;
const MICROS_INT64_MAX = INT64_MAX * 1000n + 999n;

/**
 * A column's narrowest type over the texts added to it, in this order:
 * BOOLEAN, INT64, DOUBLE, DATE, TIMESTAMP (MICROS, or NANOS when some text
 * has digits finer than a microsecond; UTC-adjusted when the texts carry a
 * zone, local when none do; a mix of both is no timestamp), UUID (JSON
 * strings only), else STRING.
 * Empty text is null to the caller and is not added.
 */
export class TextColumn {
  /** `possible`: the kinds the column may be (CSV's by default; `JSON_TEXT_KINDS` for JSON strings). */
  constructor(private possible = ALL) {}

  /** Timestamp texts: any with a zone, any with a time but no zone. */
  private zoned = false;
  private unzoned = false;
  /** Some timestamp text has digits finer than microseconds. */
  private nanos = false;
  private min: bigint | undefined;
  private max: bigint | undefined;
  /** Some text was added. */
  seen = false;

  add(s: string): void {
    this.seen = true;
    let p = this.possible;
    if (p === 0) return;
    if (p & BOOLEAN && booleanText(s) === undefined) p &= ~BOOLEAN;
    if (p & INT && integerText(s) === undefined) p &= ~INT;
    if (p & DOUBLE && doubleText(s) === undefined) p &= ~DOUBLE;
    if (p & DATE && parseDate(s) === undefined) p &= ~DATE;
    if (p & UUID && parseUuid(s) === undefined) p &= ~UUID;
    if (p & TIMESTAMP) {
      const t = parseTimestamp(s);
      if (t === undefined) p &= ~TIMESTAMP;
      else {
        if (t.hasTime) {
          if (t.zoned) this.zoned = true;
          else this.unzoned = true;
        }
        if (t.nanos % 1000n !== 0n) this.nanos = true;
        if (this.min === undefined || t.nanos < this.min) this.min = t.nanos;
        if (this.max === undefined || t.nanos > this.max) this.max = t.nanos;
        // A mix of zoned and zone-less times is no one kind of timestamp.
        if (this.zoned && this.unzoned) p &= ~TIMESTAMP;
      }
    }
    this.possible = p;
  }

  /** The narrowest type of every text added (STRING when none was). */
  field(): AnyField {
    const p = this.possible;
    if (!this.seen) return f.string();
    if (p & BOOLEAN) return f.boolean();
    if (p & INT) return f.int64();
    if (p & DOUBLE) return f.double();
    if (p & DATE) return f.date();
    if (p & TIMESTAMP) {
      const unit = this.nanos ? 'NANOS' : 'MICROS';
      const [lo, hi] = this.nanos ? [NANOS_INT64_MIN, NANOS_INT64_MAX] : [MICROS_INT64_MIN, MICROS_INT64_MAX];
      if (this.min! >= lo && this.max! <= hi) return f.timestamp(unit, { utc: this.zoned });
    }
    if (p & UUID) return f.uuid();
    return f.string();
  }
}
