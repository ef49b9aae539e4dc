/**
 * Split-block bloom filters as parquet-format's BloomFilter.md defines them:
 * the hash (`hash.ts`), the filter (`filter.ts`), value hashing through the
 * writer's coercion (`value.ts`), and the on-disk form here: a
 * BloomFilterHeader (thrift compact) followed by the bitset.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { ByteWriter } from '../../bytes/writer.js';
import { CorruptFileError, UnsupportedError, withContext } from '../../errors.js';
import type { ErrorContext } from '../../errors.js';
import { decodeBloomFilterHeader } from '../metadata/index.js';
import { encodeBloomFilterHeader } from '../metadata/encode.js';
import type { BloomFilterHeader } from '../metadata/index.js';
import { MAX_BLOOM_BYTES, SplitBlockBloomFilter } from './filter.js';

export { loadBloomHasher, bloomHasherLoaded, xxhash64 } from './hash.js';
export { SplitBlockBloomFilter, SALT, optimalBloomBytes, MIN_BLOOM_BYTES, MAX_BLOOM_BYTES, BYTES_PER_BLOCK } from './filter.js';
export { BloomBuilder, type BloomBuilderOptions } from './builder.js';
export { bloomHash, hashPhysical, hashInt32, hashInt64, hashFloat, hashDouble, hashBoolean } from './value.js';

export interface ParsedBloomFilter {
  header: BloomFilterHeader;
  filter: SplitBlockBloomFilter;
  /** Bytes taken: header and bitset. */
  byteLength: number;
}

/**
 * Decodes a bloom filter at the start of `bytes`: its BloomFilterHeader and
 * the bitset after it (the bitset is copied, so `bytes` may be reused).
 * `bytes` may run past the filter (a reader that does not know
 * `bloom_filter_length` reads a generous range); it must hold all of it.
 * `ctx.offset`, if given, is the file offset of bytes[0], for error messages.
 */
export function parseBloomFilter(bytes: Uint8Array, ctx: ErrorContext = {}): ParsedBloomFilter {
  return withContext(ctx, () => {
    const cursor = new ByteCursor(bytes, 0, bytes.length, ctx.offset ?? 0);
    const header = decodeBloomFilterHeader(cursor);
    if (header.algorithm.type !== 'BLOCK') throw new UnsupportedError(`bloom filter algorithm ${header.algorithm.type} is not supported (only BLOCK)`);
    if (header.hash.type !== 'XXHASH') throw new UnsupportedError(`bloom filter hash ${header.hash.type} is not supported (only XXHASH)`);
    if (header.compression.type !== 'UNCOMPRESSED') {
      throw new UnsupportedError(`bloom filter compression ${header.compression.type} is not supported (only UNCOMPRESSED)`);
    }
    const n = header.numBytes;
    const at = cursor.fileOffset;
    if (!Number.isInteger(n) || n <= 0 || n % 32 !== 0) {
      throw new CorruptFileError(`bloom filter numBytes ${n} is not a positive multiple of 32`, { offset: at });
    }
    if (n > MAX_BLOOM_BYTES) throw new CorruptFileError(`bloom filter numBytes ${n} exceeds the 128 MiB maximum`, { offset: at });
    if (n > cursor.remaining) {
      throw new CorruptFileError(`bloom filter bitset of ${n} bytes, but only ${cursor.remaining} bytes follow its header`, { offset: at });
    }
    const headerLength = cursor.pos;
    const bitset = bytes.slice(headerLength, headerLength + n);
    return { header, filter: new SplitBlockBloomFilter(bitset), byteLength: headerLength + n };
  });
}

/** The on-disk form of a filter: its BloomFilterHeader (BLOCK, XXHASH, UNCOMPRESSED) and bitset. */
export function encodeBloomFilter(filter: SplitBlockBloomFilter): Uint8Array {
  const w = new ByteWriter(64 + filter.bitset.length);
  encodeBloomFilterHeader(
    {
      numBytes: filter.bitset.length,
      algorithm: { type: 'BLOCK' },
      hash: { type: 'XXHASH' },
      compression: { type: 'UNCOMPRESSED' },
    },
    w,
  );
  w.bytes(filter.bitset);
  return w.finish();
}
