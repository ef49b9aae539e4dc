/**
 * A data page's values as a stream, read or passed over a window at a time
 * (page-values.ts decodes them whole): what chunk-stream.ts reads. Apart
 * from page-values.ts, so a read that decodes whole pages does not load it.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { UnsupportedError } from '../errors.js';
import { PlainStream } from '../encodings/plain-stream.js';
import { HybridValues } from '../encodings/rle-stream.js';
import type { ValueStream } from '../encodings/types.js';
import type { LeafNode } from '../schema/tree.js';
import { OTHERS, otherEncodings } from './page-values.js';

/**
 * The values of a page of `count` values in data[pos..end), as a stream.
 * Dictionary-encoded pages give their indices.
 */
export function valueStream(encoding: string, leaf: LeafNode, data: Uint8Array, pos: number, end: number, count: number): ValueStream {
  const c = new ByteCursor(data, pos, end);
  const type = leaf.physicalType;
  switch (encoding) {
    case 'PLAIN':
      return new PlainStream(c, type, leaf.typeLength);
    case 'PLAIN_DICTIONARY':
    case 'RLE_DICTIONARY':
      return new HybridValues(c, 'indices');
    case 'RLE':
      if (type !== 'BOOLEAN') throw new UnsupportedError(`RLE encoding for ${type} values`);
      return new HybridValues(c, 'booleans');
    default:
      if (OTHERS.has(encoding)) return otherEncodings(encoding).otherStream(encoding, leaf, c, count);
      throw new UnsupportedError(`value encoding ${encoding}`);
  }
}
