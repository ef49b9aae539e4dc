/**
 * Hive partition directory names (`year=2024`), written as DuckDB writes
 * them: every UTF-8 byte of the column name and the value outside
 * `A-Z a-z 0-9 - _ . ~` as `%XX`, null as `__HIVE_DEFAULT_PARTITION__`.
 * Readers (DuckDB, Spark, ours) decode `%XX` after deciding whether the
 * text means null, so a string value `NULL` or `__HIVE_DEFAULT_PARTITION__`
 * has its first character encoded and reads back as the string.
 */
import { InvalidArgumentError } from '../errors.js';

/** A null partition value's directory name, as Hive, Spark and DuckDB write it. */
export const HIVE_NULL = '__HIVE_DEFAULT_PARTITION__';

const HEX = '0123456789ABCDEF';
const utf8 = new TextEncoder();

function unreserved(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x2e || b === 0x5f || b === 0x7e;
}

/** `text` with every byte a path segment may not safely hold percent-encoded (lone surrogates become U+FFFD). */
export function escapePathName(text: string): string {
  let plain = true;
  for (let i = 0; i < text.length && plain; i++) plain = unreserved(text.charCodeAt(i));
  if (plain) return text;
  let out = '';
  for (const b of utf8.encode(text)) out += unreserved(b) ? String.fromCharCode(b) : `%${HEX[b >> 4]}${HEX[b & 15]}`;
  return out;
}

/** What a directory name says for a partition value: its text, escaped; null and undefined are Hive's null. */
export function partitionValueName(value: unknown, column: string): string {
  if (value === null || value === undefined) return HIVE_NULL;
  const text = valueText(value, column);
  // A reader takes these for null before decoding, so their first byte is encoded to keep them strings.
  if (text === HIVE_NULL || text.toUpperCase() === 'NULL') return `%${HEX[text.charCodeAt(0) >> 4]}${HEX[text.charCodeAt(0) & 15]}${escapePathName(text.slice(1))}`;
  return escapePathName(text);
}

/** The directory `column=value` of one partition column. */
export function partitionDirectory(column: string, value: unknown): string {
  return `${escapePathName(column)}=${partitionValueName(value, column)}`;
}

/**
 * A value as partition text: strings as they are, numbers and bigints in
 * decimal, booleans `true`/`false`, a Date at UTC midnight as `YYYY-MM-DD`
 * (what readers infer as a DATE), any other Date in ISO 8601.
 */
function valueText(value: unknown, column: string): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new InvalidArgumentError(`partition column ${column} holds an invalid Date`);
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, -14) : iso;
  }
  throw new InvalidArgumentError(`partition column ${column} holds a ${value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value === 'object' ? (value as object).constructor?.name ?? 'object' : typeof value}; a partition value must be a string, number, bigint, boolean, Date or null`);
}
