/**
 * What the library reports without failing, through an `onWarning` option:
 * data it kept but had to change (text that was not valid UTF-8 or UTF-16,
 * written with U+FFFD in its place; in conversions, a column renamed, numbers
 * made inexact, a field left out). Each kind is reported once per column
 * (writer) or per input (conversion readers), at its first place.
 */
export type WarningCode =
  | 'LONE_SURROGATE'
  | 'INVALID_UTF8'
  /** Conversion: a CSV header name that was empty or repeated, renamed. */
  | 'RENAMED_COLUMN'
  /** Conversion: an inferred DOUBLE column holding integers beyond 64 bits (digits lost). */
  | 'WIDE_INTEGER'
  /** Conversion: a JSON field first seen after the sampled records, not in the schema (its values are not written). */
  | 'UNKNOWN_FIELD';

/**
 * What was kept but changed (a lone surrogate written as U+FFFD, invalid UTF-8 input, a renamed
 * header column...), given to `onWarning` (docs/errors.md).
 */
export interface ParquetryWarning {
  code: WarningCode;
  /** One line that names the place. */
  message: string;
  /** The column: a dotted path (writer), or the input's column or field name. */
  column?: string;
  /** The 1-based line of a text input. */
  line?: number;
  /** The 0-based index of the record among those given to the writer. */
  record?: number;
}

/** An `onWarning` callback. */
export type WarningHandler = (warning: ParquetryWarning) => void;
