/**
 * Dates, times and timestamps from ISO 8601 text, exactly (no Date
 * parsing): what the writer's coercion (coerce.ts), schema inference and
 * filter literals accept. On its own so inference, which the entry points
 * load at start, does not bring the writer's coercion with it.
 */

function digitsAt(s: string, i: number, n: number): number {
  if (i + n > s.length) return -1;
  let v = 0;
  for (let j = i; j < i + n; j++) {
    const c = s.charCodeAt(j) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Parses `YYYY-MM-DD` (or `±YYYYYY-MM-DD`) at `i`; gives [days, end] or undefined. */
function parseDateAt(s: string, i: number): [number, number] | undefined {
  let sign = 1;
  let yearDigits = 4;
  const c = s.charCodeAt(i);
  if (c === 43 || c === 45) {
    sign = c === 45 ? -1 : 1;
    yearDigits = 6;
    i++;
  }
  const y0 = digitsAt(s, i, yearDigits);
  if (y0 < 0) return undefined;
  i += yearDigits;
  if (s.charCodeAt(i) !== 45) return undefined;
  const m = digitsAt(s, i + 1, 2);
  if (s.charCodeAt(i + 3) !== 45) return undefined;
  const d = digitsAt(s, i + 4, 2);
  if (m < 1 || m > 12 || d < 1) return undefined;
  const y = sign * y0;
  if (d > (m === 2 && isLeap(y) ? 29 : MONTH_DAYS[m - 1]!)) return undefined;
  return [daysFromCivil(y, m, d), i + 6];
}

/** Days since 1970-01-01 of `YYYY-MM-DD` (years outside 0000-9999 as `±YYYYYY`), or undefined if the text is not a valid date. */
export function parseDate(s: string): number | undefined {
  const r = parseDateAt(s, 0);
  return r && r[1] === s.length ? r[0] : undefined;
}

/**
 * `HH:MM:SS[.f…]` at `i` (or `HH:MM`, when `minutes`: seconds left out, as
 * ISO 8601 and DuckDB allow in a timestamp): [seconds of day, fraction in
 * nanoseconds, end], or undefined. Fractions beyond 9 digits must be zeros.
 */
function parseClockAt(s: string, i: number, allow24: boolean, minutes = false): [number, number, number] | undefined {
  const h = digitsAt(s, i, 2);
  if (h < 0 || s.charCodeAt(i + 2) !== 58) return undefined;
  const mi = digitsAt(s, i + 3, 2);
  if (mi < 0) return undefined;
  if (minutes && s.charCodeAt(i + 5) !== 58) return mi > 59 || h > 23 ? undefined : [h * 3600 + mi * 60, 0, i + 5];
  if (s.charCodeAt(i + 5) !== 58) return undefined;
  const se = digitsAt(s, i + 6, 2);
  if (se < 0 || mi > 59 || se > 59) return undefined;
  i += 8;
  let nanos = 0;
  if (s.charCodeAt(i) === 46) {
    i++;
    const start = i;
    let scale = 100_000_000;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      if (scale >= 1) nanos += c * scale;
      else if (c !== 0) return undefined; // finer than a nanosecond
      scale /= 10;
    }
    if (i === start) return undefined;
  }
  if (h > 23 && !(allow24 && h === 24 && mi === 0 && se === 0 && nanos === 0)) return undefined;
  return [h * 3600 + mi * 60 + se, nanos, i];
}

/** Nanoseconds since midnight of `HH:MM:SS[.fffffffff]` (24:00:00 allowed), or undefined. */
export function parseTime(s: string): bigint | undefined {
  const r = parseClockAt(s, 0, true);
  if (!r || r[2] !== s.length) return undefined;
  return BigInt(r[0]) * 1_000_000_000n + BigInt(r[1]);
}

/** A parsed ISO 8601 timestamp. */
export interface ParsedTimestamp {
  /** Nanoseconds since 1970-01-01T00:00:00Z (zone applied; zone-less text read as UTC). */
  nanos: bigint;
  /** A zone (`Z` or an offset) was given. */
  zoned: boolean;
  /** A time of day was given (false for a bare `YYYY-MM-DD`). */
  hasTime: boolean;
}

/**
 * Parses `YYYY-MM-DD[(T|t| )HH:MM[:SS[.f{1,9}]]][Z|z|±HH:MM|±HHMM|±HH]`
 * (years outside 0000-9999 as `±YYYYYY`, as Date.prototype.toISOString and
 * the reader's `temporal: 'iso'` print them). A bare date is midnight.
 * Gives undefined for anything else, invalid calendar dates included.
 */
export function parseTimestamp(s: string): ParsedTimestamp | undefined {
  const d = parseDateAt(s, 0);
  if (!d) return undefined;
  const [days, dateEnd] = d;
  if (dateEnd === s.length) return { nanos: BigInt(days) * 86_400_000_000_000n, zoned: false, hasTime: false };
  const sep = s.charCodeAt(dateEnd);
  if (sep !== 84 && sep !== 116 && sep !== 32) return undefined;
  const clock = parseClockAt(s, dateEnd + 1, false, true);
  if (!clock) return undefined;
  let [secs, nanos, i] = clock;
  let zoned = false;
  if (i < s.length) {
    const z = s.charCodeAt(i);
    if ((z === 90 || z === 122) && i + 1 === s.length) {
      zoned = true;
    } else if (z === 43 || z === 45) {
      const oh = digitsAt(s, i + 1, 2);
      let om = 0;
      const rest = s.length - (i + 3);
      if (rest === 3 && s.charCodeAt(i + 3) === 58) om = digitsAt(s, i + 4, 2);
      else if (rest === 2) om = digitsAt(s, i + 3, 2);
      else if (rest !== 0) return undefined;
      if (oh < 0 || om < 0 || oh > 23 || om > 59) return undefined;
      const offset = (oh * 3600 + om * 60) * (z === 45 ? -1 : 1);
      secs -= offset;
      zoned = true;
    } else {
      return undefined;
    }
  }
  return { nanos: BigInt(days * 86400 + secs) * 1_000_000_000n + BigInt(nanos), zoned, hasTime: true };
}

/** SQL's typed date and time literals, `DATE '…'`, `TIMESTAMP '…'`, `TIMESTAMPTZ '…'`. */
export type SqlTemporalType = 'date' | 'timestamp' | 'timestamptz';

const SQL_TEMPORAL = /^\s*([+-]?\d{4,6}-\d{2}-\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?\s*$/;

/** The form a typed literal's text takes, for messages. */
export function sqlTemporalForm(type: SqlTemporalType): string {
  return type === 'date' ? 'date (YYYY-MM-DD)' : `timestamp (YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]${type === 'timestamptz' ? '[±HH[:MM]]' : ''})`;
}

/**
 * Nanoseconds since the epoch of a typed literal's text as DuckDB reads it,
 * or undefined when it is not one: a DATE keeps the date of a text that also
 * has a time; a TIMESTAMP ignores an offset in its text; a TIMESTAMPTZ
 * applies it (no offset is UTC: DuckDB's session time zone taken as UTC);
 * both keep microseconds and drop finer digits.
 */
export function sqlTemporalNanos(type: SqlTemporalType, text: string): bigint | undefined {
  const m = SQL_TEMPORAL.exec(text);
  if (!m) return undefined;
  const [, date, hh, mm, ss, frac, zone] = m;
  if (type === 'date') return parseTimestamp(date!)?.nanos;
  const clock = hh === undefined ? 'T00:00:00' : `T${hh}:${mm}:${ss ?? '00'}${frac ? `.${frac.slice(0, 6)}` : ''}`;
  const offset = type === 'timestamptz' && zone !== undefined ? (zone === 'UTC' || zone === 'z' ? 'Z' : zone) : '';
  return parseTimestamp(date! + clock + offset)?.nanos;
}
