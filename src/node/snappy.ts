/**
 * The `snappy` package's native codec, in a module of its own, which
 * node/codecs.ts imports only when a file first uses SNAPPY.
 */
import { defineCodec, type Codec } from '../codecs/codec.js';
import { snappyLength } from '../codecs/snappy-decode.js';
import { CorruptFileError } from '../errors.js';
import { nodeRequire, plain } from './native-require.js';

type SnappyBinding = typeof import('snappy');

/**
 * The `snappy` package's native codec (Rust, prebuilt per platform, no
 * install script): 1.7x the portable JavaScript decoder's speed on the T1
 * file's pages and 3.2x its compressor's (BENCHMARKS.md, "SNAPPY in
 * JavaScript"). Undefined when no binary is there for this platform; the
 * portable codec then stays.
 */
export function createNodeSnappy(): Codec | undefined {
  let lib: SnappyBinding;
  try {
    lib = nodeRequire('snappy') as SnappyBinding;
  } catch {
    return undefined;
  }
  return defineCodec(
    'SNAPPY',
    (input, size) => {
      // The library allocates what the preamble declares: check it against the page first.
      const declared = snappyLength(input);
      if (declared !== size) throw new CorruptFileError(`SNAPPY data declares ${declared} bytes, expected ${size}`);
      // Synchronous: the async call on libuv's pool cost the main thread
      // about as much as inflating there, and its native buffers doubled
      // toArrow's peak RSS (BENCHMARKS.md, "Parquet to Arrow"). Copied into a
      // V8-owned buffer: the library's own (external) output cost 0.33-0.51 s
      // of CPU, most of it system time, for the 114 MB of the T1 file's pages
      // against 0.14 s with the copy (BENCHMARKS.md, T1).
      return plain(lib.uncompressSync(input, { asBuffer: true, copyOutputData: true }) as Buffer);
    },
    // Copied into a V8-owned buffer: the library's own output is native memory
    // sized for the worst case (input + 1/6) that Node frees only from a
    // finalizer run on a later event-loop turn, so a write loop that never
    // yields to the event loop (a synchronous sink) held 1.8 GB of it for
    // 1 GiB written. V8-owned memory is freed by the collector itself.
    (input) => plain(lib.compressSync(input, { copyOutputData: true })),
  );
}
