/**
 * JSON Lines as `readJsonLines` reads them, up to the end of the chunk
 * where the schema is settled; then, when the output takes rows in columns
 * and the schema's types are read from bytes (json-columns.ts), the rest as
 * blocks of built columns (`tail`): read on this thread, or by a worker
 * thread while this one writes. Either way the blocks are cut and read
 * alike (JsonLineBlocks), and the lines the byte reader leaves are read here
 * by the general reader, as records or bad rows, in their places: the output
 * is the same, byte for byte.
 */
import { concatBytes } from '../bytes/concat.js';
import type { SchemaElementLike } from '../schema/tree.js';
import type { WarningHandler } from '../warnings.js';
import { JsonLineBlocks, JsonLineReader, type JsonBlock } from './json-columns.js';
import type { ColumnBlock, ColumnTail } from './pipeline.js';
import { itemParser, LineCutter, lineDecoder, lineItems, type JsonRecord } from './read-json.js';
import type { InputBytes, Item } from './source.js';
import { InvalidUtf8Watch, replacedField } from './utf8.js';

/** Bytes of lines a worker is given at a time. */
const JOB_BYTES = 1 << 20;
/** Jobs a worker is given ahead of the writing. */
const AHEAD = 3;
/** Bytes of input below which no worker is started: it would start about when this thread is done. */
const MIN_THREADED = 4 * JOB_BYTES;

/** What a worker that reads JSON Lines needs: the schema, and the number of the first line it is given. */
export interface JsonLinesSetup {
  elements: readonly SchemaElementLike[];
  first: number;
}

/** Whole lines for a worker (the last line break left off; their buffer handed over), or the end of the input. */
export type JsonLinesJob = { bytes: Uint8Array } | { end: true };

/** A thread that reads JSON Lines into blocks: the Node entry's worker thread. */
export interface JsonLineReaders {
  /** Starts the thread, which loads while the schema is settled (`setup` follows before the first job). */
  start(): JsonLinePool;
}

export interface JsonLinePool {
  setup(setup: JsonLinesSetup): void;
  /** The blocks a job completes (at the end: the last one), in order. */
  read(job: JsonLinesJob): Promise<JsonBlock[]>;
  close(): Promise<void>;
}

export interface JsonTailOptions {
  /** Records inference sees (whole floats are noted in them). */
  sampled?: number;
  onWarning?: WarningHandler;
  /** A worker thread reads the lines past the sample (an input smaller than a few megabytes is read here all the same). */
  readers?: JsonLineReaders;
}

/**
 * Chunks gathered into jobs of whole lines, about JOB_BYTES each (the last
 * line break left off), each copied once, into a buffer of its own to hand over.
 */
class JobCutter {
  private parts: Uint8Array[] = [];
  private size = 0;
  /** Parts known to hold no line break (searched already): a line longer than a job is searched once, not at every chunk. */
  private clean = 0;

  /** `start`: the bytes before the first chunk (the head's part of a line). */
  constructor(start: Uint8Array | undefined) {
    if (start) this.add(start);
  }

  add(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.parts.push(chunk);
    this.size += chunk.length;
  }

  get full(): boolean {
    return this.size >= JOB_BYTES;
  }

  /** The whole lines gathered, when there is a line break among them. */
  cut(): Uint8Array | undefined {
    const parts = this.parts;
    for (let k = parts.length - 1; k >= this.clean; k--) {
      const nl = parts[k]!.lastIndexOf(10);
      if (nl < 0) continue;
      const job = concatBytes([...parts.slice(0, k), parts[k]!.subarray(0, nl)]);
      this.parts = [];
      this.size = 0;
      this.add(parts[k]!.subarray(nl + 1));
      for (const p of parts.slice(k + 1)) this.add(p);
      this.clean = this.parts.length;
      return job;
    }
    this.clean = parts.length;
    return undefined;
  }

  /** The input ended: the last line, if any. */
  rest(): Uint8Array | undefined {
    return this.size > 0 ? concatBytes(this.parts) : undefined;
  }
}

