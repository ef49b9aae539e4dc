import type { Sink } from './sink.js';

/** Bytes gathered before they go to the sink underneath as one write. */
const BLOCK = 64 * 1024;

/**
 * Gathers small writes into blocks: a wide table's writer puts a page header,
 * a page and a few index bytes per column, and 100,000 small writes to a file
 * cost a system call and native request memory each (the RSS of a
 * 100,000-column conversion was mostly theirs). A write of a block or more
 * goes through as it is, after what was gathered. `flush` hands on what is
 * gathered (a writer calls it where its file must be readable so far).
 */
export class BufferedSink implements Sink {
  private block: Uint8Array | undefined;
  private used = 0;

  constructor(private readonly inner: Sink) {}

  async write(bytes: Uint8Array): Promise<void> {
    if (this.take(bytes)) return;
    await this.flush();
    if (!this.take(bytes)) await this.inner.write(bytes);
  }

  /** Gathers `bytes` when they are less than a block and fit in this one; false (nothing taken) otherwise. */
  take(bytes: Uint8Array): boolean {
    if (bytes.length >= BLOCK || this.used + bytes.length > BLOCK) return false;
    this.block ??= new Uint8Array(BLOCK);
    this.block.set(bytes, this.used);
    this.used += bytes.length;
    return true;
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    // A copy: the sink may keep what it is given (BufferSink does, a stream may queue it).
    const out = this.block!.slice(0, this.used);
    this.used = 0;
    await this.inner.write(out);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.inner.close();
  }

  async abort(): Promise<void> {
    this.used = 0;
    await this.inner.abort();
  }
}
