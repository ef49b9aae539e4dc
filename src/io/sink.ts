import { IOError } from '../errors.js';

/**
 * Where a writer's bytes go, in order. `close` makes the output final;
 * `abort` discards it (a file sink leaves nothing at its destination).
 */
export interface Sink {
  /** Appends bytes; the caller may reuse its buffer once the promise settles. */
  write(bytes: Uint8Array): Promise<void>;
  /** Completes the output: after it, what was written is all there is. */
  close(): Promise<void>;
  /** Discards the output (a file sink removes its temporary file); called on failure. */
  abort(): Promise<void>;
}

/** Collects the output in memory; `bytes()` gives it after `close()`. */
export class BufferSink implements Sink {
  private parts: Uint8Array[] = [];
  private length = 0;
  private result: Uint8Array | undefined;

  /** Appends a copy of `bytes` (the caller may reuse its buffer). */
  async write(bytes: Uint8Array): Promise<void> {
    // Callers may reuse their buffers: keep a copy.
    this.parts.push(bytes.slice());
    this.length += bytes.length;
  }

  /** Joins what was written into the bytes `bytes()` returns. */
  async close(): Promise<void> {
    const out = new Uint8Array(this.length);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    this.parts = [];
    this.result = out;
  }

  /** Drops what was written. */
  async abort(): Promise<void> {
    this.parts = [];
    this.length = 0;
  }

  /** The whole file, once closed. */
  bytes(): Uint8Array {
    if (!this.result) throw new IOError('the buffer sink is not closed yet');
    return this.result;
  }
}

/** A Web Streams WritableStream (browsers, Deno, Node's web streams). */
export function webStreamSink(stream: WritableStream<Uint8Array>): Sink {
  const writer = stream.getWriter();
  return {
    async write(bytes) {
      await writer.ready;
      await writer.write(bytes.slice());
    },
    async close() {
      await writer.close();
    },
    async abort() {
      await writer.abort(new IOError('parquet writer aborted'));
    },
  };
}
