/**
 * Node's Buffer is a Uint8Array whose `slice` returns a view, not a copy.
 * The decoders copy with `slice` and decode some pages in place, so a Buffer
 * reaching them would let a read change the caller's bytes (a Buffer from
 * readFileSync, or one a native codec returns). Every buffer that enters the
 * library from outside is seen through a plain Uint8Array of the same memory.
 */
export function plainView(bytes: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
