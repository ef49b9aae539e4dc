/** A RedElm file as a table: its schema is a Parquet tree already, and its reader takes columns, offset and limit. */
import { RedElmReader, type RedElmOpenOptions } from '../redelm/reader.js';
import type { ReadInput } from '../io/source.js';
import { keepReader } from './reader-of.js';
import { RowTable } from './row-table.js';
import type { Table } from './table.js';

export async function redElmTable<Row>(input: ReadInput, options: RedElmOpenOptions, name?: string): Promise<Table<Row>> {
  const reader = await RedElmReader.open(input, options);
  return keepReader('redelm', new RowTable<Row>('redelm', reader.schema, reader.numRows, {
    rows: ({ offset, limit, leaves }) => reader.rows({
      offset, ...(limit !== undefined ? { limit } : {}), ...(leaves ? { columns: leaves.map((l) => l.path) } : {}),
    }),
    close: () => reader.close(),
  }, name), reader);
}
