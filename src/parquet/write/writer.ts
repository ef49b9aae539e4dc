/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * The Parquet writer's class, a handle: the
 * writer itself (writer-core.ts: shredding, encoding, statistics, indexes,
 * blooms, encryption) loads with the first `open()`. The root entry point
 * exports the class, and the table and dataset code a bundle of the root
 * holds use it: a bundler gives an app that reads, and never writes, every
 * module the root reaches that such code uses (docs/decisions/subpaths.md),
 * so what the root reaches of the writer is this handle alone.
 */
import type { RecordBatch, Table } from '../../arrow/peer.js';
import type { Sink } from '../../io/sink.js';
import { loadOnce } from '../../load-once.js';
import type { Schema } from '../../schema/tree.js';
import type { LeafEntries } from '../../shred/entries.js';
import type { FileMetaData } from '../metadata/index.js';
import type { WriterCore } from './writer-core.js';
import type { EncodedRowGroup, WriterOptions, WriterSchema } from './writer-options.js';

export type { ColumnWriteOptions, EncodedRowGroup, WriterOptions, WriterSchema } from './writer-options.js';

const core = loadOnce(() => import('./writer-core.js'));

/**
 * Writes a Parquet file: records (or column vectors) in, bytes out to a
 * Sink, holding at most one row group in memory.
 *
 * ```ts
 * const w = await ParquetWriter.open(sink, defineSchema({ id: field.int64().required(), name: field.string() }));
 * await w.write({ id: 1n, name: 'a' });
 * await w.close();
 * ```
 *
 * With a schema from `defineSchema`, `write()` takes that schema's records
 * (`InferInput<typeof schema>`), so a misspelt or mistyped field does not
 * compile. `await using w = ...` aborts the file at the end of the scope
 * unless `close()` completed it.
 */
export class ParquetWriter<Row = Record<string, unknown>> {
  private constructor(private readonly core: WriterCore<Row>) {}

  /**
   * Opens a writer on a Sink for a schema (`defineSchema`, or SchemaElements); nothing is written
   * before the first row group is full or `close()`.
   */
  static async open<Row = Record<string, unknown>>(sink: Sink, schema: WriterSchema<Row>, options: WriterOptions = {}): Promise<ParquetWriter<Row>> {
    const { WriterCore } = await core();
    return new ParquetWriter(await WriterCore.open(sink, schema, options));
  }

  /** The schema written, as a tree. */
  get schema(): Schema {
    return this.core.schema;
  }

  /** Rows accepted so far. */
  get numRows(): number {
    return this.core.numRows;
  }

  /** Row groups written so far (the last one is written by close()). */
  get rowGroupsWritten(): number {
    return this.core.rowGroupsWritten;
  }

  /** The file's size so far: bytes written, plus the open row group's pages as buffered (the open page estimated); footer and page index not counted. */
  get bytesSoFar(): number {
    return this.core.bytesSoFar;
  }

  /**
   * Adds one record. A record that does not fit the schema throws an
   * InvalidArgumentError naming the field and the record's index, and leaves
   * nothing of itself behind: the writer stays usable.
   */
  write(record: Row): Promise<void> {
    return this.core.write(record);
  }

  /**
   * Adds the rows of an Arrow JS `Table` or `RecordBatch` (needs the optional
   * peer dependency `apache-arrow`), read from the Arrow buffers: columns are
   * matched to the schema by name, at every depth. A row that does not fit
   * throws as `write()` does; the rows before it are kept.
   *
   * ```ts
   * const w = await openWriter('out.parquet', (await schemaFromArrow(table.schema)).elements);
   * await w.writeArrow(table);
   * await w.close();
   * ```
   */
  writeArrow(data: Table | RecordBatch): Promise<void> {
    return this.core.writeArrow(data);
  }

  /**
   * Adds many records (an array, an iterable or an async iterable). A record
   * that does not fit throws as `write()` does; the records before it are
   * kept. For a flat schema (top-level columns only) the records are taken
   * column by column in slices, as `writeColumns` takes vectors, which is
   * several times faster than shredding them one by one; an iterable is read
   * ahead in batches for that.
   */
  writeMany(records: Iterable<Row> | AsyncIterable<Row>): Promise<void> {
    return this.core.writeMany(records);
  }

  /**
   * Writes column vectors: each top-level column's values (a JS array with
   * `null` for nulls, or a typed array), all of one length. For flat schemas
   * (no structs, lists or maps); typed arrays of the column's own type are
   * copied in bulk. A value that does not fit throws an InvalidArgumentError
   * naming its row and column; the rows before it are kept.
   *
   * ```ts
   * await w.writeColumns({ id: BigInt64Array.of(1n, 2n), price: Float64Array.of(9.5, 7) });
   * ```
   */
  writeColumns(columns: Record<string, ArrayLike<unknown>>): Promise<void> {
    return this.core.writeColumns(columns);
  }

  /**
   * Adds `rows` rows as each leaf column's entries, which
   * `entries(column, start, end)` gives for rows start..end of them (columns
   * in schema order, slices in increasing order; a nested leaf's with its
   * levels, a row's entries whole), with values in a form the
   * column stores as it is (`typed` in its storage, `bytes` of a string or
   * binary column: what a reader that builds columns in the writer's
   * storage gives, convert's CSV reader). The values are not checked again:
   * a form the column does not store throws.
   */
  writeEntries(rows: number, entries: (column: number, start: number, end: number) => LeafEntries): Promise<void> {
    return this.core.writeEntries(rows, entries);
  }

  /**
   * Starts a row group of its own: the rows buffered so far are written
   * first, and the rows added until the next `flushRowGroup()` or
   * `encodeRowGroup()` make one row group whatever the size limits, its
   * pages cut from its own rows alone (not sized by the row groups before):
   * so two writers of the same schema and options encode the same rows the
   * same, whatever each wrote before.
   */
  startRowGroup(): Promise<void> {
    return this.core.startRowGroup();
  }

  /** Writes the buffered rows as a row group (a no-op when there are none). */
  /** `closing`: the last row group, after which the column writers are let go as their chunks are written. */
  flushRowGroup(closing = false): Promise<void> {
    return this.core.flushRowGroup(closing);
  }

  /**
   * The buffered rows as a row group's column chunks, encoded and
   * compressed but not written (undefined when there are none): what
   * `writeRowGroup` of a writer of the same schema and options appends. A
   * writer on no file (a worker thread's) encodes row groups for another to
   * write.
   */
  encodeRowGroup(): EncodedRowGroup | undefined {
    return this.core.encodeRowGroup();
  }

  /**
   * Appends a row group that a writer of the same schema and options
   * encoded (`encodeRowGroup`), after the rows buffered here (written first
   * as a row group of their own).
   */
  writeRowGroup(group: EncodedRowGroup): Promise<void> {
    return this.core.writeRowGroup(group);
  }

  /**
   * Writes the last row group and the footer; the output is complete when
   * this resolves. The metadata returned decodes its row groups from the
   * footer's bytes when they are first read.
   */
  close(): Promise<FileMetaData> {
    return this.core.close();
  }

  /** Gives up: nothing is left at a file destination. */
  abort(): Promise<void> {
    return this.core.abort();
  }

  /** `await using`: a writer left open when its scope ends is aborted, never completed half-written. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.core[Symbol.asyncDispose]();
  }
}
