/**
 * `parquetry/recover` in Node: the portable entry's, with Node's codecs
 * registered, from the same modules as the root's Node entry point, so one
 * program's classes (errors, readers) are one.
 *
 * @module parquetry/recover (Node)
 */
import { registerNodeCodecs } from '../codecs.js';

registerNodeCodecs();

export * from '../../entries/recover.js';
