/**
 * RedElm input of a conversion: the schema as Parquet schema elements (the
 * RedElm tree is a Parquet tree: `string` is UTF8 BYTE_ARRAY), and the
 * records in batches, one row group in memory at a time.
 */
import type { RedElmReader } from '../redelm/reader.js';
import { projectSchema } from '../schema/project.js';
import type { SchemaElementLike } from '../schema/tree.js';

export interface RedElmInput {
  reader: RedElmReader;
  elements: SchemaElementLike[];
  /** Top-level field names (a CSV header). */
  columns: string[];
  rowsRead: number;
  batches(): AsyncGenerator<Record<string, unknown>[]>;
}

const BATCH = 4096;

/** `columns`: read only these fields (dotted paths). */
export function redElmInput(reader: RedElmReader, columns?: readonly string[]): RedElmInput {
  const plan = reader.plan(columns);
  const input: RedElmInput = {
    reader,
    elements: projectSchema(reader.schema, plan.leaves),
    columns: plan.fields.map((f) => f.name),
    rowsRead: 0,
    async *batches() {
      let batch: Record<string, unknown>[] = [];
      for await (const row of reader.rows({ columns })) {
        batch.push(row);
        if (batch.length === BATCH) {
          input.rowsRead += batch.length;
          yield batch;
          batch = [];
        }
      }
      input.rowsRead += batch.length;
      if (batch.length > 0) yield batch;
    },
  };
  return input;
}
