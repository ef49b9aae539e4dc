/** What the record readers read, and what they give: chunks of bytes in, records (or bad rows) out. */
import { InvalidArgumentError } from '../errors.js';

/** One input record, or a bad one: `line` is where it starts (1-based), `last` where it ends when the reader says. */
export type Item<R> = { line: number; record: R; error?: undefined; last?: number } | { line: number; error: string; column?: string | undefined };

/** A bad input row that ends the conversion: where it is, and what is wrong. */
export class RowFailure extends InvalidArgumentError {
  constructor(readonly line: number, readonly why: string, readonly column?: string) {
    super(why);
  }
}

export interface InputBytes {
  /** For messages: the path, `stdin`, or the caller's name for the input. */
  readonly name: string;
  /** Total bytes when known (a file, stdin redirected from a file, bytes in memory). */
  readonly size: number | undefined;
  /** Bytes handed on so far. */
  bytesRead: number;
  /** The bytes, in chunks; iterate once. A reader may keep slices of a chunk, so chunks are never reused. */
  chunks(): AsyncGenerator<Uint8Array>;
  close(): Promise<void>;
}

