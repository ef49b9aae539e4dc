/**
 * A Trevni file as a table: version 2 and 1 through the schema `convert`
 * maps them to (the Avro schema a file stores, else its columns as
 * CANONICAL.md assembles them), the wiki draft's Dremel dialect through its
 * own Parquet schema.
 *
 * The mapping is made on the first read or look at `schema`, not at open:
 * a legal file may have no Parquet form (an empty column name), and what
 * reads it through its own reader (the CLI's schema, meta and cat, the
 * viewer's layout) must open it all the same.
 */
import { trevniMapping, type TrevniMapping } from '../convert/read-trevni.js';
import type { TrevniOpenOptions } from '../trevni/reader.js';
import type { ReadInput } from '../io/source.js';
import { openTrevni } from '../trevni/open.js';
import { TrevniDraftReader } from '../trevni/draft/reader.js';
import { keepReader } from './reader-of.js';
import { RowTable } from './row-table.js';
import type { Table } from './table.js';

/** `range`'s limit as the Trevni readers take it (absent: to the end). */
function rangeOf(offset: number, limit: number | undefined): { offset: number; limit?: number } {
  return limit === undefined ? { offset } : { offset, limit };
}

export async function trevniTable<Row>(input: ReadInput, options: TrevniOpenOptions, name?: string): Promise<Table<Row>> {
  const reader = await openTrevni(input, options);
  if (reader instanceof TrevniDraftReader) {
    return keepReader('trevni', new RowTable<Row>('trevni', reader.schema, reader.numRows, {
      rows: ({ offset, limit, leaves }) => reader.rows(leaves ? { ...rangeOf(offset, limit), columns: leaves.map((l) => l.path) } : rangeOf(offset, limit)),
      close: () => reader.close(),
    }, name), reader);
  }
  let mapping: TrevniMapping | undefined;
  const t = () => (mapping ??= trevniMapping(reader));
  return keepReader('trevni', new RowTable<Row>('trevni', () => t().schema.schema, reader.numRows, {
    // Only the top-level fields holding the selected leaves are read: a field is one root column (or, from Avro, its own columns).
    rows: ({ offset, limit, leaves }) => t().rows(leaves ? { ...rangeOf(offset, limit), fields: [...new Set(leaves.map((l) => l.path[0]!))] } : rangeOf(offset, limit)),
    close: () => reader.close(),
  }, name), reader);
}
