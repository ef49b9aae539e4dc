/**
 * `parquetry/convert` in Node: the portable entry's, with `convert` taking
 * paths, directories, `s3://` addresses and Node streams.
 *
 * @module parquetry/convert (Node)
 */
import { registerNodeCodecs } from '../codecs.js';

registerNodeCodecs();

export * from '../../entries/convert.js';
// This takes the place of the portable `convert`.
export { convert } from '../convert.js';
