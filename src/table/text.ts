/**
 * CSV, TSV, JSON Lines and JSON arrays as tables: read once at open with
 * `convert`'s readers (the same inference, `--type` syntax and checks)
 * into a Parquet file in memory, so the rows are counted when the table
 * opens, and every read option (columns, filters pushed down, value forms,
 * Arrow) is the Parquet reader's. Memory: the input as compressed Parquet.
 * open.ts makes the reader a table: its `--where` parser, which the root
 * exports, stays out of this module, an entry point of every bundle of the
 * root (a bundle gives an app each module it reaches that such a module
 * uses: docs/decisions/subpaths.md).
 */
import { readCsv, readJsonArray, readJsonLines, type CsvReadRecordsOptions, type Records, type TextInput } from '../convert/records.js';
import type { ParquetReader } from '../parquet/reader.js';
import { spoolToParquet } from './spool.js';

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

/** The text input's rows as a Parquet file in memory, open. */
export async function textParquet(format: TextFormat, input: TextInput, options: TextTableOptions, signal?: AbortSignal): Promise<ParquetReader> {
  // A table never drops a row unasked: a bad row fails the open, naming its line.
  const o = { ...options, strict: options.strict ?? true };
  const records: Records = format === 'jsonl' ? await readJsonLines(input, o)
    : format === 'json' ? await readJsonArray(input, o)
    : await readCsv(input, format === 'tsv' ? { delimiter: '\t', ...o } : o);
  return spoolToParquet(records.schema, batched(records.records, signal), options.name);
}
