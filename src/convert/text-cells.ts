/**
 * A field's cells as the row loop reads them: one object shape for every
 * field (its vectors in typed fields, how to print them in `kind`), so
 * `writeRows` writes each row's cells straight into the text, field after
 * field, at a position it keeps, through one call per cell and no
 * per-field closure. Values the fast forms do not take go through `slow`,
 * the row path's `csvCell` / `jsonText` text.
 */
import { copyBytes } from '../bytes/concat.js';
import { CELL_COPY, DATE_ROOM, DOUBLE_ROOM, INT_ROOM, TIMESTAMP_ROOM, writeDate, writeFinite, writeInt, writeTimestamp, type TextBytes } from './text-bytes.js';

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

/** The most bytes a value of each kind but TEXT and ASCII (their longest value's, up to LONG_CELL) writes, but through `slow`. */
const ROOM = [0, 0, INT_ROOM, INT_ROOM, DOUBLE_ROOM, DATE_ROOM, TIMESTAMP_ROOM, 5, 0, 0];

/**
 * Room made ahead for a TEXT or ASCII cell at most: a longer one makes its
 * own, so one long value in a chunk does not grow every block's buffer to
 * its size.
 */
export const LONG_CELL = 1024;

const encoder = new TextEncoder();
const TRUE = encoder.encode('true');
const FALSE = encoder.encode('false');
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
  /** The most bytes a cell takes but through `slow` or `row` (which make their own room). */
  room = 0;
  /** Writes value k where its kind's fast form does not (VALUE: every value). */
  slow: CellWriter = nothing;
  /** ROW: writes row r's cell, rows in order. */
  row: CellWriter = nothing;

  /** Sets the kind, and the room of a kind of bounded values. */
  of(kind: number): this {
    this.kind = kind;
    this.room = ROOM[kind]!;
    return this;
  }
}

/**
 * Writes value k of `c` (an entry index when c.indices maps values to
 * entries) at out.buf[p], where the caller made room for c.room bytes, and
 * returns the end. A value through `slow` grows out.buf as it needs: read
 * it again after.
 */
export function writeValue(out: TextBytes, c: Cells, k: number, p: number): number {
  let buf = out.buf;
  let end = -1;
  switch (c.kind) {
    case TEXT: {
      const s = c.offsets[k]!;
      const e = c.offsets[k + 1]!;
      if (e - s > c.room) buf = roomFor(out, p, e - s);
      copyBytes(buf, p, c.bytes, s, e, CELL_COPY);
      return p + e - s;
    }
    case ASCII: {
      const s = c.offsets[k]!;
      const e = c.offsets[k + 1]!;
      if (e - s + 2 > c.room) buf = roomFor(out, p, e - s + 2);
      if (!c.quoted && s !== e) {
        copyBytes(buf, p, c.bytes, s, e, CELL_COPY);
        return p + e - s;
      }
      // JSON's quotes, or CSV's empty string ("", apart from null's empty cell).
      buf[p++] = 34;
      copyBytes(buf, p, c.bytes, s, e, CELL_COPY);
      p += e - s;
      buf[p++] = 34;
      return p;
    }
    case INT32:
      return writeInt(buf, p, c.ints[k]!);
    case INT64: {
      // The two halves as numbers: no bigint made for a value within 2^53.
      const v = c.ints[2 * k + 1]! * 4294967296 + (c.ints[2 * k]! >>> 0);
      if (Math.abs(v) <= Number.MAX_SAFE_INTEGER) return writeInt(buf, p, v);
      break;
    }
    case DOUBLE:
      if (Number.isFinite(c.doubles[k]!)) end = writeFinite(buf, p, c.doubles, k);
      break;
    case DATE:
      end = writeDate(buf, p, c.ints[k]!, c.quoted);
      break;
    case TIMESTAMP:
      end = writeTimestamp(buf, p, c.ints[2 * k + 1]!, c.ints[2 * k]!, c.per, c.tail);
      break;
    case BOOL: {
      const b = c.bytes[k] ? TRUE : FALSE;
      for (let i = 0; i < b.length; i++) buf[p++] = b[i]!;
      return p;
    }
  }
  if (end >= 0) return end;
  out.pos = p;
  c.slow(out, k);
  return out.pos;
}

/** Room for n bytes at p, past what was made ahead (a long cell): the buffer, grown where it must. */
function roomFor(out: TextBytes, p: number, n: number): Uint8Array {
  out.pos = p;
  out.room(n);
  return out.buf;
}

/** Writes value k of `c` at out.pos, making room first. */
export function putValue(out: TextBytes, c: Cells, k: number): void {
  out.room(c.room);
  out.pos = writeValue(out, c, k, out.pos);
}

/**
 * Rows [from, to) into `out`: each row its fields' cells, each after its
 * prefix (the delimiter, the JSON key), then `end`.
 */
export function writeRows(out: TextBytes, cells: Cells[], prefixes: Uint8Array[], end: Uint8Array, from: number, to: number): void {
  let p = out.pos;
  for (let r = from; r < to; r++) {
    for (let f = 0; f < cells.length; f++) {
      const c = cells[f]!;
      const pre = prefixes[f]!;
      if (p + pre.length + c.room > out.buf.length) {
        out.pos = p;
        out.room(pre.length + c.room);
      }
      const buf = out.buf;
      for (let j = 0; j < pre.length; j++) buf[p++] = pre[j]!;
      if (c.kind === ROW) {
        out.pos = p;
        c.row(out, r);
        p = out.pos;
        continue;
      }
      const k = c.index === null ? r : c.index[r]!;
      if (k >= 0) p = writeValue(out, c, c.indices === null ? k : c.indices[k]!, p);
      else for (let j = 0; j < c.nullCell.length; j++) buf[p++] = c.nullCell[j]!;
    }
    if (p + end.length > out.buf.length) {
      out.pos = p;
      out.room(end.length);
    }
    const buf = out.buf;
    for (let j = 0; j < end.length; j++) buf[p++] = end[j]!;
  }
  out.pos = p;
}
