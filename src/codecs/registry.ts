/**
 * Codecs by Parquet name. Each portable implementation is imported on first
 * use (brotli's wasm alone is a megabyte), so loading is async; once loaded,
 * getCodec is synchronous, which keeps page decoding synchronous. A runtime
 * adapter (src/node/codecs.ts) registers faster native implementations first,
 * or loaders for them (a native addon is loaded only when a file needs it).
 */
import { InvalidArgumentError, ParquetryError, UnsupportedError } from '../errors.js';
import { CODEC_NAMES, defineCodec, type Codec, type CodecName } from './codec.js';

export { CODEC_NAMES, type Codec, type CodecName } from './codec.js';

const loaders: Record<CodecName, () => Promise<Codec>> = {
  UNCOMPRESSED: async () => (await import('./uncompressed.js')).uncompressed,
  SNAPPY: async () => (await import('./snappy.js')).loadSnappy(),
  GZIP: async () => (await import('./gzip.js')).gzip,
  LZO: async () => {
    throw lzo();
  },
  BROTLI: async () => (await import('./brotli.js')).loadBrotli(),
  LZ4: async () => (await import('./lz4.js')).lz4,
  ZSTD: async () => (await import('./zstd.js')).zstd,
  LZ4_RAW: async () => (await import('./lz4-raw.js')).lz4Raw,
};

/**
 * Decompression alone, where the compressor is a module of its own that a
 * read need not load (a browser app that reads SNAPPY fetches no compressor).
 */
const decompressorLoaders: Partial<Record<CodecName, () => Promise<Codec>>> = {
  SNAPPY: async () => {
    const { snappyDecompress } = await import('./snappy-decode.js');
    return defineCodec('SNAPPY', snappyDecompress, () => {
      throw new InvalidArgumentError("codec SNAPPY is loaded for decompression only: await loadCodec('SNAPPY') first");
    });
  },
};

const loaded = new Map<CodecName, Codec>();
const pending = new Map<CodecName, Promise<Codec>>();
const decompressors = new Map<CodecName, Codec>();
const pendingDecompressors = new Map<CodecName, Promise<Codec>>();

function lzo(): UnsupportedError {
  return new UnsupportedError('LZO compression is not supported');
}

function checkName(name: string): asserts name is CodecName {
  if (!(CODEC_NAMES as readonly string[]).includes(name)) throw new InvalidArgumentError(`unknown compression codec ${JSON.stringify(name)}`);
}

/** Loads (once) and returns the codec; afterwards getCodec(name) answers synchronously. */
export async function loadCodec(name: CodecName): Promise<Codec> {
  checkName(name);
  return loaded.get(name) ?? loadInto(name, loaded, pending, loaders[name]);
}

/**
 * Loads (once) what decompressing `name` needs: the codec, or its
 * decompressor alone where that is a module of its own (whose `compress`
 * then refuses); afterwards getCodec(name) answers synchronously.
 */
export async function loadDecompressor(name: CodecName): Promise<Codec> {
  checkName(name);
  const load = decompressorLoaders[name];
  if (!load) return loadCodec(name);
  return loaded.get(name) ?? decompressors.get(name) ?? loadInto(name, decompressors, pendingDecompressors, load);
}

/** `load` run once at a time for `name`, its codec kept in `into` (unless loadCodec or registerCodec set one meanwhile). */
function loadInto(name: CodecName, into: Map<CodecName, Codec>, waiting: Map<CodecName, Promise<Codec>>, load: () => Promise<Codec>): Promise<Codec> {
  let p = waiting.get(name);
  if (!p) {
    p = load().then(
      (codec) => {
        waiting.delete(name);
        // A registerCodec during the load wins: it was an explicit choice.
        if (!loaded.has(name)) into.set(name, codec);
        return loaded.get(name) ?? codec;
      },
      async (e: unknown) => {
        waiting.delete(name);
        // A module or its wasm that this runtime cannot load is a limit of
        // the runtime, not a bug. The wasm check is loaded only then: a read
        // of a SNAPPY or uncompressed file uses no wasm.
        if (e instanceof ParquetryError) throw e;
        const { isWasmRefusal, wasmRefused } = await import('./wasm-loading.js');
        if (isWasmRefusal(e)) throw wasmRefused(name, e);
        throw new UnsupportedError(`the ${name} codec cannot be loaded here: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
    waiting.set(name, p);
  }
  return p;
}

/** The loaded codec; throws InvalidArgumentError if loadCodec(name) has not completed. */
export function getCodec(name: CodecName): Codec {
  checkName(name);
  if (name === 'LZO') throw lzo();
  const codec = loaded.get(name) ?? decompressors.get(name);
  if (!codec) throw new InvalidArgumentError(`codec ${name} is not loaded: await loadCodec('${name}') first`);
  return codec;
}

/**
 * Replaces how `name` is loaded on first use, unless it is loaded already:
 * `load` gets the default loader, to fall back on.
 */
export function registerCodecLoader(name: CodecName, load: (portable: () => Promise<Codec>) => Promise<Codec>): void {
  checkName(name);
  const portable = loaders[name];
  loaders[name] = () => load(portable);
  // Reads then load what this loader gives too.
  delete decompressorLoaders[name];
}

/** Installs `codec` for `name`, replacing any loaded or default implementation. */
export function registerCodec(name: CodecName, codec: Codec): void {
  checkName(name);
  loaded.set(name, codec);
}
