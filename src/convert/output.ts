/** Where a conversion writes: rows in, bytes out to a sink, counted. */
import type { Sink } from '../io/sink.js';
import type { BuiltColumn } from './column-builders.js';
import type { EncodedRowGroup } from '../parquet/write/writer.js';
import type { RowGroupJob, RowGroupSetup } from './row-groups.js';

/** An output that takes rows a row group at a time (a Parquet file): how they are cut and encoded, and the row group, encoded or to encode. */
export interface RowGroupOutput {
  setup: RowGroupSetup;
  write(group: EncodedRowGroup | RowGroupJob): Promise<void>;
}

export interface OutputSummary {
  rows: number;
  /** Parquet outputs only. */
  rowGroups?: number;
  bytes: number;
  /** Dataset outputs only: the parts written. */
  files?: number;
}

/** Rows as their text, ready to write. */
export interface TextBatch {
  bytes: Uint8Array;
  rows: number;
}

/** Rows in, bytes out; nothing is left at the destination unless `close` succeeds. */
export interface RowOutput {
  readonly name: string;
  readonly rows: number;
  readonly bytes: number;
  write(row: Record<string, unknown>): Promise<void>;
  /**
   * Rows start..end of built columns (schema order), where the output takes
   * them so (Parquet): no row object per record, and the values stored as
   * they are (the caller checked them).
   */
  writeBuilt?(columns: readonly BuiltColumn[], start: number, end: number): Promise<void>;
  rowGroups?: RowGroupOutput;
  /** Rows as their text in the output's form (CSV and JSON Lines outputs), written as they are. */
  writeText?(batch: TextBatch): Promise<void>;
  close(): Promise<OutputSummary>;
  abort(): Promise<void>;
}

export interface CountingSink extends Sink {
  readonly bytes: number;
  /** For messages: the path, `stdout`, or the caller's name for the destination. */
  readonly name: string;
  /**
   * Stdout: what was written cannot be taken back, so an abort leaves the
   * stream open for the rest of the gathered output (the rows converted
   * before an error), as `cat` prints its rows before the error.
   */
  readonly stdout: boolean;
}

/** A file writer (Parquet, Trevni) as `writerOutput` drives it. */
export interface FileWriter {
  readonly rows: number;
  write(row: Record<string, unknown>): Promise<void>;
  writeBuilt?(columns: readonly BuiltColumn[], start: number, end: number): Promise<void>;
  rowGroups?: RowGroupOutput;
  /** Finishes the file (the sink is closed by the writer). */
  close(): Promise<Omit<OutputSummary, 'bytes'>>;
  abort(): Promise<void>;
}

/** A sink counted as it is written, under a name. */
export function countingSink(inner: Sink, name: string, stdout = false): CountingSink {
  let bytes = 0;
  return {
    name,
    stdout,
    get bytes() {
      return bytes;
    },
    async write(b) {
      await inner.write(b);
      bytes += b.length;
    },
    close: () => inner.close(),
    abort: () => inner.abort(),
  };
}

/** A file writer on a sink as a RowOutput; a writer that cannot open aborts the sink. */
export async function writerOutput(sink: CountingSink, open: (sink: CountingSink) => Promise<FileWriter>): Promise<RowOutput> {
  let writer: FileWriter;
  try {
    writer = await open(sink);
  } catch (e) {
    await sink.abort();
    throw e;
  }
  return {
    name: sink.name,
    get rows() {
      return writer.rows;
    },
    get bytes() {
      return sink.bytes;
    },
    write: (row) => writer.write(row),
    ...(writer.writeBuilt ? { writeBuilt: (columns: readonly BuiltColumn[], start: number, end: number) => writer.writeBuilt!(columns, start, end) } : {}),
    ...(writer.rowGroups ? { rowGroups: writer.rowGroups } : {}),
    async close() {
      return { ...(await writer.close()), bytes: sink.bytes };
    },
    abort: () => writer.abort(),
  };
}
