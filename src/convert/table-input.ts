/**
 * A conversion's table input (Parquet, Trevni, RedElm, a dataset), opened
 * through `openTable`. Its own module, imported by run.ts when the input is a
 * table: a text input's job loads no reader (BENCHMARKS.md, "Startup").
 */
import { projectSchema } from '../schema/project.js';
import { selectLeaves } from '../schema/select.js';
import type { ColumnPath, SchemaElementLike } from '../schema/tree.js';
import type { TableFormat } from '../formats.js';
import { applicableOpenOptions, type OpenTableOptions } from '../table/open.js';
import { readerOf } from '../table/reader-of.js';
import type { ParquetFile } from '../parquet/file.js';
import { tablePlan } from '../table/plan.js';
import type { Table, TableBatchOptions } from '../table/table.js';
import type { TextBatch } from './output.js';
import { parquetText, type TextForm, type TextWriters } from './text-columns.js';

/** What opening a table input takes of a run's input and options (run.ts's `ConvertInput` and `RunOptions` are both). */
interface TableSource {
  table(options: OpenTableOptions): Promise<Table>;
  readonly dataset?: boolean;
}
interface TableInputOptions {
  columns?: readonly ColumnPath[];
  read: OpenTableOptions;
  textWriters?: TextWriters;
  threads?: number;
}

/** A table input: a schema for the writers, and rows. */
interface TableInput {
  elements: SchemaElementLike[];
  /** Key-value metadata to keep in a Parquet rewrite. */
  metadata: Record<string, string> | undefined;
  /** Top-level column names (CSV header). */
  columns: string[];
  /** Rows in the input, as the table counts them at open. */
  total: number;
  readonly rowsRead: number;
  batches(forText: boolean): AsyncGenerator<Record<string, unknown>[]>;
  /** Parquet files: the rows as text from the column vectors, row batches where it cannot; undefined where the file goes as rows. */
  text?(form: TextForm): AsyncGenerator<TextBatch | Record<string, unknown>[]> | undefined;
  close(): Promise<void>;
}

/** A Parquet file's key-value metadata, for a Parquet rewrite to keep; none for other inputs. */
function keyValuesOf(file: ParquetFile | undefined): Record<string, string> | undefined {
  return file && Object.fromEntries(file.keyValueMetadata);
}

/**
 * The input as a table, through `openTable` as every reader of the CLI
 * opens one: its schema (projected to `columns`) for the writers, its
 * Parquet metadata for a Parquet rewrite, and its rows in batches:
 * lossless values for a table output (variants typed, so they keep their
 * types), ISO text for dates, times and timestamps for a text output.
 */
export async function openTableInput(format: TableFormat, input: TableSource, o: TableInputOptions): Promise<TableInput> {
  const table = await input.table(input.dataset ? applicableOpenOptions('dataset', o.read) : { format, ...applicableOpenOptions(format, o.read) });
  try {
    const columns = o.columns;
    // A Parquet file's rows go to a text output as text written from its column vectors (text-columns.ts).
    const reader = readerOf(table, 'parquet');
    let rowsRead = 0;
    return {
      elements: projectSchema(table.schema, selectLeaves(table.schema, columns)),
      metadata: keyValuesOf(reader?.file),
      columns: tablePlan(table, columns).fields.map((f) => f.name),
      total: table.numRows,
      get rowsRead() {
        return rowsRead;
      },
      async *batches(forText) {
        // `variants` is the Parquet reader's own option; the other tables have no VARIANT to type.
        const options: TableBatchOptions & { variants?: 'typed' } = forText ? { columns, temporal: 'iso' } : { columns, variants: 'typed' };
        for await (const batch of table.rowBatches(options)) {
          rowsRead += batch.length;
          yield batch;
        }
      },
      ...(reader ? {
        text(form: TextForm) {
          const batches = parquetText(reader, columns, form, o.textWriters && o.threads ? { writers: o.textWriters, threads: o.threads } : undefined);
          return batches && (async function* () {
            for await (const b of batches) {
              rowsRead += Array.isArray(b) ? b.length : b.rows;
              yield b;
            }
          })();
        },
      } : {}),
      close: () => table.close(),
    };
  } catch (e) {
    await table.close();
    throw e;
  }
}
