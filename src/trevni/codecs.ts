/**
 * Trevni's codecs and checksums, by the names files use. Codec names are
 * matched exactly, as the Java implementation does: `null`, `deflate` (a raw
 * RFC 1951 stream, no zlib header), `snappy` (one raw snappy block, no
 * framing) and `bzip2` (a complete bzip2 stream; a Java addition to the spec).
 * Checksums: `null` and `crc32` (the spec's `crc-32` is accepted as the same
 * algorithm): the CRC-32 of the uncompressed block, stored big-endian.
 */
import { deflateSync, inflateSync } from 'fflate';
import { crc32 } from '../checksum/crc32.js';
import { bzip2Compress, bzip2Decompress } from '../codecs/bzip2.js';
import { loadCodec } from '../codecs/registry.js';
import { MAX_BLOCK_SIZE } from '../codecs/codec.js';
import { CorruptFileError, LimitError, ParquetryError, UnsupportedError } from '../errors.js';

export interface TrevniCodec {
  readonly name: string;
  /** Decompresses a whole block to exactly `size` bytes, else CorruptFileError. */
  decompress(input: Uint8Array, size: number): Uint8Array;
  compress(input: Uint8Array): Uint8Array;
}

export const TREVNI_CODECS = ['null', 'deflate', 'snappy', 'bzip2'] as const;
export type TrevniCodecName = (typeof TREVNI_CODECS)[number];

export const TREVNI_CHECKSUMS = ['null', 'crc32', 'crc-32'] as const;
export type TrevniChecksumName = (typeof TREVNI_CHECKSUMS)[number];

function wrap(name: string, decode: (input: Uint8Array, size: number) => Uint8Array, encode: (input: Uint8Array) => Uint8Array): TrevniCodec {
  return {
    name,
    decompress(input, size) {
      if (!Number.isSafeInteger(size) || size < 0) throw new CorruptFileError(`${name}: invalid uncompressed size ${size}`);
      if (size > MAX_BLOCK_SIZE) throw new LimitError(`${name}: uncompressed size ${size} exceeds the ${MAX_BLOCK_SIZE}-byte limit`);
      let out: Uint8Array;
      try {
        out = decode(input, size);
      } catch (e) {
        if (e instanceof ParquetryError) throw e;
        throw new CorruptFileError(`invalid ${name} data: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
      }
      if (out.length !== size) throw new CorruptFileError(`${name} data decompressed to ${out.length} bytes, expected ${size}`);
      return out;
    },
    compress: encode,
  };
}

const nullCodec: TrevniCodec = wrap('null', (input) => input, (input) => input);

const deflate: TrevniCodec = wrap(
  'deflate',
  (input, size) => {
    // One spare byte: fflate stops at the end of the buffer it is given, so
    // filling the spare byte shows the data is longer than declared.
    return inflateSync(input, { out: new Uint8Array(size + 1) });
  },
  // Java's Deflater(DEFAULT_COMPRESSION, nowrap): zlib level 6, no header.
  (input) => deflateSync(input, { level: 6 }),
);

const bzip2: TrevniCodec = wrap('bzip2', (input, size) => bzip2Decompress(input, size), (input) => bzip2Compress(input, 9));

let snappy: TrevniCodec | undefined;

/** True for the codec names this implementation reads and writes. */
export function isTrevniCodec(name: string): name is TrevniCodecName {
  return (TREVNI_CODECS as readonly string[]).includes(name);
}

export function isTrevniChecksum(name: string): name is TrevniChecksumName {
  return (TREVNI_CHECKSUMS as readonly string[]).includes(name);
}

/** Loads (snappy's wasm on first use) and returns the codec for `name`. */
export async function trevniCodec(name: string): Promise<TrevniCodec> {
  switch (name) {
    case 'null': return nullCodec;
    case 'deflate': return deflate;
    case 'bzip2': return bzip2;
    case 'snappy': {
      if (!snappy) {
        const raw = await loadCodec('SNAPPY');
        snappy = wrap('snappy', (input, size) => raw.decompress(input, size), (input) => raw.compress(input));
      }
      return snappy;
    }
  }
  throw new UnsupportedError(`unknown Trevni codec ${JSON.stringify(name)} (known: ${TREVNI_CODECS.join(', ')})`);
}

export interface TrevniChecksum {
  readonly size: number;
  /** The stored bytes for `data` (the uncompressed block). */
  compute(data: Uint8Array): Uint8Array;
}

const NO_BYTES = new Uint8Array(0);

const nullChecksum: TrevniChecksum = { size: 0, compute: () => NO_BYTES };

const crc32Checksum: TrevniChecksum = {
  size: 4,
  compute(data) {
    const c = crc32(data);
    // Big-endian, as Java's ByteBuffer.putInt stores it (the spec's "fixed32" would be little-endian).
    return new Uint8Array([c >>> 24, (c >>> 16) & 0xff, (c >>> 8) & 0xff, c & 0xff]);
  },
};

export function trevniChecksum(name: string): TrevniChecksum {
  switch (name) {
    case 'null': return nullChecksum;
    case 'crc32':
    case 'crc-32': return crc32Checksum;
  }
  throw new UnsupportedError(`unknown Trevni checksum ${JSON.stringify(name)} (known: null, crc32)`);
}
