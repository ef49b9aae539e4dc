/**
 * SNAPPY: the raw snappy block format (no framing), a varint of the
 * uncompressed length followed by literal and copy elements, both
 * directions in JavaScript: snappy-decode.ts, what reads load alone, and
 * snappy-encode.ts.
 */
import { type Codec, defineCodec } from './codec.js';

/**
 * Both halves. Each is imported, not bound statically, so that in a bundle
 * the decoder stays one chunk of its own that a read loads (through the
 * registry's `loadDecompressor`), not a chunk shared with this module's.
 */
export async function loadSnappy(): Promise<Codec> {
  const [{ snappyDecompress }, { snappyCompress }] = await Promise.all([import('./snappy-decode.js'), import('./snappy-encode.js')]);
  return defineCodec('SNAPPY', snappyDecompress, snappyCompress);
}
