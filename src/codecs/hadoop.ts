/**
 * Hadoop's compression codecs, named by their Java class as files written
 * through Hadoop name them (RedElm's footer does), each one complete stream
 * per compressed section:
 *
 * - `GzipCodec`: one gzip member (the GZIP codec of the registry);
 * - `DefaultCodec`: one zlib stream (RFC 1950: header, deflate, Adler-32);
 * - `SnappyCodec`: raw Snappy in `BlockCompressorStream`'s framing: a
 *   big-endian uint32 of the uncompressed length, then chunks of (uint32
 *   compressed length, raw Snappy) until that length is reached; a zero
 *   length ends the stream (written after a section cut into several
 *   chunks). Hadoop compresses at most 218422 bytes per chunk (its 256 KiB
 *   buffer less Snappy's worst-case overhead).
 *
 * Hadoop has no identity codec, so neither has this module.
 */
import { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError, UnsupportedError } from '../errors.js';
import { checkUncompressedSize, type Codec } from './codec.js';
import { loadCodec } from './registry.js';

export const HADOOP_GZIP = 'org.apache.hadoop.io.compress.GzipCodec';
export const HADOOP_DEFAULT = 'org.apache.hadoop.io.compress.DefaultCodec';
export const HADOOP_SNAPPY = 'org.apache.hadoop.io.compress.SnappyCodec';

/** Short names for the codecs (`--codec`), as the classes' own names say. */
export const HADOOP_CODECS: Readonly<Record<string, string>> = { gzip: HADOOP_GZIP, default: HADOOP_DEFAULT, snappy: HADOOP_SNAPPY };

/** Input bytes per Snappy chunk: 256 KiB - (256 KiB / 6 + 32), as Hadoop's SnappyCodec sizes its compressor. */
export const HADOOP_SNAPPY_CHUNK = 218422;

export interface HadoopCodec {
  readonly className: string;
  /** One complete stream to exactly `size` bytes, else CorruptFileError. */
  decompress(input: Uint8Array, size: number): Uint8Array;
  compress(input: Uint8Array): Uint8Array;
}

/** True for the class names loadHadoopCodec knows, so a file's codec can be checked before anything is loaded. */
export function isHadoopCodec(className: string): boolean {
  return Object.values(HADOOP_CODECS).includes(className);
}

/** Loads the codec a file names; an unknown class is an UnsupportedError. */
export async function loadHadoopCodec(className: string): Promise<HadoopCodec> {
  switch (className) {
    case HADOOP_GZIP: {
      const gzip = await loadCodec('GZIP');
      return { className, decompress: (input, size) => gzip.decompress(input, size), compress: (input) => gzip.compress(input) };
    }
    case HADOOP_DEFAULT: return zlibCodec(await import('fflate'));
    case HADOOP_SNAPPY: return snappyBlocks(await loadCodec('SNAPPY'), (await import('./snappy-decode.js')).snappyLength);
  }
  throw new UnsupportedError(`unknown Hadoop codec ${JSON.stringify(className)} (known: ${Object.values(HADOOP_CODECS).join(', ')})`);
}

function zlibCodec(fflate: typeof import('fflate')): HadoopCodec {
  return {
    className: HADOOP_DEFAULT,
    decompress(input, size) {
      checkUncompressedSize('GZIP', size);
      if (input.length < 6 || input[0] !== 0x78 || ((input[0]! << 8) | input[1]!) % 31 !== 0) throw new CorruptFileError('zlib stream has no valid header');
      let out: Uint8Array;
      try {
        // One spare byte: inflating into it shows the stream is longer than declared.
        out = fflate.inflateSync(input.subarray(2, input.length - 4), { out: new Uint8Array(size + 1) });
      } catch (e) {
        throw new CorruptFileError(`invalid zlib data: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (out.length !== size) throw new CorruptFileError(`zlib data decompressed to ${out.length > size ? `more than ${size}` : out.length} bytes, expected ${size}`);
      const stored = new DataView(input.buffer, input.byteOffset + input.length - 4, 4).getUint32(0);
      if (adler32(out) !== stored) throw new CorruptFileError('zlib stream fails its Adler-32 check');
      return out;
    },
    // Java's Deflater at its default level.
    compress: (input) => fflate.zlibSync(input, { level: 6 }),
  };
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    // 5552 bytes is the most zlib sums before the modulo can overflow 32 bits.
    const end = Math.min(i + 5552, data.length);
    for (; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function snappyBlocks(raw: Codec, snappyLength: (input: Uint8Array) => number): HadoopCodec {
  return {
    className: HADOOP_SNAPPY,
    decompress(input, size) {
      checkUncompressedSize('SNAPPY', size);
      const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
      const out = new Uint8Array(size);
      let ip = 0;
      let op = 0;
      const u32 = (what: string): number => {
        if (input.length - ip < 4) throw new CorruptFileError(`Hadoop Snappy stream ends inside ${what} (byte ${ip})`);
        const v = view.getUint32(ip);
        ip += 4;
        return v;
      };
      while (ip < input.length) {
        const block = u32('a block length');
        if (block === 0) break; // Hadoop's reader stops at a zero length
        if (block > size - op) throw new CorruptFileError(`Hadoop Snappy block of ${block} bytes runs past the ${size} declared`);
        for (let filled = 0; filled < block; ) {
          const n = u32('a chunk length');
          if (n > input.length - ip) throw new CorruptFileError(`Hadoop Snappy chunk of ${n} bytes runs past the stream's ${input.length - ip}`);
          const chunk = input.subarray(ip, ip + n);
          ip += n;
          // The chunk's own preamble says how much it inflates to; it must fit the block.
          const length = snappyLength(chunk);
          if (length > block - filled) throw new CorruptFileError(`Hadoop Snappy chunk inflates past its block (${length} bytes, ${block - filled} left)`);
          out.set(raw.decompress(chunk, length), op);
          op += length;
          filled += length;
        }
      }
      if (ip !== input.length) throw new CorruptFileError(`Hadoop Snappy stream has ${input.length - ip} bytes after its end`);
      if (op !== size) throw new CorruptFileError(`Hadoop Snappy data decompressed to ${op} bytes, expected ${size}`);
      return out;
    },
    compress(input) {
      const w = new ByteWriter(input.length + 64);
      if (input.length > 0) {
        w.i32be(input.length);
        for (let i = 0; i < input.length; i += HADOOP_SNAPPY_CHUNK) {
          const c = raw.compress(input.subarray(i, i + HADOOP_SNAPPY_CHUNK));
          w.i32be(c.length);
          w.bytes(c);
        }
      }
      // finish() writes an empty block header after a multi-chunk section, and for an empty one.
      if (input.length === 0 || input.length > HADOOP_SNAPPY_CHUNK) w.i32be(0);
      return w.finish();
    },
  };
}
