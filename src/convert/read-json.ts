/**
 * JSON inputs for `parquetry convert`: JSON Lines (one object per line) and a
 * JSON array of objects, split into its top-level elements as the bytes
 * arrive, so neither is ever held whole.
 *
 * Numbers are read exactly: integers too large for a double (beyond 2^53) as
 * bigints, and other numbers a double would change (more digits than it
 * holds, or beyond its range) as ExactNumber, their decimal text. Whole
 * numbers written as floats (`1.0`) are noted for inference (`noteWholeFloat`).
 */
import { concatBytes } from '../bytes/concat.js';
import { InvalidArgumentError } from '../errors.js';
import { ExactNumber, fractionalNumber, noteWholeFloat } from '../schema/exact-number.js';
import { MAX_SCHEMA_DEPTH, nestingLimitError } from '../schema/tree.js';
import type { WarningHandler } from '../warnings.js';
import { RowFailure, type InputBytes, type Item } from './source.js';
import { InvalidUtf8Watch, replacedField } from './utf8.js';

export type JsonRecord = Record<string, unknown>;

const BIG_MARK = '\u0000\u0001bigint:';
const EXACT_MARK = '\u0000\u0001exact:';
const WHOLE_FLOAT_MARK = '\u0000\u0001float:';
function revive(this: object, key: string, v: unknown): unknown {
  if (typeof v !== 'string' || v.charCodeAt(0) !== 0) return v;
  if (v.startsWith(BIG_MARK)) return BigInt(v.slice(BIG_MARK.length));
  if (v.startsWith(EXACT_MARK)) return new ExactNumber(v.slice(EXACT_MARK.length));
  if (v.startsWith(WHOLE_FLOAT_MARK)) {
    noteWholeFloat(this, key);
    return Number(v.slice(WHOLE_FLOAT_MARK.length));
  }
  return v;
}

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45; // digits . e E + -
}

