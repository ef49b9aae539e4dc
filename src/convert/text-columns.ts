/**
 * CSV and JSON Lines written straight from a Parquet file's decoded column
 * chunks, a row group at a time: no row object per record. Each top-level
 * leaf writes its cells from its vectors (integers as digits with no
 * string between, a dictionary entry's cell encoded once, ASCII strings
 * copied from their bytes); every other value goes through write-text.ts's
 * `csvCell` and `jsonText`, so a cell is the row path's, byte for byte.
 * Nested fields (structs, lists, maps) are assembled by the reader's
 * `RecordAssembler` over their own leaves and printed as the row path
 * prints them. A row group whose chunks come in windows (reader.ts's
 * `large`) is read as rows, as are files with VARIANT columns or two
 * top-level fields of one name.
 */
import { CorruptFileError, InvalidArgumentError, withContext, type ErrorContext } from '../errors.js';
import { isByteArrays, valueCount, type ByteArrays, type Values } from '../encodings/types.js';
import { leafColumn, RecordAssembler } from '../parquet/row-decoding.js';
import type { ParquetReader } from '../parquet/reader.js';
import type { ColumnBatch } from '../parquet/read-options.js';
import { valueReader, type ValueOptions } from '../schema/convert.js';
import { buildSchema, type ColumnPath, type GroupNode, type LeafNode, type SchemaElementLike } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import { leavesInVariants, planRecord, type RecordPlan } from '../shred/plan.js';
import type { TextBatch } from './output.js';
import { NestedText } from './text-nested.js';
import { csvCell, jsonText } from './write-text.js';
import { LITTLE_ENDIAN } from '../encodings/bits.js';
import { joinRows, TextBytes, type Spans } from './text-bytes.js';

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

/** Writes row r's cell (or, for a value writer, the k-th value's). */
type CellWriter = (out: TextBytes, r: number) => void;

/** Cell text of a value in the row path's words. */
type CellText = (v: unknown) => string;

/**
 * A field's cells for rows [from, to) of a row group, as spans (valid until
 * the next call). Each field fills a block of rows in one loop of its own,
 * and the rows are then copied together from the spans in one loop for all
 * fields (joinRows).
 */
type FieldText = (from: number, to: number) => Spans;

/** Spans of a field written row by row (`write` called for rows in order, each once): into a scratch buffer reused per block. */
function writtenSpans(write: CellWriter): FieldText {
  const scratch = new TextBytes(256);
  const spans = noSpans(scratch.buf);
  return (from, to) => {
    scratch.pos = 0;
    spansRoom(spans, to - from);
    const { start, end } = spans;
    for (let r = from, i = 0; r < to; r++, i++) {
      start[i] = scratch.pos;
      write(scratch, r);
      end[i] = scratch.pos;
    }
    spans.src = scratch.buf;
    return spans;
  };
}

/** Spans of no rows yet: they grow to a block's rows on first need (spansRoom). */
function noSpans(src: Uint8Array): Spans {
  return { src, start: new Int32Array(0), end: new Int32Array(0) };
}

/**
 * Makes room for a block's spans. Sized by the blocks met, not BLOCK_ROWS:
 * a row group of one row and 20,000 fields took 32 KB of spans and 64 KB of
 * scratch a field (2.5 GB) when each was made for a whole block.
 */
function spansRoom(spans: Spans, rows: number): void {
  if (spans.start.length >= rows) return;
  spans.start = new Int32Array(rows);
  spans.end = new Int32Array(rows);
}

/** A dictionary's entries' cells, each written once, in one buffer: entry i at [at[i], at[i + 1]), and after the last, at [at[n], at[n + 1]), `extra` (the null cell). */
function dictionaryText(write: CellWriter, n: number, extra: Uint8Array): { src: Uint8Array; at: Int32Array } {
  const text = new TextBytes(Math.min(1 << 20, 16 * n + 16));
  const at = new Int32Array(n + 2);
  for (let i = 0; i < n; i++) {
    at[i] = text.pos;
    write(text, i);
  }
  at[n] = text.pos;
  text.bytes(extra);
  at[n + 1] = text.pos;
  return { src: text.buf, at };
}

/**
 * The cells of a top-level leaf that is not repeated, for `rows` rows:
 * the chunk checked first as the record assembler checks it (one level
 * entry per row, as many values as the levels define). `span` of them are
 * written (a thread's piece may be less than the row group): a dictionary's
 * entries are written once ahead only when they are no more than that.
 */
