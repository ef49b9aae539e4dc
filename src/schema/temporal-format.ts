/**
 * Exact text forms of dates, times and timestamps (CANONICAL.md): integer
 * arithmetic only, proleptic Gregorian calendar, no time zones. Years outside
 * 0000-9999 print as +YYYYYY / -YYYYYY like Date.prototype.toISOString.
 */
import type { TimeUnit } from './logical.js';

const UNITS_PER_SECOND: Record<TimeUnit, bigint> = { MILLIS: 1000n, MICROS: 1_000_000n, NANOS: 1_000_000_000n };
const DIGITS: Record<TimeUnit, number> = { MILLIS: 3, MICROS: 6, NANOS: 9 };

function pad(n: number | bigint, width: number): string {
  return String(n).padStart(width, '0');
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

/** Year, month, day from days since 1970-01-01 (Hinnant's civil_from_days, in bigint to cover any input). */
function civil(days: bigint): [bigint, number, number] {
  const z = days + 719468n;
  const era = floorDiv(z, 146097n);
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = Number(doy - (153n * mp + 2n) / 5n + 1n);
  const m = Number(mp < 10n ? mp + 3n : mp - 9n);
  const y = yoe + era * 400n + (m <= 2 ? 1n : 0n);
  return [y, m, d];
}

function formatYear(y: bigint): string {
  if (y >= 0n && y <= 9999n) return pad(y, 4);
  return (y < 0n ? '-' : '+') + pad(y < 0n ? -y : y, 6);
}

/** `YYYY-MM-DD` for a count of days since the Unix epoch. */
export function formatDate(days: number | bigint): string {
  const [y, m, d] = civil(BigInt(days));
  return `${formatYear(y)}-${pad(m, 2)}-${pad(d, 2)}`;
}

function clock(unitsOfDay: bigint, unit: TimeUnit): string {
  const per = UNITS_PER_SECOND[unit];
  const secs = unitsOfDay / per;
  const frac = unitsOfDay % per;
  const h = secs / 3600n;
  const mi = (secs / 60n) % 60n;
  const s = secs % 60n;
  return `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(frac, DIGITS[unit])}`;
}

/** `HH:MM:SS.fff` (3, 6 or 9 fractional digits by unit) for a time of day. */
export function formatTime(value: number | bigint, unit: TimeUnit): string {
  const v = BigInt(value);
  return clock(v < 0n ? 0n : v, unit);
}

/** `YYYY-MM-DDTHH:MM:SS.fff` (+ `Z` when adjusted to UTC) for a count of units since the epoch. */
export function formatTimestamp(value: number | bigint, unit: TimeUnit, utc: boolean): string {
  const v = BigInt(value);
  const perDay = UNITS_PER_SECOND[unit] * 86400n;
  const days = floorDiv(v, perDay);
  return `${formatDate(days)}T${clock(v - days * perDay, unit)}${utc ? 'Z' : ''}`;
}
