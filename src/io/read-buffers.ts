/**
 * Buffers for reads whose bytes die young, handed back and handed out again:
 * a row group's compressed chunks are dead once its pages are inflated and
 * decoded (nothing decoded views bytes it was not given to own), so a read
 * of many row groups cycles a couple of buffers instead of allocating one
 * per row group, which the collector would then chase as external memory.
 */
export class ReadBuffers {
  private readonly free: Uint8Array[] = [];

  /** At most this many buffers wait to be reused: a reader ahead of its consumer holds one more. */
  private static readonly KEPT = 2;

  /** A buffer of `n` bytes: a free one if one is large enough, else a new one with room to spare (an eighth, at most 16 MiB) for a larger next request. */
  take(n: number): Uint8Array {
    const i = this.free.findIndex((b) => b.length >= n);
    const buf = i >= 0 ? this.free.splice(i, 1)[0]! : new Uint8Array(n + Math.min(n >> 3, 1 << 24));
    return buf.subarray(0, n);
  }

  /** Hands back a buffer from `take` whose bytes nothing will read again. */
  give(buf: Uint8Array): void {
    this.free.push(new Uint8Array(buf.buffer, 0, buf.buffer.byteLength));
    if (this.free.length > ReadBuffers.KEPT) {
      this.free.sort((a, b) => b.length - a.length);
      this.free.length = ReadBuffers.KEPT;
    }
  }
}
