/**
 * Hive partitions: `key=value` directories in a file's path become columns.
 * Values are URL-decoded; `__HIVE_DEFAULT_PARTITION__` and `NULL` (any
 * case) are null. Types are given, or inferred as DuckDB 1.5 infers them
 * (`hive_types_autocast`, checked against DuckDB in
 * test/dataset/duckdb-hive.test.ts): the first non-null value of a key
 * picks the first of DATE, TIMESTAMP, BIGINT its text (not yet
 * URL-decoded) is strictly, then every other value must be of that type,
 * else the key is VARCHAR. Over the files listed: a filter at open lists
 * only the directories it may keep (partition-filter.ts), where DuckDB
 * types from every file its glob matches.
 */
import { IncompatibleFilesError, InvalidArgumentError } from '../errors.js';
import type { SchemaElement } from '../parquet/metadata/index.js';
import { dirName } from '../io/paths.js';
import { HIVE_NULL } from './hive-names.js';
import { compareUtf8 } from '../bytes/utf8-checks.js';

/** A Hive partition column type, as DuckDB names it. */
export type PartitionType = 'BIGINT' | 'DOUBLE' | 'DATE' | 'TIMESTAMP' | 'VARCHAR';

/** A partition value as the column stores it: BIGINT and TIMESTAMP (microseconds) bigint, DATE days, DOUBLE number, VARCHAR string. */
export type PartitionValue = bigint | number | string | null;

/** A Hive partition column: its name and type. */
export interface PartitionColumn {
  name: string;
  type: PartitionType;
}

const SPACE = '[ \\t\\n\\v\\f\\r]*';
const BIGINT_RE = new RegExp(`^${SPACE}(-\\d+|0|[1-9]\\d*|0[xX][0-9a-fA-F]+|0[bB][01]+)${SPACE}$`);
const DATE_RE = new RegExp(`^${SPACE}(\\d{4,})-(\\d{1,2})-(\\d{1,2})${SPACE}$`);
// A UTC offset (`Z`, ` UTC`, `+02`, `-0530`, `+02:30`, `+02:30:00`) only after the seconds, and then ignored: DuckDB keeps the wall time.
const UTC_OFFSET = '(?:Z| [uU][tT][cC]|[+-]\\d{2}(?::?\\d{2}(?::\\d{2})?)?)?';
const TIMESTAMP_RE = new RegExp(`^${SPACE}(\\d{4,})-(\\d{1,2})-(\\d{1,2})[T ](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d+))?${UTC_OFFSET})?${SPACE}$`);
/** DuckDB's special dates (strict DATE casts take them; TIMESTAMP autocast does not), and its infinite days. */
const DATE_WORD_RE = new RegExp(`^${SPACE}(epoch|infinity|-infinity)${SPACE}$`, 'i');
const DATE_INFINITY = 2 ** 31 - 1;
const DOUBLE_RE = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$|^\s*[-+]?(inf|infinity|nan)\s*$/i;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MICROS_PER_DAY = 86_400_000_000n;

/** The `key=value` pairs of a path's directories, outermost first, values still encoded. */
export function partitionPairs(path: string): [string, string][] {
  const out: [string, string][] = [];
  for (const seg of dirName(path).split('/')) {
    const eq = seg.indexOf('=');
    if (eq > 0) out.push([seg.slice(0, eq), seg.slice(eq + 1)]);
  }
  // A key repeated deeper wins, as DuckDB reads it (the last segment).
  const byKey = new Map(out);
  return [...byKey];
}

