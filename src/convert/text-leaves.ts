/**
 * A Parquet leaf's cells for text (text-columns.ts): its decoded chunk as
 * a `Cells` of the kind that prints it fastest (a dictionary's entries
 * printed once ahead, strings that need no escape as their bytes, numbers,
 * dates and timestamps from their vectors), anything else through the row
 * path's `csvCell` / `jsonText` text.
 */
import { CorruptFileError } from '../errors.js';
import { isByteArrays, valueCount, type ByteArrays, type Values } from '../encodings/types.js';
import { LITTLE_ENDIAN } from '../encodings/bits.js';
import { valueReader, type ValueOptions } from '../schema/convert.js';
import type { LeafNode } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import { TextBytes } from './text-bytes.js';
import { ASCII, BOOL, Cells, DATE, DOUBLE, INT32, INT64, LONG_CELL, putValue, ROW, TEXT, TIMESTAMP, type CellWriter } from './text-cells.js';
import { jsonText } from './write-text.js';

const encoder = new TextEncoder();

/** What the text is: CSV (or TSV) with its delimiter, or JSON Lines. */
export interface TextForm {
  format: 'csv' | 'jsonl';
  delimiter: string;
}

/** Values as the row path reads them for text: dates and timestamps as ISO text. */
export const OPTIONS: ValueOptions = { temporal: 'iso' };

const UNITS_PER_SECOND = { MILLIS: 1000, MICROS: 1e6, NANOS: 1e9 };

/** Cell text of a value in the row path's words. */
export type CellText = (v: unknown) => string;

/** A dictionary's entries' cells, each written once, into one buffer. */
function dictionaryCells(entries: Cells, n: number): Cells {
  const text = new TextBytes(Math.min(1 << 20, 16 * n + 16));
  const at = new Int32Array(n + 1);
  const c = new Cells().of(TEXT);
  for (let i = 0; i < n; i++) {
    at[i] = text.pos;
    putValue(text, entries, i);
    c.room = Math.min(LONG_CELL, Math.max(c.room, text.pos - at[i]!));
  }
  at[n] = text.pos;
  c.bytes = text.buf;
  c.offsets = at;
  return c;
}

/**
 * A chunk's values as cells, value k its k-th non-null value. A dictionary
 * chunk's entries are written once ahead when `ahead` (a piece of a row
 * group smaller than its dictionary writes each entry as often as met).
 */
function chunkCells(leaf: LeafNode, c: ColumnChunkData, form: TextForm, cell: CellText, ahead: (entries: number) => boolean): Cells {
  if (!(c.indices && c.dictionary)) return valuesCells(leaf, c.values!, form, cell);
  const n = valueCount(c.dictionary);
  const entries = valuesCells(leaf, c.dictionary, form, cell);
  const cells = ahead(n) ? dictionaryCells(entries, n) : entries;
  cells.indices = c.indices;
  return cells;
}

/**
 * The cells of a top-level leaf that is not repeated, for `rows` rows:
 * the chunk checked first as the record assembler checks it (one level
 * entry per row, as many values as the levels define). `span` of them are
 * written (a thread's piece may be less than the row group): a dictionary's
 * entries are written once ahead only when they are no more than that.
 */
export function leafCells(leaf: LeafNode, c: ColumnChunkData, rows: number, span: number, form: TextForm, cell: CellText): Cells {
  const path = leaf.path.join('.');
  if (c.length !== rows) {
    throw new CorruptFileError(c.length < rows ? `column ${path} ran out of values before the last row` : `column ${path} has ${c.length - rows} level entries beyond the last row`);
  }
  // Row r's value index, or -1 for a null: only for a leaf with nulls. The
  // reader's decoders check each level against the maximum and count those
  // at it (valueCount): a chunk with a value per row has every level there.
  let index: Int32Array | null = null;
  let taken = rows;
  if (c.def !== null && c.valueCount !== rows) {
    const def = c.def;
    const max = leaf.defLevel;
    index = new Int32Array(rows);
    let k = 0;
    for (let r = 0; r < rows; r++) {
      const d = def[r]!;
      if (d === max) index[r] = k++;
      else if (d > max) throw new CorruptFileError(`column ${path} has definition level ${d} above its maximum ${max}`);
      else index[r] = -1;
    }
    taken = k;
  }
  if (taken !== c.valueCount) throw new CorruptFileError(`column ${path} has ${c.valueCount} values but its levels define ${taken}`);
  const cells = chunkCells(leaf, c, form, cell, (n) => n <= span);
  cells.index = index;
  cells.nullCell = form.format === 'csv' ? new Uint8Array(0) : encoder.encode('null');
  cells.room = Math.max(cells.room, cells.nullCell.length);
  return cells;
}

