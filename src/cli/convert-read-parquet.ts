/** Parquet input for `parquetry convert`: row batches, one row group in memory at a time. */
import { openParquetFile, type ReadChecks } from './files.js';
import type { ColumnPath, ParquetReader } from '../parquet/reader.js';
import { UsageError } from './usage.js';

export interface ParquetInput {
  reader: ParquetReader;
  /** Rows read so far (for the progress line). */
  rowsRead: number;
  /**
   * The rows in batches: lossless values for a Parquet output (what the
   * writer takes back), ISO text for dates, times and timestamps for text outputs.
   */
  batches(forText: boolean): AsyncGenerator<Record<string, unknown>[]>;
}

/** `columns`: read only these (the `--columns` projection). */
export async function openParquetInput(path: string, checks: ReadChecks = {}, columns?: readonly ColumnPath[]): Promise<ParquetInput> {
  if (path === '-') throw new UsageError('a Parquet input must be a file or URL (its footer is at the end), not stdin');
  const reader = await openParquetFile(path, checks);
  const input: ParquetInput = {
    reader,
    rowsRead: 0,
    async *batches(forText) {
      for await (const batch of reader.rowBatches(forText ? { columns, temporal: 'iso' } : { columns })) {
        input.rowsRead += batch.length;
        yield batch;
      }
    },
  };
  return input;
}
