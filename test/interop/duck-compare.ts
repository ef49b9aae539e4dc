/**
 * Exact value comparison between DuckDB and parquetry.
 *
 * Both sides are turned into one "comparison text" per value, driven by the
 * type DuckDB reports for the column (DuckDB's reading of the file is the
 * reference):
 *
 * - DuckDB side: the typed values of @duckdb/node-api (bigint, exact decimal
 *   value and scale, timestamps as integers in their unit, blob bytes...),
 *   never DuckDB's display text.
 * - parquetry side: the canonical JSON of ../shared/CANONICAL.md
 *   (`canonicalRow`), parsed back and converted here with our own date and
 *   time arithmetic, independent of parquetry's formatting code.
 *
 * Leaves become tagged strings (`i:` integer digits, `f:` double text,
 * `d:` decimal text, `s:` JSON string, `x:` hex, `date:` days since the epoch,
 * `time:` nanoseconds since midnight, `ts:` nanoseconds since the epoch plus
 * `Z` when adjusted to UTC, `iv:` months/days/millis, `u:` UUID); structs,
 * lists and maps become JSON text around them. A canonical form that breaks
 * the rules (a safe integer written as a string, struct keys in the wrong
 * order) gives a `BAD...` text that cannot equal DuckDB's.
 */
import {
  DuckDBArrayValue, DuckDBBlobValue, DuckDBDateValue, DuckDBDecimalValue, DuckDBIntervalValue, DuckDBListValue,
  DuckDBMapValue, DuckDBStructValue, DuckDBTimeNSValue, DuckDBTimeTZValue, DuckDBTimeValue, DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue, DuckDBTimestampSecondsValue, DuckDBTimestampTZValue, DuckDBTimestampValue, DuckDBTypeId,
  DuckDBUUIDValue, DuckDBVariantValue, DuckDBGeometryValue, type DuckDBArrayType, type DuckDBListType, type DuckDBMapType, type DuckDBStructType, type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { decimalText, hex } from '../writer/gen.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const NANOS_PER_DAY = 86_400_000_000_000n;

// ---------------------------------------------------------------- calendar

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(y: bigint, m: bigint, d: bigint): bigint {
  const yy = m <= 2n ? y - 1n : y;
  const era = (yy >= 0n ? yy : yy - 399n) / 400n;
  const yoe = yy - era * 400n;
  const mp = (m + 9n) % 12n;
  const doy = (153n * mp + 2n) / 5n + d - 1n;
  const doe = yoe * 365n + yoe / 4n - yoe / 100n + doy;
  return era * 146097n + doe - 719468n;
}

// Six-digit signed years as CANONICAL.md says; more digits for the years past ±999999 that Parquet's
// INT32 days can hold (CANONICAL.md does not say; parquetry prints all the digits).
const DATE_RE = /^([+-]\d{6,}|\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/;

/** Days since the epoch of a canonical `YYYY-MM-DD` / `±YYYYYY-MM-DD`, or undefined when malformed. */
export function parseDate(s: string): bigint | undefined {
  const m = DATE_RE.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!)];
  if (mo < 1n || mo > 12n || d < 1n || d > 31n) return undefined;
  return daysFromCivil(y, mo, d);
}

/** Nanoseconds since midnight of `HH:MM:SS[.f...]`, and the number of fraction digits. */
export function parseTime(s: string): { nanos: bigint; digits: number } | undefined {
  const m = TIME_RE.exec(s);
  if (!m) return undefined;
  const frac = m[4] ?? '';
  const nanos = ((BigInt(m[1]!) * 60n + BigInt(m[2]!)) * 60n + BigInt(m[3]!)) * 1_000_000_000n + BigInt(frac.padEnd(9, '0') || '0');
  return { nanos, digits: frac.length };
}

/** A canonical timestamp: nanoseconds since the epoch, whether it ends in Z, fraction digits. */
export function parseTimestamp(s: string): { nanos: bigint; utc: boolean; digits: number } | undefined {
  const t = s.indexOf('T');
  if (t < 0) return undefined;
  const utc = s.endsWith('Z');
  const days = parseDate(s.slice(0, t));
  const time = parseTime(s.slice(t + 1, utc ? -1 : undefined));
  if (days === undefined || !time) return undefined;
  return { nanos: days * NANOS_PER_DAY + time.nanos, utc, digits: time.digits };
}

