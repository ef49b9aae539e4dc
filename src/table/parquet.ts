/**
 * Parquet files and datasets as tables: their readers take every option of
 * the vocabulary themselves (columns, offset, limit, filter pushed down to
 * row groups and pages, value options); this adds the `--where` text, the
 * signal, and the one shape.
 */
import type { Table as ArrowTable } from '../arrow/peer.js';
import type { Dataset } from '../dataset/dataset.js';
import type { Filter } from '../parquet/filter/expression.js';
import { parseWhere } from '../parquet/filter/where.js';
import type { ParquetReader } from '../parquet/reader.js';
import type { ColumnBatch, ReadOptions } from '../parquet/read-options.js';
import type { ColumnPath, Schema } from '../schema/tree.js';
import { keepReader } from './reader-of.js';
import { abortable, ARROW_VALUES, refuseOptions, unbatched, VALUE_OPTIONS } from './rows.js';
import type { Table, TableArrowOptions, TableBatchOptions, TableColumnsOptions, TableFormatName, TableReadOptions } from './table.js';

/** What a Parquet file's reader and a dataset both offer a table. */
interface ParquetLike {
  readonly schema: Schema;
  rowBatches(options: ReadOptions & { batchSize?: number }): AsyncIterable<Record<string, unknown>[]>;
  columns(options: { columns?: readonly ColumnPath[] }): AsyncIterable<ColumnBatch>;
  toArrow(options: Pick<ReadOptions, 'columns' | 'offset' | 'limit' | 'filter'>): Promise<ArrowTable>;
}

/**
 * A `--where` text as its Filter. The parser is imported statically: the root
 * exports it, and a dynamic import would keep it in every bundle of the root
 * (esbuild gives a module an app reaches, and a chunk imports, to the app).
 */
export async function filterOf(filter: Filter | string | undefined): Promise<Filter | undefined> {
  return typeof filter === 'string' ? parseWhere(filter) : filter;
}

/** The reader's options for a table read: the filter parsed, the signal left to the table. */
async function readOptions<O extends TableReadOptions>(options: O): Promise<Omit<O, 'filter' | 'signal'> & { filter?: Filter }> {
  const { signal: _signal, filter, ...rest } = options;
  const parsed = await filterOf(filter);
  return { ...rest, ...(parsed !== undefined ? { filter: parsed } : {}) };
}

class ParquetTable<Row> implements Table<Row> {
  readonly schema: Schema;

  constructor(
    readonly format: TableFormatName,
    private readonly reader: ParquetLike,
    readonly numRows: number,
    private readonly closer: () => Promise<void>,
  ) {
    this.schema = reader.schema;
  }

  rows(options: TableReadOptions = {}): AsyncIterableIterator<Row> {
    return unbatched(this.rowBatches(options));
  }

  async *rowBatches(options: TableBatchOptions = {}): AsyncGenerator<Row[]> {
    options.signal?.throwIfAborted();
    const read = await readOptions(options);
    yield* abortable(this.reader.rowBatches(read) as AsyncIterable<Row[]>, options.signal);
  }

  async *columns(options: TableColumnsOptions = {}): AsyncGenerator<ColumnBatch> {
    refuseOptions(options, ['offset', 'limit', 'filter', ...VALUE_OPTIONS], this.format, 'columns() gives whole column chunks of stored values; read rows for a range, a filter or value forms');
    yield* abortable(this.reader.columns(options.columns ? { columns: options.columns } : {}), options.signal);
  }

  async toArrow(options: TableArrowOptions = {}): Promise<ArrowTable> {
    refuseOptions(options, VALUE_OPTIONS, this.format, ARROW_VALUES);
    options.signal?.throwIfAborted();
    const table = await this.reader.toArrow(await readOptions(options));
    options.signal?.throwIfAborted();
    return table;
  }

  close(): Promise<void> {
    return this.closer();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** A Parquet file's reader as a table (`format` names what was read into it: `parquet`, or a text format held as Parquet). */
export function parquetTable<Row>(reader: ParquetReader, format: TableFormatName = 'parquet'): Table<Row> {
  return keepReader('parquet', new ParquetTable<Row>(format, reader, reader.numRows, () => reader.close()), reader);
}

/** A dataset as a table: its rows counted from its files' footers at open. */
export async function datasetTable<Row>(dataset: Dataset): Promise<Table<Row>> {
  return keepReader('dataset', new ParquetTable<Row>('dataset', dataset, (await dataset.fileStats()).reduce((n, f) => n + f.numRows, 0), async () => undefined), dataset);
}
