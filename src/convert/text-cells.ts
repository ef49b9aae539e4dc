/**
 * A field's cells as the row loop reads them: one object shape for every
 * field (its vectors in typed fields, how to print them in `kind`), so
 * `writeRows` writes each row's cells straight into the text, field after
 * field, through one call site per kind of work and no per-field closure.
 * Values the fast forms do not take go through `slow`, the row path's
 * `csvCell` / `jsonText` text.
 */
import type { TextBytes } from './text-bytes.js';

/** Text already printed, a value at bytes[offsets[k]] to bytes[offsets[k + 1]] (a dictionary's entries). */
export const TEXT = 0;
/** ASCII strings that need no escape: their bytes copied (`quoted`: in quotes; as CSV the empty string is `""`). */
export const ASCII = 1;
/** Signed 32-bit integers in `ints`. */
export const INT32 = 2;
/** Signed 64-bit integers as their halves in `ints` (low, high); past 2^53 through `slow`. */
export const INT64 = 3;
/** Finite doubles in `doubles` (others through `slow`). */
export const DOUBLE = 4;
/** Days since the epoch in `ints` (`quoted` for JSON); years outside 0-9999 through `slow`. */
export const DATE = 5;
/** Timestamps as 64-bit halves in `ints`, `per` units a second, then `tail`; the rest through `slow`. */
export const TIMESTAMP = 6;
/** Booleans, 0 or 1, in `bytes`. */
export const BOOL = 7;
/** Every value through `slow`. */
export const VALUE = 8;
/** A field written row by row, in row order, by `row` (nested fields): it writes its nulls too. */
export const ROW = 9;

const encoder = new TextEncoder();
const TRUE = encoder.encode('true');
const FALSE = encoder.encode('false');
const QUOTES = encoder.encode('""');
const EMPTY = new Uint8Array(0);
const NO_INTS = new Int32Array(0);
const NO_DOUBLES = new Float64Array(0);

/** Writes one value or one row of a field. */
export type CellWriter = (out: TextBytes, k: number) => void;

const nothing: CellWriter = () => undefined;

export class Cells {
  kind = VALUE;
  /** Row r's value index, or -1 for a null; null when every row has a value (value r). */
  index: Int32Array | null = null;
  /** Value k's entry among the values below (its dictionary index), or null: value k itself. */
  indices: Int32Array | null = null;
  nullCell: Uint8Array = EMPTY;
  bytes: Uint8Array = EMPTY;
  offsets: Int32Array = NO_INTS;
  ints: Int32Array = NO_INTS;
  doubles: Float64Array = NO_DOUBLES;
  quoted = false;
  per = 0;
  tail = '';
  /** Writes value k where its kind's fast form does not (VALUE: every value). */
  slow: CellWriter = nothing;
  /** ROW: writes row r's cell, rows in order. */
  row: CellWriter = nothing;
}

/** Writes value k of `c` (an entry index when c.indices maps values to entries). */
export function writeValue(out: TextBytes, c: Cells, k: number): void {
  switch (c.kind) {
    case TEXT:
      out.span(c.bytes, c.offsets[k]!, c.offsets[k + 1]!);
      return;
    case ASCII: {
      const s = c.offsets[k]!;
      const e = c.offsets[k + 1]!;
      if (c.quoted) out.quoted(c.bytes, s, e);
      else if (s === e) out.bytes(QUOTES);
      else out.span(c.bytes, s, e);
      return;
    }
    case INT32:
      out.int(c.ints[k]!);
      return;
    case INT64: {
      // The two halves as numbers: no bigint made for a value within 2^53.
      const v = c.ints[2 * k + 1]! * 4294967296 + (c.ints[2 * k]! >>> 0);
      if (Math.abs(v) <= Number.MAX_SAFE_INTEGER) out.int(v);
      else c.slow(out, k);
      return;
    }
    case DOUBLE:
      if (Number.isFinite(c.doubles[k]!)) out.double(c.doubles, k);
      else c.slow(out, k);
      return;
    case DATE:
      if (!out.date(c.ints[k]!, c.quoted)) c.slow(out, k);
      return;
    case TIMESTAMP:
      if (!out.timestamp(c.ints[2 * k + 1]!, c.ints[2 * k]!, c.per, c.tail)) c.slow(out, k);
      return;
    case BOOL:
      out.bytes(c.bytes[k] ? TRUE : FALSE);
      return;
    default:
      c.slow(out, k);
  }
}

/**
 * Rows [from, to) into `out`: each row its fields' cells, each after its
 * prefix (the delimiter, the JSON key), then `end`.
 */
export function writeRows(out: TextBytes, cells: Cells[], prefixes: Uint8Array[], end: Uint8Array, from: number, to: number): void {
  for (let r = from; r < to; r++) {
    for (let f = 0; f < cells.length; f++) {
      out.bytes(prefixes[f]!);
      const c = cells[f]!;
      if (c.kind === ROW) {
        c.row(out, r);
        continue;
      }
      const k = c.index === null ? r : c.index[r]!;
      if (k < 0) out.bytes(c.nullCell);
      else writeValue(out, c, c.indices === null ? k : c.indices[k]!);
    }
    out.bytes(end);
  }
}
