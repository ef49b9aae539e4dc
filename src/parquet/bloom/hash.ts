/**
 * xxHash64 (seed 0), the hash parquet-format's bloom filters use, from the
 * `xxhash-wasm` package: WebAssembly, so it runs in Node and browsers alike
 * (its few kilobytes of wasm come inline, so bundles need nothing extra).
 * The wasm module is compiled once by `loadBloomHasher()`; `xxhash64` is
 * synchronous afterwards.
 */
import { isWasmRefusal, wasmRefused } from '../../codecs/wasm-loading.js';

type H64Raw = (input: Uint8Array, seed?: bigint) => bigint;

let h64Raw: H64Raw | undefined;
let loading: Promise<void> | undefined;

/** Compiles the xxHash wasm module (once; later calls return at once). */
export function loadBloomHasher(): Promise<void> {
  if (h64Raw !== undefined) return Promise.resolve();
  // The package is imported here, not at load: most reads never hash.
  loading ??= import('xxhash-wasm').then((m) => m.default()).then(
    (api) => {
      h64Raw = api.h64Raw;
    },
    (e: unknown) => {
      loading = undefined; // let a later call retry
      throw isWasmRefusal(e) ? wasmRefused('bloom filters', e) : e;
    },
  );
  return loading;
}

/** True once `loadBloomHasher()` has finished. */
export function bloomHasherLoaded(): boolean {
  return h64Raw !== undefined;
}

/** xxHash64 of `bytes` with seed 0, as an unsigned 64-bit bigint. Needs `await loadBloomHasher()` first. */
export function xxhash64(bytes: Uint8Array): bigint {
  if (h64Raw === undefined) {
    throw new Error('xxhash64: the hasher is not loaded; call `await loadBloomHasher()` first');
  }
  return h64Raw(bytes, 0n);
}
