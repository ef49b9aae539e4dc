/**
 * The file ranges of a column chunk's page indexes and of bloom filters,
 * each checked to lie between the magic and the footer: for the filter
 * scan (filter/scan.ts). Apart from chunk-locator.ts, which every read
 * loads, as a plain read reads none of them.
 */
import { CorruptFileError, type ErrorContext } from '../errors.js';
import type { ByteRange } from '../io/coalesce.js';
import type { ChunkRef } from './chunk-locator.js';

/** The file range of an index structure or bloom filter, checked to lie between the magic and the footer's last 8 bytes; null without an offset. */
export function structRange(fileSize: number, offset: number | undefined, length: number | undefined, what: string, ctx: ErrorContext): ByteRange | null {
  if (offset === undefined) return null;
  if (length === undefined) throw new CorruptFileError(`${what} has an offset but no length`, ctx);
  if (!(Number.isSafeInteger(offset) && Number.isSafeInteger(length) && offset >= 4 && length > 0 && offset + length <= fileSize - 8)) {
    throw new CorruptFileError(`${what} at ${offset} (${length} bytes) lies outside the ${fileSize}-byte file`, { ...ctx, offset });
  }
  return { start: offset, end: offset + length };
}

export function columnIndexRange(fileSize: number, { chunk }: ChunkRef, ctx: ErrorContext): ByteRange | null {
  return structRange(fileSize, chunk.columnIndexOffset, chunk.columnIndexLength, 'column index', ctx);
}

export function offsetIndexRange(fileSize: number, { chunk }: ChunkRef, ctx: ErrorContext): ByteRange | null {
  return structRange(fileSize, chunk.offsetIndexOffset, chunk.offsetIndexLength, 'offset index', ctx);
}

/** Whether `at` can start a bloom filter of at least `atLeast` bytes (its length unknown until read) in a file of `fileSize` bytes. */
export function bloomStartInside(fileSize: number, at: number, atLeast: number): boolean {
  return Number.isSafeInteger(at) && at >= 4 && at + atLeast <= fileSize - 8;
}
