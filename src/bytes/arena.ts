/** Bytes a slab holds; a larger piece gets its own copy. */
const SLAB = 64 * 1024;

/**
 * Copies of many small byte strings kept for long (a footer's statistics,
 * page indexes), packed into shared slabs: each kept piece costs a view, not
 * a buffer of its own with its native allocation (100,000 columns of them
 * weighed more than their bytes).
 */
export class ByteArena {
  private slab = new Uint8Array(0);
  private used = 0;

  /** A copy of `bytes` that stays valid (the slab is never written again where it was). */
  keep(bytes: Uint8Array): Uint8Array {
    if (bytes.length > SLAB / 4) return bytes.slice();
    if (this.used + bytes.length > this.slab.length) {
      this.slab = new Uint8Array(SLAB);
      this.used = 0;
    }
    const out = this.slab.subarray(this.used, this.used + bytes.length);
    out.set(bytes);
    this.used += bytes.length;
    return out;
  }
}
