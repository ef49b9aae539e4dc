/**
 * CSV and JSON Lines written straight from a Parquet file's decoded column
 * chunks, a row group at a time: no row object per record. Each top-level
 * leaf becomes its `Cells` (text-cells.ts: its vectors and how to print
 * them: integers as digits with no string between, a dictionary's entries
 * printed once, ASCII strings copied from their bytes) and `writeRows`
 * writes the rows from them straight into the text, in row order; every
 * other value goes through write-text.ts's `csvCell` and `jsonText`, so a
 * cell is the row path's, byte for byte. A struct of flat leaves and a
 * list of a leaf are written here from their leaves' cells; other nested
 * fields (structs, lists, maps) are printed from their levels
 * (text-nested.ts), or assembled by the reader's `RecordAssembler` and
 * printed as the row path prints them.
 * A row group whose chunks come in windows (reader.ts's `large`) is read as
 * rows, as are files with VARIANT columns or two top-level fields of one
 * name.
 */
import { CorruptFileError, InvalidArgumentError, withContext, type ErrorContext } from '../errors.js';
import { isByteArrays, valueCount, type ByteArrays, type Values } from '../encodings/types.js';
import { leafColumn, RecordAssembler } from '../parquet/row-decoding.js';
import type { ParquetReader } from '../parquet/reader.js';
import type { ColumnBatch } from '../parquet/read-options.js';
import { valueReader, type ValueOptions } from '../schema/convert.js';
import { buildSchema, type ColumnPath, type GroupNode, type LeafNode, type SchemaElementLike } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import { leavesInVariants, planRecord, type LeafPlan, type ListPlan, type Plan, type RecordPlan, type StructPlan } from '../shred/plan.js';
import { skipLeafRows } from '../shred/assemble.js';
import type { TextBatch } from './output.js';
import { inOrder, NestedText } from './text-nested.js';
import { csvCell, jsonText } from './write-text.js';
import { LITTLE_ENDIAN } from '../encodings/bits.js';
import { TextBytes } from './text-bytes.js';
import { ASCII, BOOL, Cells, DATE, DOUBLE, INT32, INT64, putValue, ROW, TEXT, TIMESTAMP, writeRows, type CellWriter } from './text-cells.js';

/** What the text is: CSV (or TSV) with its delimiter, or JSON Lines. */
export interface TextForm {
  format: 'csv' | 'jsonl';
  delimiter: string;
}

/** Rows per text batch: about 1 MB of text for a row of 250 bytes. */
const BLOCK_ROWS = 4096;

const OPTIONS: ValueOptions = { temporal: 'iso' };

const encoder = new TextEncoder();

const UNITS_PER_SECOND = { MILLIS: 1000, MICROS: 1e6, NANOS: 1e9 };

/** Cell text of a value in the row path's words. */
type CellText = (v: unknown) => string;

