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

/** Throws unless `block` of `col` can fill its declared uncompressed size, and that size is within `maxDecompressedBytes` (the reader's option). */
export function checkBlockSize(col: TrevniColumn, block: TrevniBlock, maxDecompressedBytes: number): void {
  const size = block.uncompressedSize;
  const bound = valuesBound(col, block.numRows);
  // A claim its values cannot fill is corrupt; only a plausible one meets the caller's limit.
  if (bound !== undefined && size > bound + BLOCK_SLACK) {
    throw new CorruptFileError(`block declares ${size} bytes decompressed, more than ${block.numRows} ${col.type} value${block.numRows === 1 ? '' : 's'} can take`);
  }
  if (size > maxDecompressedBytes) throw new LimitError(`block declares ${size} bytes decompressed, more than the reader's maxDecompressedBytes (${maxDecompressedBytes})`);
}

/**
 * Most bytes `rows` rows of `col` take, or undefined when nothing bounds
 * them: only a column of one value per row (no array, no parent) of a type
 * of bounded size has a bound; the values of the others are as many as their
 * lengths say.
 */
function valuesBound(col: TrevniColumn, rows: number): number | undefined {
  if (col.array || col.parentIndex >= 0) return undefined;
  if (col.type === 'boolean') return Math.ceil(rows / 8);
  const width = VALUE_BYTES[col.type];
  return width === undefined ? undefined : rows * width;
}
