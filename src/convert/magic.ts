/** Parquet or Trevni by a file's first bytes, for inputs whose format is not given. */
import { MAGIC as TREVNI_MAGIC } from '../trevni/metadata.js';

const PARQUET_MAGIC = [0x50, 0x41, 0x52, 0x31]; // PAR1

/** Parquet or Trevni by a file's first four bytes. */
export function magicFormat(head: Uint8Array): 'parquet' | 'trevni' | undefined {
  const starts = (magic: ArrayLike<number>) => head.length >= 4 && [0, 1, 2, 3].every((i) => head[i] === magic[i]);
  return starts(PARQUET_MAGIC) ? 'parquet' : starts(TREVNI_MAGIC) ? 'trevni' : undefined;
}
