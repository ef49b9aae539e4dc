/**
 * The codec interface and the checks every implementation shares, so each
 * codec module only has to turn bytes into bytes.
 */
import { plainView } from '../bytes/plain-view.js';
import { CorruptFileError, LimitError, ParquetryError } from '../errors.js';

/** Parquet's CompressionCodec names. */
export type CodecName = 'UNCOMPRESSED' | 'SNAPPY' | 'GZIP' | 'LZO' | 'BROTLI' | 'LZ4' | 'ZSTD' | 'LZ4_RAW';

export const CODEC_NAMES: readonly CodecName[] = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'LZO', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'];

/**
 * Results may share memory with `input` (UNCOMPRESSED returns it as is), so
 * a caller that reuses its input buffer must copy the result first.
 */
export interface Codec {
  /**
   * Decompress a whole block. `uncompressedSize` is what the page header says;
   * the result has exactly that length, else CorruptFileError.
   */
  decompress(input: Uint8Array, uncompressedSize: number): Uint8Array;
  /**
   * Compress a whole block. `level` is the codec's own scale (GZIP 0-9,
   * BROTLI 0-11, ZSTD -131072..22); codecs without levels ignore it.
   */
  compress(input: Uint8Array, level?: number): Uint8Array;
}

/** The largest block any codec will produce: typed arrays and wasm memories stop near 2 GiB. */
export const MAX_BLOCK_SIZE = 2 ** 31 - 1;

/**
 * The readers' default for the largest page (Trevni: block) they inflate:
 * far above any writer's page size (1 MiB is usual), far below what breaks memory.
 */
export const DEFAULT_MAX_INFLATED = 2 ** 30;

type Decode = (input: Uint8Array, uncompressedSize: number) => Uint8Array;
type Encode = (input: Uint8Array, level?: number) => Uint8Array;

/**
 * Builds a Codec whose decompress validates the size before the decoder can
 * allocate, turns whatever a third-party decoder throws into a typed error,
 * and insists on the exact output length.
 */
export function defineCodec(name: CodecName, decode: Decode, encode: Encode): Codec {
  return {
    decompress(input, uncompressedSize) {
      if (empty(name, input, uncompressedSize)) return new Uint8Array(0);
      let out: Uint8Array;
      try {
        out = decode(input, uncompressedSize);
      } catch (e) {
        throw decodeFailure(name, e);
      }
      return exact(name, out, uncompressedSize);
    },
    compress: encode,
  };
}

/**
 * Checks the declared size; true for an empty page stored as zero bytes
 * (some writers do so whatever the codec, rather than encode nothing).
 */
function empty(name: CodecName, input: Uint8Array, size: number): boolean {
  checkUncompressedSize(name, size);
  return size === 0 && input.length === 0;
}

function exact(name: CodecName, out: Uint8Array, size: number): Uint8Array {
  if (out.length !== size) throw new CorruptFileError(`${name} data decompressed to ${out.length} bytes, expected ${size}`);
  // Native codecs return Buffers.
  return plainView(out);
}

export function checkUncompressedSize(name: CodecName, size: number): void {
  if (!Number.isSafeInteger(size) || size < 0) throw new CorruptFileError(`${name}: invalid uncompressed size ${size}`);
  if (size > MAX_BLOCK_SIZE) throw new LimitError(`${name}: uncompressed size ${size} exceeds the ${MAX_BLOCK_SIZE}-byte limit`);
}

function decodeFailure(name: CodecName, e: unknown): ParquetryError {
  if (e instanceof ParquetryError) return e;
  // wasm-bindgen libraries throw plain strings, so no `instanceof Error` here.
  const msg = e instanceof Error ? e.message : String(e);
  if (e instanceof RangeError && /allocation failed|Invalid typed array length|Maximum memory size|WebAssembly\.Memory/i.test(msg)) {
    return new LimitError(`${name}: cannot allocate memory to decompress: ${msg}`);
  }
  return new CorruptFileError(`invalid ${name} data: ${msg}`, undefined, { cause: e });
}
