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
import { BadRows, settle } from './pipeline.js';
import type { Cells } from './read-csv.js';
import { readJsonArray as jsonArrayItems, readJsonLines as jsonLineItems } from './read-json.js';
import { CsvShaper, JsonShaper, type SchemaChoice, type Shaper } from './shape.js';
import type { InputBytes, Item } from './source.js';
import { parseTypeOverride, typeFromJson } from './types.js';

/** Text, bytes, a Web ReadableStream, or any async iterable of chunks (a Node Readable is one). */
export type TextInput = string | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

export interface ReadRecordsOptions {
  /** The input's name in messages (default `input`). */
  name?: string;
  /** Records read to infer the schema (default 1000). */
  sample?: number;
  /** The columns and their types, as a `--schema` file gives them: `{ id: 'int64!', tags: ['string'] }`. */
  schema?: Record<string, unknown>;
  /** Column types as `--type` gives them: `['price=decimal(9,2)']`. */
  types?: string[];
  /** Skip bad rows (counted in `bad`) instead of failing on the first with an InvalidArgumentError naming its line. */
  skipBadRows?: boolean;
  onWarning?: WarningHandler;
}

export interface CsvReadRecordsOptions extends ReadRecordsOptions {
  delimiter?: string;
  /** The first row names the columns (default true); without it, c1..cN or the schema's names. */
  header?: boolean;
}

/** The settled schema, and the records shaped to it (int64 as bigint, ...), ready for a ParquetWriter. */
export interface Records {
  schema: DefinedSchema;
  records: AsyncIterable<Record<string, unknown>>;
  /** Bad rows skipped so far, and the first few with their messages (`name:line: why`). */
  bad: { readonly count: number; readonly first: ReadonlyArray<{ line: number; text: string }> };
}

const encoder = new TextEncoder();

function inputBytes(input: TextInput, name: string): InputBytes {
  const bytes = typeof input === 'string' ? encoder.encode(input) : input instanceof Uint8Array ? input : undefined;
  const source: InputBytes = {
    name,
    size: bytes?.length,
    bytesRead: 0,
    async *chunks() {
      const chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array> = bytes ? [bytes]
        : typeof (input as ReadableStream).getReader === 'function' ? readerChunks(input as ReadableStream<Uint8Array>) : (input as AsyncIterable<Uint8Array | string>);
      for await (const c of chunks) {
        const chunk = typeof c === 'string' ? encoder.encode(c) : c;
        source.bytesRead += chunk.length;
        yield chunk;
      }
    },
    close: async () => undefined,
  };
  return source;
}

/** A Web stream's chunks (not every runtime makes ReadableStream async-iterable). */
async function* readerChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function choice(o: ReadRecordsOptions): SchemaChoice {
  const fields = o.schema === undefined ? undefined : Object.entries(o.schema).map(([k, v]) => [k, typeFromJson(v, `schema field "${k}"`)] as [string, ReturnType<typeof typeFromJson>]);
  return { fields, overrides: (o.types ?? []).map(parseTypeOverride) };
}

async function records<R>(items: AsyncGenerator<Item<R>>, shaper: Shaper<R>, o: ReadRecordsOptions, header?: (first: R) => boolean): Promise<Records> {
  const bad = new BadRows(Boolean(o.skipBadRows), o.name ?? 'input', 'skipBadRows');
  const settled = await settle(items, shaper, o.schema ? 0 : (o.sample ?? 1000), bad, header);
  async function* rows(): AsyncGenerator<Record<string, unknown>> {
    for await (const { record } of settled.records) yield shaper.row(record);
  }
  return { schema: settled.schema, records: rows(), bad };
}

/** CSV records, the header row naming the columns; empty cells are null. */
export async function readCsv(input: TextInput, options: CsvReadRecordsOptions = {}): Promise<Records> {
  // csv-parse is loaded when a CSV is read, not when the library is imported.
  const { readCsv: csvItems } = await import('./read-csv.js');
  const header = options.header ?? true;
  const shaper = new CsvShaper(choice(options));
  const items = csvItems(inputBytes(input, options.name ?? 'input'), {
    delimiter: options.delimiter ?? ',', skipBad: Boolean(options.skipBadRows), header, ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  return records(items, shaper, options, (first: Cells) => {
    if (header) shaper.setHeader(first);
    else shaper.noHeader(first);
    return header;
  });
}

/** JSON Lines records: one object per line. */
export function readJsonLines(input: TextInput, options: ReadRecordsOptions = {}): Promise<Records> {
  const items = jsonLineItems(inputBytes(input, options.name ?? 'input'), options.onWarning ? { onWarning: options.onWarning } : {});
  return records(items, new JsonShaper(choice(options), () => undefined), options);
}

/** The objects of a JSON array, read element by element. */
export function readJsonArray(input: TextInput, options: ReadRecordsOptions = {}): Promise<Records> {
  const items = jsonArrayItems(inputBytes(input, options.name ?? 'input'), options.onWarning ? { onWarning: options.onWarning } : {});
  return records(items, new JsonShaper(choice(options), () => undefined), options);
}
