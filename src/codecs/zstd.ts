/**
 * ZSTD (RFC 8878) through @bokuweb/zstd-wasm, the reference libzstd compiled
 * to wasm, for both directions in every runtime.
 *
 * The package's one-shot calls are thin: decompress allocates whatever the
 * first frame's header claims (its default buffer when the header has no
 * size) and decodes every frame into that one buffer, and neither call
 * checks what its malloc returns. So frames are walked first
 * (zstd-frame.ts) to check their sizes against the page and shape the
 * input so that libzstd's output buffer is what the page bounds; and before
 * each call the wasm heap is grown by a probe whose failure is harmless
 * (reserveHeap), so the package's mallocs cannot fail into a write at
 * address 0.
 *
 * The package is only a build dependency: its browser build's glue (bundled
 * into one module, ./wasm/zstd-glue.ts) and its zstd.wasm (as base64,
 * ./wasm/zstd-wasm.ts) are embedded by scripts/embed-wasm.mjs, and the bytes
 * are handed to the glue's init, in browsers and Node alike, so a bundle
 * needs no copied file or loader rule.
 */
import { CorruptFileError, LimitError, UnsupportedError } from '../errors.js';
import { type Codec, defineCodec } from './codec.js';
import { compressionLevel } from './levels.js';
import { base64Bytes, checkWasmAllowed } from './wasm-loading.js';
import { ZSTD_WASM } from './wasm/zstd-wasm.js';
import { type ZstdFrame, zstdFrames } from './zstd-frame.js';

/** What the codec uses of the glue's API (the package's own types are not shipped with it). */
export interface ZstdLibrary {
  compress(input: Uint8Array, level?: number): Uint8Array;
  decompress(input: Uint8Array, options?: { defaultHeapSize: number }): Uint8Array;
}

const MiB = 2 ** 20;
/** The package's Emscripten build lets the wasm heap grow to 2 GiB (getHeapMax). */
const WASM_HEAP_MAX = 2 ** 31;
/** Room beyond the two buffers: libzstd's decompression context and allocator overhead. */
const HEAP_SLACK = 4 * MiB;
/** libzstd (wasm32) refuses windows above 2^30; a one-shot decode never allocates one. */
const MAX_WINDOW = 2 ** 30;
const WINDOW_DESCRIPTOR_2_30 = (30 - 10) << 3;

/**
 * No content size, a 1 KiB window, one raw block holding "x". Decoded with
 * an output buffer of n bytes it gives "x" if the package's malloc(n)
 * succeeded; if malloc failed, libzstd refuses the null buffer
 * (dstBuffer_null) without writing anything.
 */
const PROBE = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x09, 0x00, 0x00, 0x78);
/** No content size, a 1 KiB window, one empty raw block. */
const EMPTY_FRAME = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x01, 0x00, 0x00);

/** Some of zstd_errors.h, for messages. */
const ZSTD_ERRORS: Record<number, string> = {
  10: 'unknown frame magic',
  14: 'unsupported frame parameter',
  16: 'window too large',
  20: 'corrupted data',
  22: 'content checksum mismatch',
  24: 'bad literals header',
  46: 'table log too large',
  48: 'max symbol value too large',
  70: 'more output than the page header allows',
  72: 'truncated data or trailing bytes',
};
const ZSTD_MEMORY_ERRORS = new Set([64 /* memory_allocation */, 74 /* dstBuffer_null */]);

/** The package throws `Error('Failed to compress with code -N')` for every libzstd error, in both directions. */
function zstdErrorCode(e: unknown): number | undefined {
  const m = e instanceof Error ? /code (-?\d+)\s*$/.exec(e.message) : null;
  return m ? Math.abs(Number(m[1])) : undefined;
}

function libraryFailure(e: unknown, what: 'decompress' | 'compress'): unknown {
  const code = zstdErrorCode(e);
  if (code === undefined) return e;
  if (ZSTD_MEMORY_ERRORS.has(code)) return new LimitError(`ZSTD: libzstd cannot allocate memory to ${what} (error ${code})`);
  if (what === 'compress') return new LimitError(`ZSTD: libzstd failed to compress (error ${code})`);
  return new CorruptFileError(`invalid ZSTD data: ${ZSTD_ERRORS[code] ?? 'libzstd error'} (error ${code})`, undefined, { cause: e });
}

/** ZSTD_COMPRESSBOUND from zstd.h. */
function compressBound(n: number): number {
  return n + (n >>> 8) + (n < 128 * 1024 ? (128 * 1024 - n) >>> 11 : 0);
}

