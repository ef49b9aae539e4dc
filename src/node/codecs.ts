/**
 * Node-only codec implementations: zlib's native gzip and brotli, zstd-napi,
 * native snappy, zlib's CRC-32, and zlib's raw deflate for Trevni (and
 * node:buffer's UTF-8 check). registerNodeCodecs installs the ones measured faster
 * than the portable defaults (bench/codecs.ts): zstd-napi decompresses
 * 1.3-3x and compresses 3-4x faster than the portable wasm libzstd.
 *
 * Nothing here is loaded before it is used: node:zlib on the first call that
 * needs it, the native addons when a file first uses their codec. Loaded at
 * import, they slowed the start of every process, also of those that never
 * decompress (BENCHMARKS.md, "Startup").
 */
import { isUtf8 } from 'node:buffer';
import type * as Zlib from 'node:zlib';
import { registerUtf8Check } from '../bytes/utf8-checks.js';
import { crc32Portable, registerCrc32, type Crc32Function } from '../checksum/crc32.js';
import { type Codec, type CodecName, defineCodec } from '../codecs/codec.js';
import { compressionLevel } from '../codecs/levels.js';
import { registerCodec, registerCodecLoader } from '../codecs/registry.js';
import { CorruptFileError } from '../errors.js';
import { registerTrevniCodec, zlibTrevniDeflate } from '../trevni/codecs.js';
import { nodeRequire, plain } from './native-require.js';

type ZstdBinding = typeof import('zstd-napi/binding.js');

let zlibModule: typeof Zlib | undefined;
/** node:zlib, loaded on first use. */
const zlib = (): typeof Zlib => (zlibModule ??= nodeRequire('node:zlib') as typeof Zlib);

/**
 * zlib's one-shot inflate capped at the declared size: a stream that goes on
 * past it stops there, and zlib's buffer-size error becomes a CorruptFileError.
 */
function cappedInflate(name: CodecName, inflate: (z: typeof Zlib) => (input: Uint8Array, options: { maxOutputLength: number }) => Buffer) {
  return (input: Uint8Array, size: number): Uint8Array => {
    try {
      // zlib refuses a maxOutputLength of 0; the exact length is checked afterwards anyway.
      return plain(inflate(zlib())(input, { maxOutputLength: Math.max(1, size) }));
    } catch (e) {
      if ((e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw new CorruptFileError(`${name} data decompresses to more than ${size} bytes`);
      throw e;
    }
  };
}

export const nodeGzip: Codec = defineCodec(
  'GZIP',
  cappedInflate('GZIP', (z) => z.gunzipSync),
  (input, level) => plain(zlib().gzipSync(input, { level: compressionLevel('GZIP', level) })),
);

export const nodeBrotli: Codec = defineCodec(
  'BROTLI',
  cappedInflate('BROTLI', (z) => z.brotliDecompressSync),
  (input, level) =>
    plain(
      zlib().brotliCompressSync(input, {
        params: {
          [zlib().constants.BROTLI_PARAM_QUALITY]: compressionLevel('BROTLI', level),
          [zlib().constants.BROTLI_PARAM_SIZE_HINT]: input.length,
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
    return nodeRequire('zstd-napi/binding.js') as ZstdBinding;
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

/** Below this size a call into zlib.crc32 costs more than the JS loop (bench/codecs.ts). */
const NATIVE_CRC_MIN = 128;

/** zlib.crc32 for larger inputs, where it is about four times faster; it exists from Node 20.15. */
export function createNodeCrc32(): Crc32Function | undefined {
  const native = (zlib() as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
  if (typeof native !== 'function') return undefined;
  return (data, initial = 0) => (data.length < NATIVE_CRC_MIN ? crc32Portable(data, initial) : native(data, initial));
}

/** The CRC-32 createNodeCrc32 gives (else the portable one), chosen on the first call, so node:zlib loads only when a checksum is computed. */
function lazyNodeCrc32(): Crc32Function {
  let chosen: Crc32Function | undefined;
  return (data, initial) => (chosen ??= createNodeCrc32() ?? crc32Portable)(data, initial);
}

let registered = false;

/** Installs the native implementations over the portable ones. Safe to call more than once. */
export function registerNodeCodecs(): void {
  if (registered) return;
  registered = true;
  registerCodec('GZIP', nodeGzip);
  registerCodec('BROTLI', nodeBrotli);
  // The addons load with the codec's first use; without their native build the portable codec stays.
  registerCodecLoader('ZSTD', async (portable) => createNodeZstd() ?? portable());
  registerCodecLoader('SNAPPY', async (portable) => (await import('./snappy.js')).createNodeSnappy() ?? portable());
  registerCrc32(lazyNodeCrc32());
  registerUtf8Check(isUtf8);
  // Trevni's deflate (a raw RFC 1951 stream) on zlib: 2.6-2.8x faster to decompress than fflate.
  registerTrevniCodec('deflate', zlibTrevniDeflate({
    inflateRawSync: (input, options) => zlib().inflateRawSync(input, options),
    deflateRawSync: (input, options) => zlib().deflateRawSync(input, options),
  }));
}