function leafText(leaf: LeafNode, c: ColumnChunkData, rows: number, span: number, form: TextForm, cell: CellText): FieldText {
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
  const nullCell = form.format === 'csv' ? new Uint8Array(0) : encoder.encode('null');
  const spans = noSpans(new Uint8Array(0));
  const n = c.indices && c.dictionary ? valueCount(c.dictionary) : 0;
  if (c.indices && c.dictionary && n <= span) {
    // Each row's span is its entry's: no byte written per row.
    const dict = dictionaryText(plainCells(leaf, c.dictionary, form, cell), n, nullCell);
    const { at } = dict;
    const indices = c.indices;
    spans.src = dict.src;
    return (from, to) => {
      spansRoom(spans, to - from);
      const { start, end } = spans;
      for (let r = from, i = 0; r < to; r++, i++) {
        const k = index === null ? r : index[r]!;
        const j = k < 0 ? n : indices[k]!;
        start[i] = at[j]!;
        end[i] = at[j + 1]!;
      }
      return spans;
    };
  }
  // A dictionary larger than the rows written (a piece of a row group, one thread's share) is written through per row, each entry as often as met.
  const ix = c.indices;
  const entry = ix && c.dictionary ? plainCells(leaf, c.dictionary, form, cell) : undefined;
  const write: CellWriter = ix && entry ? (out, k) => entry(out, ix[k]!) : plainCells(leaf, c.values!, form, cell);
  if (index === null) return writtenSpans(write);
  const at = index;
  return writtenSpans((out, r) => {
    const k = at[r]!;
    if (k < 0) out.bytes(nullCell);
    else write(out, k);
  });
}

/** Writes the k-th non-null value of a chunk as a cell (the writer is called with value indices). */
function valueCells(leaf: LeafNode, c: ColumnChunkData, form: TextForm, cell: CellText): CellWriter {
  if (c.indices && c.dictionary) {
    const dict = dictionaryText(plainCells(leaf, c.dictionary, form, cell), valueCount(c.dictionary), new Uint8Array(0));
    const { src, at } = dict;
    const indices = c.indices;
    return (out, k) => {
      const j = indices[k]!;
      out.span(src, at[j]!, at[j + 1]!);
    };
  }
  return plainCells(leaf, c.values!, form, cell);
}

/** Writes the k-th of `values` (a chunk's values or its dictionary) as a cell. */
function plainCells(leaf: LeafNode, values: Values, form: TextForm, cell: CellText): CellWriter {
  const value = valueReader(leaf.kind, values, OPTIONS);
  const kind = leaf.kind;
  // A CSV delimiter that a date's or a timestamp's text holds would have the row path quote it.
  const plainTemporal = form.format === 'jsonl' || !/[\d:.TZ+-]/.test(form.delimiter);
  if (kind.kind === 'date' && values instanceof Int32Array && plainTemporal) {
    return (out, k) => {
      if (!out.date(values[k]!, form.format === 'jsonl')) out.text(cell(value(k)));
    };
  }
  if (kind.kind === 'timestamp' && values instanceof BigInt64Array && LITTLE_ENDIAN && plainTemporal) {
    const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
    const per = UNITS_PER_SECOND[kind.unit];
    const tail = form.format === 'jsonl' ? (kind.utc ? 'Z"' : '"') : kind.utc ? 'Z' : '';
    return (out, k) => {
      if (!out.timestamp(words[2 * k + 1]!, words[2 * k]!, per, tail)) out.text(cell(value(k)));
    };
  }
  const array = value.array;
  if (array instanceof Int32Array) return (out, k) => out.int(array[k]!);
  if (array instanceof BigInt64Array && LITTLE_ENDIAN) {
    // The two halves as numbers: no bigint made for a value within 2^53.
    const words = new Int32Array(array.buffer, array.byteOffset, array.length * 2);
    return (out, k) => {
      const v = words[2 * k + 1]! * 4294967296 + (words[2 * k]! >>> 0);
      if (Math.abs(v) <= Number.MAX_SAFE_INTEGER) out.int(v);
      else out.text(cell(array[k]!));
    };
  }
  if (array instanceof Float64Array || array instanceof Float32Array) {
    return (out, k) => {
      if (Number.isFinite(array[k]!)) out.double(array, k);
      else out.text(cell(array[k]!));
    };
  }
  if (leaf.kind.kind === 'string' && isByteArrays(values)) {
    const ascii = form.format === 'csv' ? csvAscii(values, form.delimiter) : jsonAscii(values);
    if (ascii) {
      return (out, k) => {
        if (!ascii(out, k)) out.text(cell(value(k)));
      };
    }
  }
  return (out, k) => out.text(cell(value(k)));
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
  /** Per top-level field in output order: a flat leaf's index in plan.leaves, or the nested field's name and index in `nested`'s fields. */
  fields: ({ leaf: number } | { nested: string; at: number })[];
  /** Bytes before each field's cell: the delimiter, or the JSON key. */
  prefixes: Uint8Array[];
  end: Uint8Array;
  /** The nested fields' own plan, over their leaves (`nestedLeaves`: their indices in plan.leaves). */
  nested: RecordPlan | null;
  nestedLeaves: number[];
}