const NUMBER_TOKEN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The index of the quote closing the JSON string that opens at `start` (or the text's length). */
function stringEnd(text: string, start: number): number {
  const n = text.length;
  let i = start + 1;
  for (; i < n; i++) {
    const d = text.charCodeAt(i);
    if (d === 92) i++;
    else if (d === 34) break;
  }
  return i;
}

/**
 * The text with number literals a double would change (and, `floats`,
 * whole floats) as marked strings, everything else as it is; in the same
 * pass, nesting deeper than MAX_SCHEMA_DEPTH is refused: JSON.parse itself
 * is iterative, but its reviver and every walk over the value after it
 * (inference, JSON.stringify) recurse.
 *
 * Only a literal of 16 characters or more, or with an exponent of 3
 * characters (`e-45`) or more, may change: shorter ones have at most 15
 * significant digits in a double's normal range, which a double's shortest
 * text gives back. Those alone are cut out and checked.
 */
function markNumbers(text: string, floats: boolean): string {
  let out = '';
  let last = 0;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i);
    } else if (c === 123 || c === 91) {
      if (++depth > MAX_SCHEMA_DEPTH) throw nestingLimitError('the JSON value');
    } else if (c === 125 || c === 93) {
      depth--;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + (c === 45 ? 1 : 0);
      while (j < n && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      let k = j;
      let exponent = -1;
      for (let d: number; k < n && isNumberChar((d = text.charCodeAt(k))); k++) if (d === 101 || d === 69) exponent = k;
      let mark: string | undefined;
      if (k === j) {
        // An integer: a bigint beyond 2^53.
        if (j - i >= 16) {
          const tok = text.slice(i, j);
          if (!Number.isSafeInteger(Number(tok)) && /^-?(?:0|[1-9]\d*)$/.test(tok)) mark = BIG_MARK + tok;
        }
      } else {
        const maybeInexact = k - i >= 16 || (exponent >= 0 && k - exponent > 3);
        if (maybeInexact || floats) {
          const tok = text.slice(i, k);
          // Malformed text is left for JSON.parse to refuse.
          const valid = NUMBER_TOKEN.test(tok);
          if (maybeInexact && valid && fractionalNumber(tok) instanceof ExactNumber) mark = EXACT_MARK + tok;
          else if (floats && valid && Number.isInteger(Number(tok))) mark = WHOLE_FLOAT_MARK + tok;
        }
      }
      if (mark !== undefined) {
        out += text.slice(last, i) + JSON.stringify(mark);
        last = k;
      }
      i = k - 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * JSON.parse, but numbers a double would change come out exact (bigints for
 * integers, else ExactNumber); with `floats`, whole floats are noted for
 * inference. Text nested deeper than the nesting limit is an InvalidArgumentError.
 */
export function parseJson(text: string, floats = false): unknown {
  const marked = markNumbers(text, floats);
  if (marked === text) return JSON.parse(text);
  return JSON.parse(marked, revive) as unknown;
}

function clip(s: string): string {
  return s.length > 80 ? s.slice(0, 79) + '…' : s;
}

/** One JSON text to a record item, or the reason it is not one. */
function toItem(text: string, line: number, floats: boolean): Item<JsonRecord> {
  let v: unknown;
  try {
    v = parseJson(text, floats);
  } catch (e) {
    return { line, error: e instanceof InvalidArgumentError ? e.detail : `not valid JSON: ${(e as Error).message}` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return { line, error: `expected a JSON object, got ${Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v}: ${clip(text.trim())}` };
  }
  return { line, record: v as JsonRecord };
}

export type ItemParser = (text: string, line: number) => Item<JsonRecord>;

/**
 * `toItem`, noting whole floats in the first `sampled` records (the ones
 * inference sees) and no further: noting costs a pass over the text and a
 * reviver, which slowed reading lines full of `2.0` by 1.8x.
 */
export function itemParser(sampled: number): ItemParser {
  let left = sampled;
  return (text, line) => {
    if (left <= 0) return toItem(text, line, false);
    const item = toItem(text, line, true);
    if (item.error === undefined) left--;
    return item;
  };
}

export function blank(s: string): boolean {
  return /^\s*$/.test(s);
}

export interface JsonReadOptions {
  /** Hears of invalid UTF-8 (read as U+FFFD): once, with its line and field. */
  onWarning?: WarningHandler;
  /** Records inference will see (the sample), whose whole floats are noted (`noteWholeFloat`); default none. */
  sampled?: number;
}

/** Batches of a JSON input's items, each item told to the UTF-8 watch (when there is one) as they pass. */
async function* watched(batches: AsyncGenerator<Item<JsonRecord>[]>, watch: InvalidUtf8Watch | undefined): AsyncGenerator<Item<JsonRecord>[]> {
  if (!watch) return yield* batches;
  for await (const items of batches) {
    for (const item of items) {
      if (item.error === undefined) watch.seen(item.line, item.last ?? item.line, item.record, replacedField);
      else watch.seen(item.line, item.line, undefined, () => undefined);
    }
    yield items;
  }
  watch.finish();
}

/** JSON Lines: one object per line; blank lines are skipped. The items come in a batch per chunk of input (no promise per record). */
export function readJsonLines(input: InputBytes, options: JsonReadOptions = {}): AsyncGenerator<Item<JsonRecord>[]> {
  const watch = options.onWarning ? new InvalidUtf8Watch(options.onWarning) : undefined;
  const lines = new LineCutter();
  return watched(jsonLines(watch ? watch.watch(input, () => lines.nextLine) : input, itemParser(options.sampled ?? 0), lines), watch);
}

/**
 * Bytes cut at line breaks: whole lines (without their last line break), and
 * the line number of the first. The caller, which walks the lines anyway,
 * tells the number of the line after them (`next`): counting here would be
 * a second pass over every byte.
 */
export class LineCutter {
  private carry: Uint8Array[] = [];
  private line = 1;

  /**
   * The whole lines the chunk ends, with what came before it: none when it
   * has no line break; else the line the bytes before it began, joined (its
   * bytes alone copied), then the chunk's other whole lines, a view of it.
   */
  cut(chunk: Uint8Array): Array<{ bytes: Uint8Array; first: number }> {
    const last = chunk.lastIndexOf(10);
    if (last < 0) {
      this.carry.push(chunk);
      return [];
    }
    const out: Array<{ bytes: Uint8Array; first: number }> = [];
    let from = 0;
    if (this.carry.length) {
      from = chunk.indexOf(10) + 1;
      out.push({ bytes: concatBytes([...this.carry, chunk.subarray(0, from - 1)]), first: this.line });
    }
    if (from <= last) out.push({ bytes: chunk.subarray(from, last), first: this.line + (from > 0 ? 1 : 0) });
    this.carry = last + 1 < chunk.length ? [chunk.subarray(last + 1)] : [];
    return out;
  }

  /** The input ended: the line after the last line break, if any. */
  end(): Array<{ bytes: Uint8Array; first: number }> {
    if (!this.carry.length) return [];
    const bytes = concatBytes(this.carry);
    this.carry = [];
    return [{ bytes, first: this.line }];
  }

  /** The lines last cut ended before line `line`. */
  next(line: number): void {
    this.line = line;
  }

  /** The line the bytes not yet cut begin in (once `next` has told it). */
  get nextLine(): number {
    return this.line;
  }
}

/**
 * Keeps a byte order mark, which only the first line may have (and loses).
 * Typed as an instance of the global's type, not `TextDecoder`: under
 * @types/node without the DOM lib that name is a value only, and the
 * declaration file would not check there.
 */
export const lineDecoder: InstanceType<typeof TextDecoder> = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Each chunk's whole lines decoded in one call and split at LF: an LF byte
 * is never inside a UTF-8 sequence, so each line's text is what decoding
 * it alone gives (an invalid sequence ends at the LF either way).
 */
async function* jsonLines(input: InputBytes, toItem: ItemParser, lines: LineCutter): AsyncGenerator<Item<JsonRecord>[]> {
  const items = (pieces: Array<{ bytes: Uint8Array; first: number }>): Item<JsonRecord>[] => {
    const out: Item<JsonRecord>[] = [];
    for (const piece of pieces) lines.next(lineItems(lineDecoder.decode(piece.bytes), piece.first, toItem, out));
    return out;
  };
  for await (const chunk of input.chunks()) {
    const out = items(lines.cut(chunk));
    if (out.length) yield out;
  }
  const out = items(lines.end());
  if (out.length) yield out;
}

/** The items of the lines of `text`, the first numbered `line`; blank lines are skipped. Returns the number of the line after them. */
export function lineItems(text: string, line: number, toItem: ItemParser, out: Item<JsonRecord>[]): number {
  for (let start = 0; ; line++) {
    const nl = text.indexOf('\n', start);
    const item = textItem(nl < 0 ? text.slice(start) : text.slice(start, nl), line, toItem);
    if (item) out.push(item);
    if (nl < 0) return line + 1;
    start = nl + 1;
  }
}

/** The item of the line b[start...end] (without its line break), line number `line`; undefined for a blank line. */
export function lineItem(b: Uint8Array, start: number, end: number, line: number, toItem: ItemParser): Item<JsonRecord> | undefined {
  return textItem(lineDecoder.decode(b.subarray(start, end)), line, toItem);
}

/** The item of a line's text, line number `line` (the first loses its byte order mark); undefined for a blank line. */
export function textItem(s: string, line: number, toItem: ItemParser): Item<JsonRecord> | undefined {
  if (line === 1 && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  return blank(s) ? undefined : toItem(s, line);
}

/** Splitter states: before the "[", expecting an element, inside one, after the "]". */
const S = { Before: 0, Expect: 1, In: 2, After: 3 } as const;
type State = (typeof S)[keyof typeof S];

/**
 * Splits a JSON array into the texts of its top-level elements, tracking
 * strings, escapes and nesting depth; each element is then JSON.parse-d on
 * its own, so a malformed element is one bad row, not the end.
 */
export class ArraySplitter {
  private state: State = S.Before;
  private depth = 0;
  private inString = false;
  private escape = false;
  private parts: string[] = [];
  private elementLine = 0;
  private afterComma = false;
  private line = 1;
  private first = true;

  constructor(private readonly toItem: ItemParser = itemParser(0)) {}

  /** Feeds text; complete elements (and empty ones, as errors) go to `out`. */
  feed(s: string, out: Item<JsonRecord>[]): void {
    let i = 0;
    const n = s.length;
    if (this.first && n > 0) {
      this.first = false;
      if (s.charCodeAt(0) === 0xfeff) i = 1;
    }
    let start = this.state === S.In ? 0 : -1;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 10) {
        this.line++;
        continue;
      }
      switch (this.state) {
        case S.In:
          if (this.inString) {
            if (this.escape) this.escape = false;
            else if (c === 92) this.escape = true;
            else if (c === 34) this.inString = false;
            continue;
          }
          if (c === 34) this.inString = true;
          else if (c === 123 || c === 91) this.depth++;
          else if (c === 125 || c === 93) {
            if (this.depth > 0) this.depth--;
            else if (c === 93) {
              this.end(s.slice(start, i), out);
              this.state = S.After;
            }
          } else if (c === 44 && this.depth === 0) {
            this.end(s.slice(start, i), out);
            this.state = S.Expect;
            this.afterComma = true;
          }
          continue;
        case S.Expect:
          if (c === 32 || c === 9 || c === 13) continue;
          if (c === 93) {
            if (this.afterComma) out.push({ line: this.line, error: 'a "," with no element after it (a trailing comma)' });
            this.state = S.After;
          } else if (c === 44) {
            out.push({ line: this.line, error: 'an empty element (two commas in a row)' });
            this.afterComma = true;
          } else {
            this.state = S.In;
            this.elementLine = this.line;
            this.depth = 0;
            start = i;
            i--; // look at this character again, inside the element
          }
          continue;
        case S.Before:
          if (c === 32 || c === 9 || c === 13) continue;
          if (c !== 91) throw new RowFailure(this.line, 'expected a JSON array of objects, but the input does not start with "["');
          this.state = S.Expect;
          this.afterComma = false;
          continue;
        case S.After:
          if (c === 32 || c === 9 || c === 13) continue;
          throw new RowFailure(this.line, 'text after the end of the JSON array');
      }
    }
    if (this.state === S.In && start < n) this.parts.push(s.slice(start));
  }

  private end(tail: string, out: Item<JsonRecord>[]): void {
    const text = this.parts.length ? this.parts.join('') + tail : tail;
    this.parts = [];
    const item = this.toItem(text, this.elementLine);
    if (item.error === undefined) item.last = this.line;
    out.push(item);
  }

  /** The input ended: it must have been a whole array. */
  finish(): void {
    if (this.state === S.Before) throw new RowFailure(this.line, 'expected a JSON array of objects, but the input is empty');
    if (this.state !== S.After) throw new RowFailure(this.line, 'the input ends inside the JSON array (no closing "]")');
  }
}

/** A JSON array of objects, element by element, in a batch per chunk of input. */
export function readJsonArray(input: InputBytes, options: JsonReadOptions = {}): AsyncGenerator<Item<JsonRecord>[]> {
  const watch = options.onWarning ? new InvalidUtf8Watch(options.onWarning) : undefined;
  return watched(jsonArray(watch ? watch.watch(input) : input, itemParser(options.sampled ?? 0)), watch);
}

async function* jsonArray(input: InputBytes, toItem: ItemParser): AsyncGenerator<Item<JsonRecord>[]> {
  const decoder = new TextDecoder();
  const splitter = new ArraySplitter(toItem);
  for await (const chunk of input.chunks()) {
    const out: Item<JsonRecord>[] = [];
    splitter.feed(decoder.decode(chunk, { stream: true }), out);
    if (out.length) yield out;
  }
  const out: Item<JsonRecord>[] = [];
  splitter.feed(decoder.decode(), out);
  if (out.length) yield out;
  splitter.finish();
}
