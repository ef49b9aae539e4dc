/**
 * What the wasm-backed codecs (and the bloom filters' xxHash) share to load:
 * their binaries come embedded as base64 (src/codecs/wasm/, made by
 * scripts/embed-wasm.mjs), so no bundler needs to know about .wasm files
 * and nothing is fetched; the one way loading can still fail is a runtime
 * that refuses to compile WebAssembly, which must say so at once.
 */
import { UnsupportedError } from '../errors.js';
import type { CodecName } from './codec.js';

/** The bytes of base64 text (atob exists in browsers and Node alike). */
export function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Base64 text of bytes (btoa, as atob above). */
export function toBase64(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s);
}

/** Whether `e` is the runtime refusing WebAssembly: none at all, or a Content-Security-Policy without 'wasm-unsafe-eval'. */
export function isWasmRefusal(e: unknown): boolean {
  return typeof WebAssembly === 'undefined' || e instanceof WebAssembly.CompileError;
}

/**
 * The error for a codec, or for bloom filters, when the runtime refuses
 * WebAssembly: what needs it, why it was refused, and what to do.
 */
export function wasmRefused(what: CodecName | 'bloom filters', cause: unknown): UnsupportedError {
  const why = typeof WebAssembly === 'undefined' ? 'this runtime has no WebAssembly' : cause instanceof Error ? cause.message : String(cause);
  const allow = `In a browser, allow it with 'wasm-unsafe-eval' in the page's Content-Security-Policy script-src`;
  return new UnsupportedError(
    what === 'bloom filters'
      ? `bloom filters need WebAssembly (xxHash), which this runtime refuses (${why}). ${allow}`
      : `${what} needs WebAssembly, which this runtime refuses (${why}). ${allow}, or register a codec of your own with registerCodec('${what}', ...)`,
  );
}

/** The smallest valid module: magic and version. */
const EMPTY_MODULE = Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00);

/**
 * Throws wasmRefused at once if the runtime will not compile WebAssembly,
 * before a library's own loader gets the chance to swallow that error and
 * never settle (@bokuweb/zstd-wasm), or to trip over a missing API first.
 */
export async function checkWasmAllowed(what: CodecName): Promise<void> {
  try {
    await WebAssembly.compile(EMPTY_MODULE);
  } catch (e) {
    throw wasmRefused(what, e);
  }
}
