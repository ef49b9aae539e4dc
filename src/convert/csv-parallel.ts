/**
 * CSV to a table output with the records read past the sample in blocks.
 * The main thread reads the start of the input itself, as one thread would,
 * up to the end of the schema's sample and the first record start after it;
 * the rest is cut into blocks (csv-blocks.ts), each read into column vectors
 * (csv-block-read.ts). For a Parquet file the rows are then cut into row
 * groups (row-groups.ts), and the main thread appends them in input order;
 * for another output it writes the blocks' columns itself.
 *
 * `threads` counts the main thread: with one worker beside it, the main
 * thread reads every block and the worker encodes and compresses the row
 * groups (two busy threads, each isolate compiling and warming only its half
 * of the code); with more, the workers read the blocks too, and the main
 * thread only cuts the input and writes. One thread does the same work in
 * the same order: the output is the same, byte for byte.
 *
 * A block is read from a record start, which its cut makes likely but does
 * not prove: the block before it proves it by ending at a record start. When
 * it does not (a quoted line break at the cut), the block is read again from
 * the state the block before ended in. Each block is read at most twice.
 */
import type { WarningHandler } from '../warnings.js';
import { CsvBlocks, type CsvBlock } from './csv-blocks.js';
import { CsvBlockReader, type CsvBlockJob, type CsvBlockResult, type CsvBlockSetup } from './csv-block-read.js';
import type { CsvToken, CsvTokenizerState } from './csv-tokenizer.js';
import type { ColumnTail } from './pipeline.js';
import { RowGroupCutter, type CutBlock, type RowGroupJob, type RowGroupSetup } from './row-groups.js';
import type { EncodedRowGroup } from '../parquet/write/writer.js';
import { csvTokenizer, CsvItems, type Cells } from './read-csv.js';
import type { CsvShaper } from './shape.js';
import type { InputBytes, Item } from './source.js';
import { InvalidUtf8Watch } from './utf8.js';

/** Bytes of a worker's block. */
const BLOCK = 1 << 20;
/** Bytes the main thread reads at most at a time before the schema is settled (a chunk larger than that is cut). */
const FIRST_BLOCK = 1 << 18;
/** Blocks read ahead per worker. */
const AHEAD = 3;
/** Bytes of input below which no worker is started: what is left past the sample is one block at most (read here, sooner than a thread starts). */
const MIN_THREADED = BLOCK;

/** Threads that read blocks: the Node entry's worker threads. */
export interface CsvBlockReaders {
  /** Starts `workers` threads, which load while the schema is settled (`setup` follows before the first block). */
  start(workers: number): CsvBlockPool;
}

export interface CsvBlockPool {
  /** Blocks are read with `setup`, row groups encoded as `rowGroups` says. */
  setup(setup: CsvBlockSetup, rowGroups: RowGroupSetup | undefined): void;
  read(job: CsvBlockJob): Promise<CsvBlockResult>;
  /** Encodes a row group (the setup's `rowGroups` says how). */
  encode(job: RowGroupJob): Promise<EncodedRowGroup>;
  close(): Promise<void>;
}

export interface ParallelCsvOptions {
  delimiter: string;
  header: boolean;
  skipBad: boolean;
  /** The table's columns, when known before the first record (CsvShaper.knownWidth). */
  width?: number | undefined;
  /** Threads with the main thread: `threads` - 1 workers beside it; 1: none, the main thread does it all. */
  threads: number;
  /** The runtime's threads (none: every block is read here). */
  readers?: CsvBlockReaders;
  onWarning?: WarningHandler;
}

/**
 * The records `textToTable` reads itself (the header and the sample, to a
 * record start), and the tail of column blocks the workers read after them,
 * when the schema lets rows go in column batches.
 */