// ---------------------------------------------------------------- leaves

/** A double's comparison text; -0 is 0 unless `signedZero` (the writer's tests tell them apart). */
export function floatText(v: number, signedZero = false): string {
  if (Number.isNaN(v)) return 'f:NaN';
  if (v === Infinity) return 'f:Infinity';
  if (v === -Infinity) return 'f:-Infinity';
  return `f:${signedZero && Object.is(v, -0) ? '-0' : JSON.stringify(v === 0 ? 0 : v)}`;
}

const utf8 = new TextEncoder();

function compareUtf8(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** Field indexes of a struct in schema order, or (inside a VARIANT) sorted by name. */
function structOrder(t: DuckDBStructType, sortKeys: boolean): number[] {
  const idx = t.entryNames.map((_, i) => i);
  return sortKeys ? idx.sort((a, b) => compareUtf8(t.entryNames[a]!, t.entryNames[b]!)) : idx;
}

/** An own property, never an inherited one (a field may be called `__proto__` or `constructor`). */
function own(o: object, k: string): unknown {
  return Object.getOwnPropertyDescriptor(o, k)?.value;
}

function isTemporal(id: DuckDBTypeId): boolean {
  return [
    DuckDBTypeId.TIMESTAMP, DuckDBTypeId.TIMESTAMP_MS, DuckDBTypeId.TIMESTAMP_NS, DuckDBTypeId.TIMESTAMP_S, DuckDBTypeId.TIMESTAMP_TZ,
  ].includes(id);
}

/** How `duckText` writes a value: struct keys sorted (inside a VARIANT), -0 apart from 0. */
export interface DuckTextForm {
  sortKeys?: boolean;
  signedZero?: boolean;
}

/** The comparison text of a DuckDB value of type `type`. */
export function duckText(type: DuckDBType, v: DuckDBValue, form: DuckTextForm = {}): string {
  if (v === null) return 'null';
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN: return `b:${v}`;
    case DuckDBTypeId.TINYINT: case DuckDBTypeId.SMALLINT: case DuckDBTypeId.INTEGER: case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UTINYINT: case DuckDBTypeId.USMALLINT: case DuckDBTypeId.UINTEGER: case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT: case DuckDBTypeId.UHUGEINT:
      return `i:${BigInt(v as number | bigint)}`;
    case DuckDBTypeId.FLOAT: case DuckDBTypeId.DOUBLE: return floatText(v as number, form.signedZero);
    case DuckDBTypeId.DECIMAL: {
      const d = v as DuckDBDecimalValue;
      return `d:${decimalText(d.value, d.scale)}`;
    }
    case DuckDBTypeId.VARCHAR: return `s:${JSON.stringify(v)}`;
    case DuckDBTypeId.BLOB: return `x:${hex((v as DuckDBBlobValue).bytes)}`;
    case DuckDBTypeId.GEOMETRY: return `x:${hex((v as DuckDBGeometryValue).bytes)}`;
    case DuckDBTypeId.UUID: return `u:${(v as DuckDBUUIDValue).toString()}`;
    case DuckDBTypeId.DATE: return `date:${(v as DuckDBDateValue).days}`;
    case DuckDBTypeId.TIME: return `time:${(v as DuckDBTimeValue).micros * 1000n}`;
    case DuckDBTypeId.TIME_NS: return `time:${(v as DuckDBTimeNSValue).nanos}`;
    case DuckDBTypeId.TIME_TZ: {
      const t = v as DuckDBTimeTZValue;
      return `time:${(t.micros - BigInt(t.offset) * 1_000_000n) * 1000n}`;
    }
    case DuckDBTypeId.TIMESTAMP: return `ts:${(v as DuckDBTimestampValue).micros * 1000n}`;
    case DuckDBTypeId.TIMESTAMP_TZ: return `ts:${(v as DuckDBTimestampTZValue).micros * 1000n}Z`;
    case DuckDBTypeId.TIMESTAMP_MS: return `ts:${(v as DuckDBTimestampMillisecondsValue).millis * 1_000_000n}`;
    case DuckDBTypeId.TIMESTAMP_S: return `ts:${(v as DuckDBTimestampSecondsValue).seconds * 1_000_000_000n}`;
    case DuckDBTypeId.TIMESTAMP_NS: return `ts:${(v as DuckDBTimestampNanosecondsValue).nanos}`;
    case DuckDBTypeId.INTERVAL: {
      const i = v as DuckDBIntervalValue;
      // Parquet INTERVAL holds milliseconds; DuckDB reads them back as microseconds.
      const ms = i.micros % 1000n === 0n ? String(i.micros / 1000n) : `${i.micros}us`;
      return `iv:${i.months},${i.days},${ms}`;
    }
    case DuckDBTypeId.LIST: case DuckDBTypeId.ARRAY: {
      const el = (type as DuckDBListType | DuckDBArrayType).valueType;
      const items = (v as DuckDBListValue | DuckDBArrayValue).items;
      return `[${items.map((x) => duckText(el, x, form)).join(',')}]`;
    }
    case DuckDBTypeId.STRUCT: {
      const t = type as DuckDBStructType;
      const e = (v as DuckDBStructValue).entries;
      return `{${structOrder(t, form.sortKeys === true).map((k) => {
        const n = t.entryNames[k]!;
        return `${JSON.stringify(n)}:${duckText(t.entryTypes[k]!, own(e, n) as DuckDBValue, form)}`;
      }).join(',')}}`;
    }
    case DuckDBTypeId.MAP: {
      const t = type as DuckDBMapType;
      return `[${(v as DuckDBMapValue).entries.map((e) => `{"key":${duckText(t.keyType, e.key, form)},"value":${duckText(t.valueType, e.value, form)}}`).join(',')}]`;
    }
    case DuckDBTypeId.VARIANT: {
      // A variant's objects print with keys sorted by UTF-8 bytes (CANONICAL.md).
      const x = v as DuckDBVariantValue;
      if (x.value === null) return 'null';
      return x.type ? duckText(x.type, x.value, { ...form, sortKeys: true }) : `UNTYPED-VARIANT:${x.toString()}`;
    }
    case DuckDBTypeId.SQLNULL: return 'null';
    default:
      return `UNHANDLED-DUCKDB-TYPE:${type.toString()}`;
  }
}

