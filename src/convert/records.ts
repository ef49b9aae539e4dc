/**
 * CSV, JSON Lines and JSON arrays as records in code, in any runtime: the
 * readers `parquetry convert` uses, with its inference and `--type` syntax.
 *
 * ```ts
 * const { schema, records } = await readCsv('id,name\n1,a\n');
 * for await (const r of records) console.log(r); // { id: 1n, name: 'a' }
 * ```
 */
import type { DefinedSchema } from '../schema/builder.js';
import type { WarningHandler } from '../warnings.js';
import { rowChecker } from './check-row.js';
import { BadRows, located, settle, STRICT_HINT, takeShaped, type BadRow } from './pipeline.js';
import type { Cells } from './read-csv.js';
import { readJsonArray as jsonArrayItems, readJsonLines as jsonLineItems, type JsonReadOptions } from './read-json.js';
import { checkReadOptions, CsvShaper, JsonShaper, schemaChoiceOf, type Shaper } from './shape.js';
import type { Item } from './source.js';
import { inputBytes, type TextInput } from './input-bytes.js';

export type { TextInput };

/**
 * How `readCsv`, `readJsonLines` and `readJsonArray` read: the sample, the schema or types, bad
 * rows.
 */
export interface ReadRecordsOptions {
  /** The input's name in messages (default `input`). */
  name?: string;
  /** Records read to infer the schema (default 1000). */
  sample?: number;
  /** The columns and their types, as a `--schema` file gives them: `{ id: 'int64!', tags: ['string'] }`. */
  schema?: Record<string, unknown>;
  /** Column types as `--type` gives them: `['price=decimal(9,2)']`. */
  types?: string[];
  /**
   * Fail on the first bad row (one that cannot be read, or does not fit the
   * schema) with an InvalidArgumentError naming its line and column, instead
   * of skipping it: by default bad rows are skipped, counted in `bad` and
   * told to `onBadRow`.
   */
  strict?: boolean;
  /** Told of each bad row skipped (not with `strict`): its line, column, reason and text. */
  onBadRow?: (row: BadRow) => void;
  /** Data kept but changed: invalid UTF-8, renamed header columns, integers too wide, fields left out. */
  onWarning?: WarningHandler;
}

/** `readCsv`'s options: those of every record reader, plus the delimiter and the header row. */
export interface CsvReadRecordsOptions extends ReadRecordsOptions {
  delimiter?: string;
  /** The first row names the columns (default true); without it, c1..cN or the schema's names. */
  header?: boolean;
}

/** The settled schema, and the records shaped to it (int64 as bigint, ...), ready for a ParquetWriter. */
export interface Records {
  schema: DefinedSchema;
  records: AsyncIterable<Record<string, unknown>>;
  /** Bad rows skipped so far, and the first few (by line, column and reason). */
  bad: { readonly count: number; readonly first: ReadonlyArray<BadRow> };
}

async function records<R>(items: AsyncGenerator<Array<Item<R>>>, shaper: Shaper<R>, o: CsvReadRecordsOptions, header?: (first: R) => boolean): Promise<Records> {
  // Before the first read: the items are read from `settle` on.
  checkReadOptions(o);
  const bad = new BadRows(Boolean(o.strict), o.name ?? 'input', STRICT_HINT, o.onBadRow);
  const settled = await settle(items, shaper, sampleSize(o), bad, header).catch((e: unknown) => {
    throw located(e, bad);
  });
  const check = rowChecker(settled.schema);
  async function* rows(): AsyncGenerator<Record<string, unknown>> {
    try {
      for await (const items of settled.records()) {
        for (const item of items) {
          if (item.error !== undefined) {
            bad.add(item.line, item.error, item.column);
            continue;
          }
          const { line, record } = item;
          // A row the writer would refuse is a bad row here, where its line is known.
          let row: Record<string, unknown> | undefined;
          const problem = await takeShaped(shaper, record, (r) => {
            check(r);
            row = r;
          });
          if (problem) bad.add(line, problem.why, problem.column);
          else yield row!;
        }
      }
    } catch (e) {
      throw located(e, bad);
    }
  }
  return { schema: settled.schema, records: rows(), bad };
}

/** CSV records, the header row naming the columns; empty cells are null. */
export async function readCsv(input: TextInput, options: CsvReadRecordsOptions = {}): Promise<Records> {
  // The CSV reader is loaded when a CSV is read, not when the library is imported.
  const { readCsv: csvItems } = await import('./read-csv.js');
  const header = options.header ?? true;
  const sampled = sampleSize(options);
  const shaper = new CsvShaper(schemaChoiceOf(options), options.onWarning, (c) => `its type was inferred from the first ${sampled} rows: give it in types as '${c}=TYPE', or infer from more rows with sample`);
  const items = csvItems(inputBytes(input, options.name ?? 'input'), {
    delimiter: options.delimiter ?? ',', skipBad: !options.strict, header, width: shaper.knownWidth(header), ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  return records(items, shaper, options, (first: Cells) => {
    if (header) shaper.setHeader(first);
    else shaper.noHeader(first);
    return header;
  });
}

/** Records read to infer the schema: none when it is given. */
function sampleSize(o: ReadRecordsOptions): number {
  return o.schema ? 0 : (o.sample ?? 1000);
}

/** The JSON item readers' options: warnings, and the records inference sees. */
function jsonOptions(o: ReadRecordsOptions): JsonReadOptions {
  return { sampled: sampleSize(o), ...(o.onWarning ? { onWarning: o.onWarning } : {}) };
}

/** JSON Lines records: one object per line. */
export function readJsonLines(input: TextInput, options: ReadRecordsOptions = {}): Promise<Records> {
  const items = jsonLineItems(inputBytes(input, options.name ?? 'input'), jsonOptions(options));
  return records(items, new JsonShaper(schemaChoiceOf(options), options.onWarning), options);
}

/** The objects of a JSON array, read element by element. */
export function readJsonArray(input: TextInput, options: ReadRecordsOptions = {}): Promise<Records> {
  const items = jsonArrayItems(inputBytes(input, options.name ?? 'input'), jsonOptions(options));
  return records(items, new JsonShaper(schemaChoiceOf(options), options.onWarning), options);
}