export function zstdCodec(lib: ZstdLibrary): Codec {
  /** Bytes the package can malloc, in at most two pieces, without failing. */
  let heapReady = 0;

  /**
   * The package mallocs its input and output buffers without checking for
   * null, and copies the input to wherever malloc pointed. Wasm memory only
   * grows, and every call frees all it allocated, so once one allocation of
   * n bytes has succeeded, later calls needing less always fit. The probe
   * makes that first allocation through the one call whose failure writes
   * nothing.
   */
  function reserveHeap(need: number): void {
    if (need <= heapReady) return;
    // Whole MiB, so pages that grow a little at a time do not probe each time.
    const n = Math.ceil((need + HEAP_SLACK) / MiB) * MiB;
    let ok = false;
    if (n <= WASM_HEAP_MAX) {
      try {
        ok = lib.decompress(PROBE, { defaultHeapSize: n }).length === 1;
      } catch {
        ok = false;
      }
    }
    if (!ok) throw new LimitError(`ZSTD: the wasm heap cannot grow to ${n} bytes`);
    heapReady = n - HEAP_SLACK;
  }

  function oneShot(stream: Uint8Array, capacity: number): Uint8Array {
    reserveHeap(stream.length + capacity);
    try {
      return lib.decompress(stream, { defaultHeapSize: capacity });
    } catch (e) {
      throw libraryFailure(e, 'decompress');
    }
  }

  return defineCodec(
    'ZSTD',
    (input, uncompressedSize) => {
      const frames = zstdFrames(input);
      const first = frames[0];
      if (!first) return new Uint8Array(0); // skippable frames only
      let declared = 0;
      for (const f of frames) declared += f.contentSize ?? 0;
      if (declared > uncompressedSize) {
        throw new CorruptFileError(`ZSTD frames declare ${declared} bytes, more than the page's ${uncompressedSize}`);
      }
      // libzstd decodes every frame of its input in one call, skippable ones
      // included, but sizes its output from the first frame's header: the
      // declared size if it has one, else the buffer it is given. So the
      // input goes as it is when it starts with a frame without a size, or is
      // one sized frame; otherwise an empty frame without a size goes first.
      // Either way libzstd gets a buffer the page bounds, checks every
      // declared size, and stops with an error rather than write past it.
      if (first.start === 0 && (first.contentSize === undefined || frames.length === 1)) {
        return oneShot(patchWindows(input, frames, 0), first.contentSize ?? uncompressedSize);
      }
      const stream = new Uint8Array(EMPTY_FRAME.length + input.length);
      stream.set(EMPTY_FRAME);
      stream.set(input, EMPTY_FRAME.length);
      return oneShot(patchWindows(stream, frames, EMPTY_FRAME.length), uncompressedSize);
    },
    (input, level) => {
      const l = compressionLevel('ZSTD', level);
      reserveHeap(input.length + compressBound(input.length));
      try {
        return lib.compress(input, l);
      } catch (e) {
        throw libraryFailure(e, 'compress');
      }
    },
  );
}

/**
 * `stream`, whose frames start `offset` bytes in, with the window of any
 * frame that libzstd (wasm32) would refuse cut to 2^30: a one-shot decode
 * writes straight into the output buffer, which the page bounds far below
 * that. Copies only if some frame needs it (or `stream` is already a copy).
 */
function patchWindows(stream: Uint8Array, frames: ZstdFrame[], offset: number): Uint8Array {
  let out = stream;
  for (const f of frames) {
    if (f.windowDescriptorAt < 0 || f.windowSize <= MAX_WINDOW) continue;
    if (out === stream && offset === 0) out = stream.slice();
    out[offset + f.windowDescriptorAt] = WINDOW_DESCRIPTOR_2_30;
  }
  return out;
}

/**
 * True once the package's wasm is instantiated: before that its exports are
 * undefined and any call throws a TypeError without allocating. Calling its
 * init a second time must be avoided: the new instance replaces the heap
 * views while already-bound exports keep running in the old one, and every
 * later call fails or returns garbage.
 */
function initialized(lib: ZstdLibrary): boolean {
  try {
    lib.compress(new Uint8Array(0));
    return true;
  } catch {
    return false;
  }
}

/**
 * The package's init logs a failed compile and never settles. Refusal is
 * caught first by checkWasmAllowed; this is the backstop for any other
 * failure, far beyond the milliseconds a compile of the embedded bytes takes.
 */
const INIT_TIMEOUT_MS = 10_000;

function withTimeout(p: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnsupportedError('the ZSTD wasm module did not initialize')), INIT_TIMEOUT_MS);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

let loading: Promise<Codec> | undefined;

/** Imports and instantiates the wasm once, then returns the codec. */
export function loadZstd(): Promise<Codec> {
  loading ??= (async () => {
    const glue = await import('./wasm/zstd-glue.js');
    const lib: ZstdLibrary = glue;
    if (!initialized(lib)) {
      await checkWasmAllowed('ZSTD');
      // The glue compiles whatever it is given with a byteLength.
      await withTimeout((glue.init as (wasm: Uint8Array) => Promise<void>)(base64Bytes(ZSTD_WASM)));
    }
    if (!initialized(lib)) throw new UnsupportedError('the ZSTD wasm module did not initialize');
    return zstdCodec(lib);
  })();
  return loading;
}

/**
 * The codec, for the registry's loadCodec('ZSTD'). Importing this module
 * starts loading the wasm; the no-op handler keeps a runtime that cannot
 * load it from reporting an unhandled rejection when nobody awaits this.
 */
export const zstd: Promise<Codec> = loadZstd();
zstd.catch(() => {});
