/**
 * CSV input of a conversion: the bytes decoded as UTF-8 (invalid bytes read
 * as U+FFFD; a byte order mark dropped) and cut into records by our
 * tokenizer (`csv-tokenizer.ts`), one at a time, each with the line it starts
 * on. Cells are text; an empty cell (quoted or not) is null to the caller, as
 * DuckDB reads it.
 */
import type { WarningHandler } from '../warnings.js';
import { CsvTokenizer, type CsvToken, type CsvTokenizerState } from './csv-tokenizer.js';
import type { InputBytes, Item } from './source.js';
import { InvalidUtf8Watch, replacedCell } from './utf8.js';

export type Cells = string[];

export interface CsvReadOptions {
  delimiter: string;
  /** Go on after a malformed record instead of stopping at it. */
  skipBad: boolean;
  /** The first record names the columns (for warnings; it is yielded all the same). */
  header?: boolean;
  /** Hears of invalid UTF-8 (read as U+FFFD): once, with its line and column. */
  onWarning?: WarningHandler;
  /** The table's columns, when known before the first record (CsvShaper.knownWidth): one makes empty lines null rows. */
  width?: number | undefined;
}

/**
 * Tokens as the conversion's items: a malformed record an error item in its
 * place (without `skipBad`, nothing follows the first: `failed`), and every
 * record shown to the invalid UTF-8 watch (the header's cells name its columns).
 */
export class CsvItems {
  failed = false;
  /** The header row's cells, once read (with a watch). */
  names: string[] | undefined;

  constructor(private readonly options: Pick<CsvReadOptions, 'skipBad' | 'header'>, private readonly watch?: InvalidUtf8Watch) {}

  items(tokens: readonly CsvToken[]): Array<Item<Cells>> {
    const out: Array<Item<Cells>> = [];
    for (const t of tokens) {
      if (t.error !== undefined) {
        out.push({ line: t.line, error: `malformed CSV: ${t.error}` });
        // Without skipping, nothing after the first malformed record matters.
        if (!this.options.skipBad) {
          this.failed = true;
          break;
        }
        continue;
      }
      if (this.watch) {
        if (this.names === undefined && this.options.header) this.names = t.cells;
        this.watch.seen(t.line, t.last, t.cells, (r) => replacedCell(r, this.names));
      }
      out.push({ line: t.line, record: t.cells });
    }
    return out;
  }
}

/** The tokenizer of `readCsv`'s dialect for `delimiter`. */
/** `width`: the table's columns when known before its first record (one makes empty lines null rows). */
export function csvTokenizer(delimiter: string, resume?: CsvTokenizerState, width?: number): CsvTokenizer {
  return new CsvTokenizer({
    delimiter,
    // A quote inside an unquoted TSV cell (`55" screen`) is data: TSV is not quoted by convention
    // (IANA text/tab-separated-values), and DuckDB and Python's csv read it as it is. In CSV, RFC
    // 4180 makes it malformed, a bad row. Quoted cells (our TSV writer quotes tabs and line breaks) read as ever.
    relaxQuotes: delimiter === '\t',
    ...(resume ? { resume } : {}),
    ...(width !== undefined ? { oneColumn: width === 1 } : {}),
  });
}

/**
 * Records of a CSV input, the header row included (it is the caller's to
 * interpret), in batches: a chunk's records at a time. A malformed record is
 * an error item in its place; with `skipBad`, reading goes on at the next
 * line break outside quotes, and without it nothing follows the first.
 */
export async function* readCsv(input: InputBytes, options: CsvReadOptions): AsyncGenerator<Array<Item<Cells>>> {
  const tokenizer = csvTokenizer(options.delimiter, undefined, options.width);
  const watch = options.onWarning ? new InvalidUtf8Watch(options.onWarning) : undefined;
  const decoder = new TextDecoder();
  const items = new CsvItems(options, watch);
  let tokens: CsvToken[] = [];
  const take = () => {
    const out = items.items(tokens);
    tokens = [];
    return out;
  };
  for await (const chunk of (watch ? watch.watch(input) : input).chunks()) {
    tokenizer.feed(decoder.decode(chunk, { stream: true }), tokens);
    if (tokens.length) yield take();
    if (items.failed) return;
  }
  tokenizer.feed(decoder.decode(), tokens);
  tokenizer.finish(tokens);
  if (tokens.length) yield take();
  watch?.finish();
}