/** The plan of a file's text (`plan`: its selected fields), or undefined where the rows go through row objects (no leaf, a VARIANT, two fields of one name). */
function textPlan(root: GroupNode, plan: RecordPlan, form: TextForm): TextPlan | undefined {
  const names = plan.fields.map((f) => f.name);
  if (plan.leaves.length === 0 || new Set(names).size !== names.length || leavesInVariants(plan).includes(true)) return undefined;
  // A JSON object's keys come in Object.keys order (integer-like names first), as jsonText prints a row.
  const order = form.format === 'jsonl' ? Object.keys(Object.fromEntries(names.map((n) => [n, 0]))) : names;
  const byName = new Map(plan.fields.map((f) => [f.name, f.plan]));
  const keep = new Set<LeafNode>();
  for (const p of plan.fields.map((f) => f.plan)) {
    if (!(p.t === 'leaf' && p.width === 1 && p.leaf.repLevel === 0)) for (let l = p.first; l < p.first + p.width; l++) keep.add(plan.leaves[l]!);
  }
  const nested = keep.size > 0 ? planRecord(root, (l) => keep.has(l)) : null;
  const nestedNames = nested ? nested.fields.map((f) => f.name) : [];
  const fields = order.map((name): TextPlan['fields'][number] => {
    const p = byName.get(name)!;
    return p.t === 'leaf' && p.width === 1 && p.leaf.repLevel === 0 ? { leaf: p.first } : { nested: name, at: nestedNames.indexOf(name) };
  });
  const nestedLeaves = nested ? nested.leaves.map((l) => plan.leaves.indexOf(l)) : [];
  const prefixes = order.map((name, i) => encoder.encode(form.format === 'csv' ? (i ? form.delimiter : '') : `${i ? ',' : '{'}${JSON.stringify(name)}:`));
  return { plan, fields, prefixes, end: encoder.encode(form.format === 'csv' ? '\n' : '}\n'), nested, nestedLeaves };
}

const JSON_FORM: TextForm = { format: 'jsonl', delimiter: ',' };

/**
 * The nested fields' cells, row by row: from their levels
 * (text-nested.ts), else through the record assembler's objects (read a
 * block of rows at a time, before the fields' cells are written).
 */
function nestedCells(t: TextPlan, chunks: ColumnChunkData[], form: TextForm, cell: CellText, ctx: ErrorContext): { writers: Map<number, FieldText>; block: (from: number, to: number) => void; skipRows: (n: number) => void; finish: () => void } | undefined {
  const nested = t.nested;
  if (!nested) return undefined;
  const leaves = t.plan.leaves;
  const inContext = <T>(l: number, f: () => T): T => withContext({ ...ctx, column: leaves[l]!.path.join('.') }, f);
  const writers = new Map<number, FieldText>();
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
      writers.set(i, writtenSpans(form.format === 'jsonl' ? (out) => void text.field(at, out) : (out) => {
        const start = out.pos;
        if (text.field(at, out)) out.pos = start; // a null: the empty cell
        else out.quoteSince(start, delim);
      }));
    });
    return { writers, block: () => undefined, skipRows: (n) => text.skipRows(n), finish: () => text.finish() };
  }
  const asm = new RecordAssembler(nested, t.nestedLeaves.map((l) => inContext(l, () => leafColumn(leaves[l]!, chunks[l]!, OPTIONS))));
  let objs: Record<string, unknown>[] = [];
  let first = 0;
  t.fields.forEach((f, i) => {
    if ('nested' in f) writers.set(i, writtenSpans((out, r) => out.text(cell(objs[r - first]![f.nested]))));
  });
  const block = (from: number, to: number) => {
    first = from;
    objs = Array.from({ length: to - from }, () => asm.readRow());
  };
  return { writers, block, skipRows: (n) => asm.skipRows(n), finish: () => asm.finish() };
}

/** Text batches of rows [from, to) of a row group of `rows` rows, from its decoded chunks (per plan leaf). */
function* rowGroupText(t: TextPlan, chunks: ColumnChunkData[], rows: number, form: TextForm, ctx: ErrorContext, from = 0, to = rows): Generator<TextBatch> {
  const cell: CellText = form.format === 'csv' ? (v) => csvCell(v, form.delimiter) : (v) => jsonText(v, false);
  const leaves = t.plan.leaves;
  const nested = nestedCells(t, chunks, form, cell, ctx);
  const fields = t.fields.map((f, i) => ('leaf' in f ? withContext({ ...ctx, column: leaves[f.leaf]!.path.join('.') }, () => leafText(leaves[f.leaf]!, chunks[f.leaf]!, rows, to - from, form, cell)) : nested!.writers.get(i)!));
  if (nested && from > 0) withContext(ctx, () => nested.skipRows(from));
  for (let start = from; start < to; start += BLOCK_ROWS) {
    const stop = Math.min(to, start + BLOCK_ROWS);
    const spans = withContext(ctx, () => {
      nested?.block(start, stop);
      return fields.map((f) => f(start, stop));
    });
    yield { bytes: joinRows(spans, stop - start, t.prefixes, t.end), rows: stop - start };
  }
  if (nested && to === rows) withContext(ctx, () => nested.finish());
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
