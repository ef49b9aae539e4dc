/**
 * Rows in built columns (column-builders.ts) cut into Parquet row groups,
 * each encoded and compressed as a row group of its own (`addRowGroup`):
 * by a worker thread's encoder, whose row groups the file's writer appends
 * in order, or by the file's writer itself. Where a row group ends depends
 * on the rows alone, and its pages on its rows alone, so the file is the
 * same byte for byte wherever its row groups were encoded.
 */
import type { Sink } from '../io/sink.js';
import { ParquetWriter, type EncodedRowGroup, type WriterOptions } from '../parquet/write/writer.js';
import type { SchemaElementLike } from '../schema/tree.js';
import { EntrySlicer, type BuiltColumn } from './column-builders.js';

/**
 * Most rows in a row group that convert encodes apart (CSV input), unless
 * `rowGroupRows` says otherwise: DuckDB's, so that readers (and the
 * converting threads) have row groups to split the work by.
 */
export const CONVERT_ROW_GROUP_ROWS = 122_880;

/** How rows are cut into row groups and encoded: plain data, for a worker thread too. */
export interface RowGroupSetup {
  elements: readonly SchemaElementLike[];
  /** The writer's options but those of the file as a whole (metadata, warnings, encryption, checkpoints). */
  options: WriterOptions;
  /** Most rows in a row group. */
  rows: number;
  /** Bytes of built columns at which a row group ends (the columns as built, before encoding). */
  bytes: number;
}

/** A row group's rows: runs [block, start, end) of `columns`' blocks, in order. */
export interface RowGroupJob {
  rows: number;
  columns: BuiltColumn[][];
  runs: number[];
  /** The last block goes on into the next row group: it is lent (copied to a thread), not handed over. */
  lent: boolean;
}

/** Rows in built columns (schema order), and the bad rows among them, in input order, each after `at` of the rows. */
export interface CutBlock {
  rows: number;
  columns: readonly BuiltColumn[];
  bad: ReadonlyArray<{ at: number; line: number; why: string; column?: string | undefined }>;
}

/** Where bad rows are told (the conversion's BadRows). */
interface BadRowSink {
  add(line: number, why: string, column?: string): void;
}

/** Bytes of built columns as built. */
function builtBytes(columns: readonly BuiltColumn[]): number {
  let n = 0;
  for (const c of columns) {
    n += c.valid?.length ?? 0;
    const v = c.values;
    if (v.t === 'typed') n += v.values.byteLength;
    else if (v.t === 'bytes') n += v.data.length + v.offsets.byteLength;
    else n += v.values.length * 8;
  }
  return n;
}

/** Blocks' good rows cut into row groups of `setup.rows` rows (fewer past `setup.bytes`), their bad rows told in their places. */
export class RowGroupCutter {
  private columns: BuiltColumn[][] = [];
  private runs: number[] = [];
  private rows = 0;
  private bytes = 0;

  constructor(private readonly setup: Pick<RowGroupSetup, 'rows' | 'bytes'>, private readonly bad: BadRowSink) {}

  /** The row groups `block` completes. */
  add(block: CutBlock): RowGroupJob[] {
    const out: RowGroupJob[] = [];
    const perRow = builtBytes(block.columns) / Math.max(1, block.rows);
    const { rows: maxRows, bytes: maxBytes } = this.setup;
    let k = 0;
    for (let i = 0; ; ) {
      for (; k < block.bad.length && block.bad[k]!.at <= i; k++) {
        const b = block.bad[k]!;
        this.bad.add(b.line, b.why, b.column);
      }
      if (i === block.rows) break;
      const end = k < block.bad.length ? block.bad[k]!.at : block.rows;
      while (i < end) {
        const n = Math.min(end - i, maxRows - this.rows, Math.max(1, Math.ceil((maxBytes - this.bytes) / perRow)));
        if (this.columns[this.columns.length - 1] !== block.columns) this.columns.push(block.columns as BuiltColumn[]);
        this.runs.push(this.columns.length - 1, i, i + n);
        this.rows += n;
        this.bytes += n * perRow;
        i += n;
        if (this.rows >= maxRows || this.bytes >= maxBytes) out.push(this.take());
      }
    }
    // Only this block can be in a later row group: in every one but the last that holds it, it is lent.
    const pending = this.columns.length > 0;
    for (let j = 0; j < out.length; j++) out[j]!.lent = out[j]!.columns.at(-1) === block.columns && (j < out.length - 1 || pending);
    return out;
  }

  /** The last row group, when rows are left. */
  finish(): RowGroupJob | undefined {
    return this.rows > 0 ? this.take() : undefined;
  }

  private take(): RowGroupJob {
    const job = { rows: this.rows, columns: this.columns, runs: this.runs, lent: false };
    this.columns = [];
    this.runs = [];
    this.rows = 0;
    this.bytes = 0;
    return job;
  }
}

/** Where a writer that only encodes writes its magic bytes: nowhere. */
const NOWHERE: Sink = { write: async () => undefined, close: async () => undefined, abort: async () => undefined };

/** A writer on no file, that encodes row groups for the file's writer to append (`encodeRowGroup`). */
export function rowGroupEncoder(setup: RowGroupSetup): Promise<ParquetWriter> {
  return ParquetWriter.open(NOWHERE, setup.elements, setup.options);
}

/**
 * A row group's rows into `writer`, as a row group of its own: its pages
 * cut from its rows alone, so they are the same whichever writer (the
 * file's, or a thread's encoder after other row groups) takes them. The
 * caller ends it (`flushRowGroup`, `encodeRowGroup`).
 */
export async function addRowGroup(writer: ParquetWriter, job: RowGroupJob): Promise<void> {
  await writer.startRowGroup();
  let slicer: EntrySlicer | undefined;
  let block = -1;
  for (let r = 0; r < job.runs.length; r += 3) {
    const b = job.runs[r]!;
    const start = job.runs[r + 1]!;
    if (b !== block) {
      block = b;
      slicer = new EntrySlicer(job.columns[b]!);
    }
    const s = slicer!;
    await writer.writeEntries(job.runs[r + 2]! - start, (k, from, to) => s.entries(k, start + from, start + to));
  }
}

/**
 * `group`'s buffers, for a transfer list: a view of part of a larger
 * buffer (a codec's output, a statistic cut from a page) is copied first,
 * so that only its own bytes pass, handed over or copied.
 */
export function ownBuffers(group: EncodedRowGroup): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const own = (v: Uint8Array): Uint8Array => {
    const b = v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.buffer instanceof ArrayBuffer ? v : v.slice();
    out.add(b.buffer as ArrayBuffer);
    return b;
  };
  const walk = (o: unknown): unknown => {
    if (o instanceof Uint8Array) return own(o);
    if (Array.isArray(o)) {
      for (let i = 0; i < o.length; i++) o[i] = walk(o[i]);
    } else if (typeof o === 'object' && o !== null) {
      const r = o as Record<string, unknown>;
      for (const key of Object.keys(r)) r[key] = walk(r[key]);
    }
    return o;
  };
  walk(group);
  return [...out];
}
