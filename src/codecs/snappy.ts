/**
 * SNAPPY: the raw snappy block format (no framing), a varint of the
 * uncompressed length followed by literal and copy elements, both
 * directions in JavaScript: snappy-decode.ts, what reads load alone, and
 * snappy-encode.ts.
 */
import { type Codec, defineCodec } from './codec.js';
import { snappyDecompress } from './snappy-decode.js';
import { snappyCompress } from './snappy-encode.js';

export const snappy: Codec = defineCodec('SNAPPY', snappyDecompress, snappyCompress);