/** A partition value's text, URL-decoded (an invalid escape is kept as it is), or null. */
export function partitionText(raw: string): string | null {
  if (raw === HIVE_NULL || raw.toUpperCase() === 'NULL') return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Days since 1970-01-01 of a valid proleptic Gregorian date, else undefined. */
function epochDays(y: number, m: number, d: number): number | undefined {
  if (m < 1 || m > 12 || d < 1) return undefined;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  if (d > days) return undefined;
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/** The text as a value of `type`, or undefined when it is not one (strictly, as DuckDB's autocast checks). */
export function castPartition(text: string, type: PartitionType): PartitionValue | undefined {
  switch (type) {
    case 'VARCHAR':
      return text;
    case 'BIGINT': {
      const m = BIGINT_RE.exec(text);
      if (!m) return undefined;
      const s = m[1]!;
      const v = /^0[bB]/.test(s) ? BigInt(`0b${s.slice(2)}`) : BigInt(s);
      return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
    }
    case 'DOUBLE':
      return DOUBLE_RE.test(text) ? Number(text.trim().replace(/^\+?inf(inity)?$/i, 'Infinity').replace(/^-inf(inity)?$/i, '-Infinity').replace(/^[-+]?nan$/i, 'NaN')) : undefined;
    case 'DATE': {
      const word = DATE_WORD_RE.exec(text)?.[1]!.toLowerCase();
      if (word) return word === 'epoch' ? 0 : word === 'infinity' ? DATE_INFINITY : -DATE_INFINITY;
      const m = DATE_RE.exec(text);
      return m ? epochDays(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
    }
    case 'TIMESTAMP': {
      const m = TIMESTAMP_RE.exec(text);
      if (!m) return undefined;
      const days = epochDays(Number(m[1]), Number(m[2]), Number(m[3]));
      const [h, min, sec] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
      if (days === undefined || h > 23 || min > 59 || sec > 59) return undefined;
      const micros = BigInt((m[7] ?? '').slice(0, 6).padEnd(6, '0'));
      return BigInt(days) * MICROS_PER_DAY + BigInt((h * 60 + min) * 60 + sec) * 1_000_000n + micros;
    }
  }
}

const AUTOCAST: readonly PartitionType[] = ['DATE', 'TIMESTAMP', 'BIGINT'];

/**
 * The type one value's text (as it stands in the path, before URL-decoding,
 * as DuckDB types it: `10%3A00` is VARCHAR) asks for on its own: the first
 * of DATE, TIMESTAMP, BIGINT it strictly is, else VARCHAR.
 */
export function valueType(raw: string): PartitionType {
  return AUTOCAST.find((c) => castPartition(raw, c) !== undefined) ?? 'VARCHAR';
}

/**
 * The partition columns of a dataset's files, by name: keys from the first file
 * (every file must have the same keys, else an error naming both files),
 * types given or inferred.
 */
export function partitionColumns(files: readonly string[], given: Readonly<Record<string, PartitionType>>): PartitionColumn[] {
  const first = partitionPairs(files[0]!).map(([k]) => k);
  const types = new Map<string, PartitionType | undefined>(first.map((k) => [k, given[k]]));
  for (const file of files) {
    const pairs = partitionPairs(file);
    const keys = pairs.map(([k]) => k);
    if (keys.length !== first.length || keys.some((k, i) => k !== first[i])) {
      throw new IncompatibleFilesError(`Hive partitions differ: ${files[0]} has ${first.join(', ') || 'none'}, ${file} has ${keys.join(', ') || 'none'}`, { file });
    }
    for (const [key, raw] of pairs) {
      if (given[key] !== undefined || partitionText(raw) === null) continue;
      const t = types.get(key);
      if (t === undefined) types.set(key, valueType(raw));
      else if (castPartition(raw, t) === undefined) types.set(key, 'VARCHAR');
    }
  }
  // Ordered by name, as DuckDB lists them (a sorted map), not by depth.
  return [...first].sort(compareUtf8).map((name) => ({ name, type: types.get(name) ?? 'VARCHAR' }));
}

/** A file's partition values, in the columns' order. */
export function partitionValues(file: string, columns: readonly PartitionColumn[]): PartitionValue[] {
  const pairs = new Map(partitionPairs(file));
  return columns.map(({ name, type }) => {
    const text = partitionText(pairs.get(name)!);
    if (text === null) return null;
    const v = castPartition(text, type);
    if (v === undefined) throw new InvalidArgumentError(`partition ${name}=${text} is not a ${type}`, { file });
    return v;
  });
}

/** The schema element a partition column reads as (optional: a partition may be null). */
export function partitionElement(c: PartitionColumn): SchemaElement {
  const base = { name: c.name, repetitionType: 'OPTIONAL' as const };
  switch (c.type) {
    case 'BIGINT':
      return { ...base, type: 'INT64' };
    case 'DOUBLE':
      return { ...base, type: 'DOUBLE' };
    case 'DATE':
      return { ...base, type: 'INT32', convertedType: 'DATE', logicalType: { type: 'DATE' } };
    case 'TIMESTAMP':
      return { ...base, type: 'INT64', logicalType: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' } };
    case 'VARCHAR':
      return { ...base, type: 'BYTE_ARRAY', convertedType: 'UTF8', logicalType: { type: 'STRING' } };
  }
}
