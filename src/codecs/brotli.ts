/**
 * BROTLI (RFC 7932) through brotli-wasm, the reference library compiled to
 * wasm. The package's browser entry fetches its wasm from beside the bundle
 * as soon as it is imported, so it is not imported: its glue and binary come
 * embedded (./wasm/, made by scripts/embed-wasm.mjs) and loadBrotli (through
 * the registry's loadCodec) instantiates them, in browsers and Node alike.
 */
import { CorruptFileError } from '../errors.js';
import { type Codec, defineCodec } from './codec.js';
import { compressionLevel } from './levels.js';
import { base64Bytes, checkWasmAllowed } from './wasm-loading.js';
import initBindgen, * as bindgen from './wasm/brotli-bindgen.js';
import { BROTLI_WASM } from './wasm/brotli-wasm.js';

/**
 * What the codec uses of brotli-wasm's API, declared here: the package is
 * only a build-time dependency (its glue and wasm are embedded), so the
 * published types cannot refer to it.
 */
export interface BrotliLibrary {
  BrotliStreamResultCode: { NeedsMoreInput: number; NeedsMoreOutput: number };
  DecompressStream: new () => {
    decompress(input: Uint8Array, outputSize: number): { code: number; buf: Uint8Array; free(): void };
    free(): void;
  };
  compress(input: Uint8Array, options?: { quality?: number }): Uint8Array;
}

export function brotliCodec(lib: BrotliLibrary): Codec {
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

let loading: Promise<Codec> | undefined;

/** Instantiates the embedded wasm once, then returns the codec. */
export function loadBrotli(): Promise<Codec> {
  loading ??= (async () => {
    await checkWasmAllowed('BROTLI');
    await initBindgen(base64Bytes(BROTLI_WASM));
    return brotliCodec(bindgen as BrotliLibrary);
  })();
  return loading;
}