/** The comparison text of a value parsed from parquetry's canonical JSON, read as DuckDB's type says. */
export function canonText(type: DuckDBType, v: unknown, shadow?: DuckDBValue, sortKeys = false): string {
  if (v === null) return 'null';
  if (v === undefined) return 'MISSING';
  const bad = (why: string) => `BAD(${why}):${JSON.stringify(v)}`;
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN: return typeof v === 'boolean' ? `b:${v}` : bad('boolean');
    case DuckDBTypeId.TINYINT: case DuckDBTypeId.SMALLINT: case DuckDBTypeId.INTEGER: case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UTINYINT: case DuckDBTypeId.USMALLINT: case DuckDBTypeId.UINTEGER: case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT: case DuckDBTypeId.UHUGEINT: {
      if (typeof v === 'number') return Number.isSafeInteger(v) ? `i:${v}` : bad('unsafe integer as a JSON number');
      if (typeof v !== 'string' || !/^-?\d+$/.test(v)) return bad('integer');
      const b = BigInt(v);
      return b >= -MAX_SAFE && b <= MAX_SAFE ? bad('safe integer as a string') : `i:${b}`;
    }
    case DuckDBTypeId.FLOAT: case DuckDBTypeId.DOUBLE:
      if (typeof v === 'number') return floatText(v);
      if (v === 'NaN' || v === 'Infinity' || v === '-Infinity') return `f:${v}`;
      return bad('float');
    case DuckDBTypeId.DECIMAL: return typeof v === 'string' ? `d:${v}` : bad('decimal');
    case DuckDBTypeId.VARCHAR: return typeof v === 'string' ? `s:${JSON.stringify(v)}` : bad('string');
    case DuckDBTypeId.BLOB: case DuckDBTypeId.GEOMETRY: {
      const o = v as { $binary?: unknown };
      return typeof o === 'object' && typeof o.$binary === 'string' && Object.keys(o).length === 1 ? `x:${o.$binary}` : bad('binary');
    }
    case DuckDBTypeId.UUID: return typeof v === 'string' ? `u:${v}` : bad('uuid');
    case DuckDBTypeId.DATE: {
      const d = typeof v === 'string' ? parseDate(v) : undefined;
      return d === undefined ? bad('date') : `date:${d}`;
    }
    case DuckDBTypeId.TIME: case DuckDBTypeId.TIME_NS: case DuckDBTypeId.TIME_TZ: {
      const t = typeof v === 'string' ? parseTime(v) : undefined;
      return t === undefined ? bad('time') : `time:${t.nanos}`;
    }
    case DuckDBTypeId.INTERVAL: {
      const o = v as { months?: unknown; days?: unknown; millis?: unknown };
      const ok = typeof o === 'object' && Object.keys(o).join() === 'months,days,millis';
      return ok ? `iv:${o.months},${o.days},${o.millis}` : bad('interval');
    }
    case DuckDBTypeId.LIST: case DuckDBTypeId.ARRAY: {
      if (!Array.isArray(v)) return bad('list');
      const el = (type as DuckDBListType | DuckDBArrayType).valueType;
      const sh = shadow instanceof DuckDBListValue || shadow instanceof DuckDBArrayValue ? shadow.items : [];
      return `[${v.map((x, i) => canonText(el, x, sh[i], sortKeys)).join(',')}]`;
    }
    case DuckDBTypeId.STRUCT: {
      const t = type as DuckDBStructType;
      if (typeof v !== 'object' || Array.isArray(v)) return bad('struct');
      const names = structOrder(t, sortKeys);
      if (Object.keys(v).join('\u0000') !== names.map((k) => t.entryNames[k]).join('\u0000')) return bad(`struct keys ${JSON.stringify(Object.keys(v))}`);
      const o = v as Record<string, unknown>;
      const sh = shadow instanceof DuckDBStructValue ? shadow.entries : {};
      return `{${names.map((k) => {
        const n = t.entryNames[k]!;
        return `${JSON.stringify(n)}:${canonText(t.entryTypes[k]!, own(o, n), own(sh, n) as DuckDBValue | undefined, sortKeys)}`;
      }).join(',')}}`;
    }
    case DuckDBTypeId.MAP: {
      const t = type as DuckDBMapType;
      if (!Array.isArray(v)) return bad('map');
      const sh = shadow instanceof DuckDBMapValue ? shadow.entries : [];
      return `[${v.map((e: { key?: unknown; value?: unknown }, i) => {
        if (typeof e !== 'object' || e === null || Object.keys(e).join() !== 'key,value') return bad('map entry');
        return `{"key":${canonText(t.keyType, e.key, sh[i]?.key, sortKeys)},"value":${canonText(t.valueType, e.value, sh[i]?.value, sortKeys)}}`;
      }).join(',')}]`;
    }
    case DuckDBTypeId.VARIANT: {
      // The row's own type is known only from DuckDB's value: read our value as that type.
      if (!(shadow instanceof DuckDBVariantValue)) return `BAD(variant with no DuckDB value):${JSON.stringify(v)}`;
      if (shadow.value === null || !shadow.type) return v === null ? 'null' : `BAD(variant):${JSON.stringify(v)}`;
      return canonText(shadow.type, v, shadow.value, true);
    }
    default:
      if (isTemporal(type.typeId)) {
        const p = typeof v === 'string' ? parseTimestamp(v) : undefined;
        return p === undefined ? bad('timestamp') : `ts:${p.nanos}${p.utc ? 'Z' : ''}`;
      }
      return `UNHANDLED-DUCKDB-TYPE:${type.toString()}`;
  }
}

/** Where two comparison texts first differ, with some context, for failure messages. */
export function showDifference(a: string, b: string, width = 160): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 40);
  const cut = (s: string) => (from > 0 ? '…' : '') + s.slice(from, from + width) + (s.length > from + width ? '…' : '');
  return `first difference at character ${i}:\n      parquetry: ${cut(a)}\n      duckdb:    ${cut(b)}`;
}
