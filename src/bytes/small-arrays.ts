/**
 * Small typed arrays carved from shared slabs. A typed array of its own
 * costs a few hundred bytes beyond its data (its ArrayBuffer, the backing
 * store and their bookkeeping), which a table of 200,000 columns and one row
 * pays per buffer of each column: most of what such a write held. Arrays of
 * up to SMALL_BYTES share 64 KiB slabs, each carved once (so zeroed, like a
 * new array); a slab is freed when no array of it is referenced. An array
 * from here is a view at some offset of a buffer it shares: code that reads
 * it through `.buffer` must use `byteOffset` and `byteLength`.
 */

const SLAB_BYTES = 64 * 1024;
/** Arrays past this get buffers of their own: their overhead no longer matters, and a slab is not pinned by one large array. */
const SMALL_BYTES = 256;

let slab = new ArrayBuffer(SLAB_BYTES);
let used = 0;

type TypedArrayOf<T> = { new (length: number): T; new (buffer: ArrayBuffer, byteOffset: number, length: number): T; readonly BYTES_PER_ELEMENT: number };

/** A zeroed array of `length` elements: a slab's for small ones. */
export function typedArray<T>(ctor: TypedArrayOf<T>, length: number): T {
  const bytes = length * ctor.BYTES_PER_ELEMENT;
  if (bytes > SMALL_BYTES) return new ctor(length);
  // Aligned for the widest element (8 bytes), as a view must be.
  let at = (used + 7) & ~7;
  if (at + bytes > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    at = 0;
  }
  used = at + bytes;
  return new ctor(slab, at, length);
}
