/**
 * Where the Trevni writer keeps each column's finished blocks until the file
 * is closed: a column's blocks must follow its descriptors, and all the
 * descriptors follow the header, so nothing can be written to the output
 * before the last row. The spec's second implementation note: spill each
 * column to temporary storage, then append them all at close.
 *
 * This module stays free of `node:` imports: a file-backed spill is built
 * from injected primitives (`pathSpill`), e.g. in Node
 * `pathSpill(os.tmpdir(), { sink: fileSink, source: fileSource, remove: (p) => fs.rm(p, { force: true }) })`.
 */
import type { Sink } from '../io/sink.js';
import type { Source } from '../io/source.js';

export interface SpillStore {
  /** Appends bytes (the store keeps its own copy or writes them out at once). */
  write(bytes: Uint8Array): Promise<void>;
  /** Bytes written so far. */
  readonly size: number;
  /** The bytes, in order, in chunks of at most `chunkSize`; call after the last write. */
  chunks(chunkSize: number): AsyncIterable<Uint8Array>;
  /** Frees the storage (deletes a temporary file). Safe to call more than once. */
  dispose(): Promise<void>;
}

/** Makes one store per column. */
export type SpillFactory = (column: number) => Promise<SpillStore>;

/** Keeps spilled blocks in memory: for browsers and small files. */
export function memorySpill(): SpillFactory {
  return async () => {
    let parts: Uint8Array[] = [];
    let size = 0;
    return {
      async write(bytes) {
        parts.push(bytes.slice());
        size += bytes.length;
      },
      get size() {
        return size;
      },
      async *chunks() {
        for (const p of parts) yield p;
      },
      async dispose() {
        parts = [];
        size = 0;
      },
    };
  };
}

export interface PathSpillIO {
  /** A sink writing the file at `path` (complete once closed). */
  sink(path: string): Promise<Sink>;
  /** A source reading the file at `path`. */
  source(path: string): Promise<Source>;
  /** Deletes the file at `path`, if it exists. */
  remove(path: string): Promise<void>;
}

let counter = 0;

/** Spills each column to a temporary file in `dir`, written and read through the given primitives. */
export function pathSpill(dir: string, io: PathSpillIO, prefix = 'parquetry-trevni'): SpillFactory {
  const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return async (column) => {
    const path = `${dir.replace(/[\\/]+$/, '')}/${prefix}-${run}-${counter++}-c${column}.spill`;
    const sink = await io.sink(path);
    let size = 0;
    let closed = false;
    let disposed = false;
    return {
      async write(bytes) {
        await sink.write(bytes);
        size += bytes.length;
      },
      get size() {
        return size;
      },
      async *chunks(chunkSize) {
        if (!closed) {
          await sink.close();
          closed = true;
        }
        const src = await io.source(path);
        try {
          for (let o = 0; o < size; o += chunkSize) yield await src.read(o, Math.min(chunkSize, size - o));
        } finally {
          await src.close?.();
        }
      },
      async dispose() {
        if (disposed) return;
        disposed = true;
        if (!closed) {
          closed = true;
          await sink.abort();
        }
        await io.remove(path);
      },
    };
  };
}