/** Writes the k-th non-null value of a chunk as a cell (a dictionary's entries written once ahead). */
export function valueCells(leaf: LeafNode, c: ColumnChunkData, form: TextForm, cell: CellText): CellWriter {
  const cells = chunkCells(leaf, c, form, cell, () => true);
  const indices = cells.indices;
  return indices === null ? (out, k) => putValue(out, cells, k) : (out, k) => putValue(out, cells, indices[k]!);
}

/** The cells of `values` (a chunk's values or its dictionary), by the fastest form that prints the row path's text. */
function valuesCells(leaf: LeafNode, values: Values, form: TextForm, cell: CellText): Cells {
  const c = new Cells();
  const value = valueReader(leaf.kind, values, OPTIONS);
  c.slow = (out, k) => out.text(cell(value(k)));
  const kind = leaf.kind;
  // A CSV delimiter that a date's or a timestamp's text holds would have the row path quote it.
  const plainTemporal = form.format === 'jsonl' || !/[\d:.TZ+-]/.test(form.delimiter);
  if (kind.kind === 'date' && values instanceof Int32Array && plainTemporal) {
    c.of(DATE).ints = values;
    c.quoted = form.format === 'jsonl';
    return c;
  }
  if (kind.kind === 'timestamp' && values instanceof BigInt64Array && LITTLE_ENDIAN && plainTemporal) {
    c.of(TIMESTAMP).ints = halves(values);
    c.per = UNITS_PER_SECOND[kind.unit];
    c.tail = form.format === 'jsonl' ? (kind.utc ? 'Z"' : '"') : kind.utc ? 'Z' : '';
    return c;
  }
  if (kind.kind === 'boolean' && values instanceof Uint8Array) {
    c.of(BOOL).bytes = values;
    return c;
  }
  const array = value.array;
  if (array instanceof Int32Array) {
    c.of(INT32).ints = array;
  } else if (array instanceof BigInt64Array && LITTLE_ENDIAN) {
    c.of(INT64).ints = halves(array);
  } else if (array instanceof Float64Array) {
    c.of(DOUBLE).doubles = array;
  } else if (array instanceof Float32Array) {
    c.slow = (out, k) => {
      if (Number.isFinite(array[k]!)) out.double(array, k);
      else out.text(cell(array[k]!));
    };
  } else if (leaf.kind.kind === 'string' && isByteArrays(values)) {
    const longest = plainAscii(values, form);
    if (longest >= 0) {
      c.of(ASCII).bytes = values.data;
      c.offsets = values.offsets;
      c.quoted = form.format === 'jsonl';
      c.room = Math.min(LONG_CELL, longest + 2);
      return c;
    }
    const ascii = form.format === 'csv' ? csvAscii(values, form.delimiter) : jsonAscii(values);
    if (ascii) {
      c.slow = (out, k) => {
        if (!ascii(out, k)) out.text(cell(value(k)));
      };
    }
  }
  return c;
}

/** A 64-bit array's halves as 32-bit integers (little-endian: low first). */
function halves(a: BigInt64Array): Int32Array {
  return new Int32Array(a.buffer, a.byteOffset, a.length * 2);
}

