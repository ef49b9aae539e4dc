/**
 * SQL's typed date and time literals in the Filter API, `{ date }`,
 * `{ timestamp }`, `{ timestamptz }` holding their text, read as DuckDB
 * reads `DATE '…'` and the others (schema/temporal-text.ts).
 */
import { InvalidArgumentError } from '../../errors.js';
import { sqlTemporalForm, sqlTemporalNanos, type SqlTemporalType } from '../../schema/temporal-text.js';

/** The type of a typed literal when `v` is one. */
export function temporalType(v: unknown): SqlTemporalType | undefined {
  if (v === null || typeof v !== 'object' || Object.keys(v).length !== 1) return undefined;
  const key = Object.keys(v)[0]!;
  return (key === 'date' || key === 'timestamp' || key === 'timestamptz') && typeof (v as Record<string, unknown>)[key] === 'string' ? key : undefined;
}

/** A typed literal's value in nanoseconds since the epoch, undefined when `v` is not one; an InvalidArgumentError when its text is not a valid one. */
export function temporalLiteralNanos(v: unknown): bigint | undefined {
  const type = temporalType(v);
  if (!type) return undefined;
  const text = (v as Record<string, string>)[type]!;
  const nanos = sqlTemporalNanos(type, text);
  if (nanos === undefined) throw new InvalidArgumentError(`${type.toUpperCase()} '${text}' is not a valid ${sqlTemporalForm(type)}`);
  return nanos;
}
