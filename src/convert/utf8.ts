/**
 * Invalid UTF-8 in a CSV or JSON input: the parsers read it as U+FFFD,
 * which is kept, but reported once per input through `onWarning`, with the
 * line of the first invalid byte and the column of the record that holds it.
 * The bytes are checked as they pass (a fatal TextDecoder, native in every
 * runtime; the JS scan only locates the first invalid byte), and nothing more
 * once it is found.
 */
import { concatBytes } from '../bytes/concat.js';
import { countByte } from '../bytes/count.js';
import { incompleteUtf8Tail, invalidUtf8At, isUtf8 } from '../bytes/utf8-checks.js';
import type { WarningHandler } from '../warnings.js';
import type { InputBytes } from './source.js';

const REPLACEMENT = '\ufffd';

export class InvalidUtf8Watch {
  /** Line of the first invalid byte, until its record is seen. */
  private pending: number | undefined;
  private done = false;

  constructor(private readonly onWarning: WarningHandler) {}

  /** The line of the first invalid byte, once read and until told. */
  get pendingLine(): number | undefined {
    return this.pending;
  }

  /**
   * The input, its bytes checked as they are read. `lineAt`: the line the
   * next chunk begins in, from a reader that takes a chunk only when it has
   * read every line the chunks before it ended (and counts them anyway), so
   * line breaks are counted here only up to the first invalid byte, in its chunk.
   */
  watch(input: InputBytes, lineAt?: () => number): InputBytes {
    const self = this;
    return {
      name: input.name,
      size: input.size,
      get bytesRead() {
        return input.bytesRead;
      },
      set bytesRead(n: number) {
        input.bytesRead = n;
      },
      async *chunks() {
        let line = 1;
        let carry: Uint8Array | undefined;
        for await (const chunk of input.chunks()) {
          if (self.pending === undefined && !self.done) {
            const buf = carry ? concatBytes([carry, chunk]) : chunk;
            const tail = incompleteUtf8Tail(buf, buf.length);
            const body = buf.subarray(0, buf.length - tail);
            if (isUtf8(body)) {
              if (!lineAt) line += newlines(body, body.length);
              carry = tail > 0 ? buf.slice(buf.length - tail) : undefined;
            } else {
              self.pending = (lineAt ? lineAt() : line) + newlines(body, invalidUtf8At(body, 0, body.length));
            }
          }
          yield chunk;
        }
        // A sequence cut short by the end of the input.
        if (carry && self.pending === undefined && !self.done) self.pending = lineAt ? lineAt() : line;
      },
      close: () => input.close(),
    };
  }

  /**
   * A record read, from line `first` to line `last`: when it holds the line
   * of the first invalid byte, the warning names `column(record)`, the
   * column with a U+FFFD; a record past that line means none held it.
   */
  seen<R>(first: number, last: number, record: R, column: (record: R) => string | undefined): void {
    const at = this.pending;
    if (at === undefined) return;
    if (first > at) this.warn(at, undefined); // past it: no record held it (a malformed one did)
    else if (last >= at) this.warn(at, column(record));
  }

  /** The input ended: a warning still pending names no column. */
  finish(): void {
    if (this.pending !== undefined) this.warn(this.pending, undefined);
  }

  private warn(line: number, column: string | undefined): void {
    this.pending = undefined;
    this.done = true;
    this.onWarning({
      code: 'INVALID_UTF8', line, ...(column !== undefined ? { column } : {}),
      message: `line ${line}${column !== undefined ? `, column ${column}` : ''}: bytes that are not UTF-8 were read as U+FFFD; later ones in this input are not reported`,
    });
  }
}

function newlines(b: Uint8Array, end: number): number {
  return countByte(b, 0, end, 10);
}

/** The first of `cells` holding U+FFFD, named by `names` (else c1, c2...). */
export function replacedCell(cells: readonly string[], names: readonly string[] | undefined): string | undefined {
  const i = cells.findIndex((c) => c.includes(REPLACEMENT));
  return i < 0 ? undefined : (names?.[i] ?? `c${i + 1}`);
}

/** The first top-level field of a JSON record whose value holds U+FFFD (in a string or a key). */
export function replacedField(record: Record<string, unknown>): string | undefined {
  for (const [k, v] of Object.entries(record)) {
    if (k.includes(REPLACEMENT)) return k;
    if (JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x))?.includes(REPLACEMENT)) return k;
  }
  return undefined;
}
