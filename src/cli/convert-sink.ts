/**
 * Where `parquetry convert` writes: a file, written to a temporary name
 * beside it and renamed into place on success (a failed or interrupted
 * conversion leaves nothing at OUT), or stdout for `-`. Bytes are counted.
 */
import { tmpdir } from 'node:os';
import { rm } from 'node:fs/promises';
import { fileSink, fileSource, writableSink } from '../node/index.js';
import type { Sink } from '../io/sink.js';
import { countingSink, type CountingSink, type RowOutput } from '../convert/output.js';
import { textOutput, type TextFormat, type TextOutputOptions } from '../convert/write-text.js';
import { parquetOutput } from '../convert/write-parquet.js';
import { trevniOutput, type TrevniOutputOptions } from '../convert/write-trevni.js';
import { pathSpill } from '../trevni/spill.js';
import type { WriterOptions, WriterSchema } from '../parquet/write/writer.js';
import type { Schema } from '../schema/tree.js';

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

/** Temporary files for a Trevni writer's column blocks. */
function trevniSpill() {
  return pathSpill(tmpdir(), { sink: fileSink, source: fileSource, remove: (p) => rm(p, { force: true }) });
}

export async function openTextOutput(format: TextFormat, path: string, options: TextOutputOptions): Promise<RowOutput> {
  return textOutput(format, await openOutputSink(path), options);
}

/** OUT opened, and a Parquet writer on it; a writer that cannot open leaves nothing at OUT. */
export async function openParquetOutput(path: string, schema: WriterSchema, options: WriterOptions): Promise<RowOutput> {
  return parquetOutput(await openOutputSink(path), schema, options);
}

export async function openTrevniOutput(path: string, schema: Schema, options: Omit<TrevniOutputOptions, 'spill'>): Promise<RowOutput> {
  return trevniOutput(() => openOutputSink(path), schema, { ...options, spill: trevniSpill() });
}
