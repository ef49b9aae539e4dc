/**
 * CSV, TSV, JSON Lines and JSON arrays as tables: read once at open with
 * `convert`'s readers (the same inference, `--type` syntax and checks)
 * into a Parquet file in memory, so the rows are counted when the table
 * opens, and every read option (columns, filters pushed down, value forms,
 * Arrow) is the Parquet reader's. Memory: the input as compressed Parquet.
 */
import { readCsv, readJsonArray, readJsonLines, type CsvReadRecordsOptions, type Records, type TextInput } from '../convert/records.js';
import { parquetTable } from './parquet.js';
import { spoolToParquet } from './spool.js';
import type { Table } from './table.js';

export type TextFormat = 'csv' | 'tsv' | 'jsonl' | 'json';

/** What a text table is read with: `convert`'s reading options; bad rows fail the open unless `strict` is false. */
export type TextTableOptions = Pick<CsvReadRecordsOptions, 'name' | 'delimiter' | 'header' | 'sample' | 'schema' | 'types' | 'strict' | 'onBadRow' | 'onWarning'>;

const BATCH = 4096;

async function* batched(records: AsyncIterable<Record<string, unknown>>, signal: AbortSignal | undefined): AsyncGenerator<Record<string, unknown>[]> {
  let batch: Record<string, unknown>[] = [];
  for await (const r of records) {
    batch.push(r);
    if (batch.length === BATCH) {
      signal?.throwIfAborted();
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

export async function textTable<Row>(format: TextFormat, input: TextInput, options: TextTableOptions, signal?: AbortSignal): Promise<Table<Row>> {
  // A table never drops a row unasked: a bad row fails the open, naming its line.
  const o = { ...options, strict: options.strict ?? true };
  const records: Records = format === 'jsonl' ? await readJsonLines(input, o)
    : format === 'json' ? await readJsonArray(input, o)
    : await readCsv(input, format === 'tsv' ? { delimiter: '\t', ...o } : o);
  const reader = await spoolToParquet(records.schema, batched(records.records, signal), options.name);
  return parquetTable<Row>(reader, format);
}