/**
 * The longest value's length when every value's bytes are ASCII and print
 * as they are (CSV: no delimiter, quote, CR or LF; JSON: no quote,
 * backslash or control), else -1: one pass over the chunk's bytes, then
 * each cell is a copy.
 */
function plainAscii({ data, offsets }: ByteArrays, form: TextForm): number {
  const s = offsets[0]!;
  const e = offsets[offsets.length - 1]!;
  if (form.format === 'jsonl') {
    for (let i = s; i < e; i++) {
      const b = data[i]!;
      if (b < 0x20 || b >= 0x80 || b === 34 || b === 92) return -1;
    }
  } else {
    const delim = form.delimiter.charCodeAt(0);
    if (form.delimiter.length !== 1 || delim >= 0x80) return -1;
    for (let i = s; i < e; i++) {
      const b = data[i]!;
      if (b >= 0x80 || b === delim || b === 34 || b === 10 || b === 13) return -1;
    }
  }
  let longest = 0;
  for (let k = 1; k < offsets.length; k++) longest = Math.max(longest, offsets[k]! - offsets[k - 1]!);
  return longest;
}

/** Writes value k's CSV cell from its bytes when they are all ASCII (else writes nothing and says false). */
function csvAscii({ data, offsets }: ByteArrays, delimiter: string): ((out: TextBytes, k: number) => boolean) | undefined {
  const delim = delimiter.charCodeAt(0);
  if (delimiter.length !== 1 || delim >= 0x80) return undefined;
  return (out, k) => {
    const s = offsets[k]!;
    const e = offsets[k + 1]!;
    let quote = s === e;
    for (let i = s; i < e; i++) {
      const b = data[i]!;
      if (b >= 0x80) return false;
      if (b === delim || b === 34 || b === 10 || b === 13) quote = true;
    }
    out.room(2 * (e - s) + 2);
    const buf = out.buf;
    let p = out.pos;
    if (quote) buf[p++] = 34;
    for (let i = s; i < e; i++) {
      const b = data[i]!;
      if (b === 34) buf[p++] = 34;
      buf[p++] = b;
    }
    if (quote) buf[p++] = 34;
    out.pos = p;
    return true;
  };
}

/** JSON.stringify's escapes of the ASCII controls it does not write as \u00XX. */
const SHORT_ESCAPES: Record<number, number> = { 8: 98, 9: 116, 10: 110, 12: 102, 13: 114 };
const HEX = encoder.encode('0123456789abcdef');

/** Writes value k as a JSON string (as JSON.stringify writes it) from its bytes when they are all ASCII (else writes nothing and says false). */
function jsonAscii({ data, offsets }: ByteArrays): (out: TextBytes, k: number) => boolean {
  return (out, k) => {
    const s = offsets[k]!;
    const e = offsets[k + 1]!;
    for (let i = s; i < e; i++) if (data[i]! >= 0x80) return false;
    out.room(6 * (e - s) + 2);
    const buf = out.buf;
    let p = out.pos;
    buf[p++] = 34;
    for (let i = s; i < e; i++) {
      const b = data[i]!;
      if (b >= 0x20 && b !== 34 && b !== 92) {
        buf[p++] = b;
      } else if (b === 34 || b === 92) {
        buf[p++] = 92;
        buf[p++] = b;
      } else if (SHORT_ESCAPES[b] !== undefined) {
        buf[p++] = 92;
        buf[p++] = SHORT_ESCAPES[b];
      } else {
        buf[p++] = 92;
        buf[p++] = 117;
        buf[p++] = 48;
        buf[p++] = 48;
        buf[p++] = HEX[b >> 4]!;
        buf[p++] = HEX[b & 15]!;
      }
    }
    buf[p++] = 34;
    out.pos = p;
    return true;
  };
}

/** Nested values' text: JSON's, in a CSV cell too. */
export const JSON_FORM: TextForm = { format: 'jsonl', delimiter: ',' };

/** A field written row by row, in row order. */
export function rowCells(row: CellWriter): Cells {
  const c = new Cells().of(ROW);
  c.row = row;
  return c;
}
