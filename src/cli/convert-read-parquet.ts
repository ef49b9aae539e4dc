/** Parquet input for `parquetry convert`: row batches, one row group in memory at a time. */
import { openParquetFile, type ReadChecks } from './files.js';
import type { ParquetReader } from '../parquet/reader.js';
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

export async function openParquetInput(path: string, checks: ReadChecks = {}): Promise<ParquetInput> {
  if (path === '-') throw new UsageError('a Parquet input must be a file or URL (its footer is at the end), not stdin');
  const reader = await openParquetFile(path, checks);
  const input: ParquetInput = {
    reader,
    rowsRead: 0,
    async *batches(forText) {
      for await (const batch of reader.rowBatches(forText ? { temporal: 'iso' } : {})) {
        input.rowsRead += batch.length;
        yield batch;
      }
    },
  };
  return input;
}
