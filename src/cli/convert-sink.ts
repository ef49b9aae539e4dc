/**
 * Where `parquetry convert` writes: a file, written to a temporary name
 * beside it and renamed into place on success (a failed or interrupted
 * conversion leaves nothing at OUT), an `s3://` object (uploaded, complete
 * only on success), or stdout for `-`. Bytes are counted.
 */
import { writableSink } from '../node/file-sink.js';
import { destinationFile } from '../node/destination.js';
import { s3Settings } from './files.js';
import { run } from './run-context.js';
import type { Sink } from '../io/sink.js';
import { countingSink, type CountingSink } from '../convert/output.js';

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
    inner = writableSink(run().io.stdout, { keepOpen: true });
  } else {
    const pending = destinationFile(path, s3Settings());
    opening.add(pending);
    try {
      inner = await pending;
    } finally {
      opening.delete(pending);
    }
  }
  const name = path === '-' ? 'stdout' : path;
  const counted = countingSink(inner, name, path === '-');
  // One abort however many ask (the writer's and an interrupt's), each waiting for it to finish.
  let aborting: Promise<void> | undefined;
  const sink: CountingSink = {
    name,
    stdout: counted.stdout,
    get bytes() {
      return counted.bytes;
    },
    write: (b) => counted.write(b),
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
