/** What a Parquet reader's reads of rows and of Arrow take, and the column batches `columns()` gives (reader.ts and its lazily loaded parts). */
import type { Filter } from './filter/expression.js';
import type { ValueOptions } from '../schema/convert.js';
import type { ColumnPath, LeafNode } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';

/**
 * What `rows()`, `rowBatches()` and `readRows()` read: columns, row groups, a row range, a filter,
 * and the JS forms of values (docs/reading.md, "Reader options").
 */
export interface ReadOptions extends ValueOptions {
  /**
   * Columns to read: dotted paths (`a`, `a.b.c`) or name arrays (`['a.b', 'c']`
   * for names that contain dots); a group selects everything under it. Default: all.
   */
  columns?: readonly ColumnPath[];
  /** Row groups to read, by index. Default: all. */
  rowGroups?: readonly number[];
  /** Rows to skip first (counted within the selected row groups). */
  offset?: number;
  /** Most rows to return. */
  limit?: number;
  /**
   * Only rows matching this filter (docs/filtering.md); `offset` and
   * `limit` count matching rows. Row groups and pages that cannot match are
   * not read; columns used only by the filter are not returned.
   */
  filter?: Filter;
  /**
   * VARIANT values: 'plain' (default) in the JS forms of docs/variant.md;
   * 'typed' gives the primitives whose JS form loses their variant type
   * (integers, floats, decimals, dates, times, timestamps, UUIDs) as
   * `VariantValue`s, which a writer encodes again as the same types.
   */
  variants?: 'plain' | 'typed';
  /**
   * Node: a read of every row of at least two row groups and 16 MiB can
   * have the chunks of the row groups ahead decoded in a worker thread while
   * rows are made (docs/decisions/decode-ahead.md). `true` does so; by
   * default (`false`) it does not, since on 2 cores it gained no wall time.
   * The rows are the same either way.
   */
  decodeThread?: boolean;
}

/** What `toArrow` and `arrowBatches` read. */
export interface ArrowOptions extends Pick<ReadOptions, 'columns' | 'rowGroups' | 'offset' | 'limit' | 'filter'> {
  /**
   * String and binary columns whose chunks all have a dictionary page become
   * Arrow Dictionary vectors (Int32 indices), without decoding the strings;
   * a chunk that fell back to plain pages joins them as a dictionary of its own
   * values. Default true; false gives plain Utf8/Binary vectors.
   */
  dictionary?: boolean;
  /**
   * Apply the Arrow schema a writer stored in the file (`ARROW:schema`, as
   * arrow-rs, pyarrow and parquetry store it): time zone names, Large
   * types, dictionary index types, Date64, durations, interval units, as
   * arrow-rs reads them. Default true; false gives the Parquet types alone.
   */
  arrowSchema?: boolean;
}

/** One leaf column of one row group, as column vectors. */
export interface ColumnBatch {
  rowGroup: number;
  /** Path of the leaf column. */
  path: string[];
  leaf: LeafNode;
  /** Rows in this row group. */
  numRows: number;
  /**
   * The rows of the row group this batch holds: all of them (0 and
   * numRows), except in a chunk of more than 2^20 levels packed denser
   * than its bytes could back decoded (runs of nulls or of one value),
   * which comes in batches of up to 65,536 rows.
   */
  firstRow: number;
  rows: number;
  /** Levels and values (see ColumnChunkData). */
  data: ColumnChunkData;
}
