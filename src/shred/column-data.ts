import type { Values } from '../encodings/types.js';

/**
 * One column chunk, decoded: levels for every entry, values for the non-null
 * ones. Format-neutral, so the assembler, the Arrow builders and the salvage
 * read take it whichever container the levels came from.
 */
export interface ColumnChunkData {
  /** Definition levels, or null when the leaf's max definition level is 0. */
  def: Uint8Array | Uint16Array | null;
  /** Repetition levels, or null when the leaf is not repeated. */
  rep: Uint8Array | Uint16Array | null;
  /** Number of level entries (values and nulls). */
  length: number;
  /** Number of non-null values. */
  valueCount: number;
  /** Dense non-null values; null when the chunk is dictionary-encoded throughout (then see `dictionary`). */
  values: Values | null;
  dictionary: Values | null;
  /** Per non-null value, its index into `dictionary`. */
  indices: Int32Array | null;
}
