/**
 * `parquetry/recover` in Node: the portable entry's, with Node's codecs
 * registered, from the same modules as the root's Node entry point, so one
 * program's classes (errors, readers) are one; `salvage` takes file paths too.
 *
 * @module parquetry/recover (Node)
 */
import type { ReadInput } from '../../io/source.js';
import { salvage as salvageInput, type Salvage, type SalvageOptions } from '../../recover/salvage.js';
import type { S3Settings } from '../s3-credentials.js';
import { registerNodeCodecs } from '../codecs.js';
import { openInputWith } from '../file-source.js';

registerNodeCodecs();

export * from '../../entries/recover.js';

/**
 * Opens a damaged Parquet or Trevni file for its salvage read, as `openParquet` opens a file: a path,
 * an http(s) URL string, an `s3://` address, or what the portable `salvage` takes.
 */
export async function salvage(input: string | ReadInput, options: SalvageOptions & { s3?: S3Settings } = {}): Promise<Salvage> {
  const { s3, ...rest } = options;
  return openInputWith(input, s3, (i) => salvageInput(i, rest));
}
