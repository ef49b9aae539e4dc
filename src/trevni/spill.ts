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
import { BufferedSink } from '../io/buffered-sink.js';
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

/** Bytes read from the spill file at a time when stores are read back. */
const READ_WINDOW = 1 << 20;

/**
 * The one file of a writer's spill stores: appended to while the writer writes, read once it
 * closes, removed when every store is disposed. Small blocks are gathered into writes of 64 KB
 * and read back a window at a time: a wide table spills a small block a column at close, and a
 * file write and a file read each (a promise and a buffer apiece) made most of what its close allocated.
 */
class SharedSpillFile {
  private end = 0;
  /** Appends in call order: each store's ranges were taken from `end` when it asked. */
  private queue: Promise<void> = Promise.resolve();
  /** Appends queued and not yet done: while there are any, a small block cannot be gathered at once (it would go before them). */
  private pending = 0;
  private closed = false;
  private source: Promise<Source> | undefined;
  private live = 0;
  private readonly sink: BufferedSink;
  /** The last window read back: the stores are read in the order they were written, so one window serves many. */
  private window: { start: number; bytes: Uint8Array } | undefined;
  /** Where the last read back ended. */
  private readEnd = 0;

  constructor(private readonly path: string, private readonly io: PathSpillIO, sink: Sink) {
    this.sink = new BufferedSink(sink);
  }

  store(): SpillStore {
    this.live++;
    return new SpillRanges(this);
  }

  /** A store was disposed: the last one removes the file. */
  async release(): Promise<void> {
    if (--this.live === 0) await this.remove();
  }

  /** Where `bytes` went in the file: at once when they were gathered (copied), else once written. */
  append(bytes: Uint8Array): number | Promise<number> {
    if (this.closed) return Promise.reject(new InvalidArgumentError('a spill store was written after the spill was read back'));
    const at = this.end;
    this.end += bytes.length;
    if (this.pending === 0 && this.sink.take(bytes)) return at;
    this.pending++;
    const written = this.queue.then(() => this.sink.write(bytes)).finally(() => this.pending--);
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
      for (let o = ranges[r]!; o < end; o += chunkSize) yield await this.bytesAt(src, o, Math.min(chunkSize, end - o));
    }
  }

  /** The file's bytes o..o+n: from the last window read when it holds them, else from a new window (or, as large as one, read alone). */
  private async bytesAt(src: Source, o: number, n: number): Promise<Uint8Array> {
    const w = this.window;
    if (w && o >= w.start && o + n <= w.start + w.bytes.length) return w.bytes.subarray(o - w.start, o - w.start + n);
    // A window pays only when the reads go on from one another (a wide table's small blocks, one after another);
    // a long table's blocks of one column lie apart, between the other columns'.
    const onward = o === this.readEnd;
    this.readEnd = o + n;
    if (n >= READ_WINDOW || !onward) return src.read(o, n);
    const bytes = await src.read(o, Math.min(READ_WINDOW, this.end - o));
    this.window = { start: o, bytes };
    return bytes.subarray(0, n);
  }

  private async remove(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      await this.queue;
      await this.sink.abort();
      return;
    }
    this.window = undefined;
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
