/**
 * Values of another format's rows reshaped to the value options: what
 * table/rows.ts gives Trevni and RedElm rows. Apart from convert.ts, which
 * every Parquet read loads, as a Parquet read makes its values in the
 * option's forms directly.
 */
import { formatDate, formatTime } from './temporal-format.js';
import { temporalOut, type ValueOptions } from './convert.js';
import type { LeafKind } from './logical.js';

/**
 * A value of a leaf as `opts` gives it, from the value in the default forms
 * (bigint INT64, decimal text, temporal values as their stored integers):
 * for rows another format's reader assembled in those forms (Trevni,
 * RedElm), so the value options mean what they mean for Parquet. Undefined
 * when `opts` leaves the kind's values as they are.
 */
export function valueReshaper(kind: LeafKind, opts: ValueOptions): ((v: unknown) => unknown) | undefined {
  const int64 = opts.int64 === 'number' ? (v: unknown) => (typeof v === 'bigint' ? Number(v) : v) : undefined;
  switch (kind.kind) {
    case 'int': return kind.bitWidth === 64 ? int64 : undefined;
    case 'decimal': return opts.decimal === 'number' ? (v) => Number(v) : undefined;
    case 'date':
      if (opts.temporal === 'iso') return (v) => formatDate(v as number);
      if (opts.temporal === 'date') return (v) => new Date((v as number) * 86_400_000);
      return undefined;
    case 'time': return opts.temporal === 'iso' ? (v) => formatTime(v as number | bigint, kind.unit) : int64;
    case 'timestamp':
    case 'int96': {
      const [unit, utc] = kind.kind === 'int96' ? ['NANOS' as const, true] : [kind.unit, kind.utc];
      return opts.temporal === 'iso' || opts.temporal === 'date' || int64 ? (v) => temporalOut(BigInt(v as bigint), unit, utc, opts) : undefined;
    }
    default: return undefined;
  }
}