export function parallelCsv(input: InputBytes, shaper: CsvShaper, o: ParallelCsvOptions): { items: AsyncGenerator<Array<Item<Cells>>>; tail: ColumnTail; close(): Promise<void> } {
  const watch = o.onWarning ? new InvalidUtf8Watch(o.onWarning) : undefined;
  const blocks = new CsvBlocks((watch ? watch.watch(input) : input).chunks());
  const tokenizer = csvTokenizer(o.delimiter, undefined, o.width);
  const items = new CsvItems({ skipBad: o.skipBad, header: o.header }, watch);
  const decoder = new TextDecoder();
  /** Set once the schema is settled and rows go in column batches: the main thread then stops at the next record start. */
  let handOver = false;
  /** The input ended while the main thread read it. */
  let done = false;
  let setup: CsvBlockSetup | undefined;

  async function* head(): AsyncGenerator<Array<Item<Cells>>> {
    let tokens: CsvToken[] = [];
    while (!(handOver && tokenizer.atRecordStart())) {
      // Before the schema is settled, what has come (at most about FIRST_BLOCK): a stream's first rows may settle it before more arrive.
      const block = await blocks.next(FIRST_BLOCK, true);
      if (block) {
        tokenizer.feed(decoder.decode(block.bytes), tokens);
        blocks.endedInQuotes(tokenizer.inQuotes());
      }
      if (!block || block.final) {
        tokenizer.finish(tokens);
        done = true;
      }
      const out = items.items(tokens);
      tokens = [];
      if (out.length) yield out;
      if (done || items.failed) {
        done = true;
        watch?.finish();
        return;
      }
    }
  }

  /** The block's answer for the invalid UTF-8 warning. */
  const told = (r: CsvBlockResult) => {
    if (watch && r.probe) watch.seen(r.probe.line, r.probe.last, r.probe, (p) => p.column);
  };

  /**
   * The workers, started with the conversion when the input is large enough to use them (or of unknown
   * size): they load while this thread reads the sample. `owned`: row groups are encoded too, and
   * rowGroups() closes them.
   */
  const workers = o.threads - 1;
  let pool = o.readers && workers > 0 && !(input.size !== undefined && input.size < MIN_THREADED) ? o.readers.start(workers) : undefined;
  let owned = false;
  const closePool = async () => {
    const p = pool;
    pool = undefined;
    await p?.close();
  };

  /**
   * The input ended right after a cut that fell inside a quoted cell (the last
   * block was not known to be the last): the open record is read to the end
   * of the input from where the block left it, so it is told (Quote Not
   * Closed), not dropped.
   */
  async function* endInQuotes(resume: CsvTokenizerState, read: (j: CsvBlockJob) => CsvBlockResult | Promise<CsvBlockResult>): AsyncGenerator<CsvBlockResult> {
    const r = await read({ bytes: new Uint8Array(0), start: resume, final: true, utf8At: watch?.pendingLine });
    told(r);
    yield r;
  }

  async function* tail(): AsyncGenerator<CsvBlockResult> {
    if (done || !setup) {
      if (!owned) await closePool();
      return;
    }
    const job = (block: CsvBlock, start: CsvTokenizerState): CsvBlockJob => ({ bytes: block.bytes, start, final: block.final, utf8At: watch?.pendingLine });
    let first = await blocks.next(BLOCK);
    if (!first || first.final || !pool || workers === 1) {
      if (!owned) await closePool();
      // One thread, one worker (which encodes), or what is left is one block (read here, sooner than a thread starts).
      const reader = new CsvBlockReader(setup);
      blocks.inTurn();
      let resume: CsvTokenizerState | undefined;
      let line = first?.line ?? 1;
      for (let block = first; block; block = block.final ? undefined : await blocks.next(BLOCK)) {
        const r = reader.read(job(block, resume ?? tokenizer.startState(line)));
        resume = r.end;
        line = r.nextLine;
        told(r);
        yield r;
      }
      if (resume) yield* endInQuotes(resume, (j) => reader.read(j));
      watch?.finish();
      return;
    }
    const readers = pool;
    const queue: Array<{ block: CsvBlock; result: Promise<CsvBlockResult> }> = [];
    let ended = false;
    const fill = async () => {
      while (!ended && queue.length < workers * AHEAD) {
        const block = first ?? (await blocks.next(BLOCK));
        first = undefined;
        if (!block) {
          ended = true;
          break;
        }
        const result = readers.read(job(block, tokenizer.startState(block.line)));
        result.catch(() => undefined); // awaited in turn; one left behind by a failure is not unhandled
        queue.push({ block, result });
        if (block.final) ended = true;
      }
    };
    try {
      let resume: CsvTokenizerState | undefined;
      for (await fill(); queue.length > 0; await fill()) {
        const { block, result } = queue.shift()!;
        let r = await result;
        // The bytes went to the thread and came back with the result.
        block.bytes = r.bytes ?? block.bytes;
        if (resume) {
          // The block before did not end at a record start: this one is read on from where it did end.
          r = await readers.read(job(block, resume));
          block.bytes = r.bytes ?? block.bytes;
        }
        resume = r.end;
        told(r);
        yield r;
      }
      if (resume) yield* endInQuotes(resume, (j) => readers.read(j));
      watch?.finish();
    } finally {
      if (!owned) await closePool();
    }
  }

  /**
   * Row groups of `blocks`' rows in order: encoded by the workers when they
   * run (a few at a time: memory is bounded by them), else their rows, for
   * the file's writer to encode.
   */
  async function* rowGroups(blocks: AsyncIterable<CutBlock>, cutter: RowGroupCutter): AsyncGenerator<EncodedRowGroup | RowGroupJob> {
    owned = true;
    const encoding: Array<Promise<EncodedRowGroup | RowGroupJob>> = [];
    const encode = (j: RowGroupJob) => {
      const p = pool ? pool.encode(j) : Promise.resolve(j);
      p.catch(() => undefined); // awaited in turn
      encoding.push(p);
    };
    try {
      for await (const block of blocks) {
        for (const j of cutter.add(block)) {
          encode(j);
          while (encoding.length > (pool ? workers + 1 : 0)) yield await encoding.shift()!;
        }
      }
      const last = cutter.finish();
      if (last) encode(last);
      while (encoding.length > 0) yield await encoding.shift()!;
    } finally {
      await closePool();
    }
  }

  return {
    close: closePool,
    items: head(),
    tail: {
      settled(schema, columnar, rowGroups) {
        const replica = columnar ? shaper.replica(schema) : undefined;
        if (!replica) {
          void closePool();
          return;
        }
        setup = { delimiter: o.delimiter, skipBad: o.skipBad, replica, headerCells: items.names };
        pool?.setup(setup, rowGroups);
        handOver = true;
      },
      blocks: tail,
      rowGroups,
    },
  };
}
