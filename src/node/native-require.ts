/** What the Node codecs share to load native modules and hand their output on. */
import { createRequire } from 'node:module';

/** `require` for the native addons and node: modules loaded on first use (a CommonJS load is synchronous). */
export const nodeRequire = createRequire(import.meta.url);

/** A plain Uint8Array over a Buffer's bytes, so Buffer's view-returning `slice` does not reach callers. */
export function plain(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
