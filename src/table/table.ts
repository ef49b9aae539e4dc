/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * The one shape every table parquetry reads takes, whatever its format:
 * a Parquet file, a dataset, a Trevni file (version 2, version 1, the wiki
 * draft), a RedElm file, CSV, JSON Lines or a JSON array. `openTable`
 * (open.ts, and the Node entry's form with paths) returns one.
 */
import type { Table as ArrowTable } from '../arrow/peer.js';
import type { ConvertFormat } from '../formats.js';
import type { Filter } from '../parquet/filter/expression.js';
import type { ColumnBatch } from '../parquet/read-options.js';
import type { ValueOptions } from '../schema/convert.js';
import type { ColumnPath, Schema } from '../schema/tree.js';

/** What a table was read from: a file format, or `dataset` (many Parquet files read as one). */
export type TableFormatName = ConvertFormat | 'dataset';

/**
 * What every read of a table takes. A format that cannot honour one of
 * these says so with an `UnsupportedOptionError` naming it; none is ignored.
 */
export interface TableReadOptions extends ValueOptions {
  /**
   * Columns to read: dotted paths (`a`, `a.b.c`) or name arrays (`['a.b', 'c']`
   * for names holding dots); a group selects everything under it. Rows then
   * hold exactly these columns. Default: all.
   */
  columns?: readonly ColumnPath[];
  /** Rows to skip first (matching rows, under a filter). */
  offset?: number;
  /** Most rows to give. */
  limit?: number;
  /** Only the rows it keeps: the Filter API, or a `--where` text (docs/filtering.md). */
  filter?: Filter | string;
  /** Stops the read: the iteration throws the signal's reason. */
  signal?: AbortSignal;
}

/** What `rowBatches` takes: the read options and a batch size. */
export interface TableBatchOptions extends TableReadOptions {
  /** Rows in each batch (default 4096; a Parquet file's batches also end at its row groups). */
  batchSize?: number;
}

/** `toArrow` reads as `rows` does; Arrow has its own value types, so the value options do not apply. */
export type TableArrowOptions = Omit<TableReadOptions, keyof ValueOptions>;

/** `columns` reads whole columns: a projection and a signal. */
export type TableColumnsOptions = Pick<TableReadOptions, 'columns' | 'signal'>;

/**
 * A table, as `openTable` opens it.
 *
 * @example
 * ```ts
 * await using table = await openTable('events.csv');
 * console.log(table.format, table.numRows);
 * for await (const row of table.rows({ columns: ['id'], filter: 'id > 10', limit: 5 })) console.log(row);
 * ```
 */
export interface Table<Row = Record<string, unknown>> {
  readonly format: TableFormatName;
  /**
   * The schema as a Parquet schema tree, for every format (the others map
   * to it as `convert` does), so `formatSchema(table.schema)` prints any table the same way.
   * A Trevni file is mapped when this is first read: one with no Parquet form (an empty
   * column name, say) opens, and this (and `rows`, `toArrow`) throws an `UnsupportedError` naming the field.
   */
  readonly schema: Schema;
  /** Rows in the table, known once it is open: text inputs are counted at open. */
  readonly numRows: number;
  /** Rows as plain objects, one at a time, in the value forms of docs/reading.md. */
  rows(options?: TableReadOptions): AsyncIterableIterator<Row>;
  /** Rows in arrays, for callers that handle many at once. */
  rowBatches(options?: TableBatchOptions): AsyncIterableIterator<Row[]>;
  /** Column vectors (levels and values), where the format stores them: Parquet files, datasets, and CSV/JSON (read into Parquet at open). */
  columns?(options?: TableColumnsOptions): AsyncIterableIterator<ColumnBatch>;
  /** The rows as an Arrow table (needs the optional `apache-arrow` package). */
  toArrow(options?: TableArrowOptions): Promise<ArrowTable>;
  /** Closes the file (a dataset or a text table holds none open between reads). */
  close(): Promise<void>;
  /** `await using table = await openTable(…)`: closed when the scope ends. */
  [Symbol.asyncDispose](): Promise<void>;
}
