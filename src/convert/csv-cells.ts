/**
 * CSV cells into built columns (column-builders.ts), a column's cells at a
 * time: from the input's bytes where the cell has the common form of its
 * type (digits, `YYYY-MM-DD`, a string's bytes copied), with no JS string
 * made, and through the cell reader and the writer's coercion otherwise
 * (the same text parsed by the same rules, so the same values and the same
 * refusals). The values are stored as the writer stores them, so it takes
 * them without checking them again.
 */
import { InvalidArgumentError } from '../errors.js';
import { leafCoercer } from '../schema/coerce.js';
import { csvCellParser } from '../schema/infer.js';
import { daysFromCivil, isLeap, MONTH_DAYS } from '../schema/temporal-text.js';
import type { LeafNode } from '../schema/tree.js';
import { advised } from './row-problem.js';
import { AnyBuilder, BytesBuilder, Int64Builder, NumberBuilder, type ColumnBuilder } from './column-builders.js';

/** One column's cells into its builder; a cell that does not fit throws InvalidArgumentError (with the column) and adds nothing. */
export interface CellColumn {
  readonly builder: ColumnBuilder;
  /** An empty cell (null). */
  empty(): void;
  /** A non-empty cell's bytes src[start, end) (valid UTF-8); `escaped`: a quoted cell's, with `""` for each quote. */
  bytes(src: Uint8Array, start: number, end: number, escaped: boolean): void;
  /** A non-empty cell's text. */
  text(cell: string): void;
}

const decoder = new TextDecoder();

/** A cell's text from its bytes. */
function cellText(src: Uint8Array, start: number, end: number, escaped: boolean): string {
  const s = decoder.decode(src.subarray(start, end));
  return escaped ? s.replaceAll('""', '"') : s;
}

const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const ZERO = 48;