/** A dictionary's entries' cells, each written once, into one buffer. */
function dictionaryCells(entries: Cells, n: number): Cells {
  const text = new TextBytes(Math.min(1 << 20, 16 * n + 16));
  const at = new Int32Array(n + 1);
  const c = new Cells().of(TEXT);
  for (let i = 0; i < n; i++) {
    at[i] = text.pos;
    putValue(text, entries, i);
    c.room = Math.max(c.room, text.pos - at[i]!);
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
function leafCells(leaf: LeafNode, c: ColumnChunkData, rows: number, span: number, form: TextForm, cell: CellText): Cells {
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
function valueCells(leaf: LeafNode, c: ColumnChunkData, form: TextForm, cell: CellText): CellWriter {
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
      c.room = longest + 2;
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

/** How a file's rows become text: its plan's top-level fields, split into leaves written from vectors and nested fields. */
interface TextPlan {
  plan: RecordPlan;
  /** Per top-level field in output order: a flat leaf's index in plan.leaves, a struct of such leaves, or the nested field's name and index in `nested`'s fields. */
  fields: ({ leaf: number } | { struct: StructPlan } | { list: ListPlan } | { nested: string; at: number })[];
  /** Bytes before each field's cell: the delimiter, or the JSON key. */
  prefixes: Uint8Array[];
  end: Uint8Array;
  /** The nested fields' own plan, over their leaves (`nestedLeaves`: their indices in plan.leaves). */
  nested: RecordPlan | null;
  nestedLeaves: number[];
}

/** A leaf of one value a row. */
function flatLeaf(p: Plan): p is LeafPlan {
  return p.t === 'leaf' && p.width === 1 && p.leaf.repLevel === 0;
}

/** A struct of such leaves, its keys printed in field order: written from its leaves' cells, with no level walk. */
function flatStruct(p: Plan): p is StructPlan {
  return p.t === 'struct' && p.fields.length > 0 && p.fields.every((f) => flatLeaf(f.plan)) && inOrder(p.fields.map((f) => f.name));
}

/** A list of a leaf, not within another list. */
function flatList(p: Plan): p is ListPlan {
  return p.t === 'list' && p.rep === 1 && p.element.t === 'leaf' && p.element.leaf.repLevel === 1;
}

/** The plan of a file's text (`plan`: its selected fields), or undefined where the rows go through row objects (no leaf, a VARIANT, two fields of one name). */
function textPlan(root: GroupNode, plan: RecordPlan, form: TextForm): TextPlan | undefined {
  const names = plan.fields.map((f) => f.name);
  if (plan.leaves.length === 0 || new Set(names).size !== names.length || leavesInVariants(plan).includes(true)) return undefined;
  // A JSON object's keys come in Object.keys order (integer-like names first), as jsonText prints a row.
  const order = form.format === 'jsonl' ? Object.keys(Object.fromEntries(names.map((n) => [n, 0]))) : names;
  const byName = new Map(plan.fields.map((f) => [f.name, f.plan]));
  const keep = new Set<LeafNode>();
  // Nested text as CSV is JSON quoted on the bytes, for a delimiter of one ASCII byte (else through the assembler's objects).
  const onBytes = form.format === 'jsonl' || (form.delimiter.length === 1 && form.delimiter.charCodeAt(0) < 0x80);
  for (const p of plan.fields.map((f) => f.plan)) {
    if (!(flatLeaf(p) || (onBytes && (flatStruct(p) || flatList(p))))) for (let l = p.first; l < p.first + p.width; l++) keep.add(plan.leaves[l]!);
  }
  const nested = keep.size > 0 ? planRecord(root, (l) => keep.has(l)) : null;
  const nestedNames = nested ? nested.fields.map((f) => f.name) : [];
  const fields = order.map((name): TextPlan['fields'][number] => {
    const p = byName.get(name)!;
    if (flatLeaf(p)) return { leaf: p.first };
    if (onBytes && flatStruct(p)) return { struct: p };
    return onBytes && flatList(p) ? { list: p } : { nested: name, at: nestedNames.indexOf(name) };
  });
  const nestedLeaves = nested ? nested.leaves.map((l) => plan.leaves.indexOf(l)) : [];
  const prefixes = order.map((name, i) => encoder.encode(form.format === 'csv' ? (i ? form.delimiter : '') : `${i ? ',' : '{'}${JSON.stringify(name)}:`));
  return { plan, fields, prefixes, end: encoder.encode(form.format === 'csv' ? '\n' : '}\n'), nested, nestedLeaves };
}

const JSON_FORM: TextForm = { format: 'jsonl', delimiter: ',' };

/** A field written row by row, in row order. */
function rowCells(row: CellWriter): Cells {
  const c = new Cells().of(ROW);
  c.row = row;
  return c;
}

/**
 * The nested fields' cells, row by row: from their levels
 * (text-nested.ts), else through the record assembler's objects (a row's
 * object read when its first nested field is written).
 */
function nestedCells(t: TextPlan, chunks: ColumnChunkData[], form: TextForm, cell: CellText, ctx: ErrorContext): { cells: Map<number, Cells>; skipRows: (n: number) => void; finish: () => void } | undefined {
  const nested = t.nested;
  if (!nested) return undefined;
  const leaves = t.plan.leaves;
  const inContext = <T>(l: number, f: () => T): T => withContext({ ...ctx, column: leaves[l]!.path.join('.') }, f);
  const cells = new Map<number, Cells>();
  const delim = form.format === 'csv' && form.delimiter.length === 1 ? form.delimiter.charCodeAt(0) : 0x80;
  // A struct, list or map as CSV: its JSON text (bigints as digits), quoted on the bytes when it must be (csvCell's form).
  const bigDigits = form.format === 'csv';
  const text = form.format === 'jsonl' || delim < 0x80
    ? NestedText.of(nested, t.nestedLeaves.map((l) => inContext(l, () => {
      const c = chunks[l]!;
      return { def: c.def, rep: c.rep, length: c.length, maxDef: leaves[l]!.defLevel, valueCount: c.valueCount, value: valueCells(leaves[l]!, c, JSON_FORM, (v) => jsonText(v, bigDigits)) };
    })))
    : undefined;
  if (text) {
    t.fields.forEach((f, i) => {
      if (!('nested' in f)) return;
      const at = f.at;
      cells.set(i, rowCells(form.format === 'jsonl' ? (out) => void text.field(at, out) : (out) => {
        const start = out.pos;
        if (text.field(at, out)) out.pos = start; // a null: the empty cell
        else out.quoteSince(start, delim);
      }));
    });
    return { cells, skipRows: (n) => text.skipRows(n), finish: () => text.finish() };
  }
  const asm = new RecordAssembler(nested, t.nestedLeaves.map((l) => inContext(l, () => leafColumn(leaves[l]!, chunks[l]!, OPTIONS))));
  let obj: Record<string, unknown> = {};
  let objRow = -1;
  t.fields.forEach((f, i) => {
    if (!('nested' in f)) return;
    cells.set(i, rowCells((out, r) => {
      if (objRow !== r) {
        obj = asm.readRow();
        objRow = r;
      }
      out.text(cell(obj[f.nested]));
    }));
  });
  return { cells, skipRows: (n) => asm.skipRows(n), finish: () => asm.finish() };
}

/**
 * A struct of leaves with one value a row (flatStruct) as JSON: its
 * members' cells after their keys, each row; null where its first leaf's
 * level says so, as the record assembler reads it (a member with a value
 * there is one the assembler would leave unread: it fails the file). As
 * CSV, the JSON quoted on the bytes where it must be (csvCell's form).
 */
function structCells(p: StructPlan, leaves: LeafNode[], chunks: ColumnChunkData[], rows: number, span: number, form: TextForm, ctx: ErrorContext): Cells {
  const cell: CellText = (v) => jsonText(v, form.format === 'csv');
  const at = p.fields.map((f) => f.plan.first);
  const members = at.map((l) => withContext({ ...ctx, column: leaves[l]!.path.join('.') }, () => leafCells(leaves[l]!, chunks[l]!, rows, span, JSON_FORM, cell)));
  const keys = p.fields.map((f, k) => encoder.encode(`${k ? ',' : '{'}${JSON.stringify(f.name)}:`));
  const def = chunks[p.first]!.def;
  const csv = form.format === 'csv';
  const delim = form.delimiter.charCodeAt(0);
  return rowCells((out, r) => {
    const d = def === null ? p.def : def[r]!;
    if (d < p.def) {
      const path = leaves[p.first]!.path.join('.');
      if (!p.nullable) throw new CorruptFileError(`column ${path} has definition level ${d} where a required field needs ${p.def}`);
      members.forEach((m, i) => {
        if (m.index === null || m.index[r]! >= 0) throw new CorruptFileError(`column ${leaves[at[i]!]!.path.join('.')} has a value in row ${r}, where ${path} makes its struct null`);
      });
      if (!csv) out.bytes(NULL);
      return;
    }
    const start = out.pos;
    writeRows(out, members, keys, CLOSE, r, r + 1);
    if (csv) out.quoteSince(start, delim);
  });
}

/**
 * A list of a leaf (flatList) as JSON, its elements from the leaf's cells,
 * each row's entries read from the levels as the record assembler reads
 * them, with its checks; as CSV, quoted on the bytes where it must be.
 */
function listCells(p: ListPlan, leaf: LeafNode, c: ColumnChunkData, span: number, form: TextForm): { cells: Cells; skipRows: (n: number) => void; finish: () => void } {
  const values = chunkCells(leaf, c, JSON_FORM, (v) => jsonText(v, form.format === 'csv'), (n) => n <= span);
  const indices = values.indices;
  const element = p.element;
  const maxDef = leaf.defLevel;
  const { def, rep, length, valueCount } = c;
  const path = leaf.path.join('.');
  const levels = [{ def, rep, length, maxDef, valueCount }];
  const at = new Int32Array(1);
  const taken = new Int32Array(1);
  const csv = form.format === 'csv';
  const delim = form.delimiter.charCodeAt(0);
  const cells = rowCells((out) => {
    let pos = at[0]!;
    if (pos >= length) throw new CorruptFileError(`column ${path} ran out of values before the last row`);
    if (rep !== null && rep[pos] !== 0) throw new CorruptFileError(`column ${path} starts a row with repetition level ${rep[pos]} (must be 0)`);
    const d = def === null ? maxDef : def[pos]!;
    if (d < p.elementDef) {
      if (d < p.def && !p.nullable) throw new CorruptFileError(`column ${path} has definition level ${d} where a required field needs ${p.def}`);
      at[0] = pos + 1;
      if (d >= p.def) out.bytes(EMPTY_LIST);
      else if (!csv) out.bytes(NULL);
      return;
    }
    if (rep === null) throw new CorruptFileError(`column ${path} is inside a list but has no repetition levels`);
    const start = out.pos;
    let v = taken[0]!;
    out.byte(91);
    for (;;) {
      const e = def === null ? maxDef : def[pos]!;
      if (e < element.def && !element.nullable) throw new CorruptFileError(`column ${path} has definition level ${e} where a required field needs ${element.def}`);
      if (e !== maxDef) out.bytes(NULL);
      else {
        if (v >= valueCount) throw new CorruptFileError(`column ${path} has fewer values than its levels define`);
        putValue(out, values, indices === null ? v : indices[v]!);
        v++;
      }
      if (++pos >= length) break;
      const r = rep[pos]!;
      if (r !== p.rep) {
        if (r > p.rep) throw new CorruptFileError(`column ${path} has repetition level ${r} where at most ${p.rep} fits`);
        break;
      }
      if ((def === null ? maxDef : def[pos]!) < p.elementDef) throw new CorruptFileError(`column ${path} continues a list with an empty element`);
      out.byte(44);
    }
    out.byte(93);
    at[0] = pos;
    taken[0] = v;
    if (csv) out.quoteSince(start, delim);
  });
  return {
    cells,
    skipRows: (n) => skipLeafRows(levels, at, taken, n),
    finish: () => {
      if (at[0] !== length) throw new CorruptFileError(`column ${path} has ${length - at[0]!} level entries beyond the last row`);
      if (taken[0] !== valueCount) throw new CorruptFileError(`column ${path} has ${valueCount} values but its levels define ${taken[0]}`);
    },
  };
}

const NULL = encoder.encode('null');
const EMPTY_LIST = encoder.encode('[]');
const CLOSE = encoder.encode('}');

/** Text batches of rows [from, to) of a row group of `rows` rows, from its decoded chunks (per plan leaf). */
function* rowGroupText(t: TextPlan, chunks: ColumnChunkData[], rows: number, form: TextForm, ctx: ErrorContext, from = 0, to = rows): Generator<TextBatch> {
  const cell: CellText = form.format === 'csv' ? (v) => csvCell(v, form.delimiter) : (v) => jsonText(v, false);
  const leaves = t.plan.leaves;
  const nested = nestedCells(t, chunks, form, cell, ctx);
  const lists: ReturnType<typeof listCells>[] = [];
  const cells = t.fields.map((f, i) => {
    if ('leaf' in f) return withContext({ ...ctx, column: leaves[f.leaf]!.path.join('.') }, () => leafCells(leaves[f.leaf]!, chunks[f.leaf]!, rows, to - from, form, cell));
    if ('struct' in f) return structCells(f.struct, leaves, chunks, rows, to - from, form, ctx);
    if (!('list' in f)) return nested!.cells.get(i)!;
    const l = f.list.first;
    const list = withContext({ ...ctx, column: leaves[l]!.path.join('.') }, () => listCells(f.list, leaves[l]!, chunks[l]!, to - from, form));
    lists.push(list);
    return list.cells;
  });
  if (nested && from > 0) withContext(ctx, () => nested.skipRows(from));
  if (from > 0) withContext(ctx, () => lists.forEach((l) => l.skipRows(from)));
  // Each block's text in a buffer of its own (the batch hands it on), sized by the block before.
  let size = 1 << 16;
  for (let start = from; start < to; start += BLOCK_ROWS) {
    const stop = Math.min(to, start + BLOCK_ROWS);
    const out = new TextBytes(size);
    withContext(ctx, () => writeRows(out, cells, t.prefixes, t.end, start, stop));
    size = out.pos + (out.pos >> 3) + 64;
    yield { bytes: out.buf.subarray(0, out.pos), rows: stop - start };
  }
  if (nested && to === rows) withContext(ctx, () => nested.finish());
  if (to === rows) withContext(ctx, () => lists.forEach((l) => l.finish()));
}

/** Rows a thread writes at least: a row group of fewer rows is not split. */
const MIN_PIECE_ROWS = 16_384;
/**
 * The main thread's piece against a worker's: it decodes the row group and
 * writes the text out besides (measured per thread on the bench's file:
 * 0.54 s on the main thread, 0.37 s on the worker, with equal pieces).
 */
const MAIN_SHARE = 0.7;

/** What a worker thread writes text with: the file's schema elements, the selected leaves (by index among the schema's leaves), the form. */
export interface TextPieceSetup {
  schema: SchemaElementLike[];
  leaves: number[];
  form: TextForm;
  file?: string;
}

/** Rows [from, to) of a row group of `rows` rows, from its decoded chunks (per selected leaf). */
export interface TextPieceJob {
  rowGroup: number;
  rows: number;
  from: number;
  to: number;
  chunks: ColumnChunkData[];
}

/** Threads that write pieces of row groups as text: the Node entry's worker threads. */
export interface TextWriters {
  /** Starts `count` threads writing with `setup`. */
  start(count: number, setup: TextPieceSetup): TextWriterPool;
}

export interface TextWriterPool {
  write(job: TextPieceJob): Promise<TextBatch[]>;
  close(): Promise<void>;
}

/** Worker threads and how many threads write (`threads`: the calling thread and `threads` - 1 workers). */
export interface TextThreads {
  writers: TextWriters;
  threads: number;
}

/** A worker's side: the text of pieces of a file's row groups, as the calling thread would write them. */
export class TextPieceWriter {
  private readonly t: TextPlan;

  constructor(private readonly setup: TextPieceSetup) {
    const schema = buildSchema(setup.schema);
    const keep = new Set(setup.leaves.map((i) => schema.leaves[i]));
    const t = textPlan(schema.root, planRecord(schema.root, (l) => keep.has(l)), setup.form);
    if (!t) throw new InvalidArgumentError('a text piece of a file its rows are read as objects for');
    this.t = t;
  }

  write(job: TextPieceJob): TextBatch[] {
    const ctx = { ...(this.setup.file !== undefined ? { file: this.setup.file } : {}), rowGroup: job.rowGroup };
    return [...rowGroupText(this.t, job.chunks, job.rows, this.setup.form, ctx, job.from, job.to)];
  }
}

/**
 * A Parquet file's selected rows as text: batches of text, or row batches
 * for the row groups (or the file) read as rows; undefined when the whole
 * file is read as rows. With `threads`, a row group of enough rows is cut
 * into a piece per thread: the calling thread writes the first, and decodes
 * the next row group, while `threads` - 1 workers write the others from a
 * copy of the decoded chunks, and their text follows in order (a piece a
 * worker fails is written here, so an error is the one thread's).
 */
export function parquetText(reader: ParquetReader, columns: readonly ColumnPath[] | undefined, form: TextForm, threads?: TextThreads): AsyncGenerator<TextBatch | Record<string, unknown>[]> | undefined {
  const plan = reader.plan(columns);
  const t = textPlan(reader.schema.root, plan, form);
  if (!t) return undefined;
  return textOf(reader, columns, form, t, threads);
}

async function* textOf(reader: ParquetReader, columns: readonly ColumnPath[] | undefined, form: TextForm, t: TextPlan, threads: TextThreads | undefined): AsyncGenerator<TextBatch | Record<string, unknown>[]> {
  const at = new Map(t.plan.leaves.map((l, i) => [l, i]));
  const groups = reader.file.metadata.rowGroups;
  const file = reader.file.name;
  let pool: TextWriterPool | undefined;
  const split = threads && threads.threads > 1 && groups.some((g) => g.numRows >= 2 * MIN_PIECE_ROWS) ? threads : undefined;
  /** Row group rg's chunks, decoded whole (undefined: read as rows), or absent for an empty row group. */
  const decode = (rg: number) => (groups[rg]!.numRows === 0 ? Promise.resolve(null) : wholeChunks(reader, columns, rg, at));
  let decoded: Promise<ColumnChunkData[] | undefined | null> | undefined;
  try {
    // Started before the first row group is decoded: the workers load meanwhile. The main thread is one of the threads.
    if (split) pool = split.writers.start(split.threads - 1, { schema: reader.file.metadata.schema as SchemaElementLike[], leaves: t.plan.leaves.map((l) => l.columnIndex), form, ...(file !== undefined ? { file } : {}) });
    for (let rg = 0; rg < groups.length; rg++) {
      const rows = groups[rg]!.numRows;
      const chunks = await (decoded ?? decode(rg));
      decoded = undefined;
      if (chunks === null) continue;
      if (!chunks) {
        yield* reader.rowBatches({ columns, rowGroups: [rg], temporal: 'iso' });
        continue;
      }
      const ctx = { ...(file !== undefined ? { file } : {}), rowGroup: rg };
      const pieces = pool ? Math.max(1, Math.min(split!.threads, Math.floor(rows / MIN_PIECE_ROWS))) : 1;
      // The main thread also decodes and writes out: its piece is MAIN_SHARE of the others'.
      const first = pieces === 1 ? rows : Math.round((rows * MAIN_SHARE) / (MAIN_SHARE + pieces - 1));
      const cut = (k: number) => (k === 0 ? 0 : first + Math.round(((rows - first) * (k - 1)) / (pieces - 1 || 1)));
      const others = Array.from({ length: pieces - 1 }, (_, k) => {
        const job = { rowGroup: rg, rows, from: cut(k + 1), to: cut(k + 2), chunks };
        return { job, text: pool!.write(job).catch(() => undefined) };
      });
      yield* rowGroupText(t, chunks, rows, form, ctx, 0, cut(1));
      // The next row group is decoded while the workers write this one's other pieces (two row groups' chunks in memory).
      if (pieces > 1 && rg + 1 < groups.length) {
        decoded = decode(rg + 1);
        await decoded.catch(() => undefined); // met in its turn, after this row group's text
      }
      for (const { job, text } of others) {
        const batches = await text;
        if (batches) yield* batches;
        else yield* rowGroupText(t, chunks, rows, form, ctx, job.from, job.to);
      }
    }
  } finally {
    await pool?.close();
  }
}

/** Row group rg's chunks, whole, by plan leaf; undefined when the reader gives them in windows, or as levels the row path must see. */
async function wholeChunks(reader: ParquetReader, columns: readonly ColumnPath[] | undefined, rg: number, at: Map<LeafNode, number>): Promise<ColumnChunkData[] | undefined> {
  const chunks: ColumnChunkData[] = new Array(at.size);
  const batches = reader.columns({ columns, rowGroups: [rg] });
  for await (const b of batches as AsyncIterable<ColumnBatch>) {
    const i = at.get(b.leaf);
    if (i === undefined || b.rows !== b.numRows || (b.data.rep !== null && b.leaf.repLevel === 0)) {
      await batches.return(undefined);
      return undefined;
    }
    chunks[i] = b.data;
  }
  return chunks.length === at.size && chunks.every((c) => c !== undefined) ? chunks : undefined;
}
