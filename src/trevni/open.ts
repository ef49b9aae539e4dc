/** Opens any Trevni file with the reader its header calls for: TrevniReader (versions 1 and 2), or TrevniDraftReader (the wiki draft's Dremel dialect, told by its metadata). */
import { asParquetryError } from '../errors.js';
import { inputSource, withCachedTail, type ReadInput, type Source } from '../io/source.js';
import { TrevniDraftReader } from './draft/reader.js';
import { TrevniReader, readTrevniHeader, type TrevniOpenOptions } from './reader.js';

/**
 * Opens any Trevni file (version 2, version 1, or the wiki draft's dialect) with the reader it
 * needs: bytes, a Blob or File, a URL, or a source object.
 */
export async function openTrevni(input: ReadInput, options: TrevniOpenOptions = {}): Promise<TrevniReader | TrevniDraftReader> {
  const source = await inputSource(input, options);
  // The header's bytes (every read of it starts at 0, the last one holds it whole) are kept: the reader reads them again from memory.
  let head: Uint8Array | undefined;
  const recording: Source = { byteLength: source.byteLength, name: source.name, read: async (offset, length) => (head = await source.read(offset, length)) };
  let dialect: string;
  try {
    dialect = (await readTrevniHeader(recording)).dialect;
  } catch (e) {
    throw asParquetryError(e, { file: source.name });
  }
  const held = head ? withCachedTail(source, head, 0) : source;
  return dialect === 'dremel' ? TrevniDraftReader.open(held, options) : TrevniReader.open(held, options);
}
