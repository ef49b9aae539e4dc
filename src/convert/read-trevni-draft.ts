/** Input of a conversion from a file of the Trevni draft's Dremel dialect: its Parquet schema as it is, and its records. */
import { projectSchema } from '../schema/project.js';
import type { SchemaElementLike } from '../schema/tree.js';
import type { TrevniDraftReader } from '../trevni/draft/reader.js';

const BATCH_ROWS = 1024;

export interface TrevniDraftInput {
  reader: TrevniDraftReader;
  elements: SchemaElementLike[];
  readonly rowsRead: number;
  batches(): AsyncGenerator<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export function trevniDraftInput(reader: TrevniDraftReader): TrevniDraftInput {
  let rowsRead = 0;
  return {
    reader,
    elements: projectSchema(reader.schema, reader.schema.leaves),
    get rowsRead() {
      return rowsRead;
    },
    async *batches() {
      let batch: Record<string, unknown>[] = [];
      for await (const row of reader.rows()) {
        batch.push(row);
        rowsRead++;
        if (batch.length === BATCH_ROWS) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
    },
    close: () => reader.close(),
  };
}
