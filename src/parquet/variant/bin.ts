/**
 * The `.variant.bin` files of parquet-testing's shredded_variant corpus hold a
 * variant's metadata immediately followed by its value, with no length in
 * between: the metadata's own header and offsets say where it ends.
 */
import { CorruptFileError } from '../../errors.js';
import { parseVariantMetadata } from './decode.js';

/** Splits concatenated metadata + value bytes (views into `bytes`, not copies). */
export function splitVariantBin(bytes: Uint8Array): { metadata: Uint8Array; value: Uint8Array } {
  const end = parseVariantMetadata(bytes).byteLength;
  if (end >= bytes.length) throw new CorruptFileError(`variant: no value bytes follow the ${end} bytes of metadata`);
  return { metadata: bytes.subarray(0, end), value: bytes.subarray(end) };
}
