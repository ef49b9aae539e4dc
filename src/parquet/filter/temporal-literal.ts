/**
 * SQL's typed date and time literals (`DATE '…'`, `TIMESTAMP '…'`,
 * `TIMESTAMPTZ '…'`) as DuckDB reads them: a DATE keeps the date of a text
 * that also has a time; a TIMESTAMP ignores an offset in its text; a
 * TIMESTAMPTZ applies it (no offset is UTC, DuckDB's session time zone
 * assumed UTC); both keep microseconds, dropping finer digits.
 */
import { InvalidArgumentError } from '../../errors.js';
import { parseTimestamp } from '../../schema/temporal-text.js';

export type TemporalType = 'date' | 'timestamp' | 'timestamptz';

const TEXT = /^\s*([+-]?\d{4,6}-\d{2}-\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?\s*$/;

/** The type of a {@link TemporalLiteral} (`{ date }`, `{ timestamp }`, `{ timestamptz }` holding text) when `v` is one. */
export function temporalType(v: unknown): TemporalType | undefined {
  if (v === null || typeof v !== 'object' || Object.keys(v).length !== 1) return undefined;
  const key = Object.keys(v)[0]!;
  return (key === 'date' || key === 'timestamp' || key === 'timestamptz') && typeof (v as Record<string, unknown>)[key] === 'string' ? key : undefined;
}

/** Nanoseconds since the epoch of a typed literal's text; an InvalidArgumentError saying the form when it is not one. */
export function temporalNanos(type: TemporalType, text: string): bigint {
  const m = TEXT.exec(text);
  const bad = (): never => {
    throw new InvalidArgumentError(`${type.toUpperCase()} '${text}' is not a valid ${type === 'date' ? 'date (YYYY-MM-DD)' : 'timestamp (YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]' + (type === 'timestamptz' ? '[±HH[:MM]])' : ')')}`);
  };
  if (!m) return bad();
  const [, date, hh, mm, ss, frac, zone] = m;
  if (type === 'date') {
    const p = parseTimestamp(date!);
    return p ? p.nanos : bad();
  }
  const clock = hh === undefined ? 'T00:00:00' : `T${hh}:${mm}:${ss ?? '00'}${frac ? `.${frac.slice(0, 6)}` : ''}`;
  const offset = type === 'timestamptz' && zone !== undefined ? (zone === 'UTC' || zone === 'z' ? 'Z' : zone) : '';
  const p = parseTimestamp(date! + clock + offset);
  return p ? p.nanos : bad();
}

/** A typed literal's value in nanoseconds, or undefined when `v` is not one. */
export function temporalLiteralNanos(v: unknown): bigint | undefined {
  const type = temporalType(v);
  if (!type) return undefined;
  return temporalNanos(type, (v as Record<string, string>)[type]!);
}
