/**
 * `parquetry/trevni` in Node: the portable entry's, with `openTrevni` taking
 * file paths too.
 *
 * @module parquetry/trevni (Node)
 */
import { openTrevni as openTrevniInput } from '../../trevni/open.js';
import type { TrevniReader, TrevniOpenOptions } from '../../trevni/reader.js';
import type { ReadInput } from '../../io/source.js';
import type { S3Settings } from '../s3-credentials.js';
import type { TrevniDraftReader } from '../../trevni/draft/reader.js';
import { registerNodeCodecs } from '../codecs.js';
import { openInputWith } from '../file-source.js';

registerNodeCodecs();

export * from '../../entries/trevni.js';

/**
 * Opens a Trevni file (version 2 or 1, or the wiki draft's dialect, by its header), as `openParquet`
 * opens Parquet: a path, an http(s) URL string, an `s3://` address, a URL, bytes, a Blob, or a source object.
 */
export async function openTrevni(input: string | ReadInput, options: TrevniOpenOptions & { s3?: S3Settings } = {}): Promise<TrevniReader | TrevniDraftReader> {
  const { s3, ...rest } = options;
  return openInputWith(input, s3, (i) => openTrevniInput(i, rest));
}
