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
import { InvalidArgumentError } from '../errors.js';
import type { Sink } from '../io/sink.js';
import type { Source } from '../io/source.js';

/** Where a Trevni writer keeps one column's blocks until `close()` lays them out: appended to, then read back once. */
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

/** The file operations `pathSpill` spills through (a sink, a source and a removal per path), so the module stays portable. */
export interface PathSpillIO {
  /** A sink writing the file at `path` (complete once closed). */
  sink(path: string): Promise<Sink>;
  /** A source reading the file at `path`. */
  source(path: string): Promise<Source>;
  /** Deletes the file at `path`, if it exists. */
  remove(path: string): Promise<void>;
}

let counter = 0;

/**
 * Spills a writer's columns to one temporary file in `dir`, written and read
 * through the given primitives: the columns' blocks interleave in it, each
 * store keeping the ranges its own went to. A writer asks for its columns in
 * order from 0, so a call for column 0 begins a new file (a factory may serve
 * one writer after another). One file per column ran out of file descriptors
 * on a table of a few thousand columns.
 */
export function pathSpill(dir: string, io: PathSpillIO, prefix = 'parquetry-trevni'): SpillFactory {
  const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  let file: SharedSpillFile | undefined;
  return async (column) => {
    if (column === 0 || !file) {
      const path = `${dir.replace(/[\\/]+$/, '')}/${prefix}-${run}-${counter++}.spill`;
      file = new SharedSpillFile(path, io, await io.sink(path));
    }
    return file.store();
  };
}

/** The one file of a writer's spill stores: appended to while the writer writes, read once it closes, removed when every store is disposed. */
class SharedSpillFile {
  private end = 0;
  /** Appends in call order: each store's ranges were taken from `end` when it asked. */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private source: Promise<Source> | undefined;
  private live = 0;

  constructor(private readonly path: string, private readonly io: PathSpillIO, private readonly sink: Sink) {}

  store(): SpillStore {
    this.live++;
    return new SpillRanges(this);
  }

  /** A store was disposed: the last one removes the file. */
  async release(): Promise<void> {
    if (--this.live === 0) await this.remove();
  }

  append(bytes: Uint8Array): Promise<number> {
    if (this.closed) return Promise.reject(new InvalidArgumentError('a spill store was written after the spill was read back'));
    const at = this.end;
    this.end += bytes.length;
    const written = this.queue.then(() => this.sink.write(bytes));
    this.queue = written.catch(() => undefined);
    return written.then(() => at);
  }

  async *read(ranges: readonly number[], chunkSize: number): AsyncIterable<Uint8Array> {
    if (!this.closed) {
      this.closed = true;
      this.source = this.queue.then(() => this.sink.close()).then(() => this.io.source(this.path));
    }
    const src = await this.source!;
    for (let r = 0; r < ranges.length; r += 2) {
      const end = ranges[r + 1]!;
      for (let o = ranges[r]!; o < end; o += chunkSize) yield await src.read(o, Math.min(chunkSize, end - o));
    }
  }

  private async remove(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      await this.queue;
      await this.sink.abort();
      return;
    }
    const src = await this.source!.catch(() => undefined);
    await src?.close?.();
    await this.io.remove(this.path);
  }
}

/** One column's store in the shared file: where its bytes went (a class, not closures: a wide table has one per column). */
class SpillRanges implements SpillStore {
  /** Start and end offsets of this store's bytes in the file, in order; a list made at the first (one grown by push from empty starts with room for 16). */
  private ranges: number[] | undefined;
  private written = 0;
  private disposed = false;

  constructor(private readonly file: SharedSpillFile) {}

  async write(bytes: Uint8Array): Promise<void> {
    const at = await this.file.append(bytes);
    const r = this.ranges;
    if (!r) this.ranges = [at, at + bytes.length];
    else if (r[r.length - 1] === at) r[r.length - 1] = at + bytes.length;
    else r.push(at, at + bytes.length);
    this.written += bytes.length;
  }

  get size(): number {
    return this.written;
  }

  chunks(chunkSize: number): AsyncIterable<Uint8Array> {
    return this.file.read(this.ranges ?? [], chunkSize);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.file.release();
  }
}
