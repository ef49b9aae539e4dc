/**
 * `parquetry/redelm` in Node: the portable entry's, with `openRedElm` taking
 * file paths.
 *
 * @module parquetry/redelm (Node)
 */
import { RedElmReader, type RedElmOpenOptions } from '../../redelm/reader.js';
import type { ReadInput } from '../../io/source.js';
import type { S3Settings } from '../s3-credentials.js';
import { registerNodeCodecs } from '../codecs.js';
import { openInputWith } from '../file-source.js';

registerNodeCodecs();

export * from '../../entries/redelm.js';

/** Opens a RedElm file, as `openParquet` opens Parquet: a path, an http(s) URL string, an `s3://` address, a URL, bytes, a Blob, or a source object. */
export async function openRedElm(input: string | ReadInput, options: RedElmOpenOptions & { s3?: S3Settings } = {}): Promise<RedElmReader> {
  const { s3, ...rest } = options;
  return openInputWith(input, s3, (i) => RedElmReader.open(i, rest));
}
