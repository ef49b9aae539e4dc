/**
 * How many bytes a Trevni block may declare decompressed, checked from its
 * descriptor before anything is inflated: a codec stops at the declared
 * size, so this is what keeps a small block that honestly inflates to a
 * gigabyte (a decompression bomb with a true size claim) from being inflated.
 */
import { CorruptFileError, LimitError } from '../errors.js';
import type { TrevniBlock, TrevniColumn, TrevniType } from './types.js';

/** Most bytes one value takes; strings and bytes have no bound. Booleans are bits, counted apart. */
const VALUE_BYTES: Partial<Record<TrevniType, number>> = {
  null: 0,
  int: 5,
  long: 10,
  fixed32: 4,
  fixed64: 8,
  float: 4,
  double: 8,
};

/** Room beyond the values, for a writer that pads its blocks: harmless, and no Java writer does it. */
const BLOCK_SLACK = 1024;

/**
 * Throws unless `block` of `col` declares at most `maxBlockBytes` (the
 * reader's option) uncompressed and can fill that size. Only a column of one
 * value per row (no array, no parent) has a bound of its own: the values of
 * the others are as many as their lengths say.
 */
export function checkBlockSize(col: TrevniColumn, block: TrevniBlock, maxBlockBytes: number): void {
  if (block.uncompressedSize > maxBlockBytes) {
    throw new LimitError(`block declares ${block.uncompressedSize} bytes decompressed, more than the reader's maxBlockBytes (${maxBlockBytes})`);
  }
  if (col.array || col.parentIndex >= 0) return;
  const rows = block.rowCount;
  const width = VALUE_BYTES[col.type];
  const bound = col.type === 'boolean' ? Math.ceil(rows / 8) : width === undefined ? undefined : rows * width;
  if (bound === undefined) return;
  if (block.uncompressedSize > bound + BLOCK_SLACK) {
    throw new CorruptFileError(`block declares ${block.uncompressedSize} bytes decompressed, more than ${rows} ${col.type} value${rows === 1 ? '' : 's'} can take`);
  }
}
