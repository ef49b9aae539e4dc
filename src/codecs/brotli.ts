/**
 * BROTLI (RFC 7932) through brotli-wasm, the reference library compiled to
 * wasm. Its module must be fetched and instantiated asynchronously, which is
 * what loadBrotli (and the registry's loadCodec) is for.
 */
import type { BrotliWasmType } from 'brotli-wasm';
import { CorruptFileError } from '../errors.js';
import { type Codec, compressionLevel, defineCodec } from './codec.js';

export function brotliCodec(lib: BrotliWasmType): Codec {
  const { NeedsMoreInput, NeedsMoreOutput } = lib.BrotliStreamResultCode;
  return defineCodec(
    'BROTLI',
    (input, uncompressedSize) => {
      // The streaming decoder with an output cap: the one-shot call would
      // inflate a decompression bomb without limit.
      const stream = new lib.DecompressStream();
      try {
        const result = stream.decompress(input, uncompressedSize + 1);
        try {
          if (result.code === NeedsMoreOutput) {
            throw new CorruptFileError(`BROTLI data decompresses to more than ${uncompressedSize} bytes`);
          }
          // Bytes after the end of the stream are ignored, as zlib and the
          // reference library's one-shot decoder do.
          if (result.code === NeedsMoreInput) throw new CorruptFileError('BROTLI data is truncated');
          return result.buf;
        } finally {
          result.free();
        }
      } finally {
        stream.free();
      }
    },
    (input, level) => lib.compress(input, { quality: compressionLevel('BROTLI', level) }),
  );
}

export async function loadBrotli(): Promise<Codec> {
  const mod = await import('brotli-wasm');
  return brotliCodec(await mod.default);
}
