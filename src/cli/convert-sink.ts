/**
 * Where `parquetry convert` writes: a file, written to a temporary name
 * beside it and renamed into place on success (a failed or interrupted
 * conversion leaves nothing at OUT), or stdout for `-`. Bytes are counted.
 */
import { fileSink, writableSink } from '../node/index.js';
import type { Sink } from '../io/sink.js';
import type { OutputSummary, RowOutput } from './convert-write-text.js';

export interface CountingSink extends Sink {
  readonly bytes: number;
  /** For messages: the path, or `stdout`. */
  readonly name: string;
  /**
   * Stdout: what was written cannot be taken back, so an abort leaves the
   * stream open for the rest of the gathered output (the rows converted
   * before an error), as `cat` prints its rows before the error.
   */
  readonly stdout: boolean;
}

/** Sinks being opened, and open ones: what an interrupt must discard. */
const opening = new Set<Promise<Sink>>();
const open = new Set<Sink>();

/** How long an interrupt waits for destinations still being opened. */
const OPENING_WAIT_MS = 1000;

/** Discards every output not yet closed (an interrupt), waiting for any still being opened. */
export async function discardOpenSinks(): Promise<void> {
  // A temporary file is made in milliseconds and must be removed, so opening
  // sinks are waited for; but not for long: a FIFO with no reader opens only
  // when one comes, and leaves nothing behind.
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, OPENING_WAIT_MS)));
  await Promise.race([Promise.allSettled([...opening]), giveUp]);
  clearTimeout(timer);
  await Promise.allSettled([...open].map((s) => s.abort()));
}

export async function openOutputSink(path: string): Promise<CountingSink> {
  let inner: Sink;
  if (path === '-') {
    inner = writableSink(process.stdout);
  } else {
    const pending = fileSink(path);
    opening.add(pending);
    try {
      inner = await pending;
    } finally {
      opening.delete(pending);
    }
  }
  let bytes = 0;
  // One abort however many ask (the writer's and an interrupt's), each waiting for it to finish.
  let aborting: Promise<void> | undefined;
  const sink: CountingSink = {
    name: path === '-' ? 'stdout' : path,
    stdout: path === '-',
    get bytes() {
      return bytes;
    },
    async write(b) {
      await inner.write(b);
      bytes += b.length;
    },
    async close() {
      await inner.close();
      open.delete(sink);
    },
    abort() {
      open.delete(sink);
      // Destroying stdout would drop what it has not yet written; the program's exit waits for it.
      aborting ??= path === '-' ? Promise.resolve() : inner.abort();
      return aborting;
    },
  };
  open.add(sink);
  return sink;
}

/** A file writer (Parquet, Trevni) as `writerOutput` drives it. */
export interface FileWriter {
  readonly rows: number;
  write(row: Record<string, unknown>): Promise<void>;
  /** Finishes the file (the sink is closed by the writer). */
  close(): Promise<Omit<OutputSummary, 'bytes'>>;
  abort(): Promise<void>;
}

/** OUT opened, and a writer on it, as a RowOutput; a writer that cannot open leaves nothing at OUT. */
export async function writerOutput(path: string, open: (sink: CountingSink) => Promise<FileWriter>): Promise<RowOutput> {
  const sink = await openOutputSink(path);
  let writer: FileWriter;
  try {
    writer = await open(sink);
  } catch (e) {
    await sink.abort();
    throw e;
  }
  return {
    name: sink.name,
    get rows() {
      return writer.rows;
    },
    get bytes() {
      return sink.bytes;
    },
    write: (row) => writer.write(row),
    async close() {
      return { ...(await writer.close()), bytes: sink.bytes };
    },
    abort: () => writer.abort(),
  };
}