/** See the module's comment; `close` ends the worker, if one was started. */
export function readJsonLinesColumns(input: InputBytes, options: JsonTailOptions = {}): { items: AsyncGenerator<Item<JsonRecord>[]>; tail: ColumnTail<JsonRecord>; close(): Promise<void> } {
  const watch = options.onWarning ? new InvalidUtf8Watch(options.onWarning) : undefined;
  const chunks = (watch ? watch.watch(input) : input).chunks();
  const toItem = itemParser(options.sampled ?? 0);
  const lines = new LineCutter();
  const pool = options.readers && (input.size === undefined || input.size >= MIN_THREADED) ? options.readers.start() : undefined;
  let cutter: JsonLineBlocks | undefined;
  let threaded: { jobs: ReturnType<typeof feed>; first: Promise<boolean> } | undefined;
  let done = false;
  const told = (item: Item<JsonRecord>) => {
    if (item.error === undefined) watch?.seen(item.line, item.line, item.record, replacedField);
    else watch?.seen(item.line, item.line, undefined, () => undefined);
  };

  async function* head(): AsyncGenerator<Item<JsonRecord>[]> {
    while (!cutter && !threaded) {
      const step = await chunks.next();
      const out: Item<JsonRecord>[] = [];
      const text = step.done ? lines.end() : lines.cut(step.value);
      if (text) lines.next(lineItems(lineDecoder.decode(text.bytes), text.first, toItem, out));
      for (const item of out) told(item);
      if (step.done) done = true;
      if (out.length) yield out;
      if (done) {
        watch?.finish();
        return;
      }
    }
  }

  /** A block with its general lines read, as records and bad rows. */
  const resolved = (block: JsonBlock): ColumnBlock<JsonRecord> => {
    const bad: Array<{ at: number; line: number; why: string; column?: string | undefined }> = [];
    const records: Array<{ at: number; line: number; record: JsonRecord }> = [];
    for (const { at, line, text } of block.general) {
      const item = toItem(text, line);
      told(item);
      if (item.error !== undefined) bad.push({ at, line, why: item.error, column: item.column });
      else records.push({ at, line, record: item.record });
    }
    return { rows: block.rows, columns: block.columns, lines: block.lines, bad, records };
  };

  async function* here(blocks: JsonLineBlocks): AsyncGenerator<ColumnBlock<JsonRecord>> {
    for (;;) {
      const step = await chunks.next();
      const text = step.done ? lines.end() : lines.cut(step.value);
      if (text) for (const block of blocks.lines(text.bytes)) yield resolved(block);
      if (step.done) break;
    }
    yield resolved(blocks.end());
  }

  /**
   * The worker's jobs: the input read and cut into jobs, asked for until
   * AHEAD are unanswered (`fill`, true once the input ended and its last
   * job is asked), their answers in order.
   */
  function feed(pool: JsonLinePool): { answers: Array<Promise<JsonBlock[]>>; fill(): Promise<boolean> } {
    const answers: Array<Promise<JsonBlock[]>> = [];
    const ask = (job: JsonLinesJob) => {
      const answer = pool.read(job);
      // Awaited in order; one left unawaited by a failure before it is not an unhandled rejection.
      answer.catch(() => undefined);
      answers.push(answer);
    };
    const jobs = new JobCutter(lines.end()?.bytes);
    return {
      answers,
      async fill() {
        while (answers.length < AHEAD) {
          const step = await chunks.next();
          if (!step.done) jobs.add(step.value);
          const job = step.done || jobs.full ? jobs.cut() : undefined;
          if (job) ask({ bytes: job });
          if (step.done) {
            const last = jobs.rest();
            if (last) ask({ bytes: last });
            ask({ end: true });
            return true;
          }
        }
        return false;
      },
    };
  }

  async function* there(jobs: ReturnType<typeof feed>, first: Promise<boolean>): AsyncGenerator<ColumnBlock<JsonRecord>> {
    for (let ended = await first; jobs.answers.length > 0; ) {
      for (const block of await jobs.answers.shift()!) yield resolved(block);
      if (!ended) ended = await jobs.fill();
    }
  }

  async function* blocks(): AsyncGenerator<ColumnBlock<JsonRecord>> {
    if (done || (!cutter && !threaded)) return;
    yield* threaded ? there(threaded.jobs, threaded.first) : here(cutter!);
    watch?.finish();
  }

  return {
    items: head(),
    tail: {
      settled(schema, columnar) {
        const reader = columnar ? JsonLineReader.of(schema.schema) : undefined;
        if (!reader) return;
        if (pool) {
          pool.setup({ elements: schema.elements, first: lines.first });
          // The first jobs go now: the worker reads them while this thread writes the sample's records.
          const jobs = feed(pool);
          const first = jobs.fill();
          first.catch(() => undefined);
          threaded = { jobs, first };
        } else cutter = new JsonLineBlocks(reader, lines.first);
      },
      blocks,
    },
    close: async () => {
      await pool?.close();
    },
  };
}