/** Integer bytes of at most 15 digits (a double holds them exactly) with an optional sign, as a number; NaN for any other. */
export function smallInteger(b: Uint8Array, i: number, end: number): number {
  let neg = false;
  const c = b[i]!;
  if (c === MINUS || c === PLUS) {
    neg = c === MINUS;
    i++;
  }
  if (end - i < 1 || end - i > 15) return NaN;
  let v = 0;
  for (; i < end; i++) {
    const d = b[i]! - ZERO;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return (neg ? -v : v) + 0; // + 0: "-0" is 0
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Where readDecimal and readTimestamp put the number they read. A double
 * given back by a call V8 does not inline is a heap number made per cell
 * (two million for the bench's two DOUBLE columns); stored here it is not.
 */
export const cellNumber = new Float64Array(1);

/**
 * Decimal bytes `[+-]?(0|[1-9][0-9]*)(\.[0-9]*)?` of at most 15 digits into
 * `cellNumber[0]`, as the double `Number` gives (the digits and the power of
 * ten are exact doubles, so their quotient is correctly rounded); false for
 * any other.
 */
export function readDecimal(b: Uint8Array, i: number, end: number): boolean {
  let neg = false;
  let c = b[i]!;
  if (c === MINUS || c === PLUS) {
    neg = c === MINUS;
    c = b[++i]!;
  }
  if (i >= end || c === DOT || (c === ZERO && i + 1 < end && b[i + 1] !== DOT)) return false;
  let v = 0;
  let digits = 0;
  let scale = -1;
  for (; i < end; i++) {
    const d = b[i]! - ZERO;
    if (d >= 0 && d <= 9) {
      v = v * 10 + d;
      digits++;
    } else if (d === DOT - ZERO && scale < 0) scale = digits;
    else return false;
  }
  if (digits > 15) return false;
  const q = scale < 0 ? v : v / POW10[digits - scale]!;
  cellNumber[0] = neg ? -q : q;
  return true;
}

function two(b: Uint8Array, i: number): number {
  const h = b[i]! - ZERO;
  const l = b[i + 1]! - ZERO;
  return h >= 0 && h <= 9 && l >= 0 && l <= 9 ? h * 10 + l : -1;
}

/** Days since 1970-01-01 of `YYYY-MM-DD` at b[i], a valid date; NaN for any other. */
function dateAt(b: Uint8Array, i: number): number {
  const y1 = two(b, i);
  const y2 = two(b, i + 2);
  const m = two(b, i + 5);
  const d = two(b, i + 8);
  if (y1 < 0 || y2 < 0 || b[i + 4] !== MINUS || b[i + 7] !== MINUS || m < 1 || m > 12 || d < 1) return NaN;
  const y = y1 * 100 + y2;
  if (d > (m === 2 && isLeap(y) ? 29 : MONTH_DAYS[m - 1]!)) return NaN;
  return daysFromCivil(y, m, d);
}

/**
 * Microseconds since the epoch of `YYYY-MM-DD[Tt ]HH:MM:SS[.f{1,6}]` (no
 * zone: read as UTC, as the coercion reads it) into `cellNumber[0]`, when a
 * double holds them exactly; false for any other.
 */
export function readTimestamp(b: Uint8Array, start: number, end: number): boolean {
  if (end - start < 19) return false;
  const days = dateAt(b, start);
  const sep = b[start + 10];
  if (days !== days || (sep !== 84 && sep !== 116 && sep !== 32)) return false;
  const h = two(b, start + 11);
  const mi = two(b, start + 14);
  const s = two(b, start + 17);
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 || b[start + 13] !== 58 || b[start + 16] !== 58) return false;
  let micros = 0;
  let i = start + 19;
  if (i < end) {
    if (b[i] !== DOT || end - i < 2 || end - i > 7) return false;
    let scale = 100_000;
    for (i++; i < end; i++, scale /= 10) {
      const d = b[i]! - ZERO;
      if (d < 0 || d > 9) return false;
      micros += d * scale;
    }
  }
  const secs = days * 86400 + h * 3600 + mi * 60 + s;
  // Years 1685 to 2255: beyond them the microseconds may pass 2^53.
  if (Math.abs(secs) >= 9e9) return false;
  cellNumber[0] = secs * 1e6 + micros;
  return true;
}

/** readTimestamp's number, NaN for bytes of another form. */
export function timestampMicros(b: Uint8Array, start: number, end: number): number {
  return readTimestamp(b, start, end) ? cellNumber[0]! : NaN;
}

/** The cell of a date column, read by `dateAt` when it has the length of `YYYY-MM-DD`. */
export function dateCell(b: Uint8Array, start: number, end: number): number {
  return end - start === 10 ? dateAt(b, start) : NaN;
}

export function int32Cell(b: Uint8Array, start: number, end: number): number {
  const v = smallInteger(b, start, end);
  return v === (v | 0) ? v : NaN;
}

type CellBytes = (src: Uint8Array, start: number, end: number, escaped: boolean) => void;

/** The cell columns of a schema's top-level leaves; `advices[i]`: what column i's refusals add (how to give its type). */
export function cellColumns(leaves: readonly LeafNode[], advices: ReadonlyArray<string | undefined>): CellColumn[] {
  return leaves.map((leaf, i) => cellColumn(leaf, advices[i]));
}

function cellColumn(leaf: LeafNode, advice: string | undefined): CellColumn {
  const column = leaf.path.join('.');
  const required = leaf.defLevel === 0;
  const read = advised(csvCellParser(leaf), advice);
  const coerce = advised(leafCoercer(leaf), advice);
  /** The column's value of a cell's text, as the writer stores it. */
  const physical = (s: string) => coerce(read(s));
  const k = leaf.kind;
  const base = (builder: ColumnBuilder, text: (s: string) => void, bytes: CellBytes): CellColumn => ({
    builder,
    empty: required ? () => {
      throw new InvalidArgumentError('expected a value (the column is required)', { column });
    } : () => builder.null(),
    text,
    bytes,
  });
    switch (leaf.physicalType) {
    case 'BYTE_ARRAY':
      if (k.kind === 'string') {
        const b = new BytesBuilder();
        return base(b, (s) => b.addText(s), (src, start, end, escaped) => b.addBytes(src, start, end, escaped));
      }
      break;
    // A number column's cells: the common form read from the bytes (NaN or false: not that form), any other through `text`.
    // One function literal per reader, each calling its own: one shared (a reader passed in) called five readers
    // from one place, which V8 could not inline, and each number it gave back was boxed.
    case 'INT32':
      if ((k.kind === 'int' && k.signed && k.bitWidth === 32) || k.kind === 'date') {
        const b = new NumberBuilder(Int32Array);
        const text = (s: string) => b.add(physical(s) as number);
        const bytes: CellBytes = k.kind === 'date'
          ? (src, start, end, escaped) => { const v = escaped ? NaN : dateCell(src, start, end); if (v === v) b.add(v); else text(cellText(src, start, end, escaped)); }
          : (src, start, end, escaped) => { const v = escaped ? NaN : int32Cell(src, start, end); if (v === v) b.add(v); else text(cellText(src, start, end, escaped)); };
        return base(b, text, bytes);
      }
      break;
    case 'INT64':
      if ((k.kind === 'int' && k.signed) || (k.kind === 'timestamp' && k.unit === 'MICROS')) {
        const b = new Int64Builder();
        const text = (s: string) => b.add(physical(s) as bigint);
        const bytes: CellBytes = k.kind === 'int'
          ? (src, start, end, escaped) => { const v = escaped ? NaN : smallInteger(src, start, end); if (v === v) b.addNumber(v); else text(cellText(src, start, end, escaped)); }
          : (src, start, end, escaped) => { if (!escaped && readTimestamp(src, start, end)) b.addNumber(cellNumber[0]!); else text(cellText(src, start, end, escaped)); };
        return base(b, text, bytes);
      }
      break;
    case 'DOUBLE':
      if (k.kind === 'float') {
        const b = new NumberBuilder(Float64Array);
        const text = (s: string) => b.add(physical(s) as number);
        return base(b, text, (src, start, end, escaped) => { if (!escaped && readDecimal(src, start, end)) b.add(cellNumber[0]!); else text(cellText(src, start, end, escaped)); });
      }
      break;
    case 'BOOLEAN': {
      const b = new NumberBuilder(Uint8Array);
      const text = (s: string) => b.add(physical(s) ? 1 : 0);
      return base(b, text, (src, start, end, escaped) => {
        const n = end - start;
        if (!escaped && n === 4 && src[start] === 116 && src[start + 1] === 114 && src[start + 2] === 117 && src[start + 3] === 101) b.add(1);
        else if (!escaped && n === 5 && src[start] === 102 && src[start + 1] === 97 && src[start + 2] === 108 && src[start + 3] === 115 && src[start + 4] === 101) b.add(0);
        else text(cellText(src, start, end, escaped));
      });
    }
  }
  // Any other type: the cell reader's value, checked as the writer will take it, which coerces it itself
  // (dates and timestamps kept as the check gives them, so their text is parsed once).
  const b = new AnyBuilder();
  const keep = k.kind === 'date' || k.kind === 'timestamp';
  const text = (s: string) => {
    const v = read(s);
    const checked = v === null ? v : coerce(v);
    b.add(keep ? checked : v);
  };
  return base(b, text, (src, start, end, escaped) => text(cellText(src, start, end, escaped)));
}

/** Takes back the cells of row `row` that columns[0, k) took. */
function takeBack(columns: readonly CellColumn[], k: number, row: number): void {
  for (let j = 0; j < k; j++) columns[j]!.builder.rollback(row);
}

/** A record's text cells into the columns (as many), all or none: a cell that does not fit throws, its row's cells before it taken back. */
export function addTextCells(columns: readonly CellColumn[], cells: readonly string[]): void {
  const row = columns[0]?.builder.rows ?? 0;
  let k = 0;
  try {
    for (; k < columns.length; k++) {
      const cell = cells[k]!;
      if (cell === '') columns[k]!.empty();
      else columns[k]!.text(cell);
    }
  } catch (e) {
    takeBack(columns, k, row);
    throw e;
  }
}

/** A record's cells as byte ranges of `bytes` into the columns (as many), all or none, as addTextCells. */
export function addByteCells(columns: readonly CellColumn[], bytes: Uint8Array, starts: Int32Array, ends: Int32Array, escaped: Uint8Array): void {
  const row = columns[0]?.builder.rows ?? 0;
  let k = 0;
  try {
    for (; k < columns.length; k++) {
      const s = starts[k]!;
      const e = ends[k]!;
      if (s === e) columns[k]!.empty();
      else columns[k]!.bytes(bytes, s, e, escaped[k] === 1);
    }
  } catch (e) {
    takeBack(columns, k, row);
    throw e;
  }
}
