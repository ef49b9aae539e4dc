/**
 * `parquetry/redelm` in Node: the portable entry's, with `openRedElm` taking
 * file paths.
 *
 * @module parquetry/redelm (Node)
 */
import { RedElmReader, type RedElmInput, type RedElmOpenOptions } from '../../redelm/reader.js';
import { registerNodeCodecs } from '../codecs.js';
import { openFileWith } from '../file-source.js';

registerNodeCodecs();

export * from '../../entries/redelm.js';

/** Opens a RedElm file: a path, bytes, or a source object. */
export async function openRedElm(input: string | RedElmInput, options: RedElmOpenOptions = {}): Promise<RedElmReader> {
  if (typeof input !== 'string') return RedElmReader.open(input, options);
  return openFileWith(input, (source) => RedElmReader.open(source, options));
}
