/**
 * CSV input of a conversion: csv-parse's incremental parser, one
 * record at a time, each with the line it starts on. Cells are text; an
 * empty cell (quoted or not) is null to the caller, as DuckDB reads it.
 */
import { parse, type CsvError } from '#csv-parse';
import type { WarningHandler } from '../warnings.js';
import type { InputBytes, Item } from './source.js';
import { InvalidUtf8Watch, replacedCell } from './utf8.js';

export type Cells = string[];

/** The Buffer class of the csv-parse build in use: Node's, or in its browser build the polyfill it bundles. */
interface CsvBufferClass {
  isBuffer(v: unknown): boolean;
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): Uint8Array;
}

/** csv-parse's chunk API, under its stream (not in its typings). */
interface CsvApi {
  info: { lines: number; empty_lines: number };
  /** Normalized options: the delimiters are Buffers of the build's own class. */
  options: { delimiter: Array<{ constructor: CsvBufferClass }> };
  parse(chunk: Uint8Array | undefined, end: boolean, push: (record: string[]) => void, close: () => void): Error | undefined;
}

/**
 * Chunks as the parser takes them: its stream hands it Buffers of its own
 * class, and the browser build's polyfilled Buffer refuses any other
 * Uint8Array. A chunk that is not one is wrapped (a view, not a copy).
 */
function parserChunks(api: CsvApi): (chunk: Uint8Array) => Uint8Array {
  const CsvBuffer = api.options.delimiter[0]!.constructor;
  return (chunk) => (CsvBuffer.isBuffer(chunk) ? chunk : CsvBuffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
}

export interface CsvReadOptions {
  delimiter: string;
  /** Go on after a malformed record (csv-parse skips it) instead of failing. */
  skipBad: boolean;
  /** The first record names the columns (for warnings; it is yielded all the same). */
  header?: boolean;
  /** Hears of invalid UTF-8 (read as U+FFFD): once, with its line and column. */
  onWarning?: WarningHandler;
}

/** Line breaks inside the cells, counted as csv-parse counts lines (CR and LF each). */
function lineBreaks(cells: string[]): number {
  let n = 0;
  for (const c of cells) {
    if (c.length === 0) continue;
    for (let i = c.indexOf('\n'); i >= 0; i = c.indexOf('\n', i + 1)) n++;
    for (let i = c.indexOf('\r'); i >= 0; i = c.indexOf('\r', i + 1)) n++;
  }
  return n;
}

/** Where the last record (or malformed one) ended, and csv-parse's count of empty lines then. */
interface RecordEnd {
  line: number;
  empty: number;
}

/**
 * The line a malformed-CSV error names: csv-parse reports the line it had
 * reached, which for a quote never closed is the end of the input; that
 * record starts on the first line after `last` that is not empty.
 */
function errorLine(e: CsvError, last: RecordEnd): number {
  const empty = typeof e.empty_lines === 'number' ? e.empty_lines : last.empty;
  if (e.code === 'CSV_QUOTE_NOT_CLOSED') return last.line + 1 + (empty - last.empty);
  const lines = typeof e.lines === 'number' ? e.lines : 0;
  return Math.max(1, lines);
}

function errorText(e: CsvError): string {
  // csv-parse's messages say "at line N" themselves; the line is given separately.
  return `malformed CSV: ${e.message.replace(/ at line \d+/, '')}`;
}

/**
 * Records of a CSV input, the header row included (it is the caller's to
 * interpret). A malformed record is an error item in its place; with
 * `skipBad`, reading goes on after it (csv-parse resynchronizes as it can).
 */
export async function* readCsv(input: InputBytes, options: CsvReadOptions): AsyncGenerator<Item<Cells>> {
  // csv-parse reports a malformed record (on_skip) as soon as it meets it, ahead of the
  // records still held for us: hold the reports until the records before them are out.
  const errors: Array<{ line: number; error: string }> = [];
  let failed = false;
  const last: RecordEnd = { line: 0, empty: 0 };
  let lastError = 0;
  // csv-parse's parser is a Node Transform; its chunk API (`api.parse`) is driven here instead,
  // so no stream is piped and the same code runs in browsers (on csv-parse's browser build).
  const { api } = parse({
    delimiter: options.delimiter,
    bom: true,
    relax_column_count: true,
    // A quote inside an unquoted TSV cell (`55" screen`) is data: TSV is not quoted by convention
    // (IANA text/tab-separated-values), and DuckDB and Python's csv read it as it is. In CSV, RFC
    // 4180 makes it malformed, a bad row. Quoted cells (our TSV writer quotes tabs and line breaks) read as ever.
    relax_quotes: options.delimiter === '\t',
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (e: CsvError | undefined) => {
      if (failed || !e) return;
      const line = errorLine(e, last);
      // Resynchronizing inside a malformed record, csv-parse may report it again: one bad row.
      if (line === lastError) return;
      lastError = line;
      last.line = line;
      if (typeof e.empty_lines === 'number') last.empty = e.empty_lines;
      errors.push({ line, error: errorText(e) });
      // Without skipping, nothing after the first malformed record matters.
      if (!options.skipBad) failed = true;
    },
  }) as unknown as { api: CsvApi };
  // Each record with the line count at the moment it is parsed (the line it ends on): cheaper
  // than csv-parse's `info` option, which copies its whole state for every record.
  let parsed: Array<{ record: string[]; lines: number }> = [];
  const push = (record: string[]) => {
    const lines = api.info.lines;
    parsed.push({ record, lines });
    last.line = lines;
    last.empty = api.info.empty_lines;
  };
  const watch = options.onWarning ? new InvalidUtf8Watch(options.onWarning) : undefined;
  let names: string[] | undefined;
  function* out(): Generator<Item<Cells>> {
    const held = parsed;
    parsed = [];
    for (const { record, lines } of held) {
      const line = lines - lineBreaks(record);
      while (errors.length && errors[0]!.line <= line) yield errors.shift()!;
      if (watch) {
        if (names === undefined && options.header) names = record;
        watch.seen(line, lines, record, (r) => replacedCell(r, names));
      }
      yield { line, record };
    }
  }
  let ended = false;
  const end = () => void (ended = true);
  const own = parserChunks(api);
  for await (const chunk of (watch ? watch.watch(input) : input).chunks()) {
    const err = api.parse(own(chunk), false, push, end);
    if (err) throw err;
    yield* out();
    if (ended || failed) break;
  }
  if (!ended && !failed) {
    const err = api.parse(undefined, true, push, end);
    if (err) throw err;
    yield* out();
  }
  while (errors.length) yield errors.shift()!;
  watch?.finish();
}
