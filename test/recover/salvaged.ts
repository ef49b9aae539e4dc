/** A salvage read's rows one by one, each with its row number as the batch's spans give it (within its row group, for Parquet). */
import type { Salvage } from '../../src/node/entries/recover.js';

export async function* salvagedRows(s: Salvage): AsyncGenerator<{ row: number; record: Record<string, unknown>; rowGroup: number | undefined }> {
  for await (const batch of s) {
    let k = 0;
    for (const span of batch.spans) for (let row = span.start; row < span.end; row++) yield { row, record: batch.rows[k++]!, rowGroup: batch.rowGroup };
    if (k !== batch.rows.length) throw new Error(`a batch of ${batch.rows.length} rows whose spans hold ${k}`);
  }
}
