/**
 * CSV and JSON Lines written straight from a Parquet file's decoded column
 * chunks, a row group at a time: no row object per record. Each top-level
 * field becomes its `Cells` (text-cells.ts; a leaf's built by
 * text-leaves.ts: integers as
 * digits with no string between, a dictionary's entries printed once,
 * ASCII strings copied from their bytes) and `writeRows` writes the rows
 * from them straight into the text, in row order; every other value goes
 * through write-text.ts's `csvCell` and `jsonText`, so a cell is the row
 * path's, byte for byte. Nested fields (structs, lists, maps) are
 * printed from their levels (text-nested.ts), or assembled by the reader's
 * `RecordAssembler` and printed as the row path prints them. A row group
 * whose chunks come in windows (reader.ts's `large`) is read as rows, as
 * are files with VARIANT columns or two top-level fields of one name.
 */
import { InvalidArgumentError, withContext, type ErrorContext } from '../errors.js';
import { leafColumn, RecordAssembler } from '../parquet/row-decoding.js';
import type { ParquetReader } from '../parquet/reader.js';
import type { ColumnBatch } from '../parquet/read-options.js';
import { buildSchema, type ColumnPath, type GroupNode, type LeafNode, type SchemaElementLike } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import { leavesInVariants, planRecord, type LeafPlan, type Plan, type RecordPlan } from '../shred/plan.js';
import type { TextBatch } from './output.js';
import { TextBytes } from './text-bytes.js';
import { Cells, writeRows } from './text-cells.js';
import { JSON_FORM, leafCells, OPTIONS, rowCells, valueCells, type CellText, type TextForm } from './text-leaves.js';
import { NestedText } from './text-nested.js';
import { csvCell, jsonText } from './write-text.js';

export type { TextForm } from './text-leaves.js';

const encoder = new TextEncoder();

/** Rows per text batch: about 1 MB of text for a row of 250 bytes. */
const BLOCK_ROWS = 4096;

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

/** A leaf of one value a row. */
function flatLeaf(p: Plan): p is LeafPlan {
  return p.t === 'leaf' && p.width === 1 && p.leaf.repLevel === 0;
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
    if (!flatLeaf(p)) for (let l = p.first; l < p.first + p.width; l++) keep.add(plan.leaves[l]!);
  }
  const nested = keep.size > 0 ? planRecord(root, (l) => keep.has(l)) : null;
  const nestedNames = nested ? nested.fields.map((f) => f.name) : [];
  const fields = order.map((name): TextPlan['fields'][number] => {
    const p = byName.get(name)!;
    return flatLeaf(p) ? { leaf: p.first } : { nested: name, at: nestedNames.indexOf(name) };
  });
  const nestedLeaves = nested ? nested.leaves.map((l) => plan.leaves.indexOf(l)) : [];
  const prefixes = order.map((name, i) => encoder.encode(form.format === 'csv' ? (i ? form.delimiter : '') : `${i ? ',' : '{'}${JSON.stringify(name)}:`));
  return { plan, fields, prefixes, end: encoder.encode(form.format === 'csv' ? '\n' : '}\n'), nested, nestedLeaves };
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

/** Text batches of rows [from, to) of a row group of `rows` rows, from its decoded chunks (per plan leaf). */
function* rowGroupText(t: TextPlan, chunks: ColumnChunkData[], rows: number, form: TextForm, ctx: ErrorContext, from = 0, to = rows): Generator<TextBatch> {
  const cell: CellText = form.format === 'csv' ? (v) => csvCell(v, form.delimiter) : (v) => jsonText(v, false);
  const leaves = t.plan.leaves;
  const nested = nestedCells(t, chunks, form, cell, ctx);
  const cells = t.fields.map((f, i) => ('leaf' in f
    ? withContext({ ...ctx, column: leaves[f.leaf]!.path.join('.') }, () => leafCells(leaves[f.leaf]!, chunks[f.leaf]!, rows, to - from, form, cell))
    : nested!.cells.get(i)!));
  if (nested && from > 0) withContext(ctx, () => nested.skipRows(from));
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
