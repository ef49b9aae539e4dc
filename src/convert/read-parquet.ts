/** Parquet input of a conversion: row batches, one row group in memory at a time. */
import type { ParquetReader, ReadOptions } from '../parquet/reader.js';
import type { ColumnPath } from '../schema/tree.js';
import type { TextBatch } from './output.js';
import { parquetText, type TextForm } from './text-columns.js';

/** What reads Parquet rows in batches: a `ParquetReader`, or a `Dataset` of Parquet files. */
export interface RowBatchReader {
  rowBatches(options: Pick<ReadOptions, 'columns' | 'temporal' | 'variants'>): AsyncIterable<Record<string, unknown>[]>;
}

export interface ParquetInput {
  /** Rows read so far (for the progress line). */
  rowsRead: number;
  /**
   * The rows in batches: lossless values for a Parquet output (what the
   * writer takes back, variants typed so they keep their types), ISO text
   * for dates, times and timestamps for text outputs.
   */
  batches(forText: boolean): AsyncGenerator<Record<string, unknown>[]>;
}

/** `columns`: read only these (the `--columns` projection). */
export function parquetInput(reader: RowBatchReader, columns?: readonly ColumnPath[]): ParquetInput {
  const input: ParquetInput = {
    rowsRead: 0,
    async *batches(forText) {
      for await (const batch of reader.rowBatches(forText ? { columns, temporal: 'iso' } : { columns, variants: 'typed' })) {
        input.rowsRead += batch.length;
        yield batch;
      }
    },
  };
  return input;
}

/** A Parquet file's input: also its rows as text written from its column vectors (text-columns.ts), undefined where they go as rows. */
export function parquetFileInput(reader: ParquetReader, columns?: readonly ColumnPath[]): ParquetInput & { text(form: TextForm): AsyncGenerator<TextBatch | Record<string, unknown>[]> | undefined } {
  const input = parquetInput(reader, columns);
  return Object.assign(input, {
    text(form: TextForm) {
      const batches = parquetText(reader, columns, form);
      return batches && (async function* () {
        for await (const b of batches) {
          input.rowsRead += Array.isArray(b) ? b.length : b.rows;
          yield b;
        }
      })();
    },
  });
}
