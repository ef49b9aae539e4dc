/**
 * `parquetry/inspect` in Node: the portable entry's, with Node's codecs
 * registered, from the same modules as the root's Node entry point, so one
 * program's classes (errors, readers) are one; and `openParquetFile`, which
 * opens paths and `s3://` addresses as `openParquet` does.
 *
 * @module parquetry/inspect (Node)
 */
import { registerNodeCodecs } from '../codecs.js';

registerNodeCodecs();

export * from '../../entries/inspect.js';
export { openParquetFile } from '../open-parquet.js';
