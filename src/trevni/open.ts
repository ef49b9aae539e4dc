/** Opens any Trevni file with the reader its header calls for: TrevniReader (versions 1 and 2), or TrevniDraftReader (the wiki draft's Dremel dialect, told by its metadata). */
import { asParquetryError } from '../errors.js';
import { inputSource, type ReadInput } from '../io/source.js';
import { TrevniDraftReader } from './draft/reader.js';
import { TrevniReader, readTrevniHeader, type TrevniOpenOptions } from './reader.js';

/**
 * Opens any Trevni file (version 2, version 1, or the wiki draft's dialect) with the reader it
 * needs: bytes, a Blob or File, a URL, or a source object.
 */
export async function openTrevni(input: ReadInput, options: TrevniOpenOptions = {}): Promise<TrevniReader | TrevniDraftReader> {
  const source = await inputSource(input, options);
  let dialect: string;
  try {
    dialect = (await readTrevniHeader(source)).dialect;
  } catch (e) {
    throw asParquetryError(e, { file: source.name });
  }
  return dialect === 'dremel' ? TrevniDraftReader.open(source, options) : TrevniReader.open(source, options);
}
