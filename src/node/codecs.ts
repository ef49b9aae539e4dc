/**
 * Node-only codec implementations: zlib's native gzip and brotli, zstd-napi,
 * native snappy, zlib's CRC-32, and zlib's raw deflate for Trevni. registerNodeCodecs installs the ones measured faster
 * than the portable defaults (bench/codecs.ts): zstd-napi decompresses
 * 1.3-3x and compresses 3-4x faster than the portable wasm libzstd.
 */
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import { crc32Portable, registerCrc32 } from '../checksum/crc32.js';
import { type Codec, type CodecName, compressionLevel, defineCodec } from '../codecs/codec.js';
import { registerCodec } from '../codecs/registry.js';
import { snappyLength } from '../codecs/snappy.js';
import { CorruptFileError } from '../errors.js';
import { registerTrevniCodec, zlibTrevniDeflate } from '../trevni/codecs.js';

type ZstdBinding = typeof import('zstd-napi/binding.js');

/** A plain Uint8Array over a Buffer's bytes, so Buffer's view-returning `slice` does not reach callers. */
function plain(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * zlib's one-shot inflate capped at the declared size: a stream that goes on
 * past it stops there, and zlib's buffer-size error becomes a CorruptFileError.
 */
function cappedInflate(name: CodecName, inflate: (input: Uint8Array, options: { maxOutputLength: number }) => Buffer) {
  return (input: Uint8Array, size: number): Uint8Array => {
    try {
      // zlib refuses a maxOutputLength of 0; the exact length is checked afterwards anyway.
      return plain(inflate(input, { maxOutputLength: Math.max(1, size) }));
    } catch (e) {
      if ((e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw new CorruptFileError(`${name} data decompresses to more than ${size} bytes`);
      throw e;
    }
  };
}

export const nodeGzip: Codec = defineCodec(
  'GZIP',
  cappedInflate('GZIP', zlib.gunzipSync),
  (input, level) => plain(zlib.gzipSync(input, { level: compressionLevel('GZIP', level) })),
);

export const nodeBrotli: Codec = defineCodec(
  'BROTLI',
  cappedInflate('BROTLI', zlib.brotliDecompressSync),
  (input, level) =>
    plain(
      zlib.brotliCompressSync(input, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: compressionLevel('BROTLI', level),
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length,
        },
      }),
    ),
);

/**
 * zstd-napi's binding, or undefined when its native build is missing (npm
 * can be set to skip install scripts); the portable wasm codec then stays,
 * for both directions.
 */
function loadZstdBinding(): ZstdBinding | undefined {
  try {
    return createRequire(import.meta.url)('zstd-napi/binding.js') as ZstdBinding;
  } catch {
    return undefined;
  }
}

/** The native zstd codec, or undefined when zstd-napi cannot load. */
export function createNodeZstd(): Codec | undefined {
  const binding = loadZstdBinding();
  if (!binding) return undefined;
  const dctx = new binding.DCtx();
  const cctx = new binding.CCtx();
  return defineCodec(
    'ZSTD',
    (input, size) => {
      // One-shot decoding into a buffer of exactly the page size: libzstd
      // stops with an error rather than write past it, and handles frames
      // without a content size and concatenated frames.
      const out = new Uint8Array(size);
      let n: number;
      try {
        n = dctx.decompress(out, input);
      } catch (e) {
        if (e instanceof Error && /buffer is too small/i.test(e.message)) throw new CorruptFileError(`ZSTD data decompresses to more than ${size} bytes`);
        throw e;
      }
      return n === size ? out : out.subarray(0, n);
    },
    (input, level) => {
      const out = new Uint8Array(binding.compressBound(input.length));
      const n = cctx.compress(out, input, compressionLevel('ZSTD', level));
      return out.slice(0, n);
    },
  );
}

type SnappyBinding = typeof import('snappy');

/**
 * The `snappy` package's native codec (Rust, prebuilt per platform, no
 * install script): measured 5.4 GB/s decompressing 1 MiB blocks here against
 * 1.1 GB/s for the portable wasm build. Undefined when no binary is there
 * for this platform; the portable codec then stays.
 */
export function createNodeSnappy(): Codec | undefined {
  let lib: SnappyBinding;
  try {
    lib = createRequire(import.meta.url)('snappy') as SnappyBinding;
  } catch {
    return undefined;
  }
  return defineCodec(
    'SNAPPY',
    (input, size) => {
      // The library allocates what the preamble declares: check it against the page first.
      const declared = snappyLength(input);
      if (declared !== size) throw new CorruptFileError(`SNAPPY data declares ${declared} bytes, expected ${size}`);
      return plain(lib.uncompressSync(input, { asBuffer: true }) as Buffer);
    },
    // Copied into a V8-owned buffer: the library's own output is native memory
    // sized for the worst case (input + 1/6) that Node frees only from a
    // finalizer run on a later event-loop turn, so a write loop that never
    // yields to the event loop (a synchronous sink) held 1.8 GB of it for
    // 1 GiB written. V8-owned memory is freed by the collector itself.
    (input) => plain(lib.compressSync(input, { copyOutputData: true })),
  );
}

/** Below this size a call into zlib.crc32 costs more than the JS loop (bench/codecs.ts). */
const NATIVE_CRC_MIN = 128;

/** zlib.crc32 for larger inputs, where it is about four times faster; it exists from Node 20.15. */
export function createNodeCrc32(): ((data: Uint8Array, initial?: number) => number) | undefined {
  const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
  if (typeof native !== 'function') return undefined;
  return (data, initial = 0) => (data.length < NATIVE_CRC_MIN ? crc32Portable(data, initial) : native(data, initial));
}

let registered = false;

/** Installs the native implementations over the portable ones. Safe to call more than once. */
export function registerNodeCodecs(): void {
  if (registered) return;
  registered = true;
  registerCodec('GZIP', nodeGzip);
  registerCodec('BROTLI', nodeBrotli);
  const zstd = createNodeZstd();
  if (zstd) registerCodec('ZSTD', zstd);
  const snappy = createNodeSnappy();
  if (snappy) registerCodec('SNAPPY', snappy);
  const crc = createNodeCrc32();
  if (crc) registerCrc32(crc);
  // Trevni's deflate (a raw RFC 1951 stream) on zlib: 2.6-2.8x faster to decompress than fflate.
  registerTrevniCodec('deflate', zlibTrevniDeflate(zlib));
}
