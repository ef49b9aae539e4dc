/**
 * `parquetry/trevni` in Node: the portable entry's, with `openTrevni` taking
 * file paths too.
 *
 * @module parquetry/trevni (Node)
 */
import { openTrevni as openTrevniInput } from '../../trevni/open.js';
import type { TrevniReader, TrevniInput, TrevniOpenOptions } from '../../trevni/reader.js';
import type { TrevniDraftReader } from '../../trevni/draft/reader.js';
import { registerNodeCodecs } from '../codecs.js';
import { openFileWith } from '../file-source.js';

registerNodeCodecs();

export * from '../../entries/trevni.js';

/** Opens a Trevni file (version 2 or 1, or the wiki draft's dialect, by its header): a path, bytes, or a source object. */
export async function openTrevni(input: string | TrevniInput, options: TrevniOpenOptions = {}): Promise<TrevniReader | TrevniDraftReader> {
  if (typeof input !== 'string') return openTrevniInput(input, options);
  return openFileWith(input, (source) => openTrevniInput(source, options));
}
