/**
 * The format's own reader behind a table, by table. What only that reader
 * offers (a Parquet file's inspection and column vectors, Trevni's blocks,
 * RedElm's sections, a dataset's files) is read through the table's open
 * file, so a caller that wants rows and more (the viewer's layout, the
 * CLI's `schema` and `meta`, `convert`'s text from column vectors) opens
 * its input once, through `openTable`.
 */
import type { Dataset } from '../dataset/dataset.js';
import type { ParquetReader } from '../parquet/reader.js';
import type { RedElmReader } from '../redelm/reader.js';
import type { TrevniDraftReader } from '../trevni/draft/reader.js';
import type { TrevniReader } from '../trevni/reader.js';
import type { Table } from './table.js';

/** What a table is known by here: its format. */
type Tagged = Pick<Table, 'format'>;

/** The reader of each format whose table keeps one. */
export interface FormatReaders {
  parquet: ParquetReader;
  trevni: TrevniReader | TrevniDraftReader;
  redelm: RedElmReader;
  dataset: Dataset;
}

const readers = new WeakMap<object, FormatReaders[keyof FormatReaders]>();

/** Notes `reader` as the one `table` reads through (`format` types it; `readerOf` checks it); returns the table. */
export function keepReader<F extends keyof FormatReaders, T extends Tagged>(_format: F, table: T, reader: FormatReaders[F]): T {
  readers.set(table, reader);
  return table;
}

/** The reader a table of `format` reads through; undefined for a table of another format (a text table held as Parquet included). */
export function readerOf<F extends keyof FormatReaders>(table: Tagged, format: F): FormatReaders[F] | undefined {
  return table.format === format ? (readers.get(table) as FormatReaders[F] | undefined) : undefined;
}
