/**
 * Text records (CSV, JSON) into a table writer (Parquet, Trevni): the first
 * records sampled to settle the schema, then every record shaped and written
 * in order; a record that cannot be read or written is a bad row, the end of
 * the conversion or (skipping) counted.
 */
import { resolveAutoVariants } from '../parquet/variant/auto.js';
import { InvalidArgumentError } from '../errors.js';
import type { DefinedSchema } from '../schema/builder.js';
import { RowFailure, type Item } from './source.js';
import type { ColumnBatch, Shaper } from './shape.js';
import type { OutputSummary, RowOutput } from './output.js';
import { rowProblem } from './row-problem.js';
import { RowGroupCutter, type CutBlock, type RowGroupJob, type RowGroupSetup } from './row-groups.js';
import type { EncodedRowGroup } from '../parquet/write/writer.js';

/** What a strict library reader's first bad row says of going on. */
export const STRICT_HINT = 'without strict, bad rows are skipped and counted';

/** Rows an output that takes columns is given at a time. */
const BATCH_ROWS = 4096;
/** Most values a column batch holds: a wide input's batches take fewer rows, so memory follows the cells, not rows × columns. */
const BATCH_CELLS = 1 << 20;

/** How many skipped rows are kept for listing. */
const LISTED = 10;

/** An input row that could not be read, or does not fit the schema. */
export interface BadRow {
  /** The 1-based line it starts on. */
  line: number;
  /** The column or field it fails in, when one is to blame. */
  column?: string;
  reason: string;
  /** `input:line: column c: reason`, as messages give it. */
  text: string;
}

/** Bad rows: the end of the conversion (strict), or counted, the first few kept, each told to `onBadRow`. */
export class BadRows {
  count = 0;
  readonly first: BadRow[] = [];

  /** `hint`: how to skip them, in the caller's words (an option's name). */
  constructor(
    private readonly strict: boolean, private readonly input: string, private readonly hint: string,
    private readonly onBadRow?: (row: BadRow) => void,
  ) {}

  text(line: number, why: string, column?: string): string {
    return `${this.input}:${line}: ${column !== undefined ? `column ${column}: ` : ''}${why}`;
  }

  add(line: number, why: string, column?: string): void {
    if (this.strict) throw new InvalidArgumentError(`${this.text(line, why, column)} (${this.hint})`);
    this.count++;
    const row: BadRow = { line, reason: why, text: this.text(line, why, column), ...(column !== undefined ? { column } : {}) };
    if (this.first.length < LISTED) this.first.push(row);
    this.onBadRow?.(row);
  }
}


/**
 * The schema, settled from the records before the first one past the sample
 * (the header row and bad rows aside), and every record in order, in batches
 * (a reader's batches: no promise per record). Bad rows among the sample go
 * to `bad` as they are read; past it they stay in their place as error
 * items (a record the shaper refuses becomes one), for the caller to count
 * as it meets them, so they are told in the input's order with the rows
 * that fail when written. A RowFailure from the reader comes out as it is.
 */
export async function settle<R>(
  items: AsyncIterator<Array<Item<R>>>, shaper: Shaper<R>, sampleSize: number, bad: BadRows, header?: (first: R) => boolean,
): Promise<{ schema: DefinedSchema; records: (sampled?: boolean) => AsyncGenerator<Array<Item<R>>> }> {
  let first = true;
  /** The next batch (maybe empty), or undefined at the end. */
  const next = async (): Promise<Array<Item<R>> | undefined> => {
    const step = await items.next();
    if (step.done) return undefined;
    const out: Array<Item<R>> = [];
    for (const item of step.value) {
      if (item.error !== undefined) {
        if (first && header) throw new RowFailure(item.line, `the first row cannot be read: ${item.error}`);
        out.push(item);
        continue;
      }
      if (first) {
        first = false;
        if (header && header(item.record)) continue;
      }
      const problem = shaper.check(item.record);
      out.push(problem === undefined ? item : { line: item.line, error: problem });
    }
    return out;
  };
  /** The sample's records, as items. */
  const read: Array<Item<R>> = [];
  const sample: R[] = [];
  let past: Array<Item<R>> = [];
  // Stopped before the end (a failure here, or the caller leaving `records` early), the
  // items are returned, so their input is closed: a Web stream cancelled, a fetch stopped.
  const stop = async () => void (await items.return?.());
  let schema: DefinedSchema;
  try {
    for (let b = await next(); b; b = sample.length >= sampleSize ? undefined : await next()) {
      let i = 0;
      for (; i < b.length && sample.length < sampleSize; i++) {
        const item = b[i]!;
        // Bad rows among the sample are told as they are read, as before the schema nothing else can fail.
        if (item.error !== undefined) bad.add(item.line, item.error, item.column);
        else {
          read.push(item);
          sample.push(item.record);
        }
      }
      past = b.slice(i);
    }
    // A variant declared with shred: 'auto' takes its shape from the same sample.
    schema = resolveAutoVariants(shaper.schema(sample), sample);
  } catch (e) {
    await stop();
    throw sample.length === 0 ? allBad(e, bad) : e;
  }
  /** The records in order; `sampled` false: the sample's records left out (the reader reads them again). */
  async function* records(sampled = true): AsyncGenerator<Array<Item<R>>> {
    try {
      if (!sampled) read.length = 0; // the reader reads them again: let them go
      else if (read.length) yield read;
      if (past.length) yield past;
      for (let b = await next(); b; b = await next()) if (b.length) yield b;
    } finally {
      await stop();
    }
  }
  return { schema, records };
}

/** Inference's refusal of an empty sample, when bad rows emptied it: it says so (a JSON array read as JSON Lines is all bad lines). */
function allBad(e: unknown, bad: BadRows): unknown {
  const first = bad.first[0];
  if (!(e instanceof InvalidArgumentError) || !first) return e;
  return new InvalidArgumentError(`${e.detail}: every record read was a bad row (${bad.count}); the first is ${first.text}`, e.context);
}

/** Text input → Parquet or Trevni: sample, settle the schema, then write every record in order. */
export async function textToTable<R>(
  items: AsyncIterator<Array<Item<R>>>, shaper: Shaper<R>, open: (schema: DefinedSchema) => Promise<RowOutput>,
  sampleSize: number, state: { output?: RowOutput; line?: number }, bad: BadRows,
  header?: (first: R) => boolean, tail?: ColumnTail<R>,
): Promise<OutputSummary> {
  try {
    const settled = await settle(items, shaper, sampleSize, bad, header);
    const schema = settled.schema;
    const writer = await open(schema);
    state.output = writer;
    const batch = writer.writeBuilt ? shaper.batch?.() : undefined;
    const rowGroups = batch && tail?.rowGroups ? writer.rowGroups : undefined;
    const records = settled.records(tail?.settled(schema, writer.writeBuilt !== undefined, rowGroups?.setup) !== true);
    if (rowGroups) {
      // Rows in built columns, cut into row groups that are encoded apart (by the tail's threads) and appended in order.
      const cutter = new RowGroupCutter(rowGroups.setup, bad);
      for await (const group of tail!.rowGroups!(builtBlocks(records, batch!, bad, tail!), cutter)) await rowGroups.write(group);
      return await writer.close();
    }
    for await (const items of records) {
      if (batch) {
        await writeBatched(items, batch, bad, (item) => {
          state.line = item.line;
          return writeTaken(batch, writer);
        });
      } else {
        for (const item of items) {
          if (item.error !== undefined) {
            bad.add(item.line, item.error, item.column);
            continue;
          }
          state.line = item.line; // for the writer's warnings, which come while it takes the record
          const problem = await takeShaped(shaper, item.record, (row) => writer.write(row));
          if (problem) bad.add(item.line, problem.why, problem.column);
        }
      }
    }
    if (tail) {
      // The sample's rows first, as they are: the blocks' rows go to the writer in columns of their own.
      if (batch && batch.length > 0) await writeTaken(batch, writer);
      for await (const block of tail.blocks()) await writeBlock(block, writer, state, bad, shaper);
    }
    if (batch && batch.length > 0) await writeTaken(batch, writer);
    return await writer.close();
  } catch (e) {
    throw located(e, bad);
  }
}

/**
 * What follows the records of a text input when its records are read into
 * column batches elsewhere (by worker threads, or from the bytes): blocks
 * of rows already in columns, their bad rows in place.
 */
export interface ColumnTail<R = never> {
  /**
   * The schema is settled, the output open; `columnar`: it takes rows in
   * columns, so the tail may read the rest into `blocks`, which then follow
   * the records (none when it does not); `rowGroups`: it takes them in row
   * groups cut and encoded so, which `rowGroups` then gives. True: the
   * blocks begin with the sample's rows, read again (its bad rows were told
   * as it was read), so its records are not written.
   */
  settled(schema: DefinedSchema, columnar: boolean, rowGroups?: RowGroupSetup): boolean | void;
  blocks(): AsyncIterable<ColumnBlock<R>>;
  /** `blocks` (the records' batches, then the tail's blocks) in row groups, in order: encoded, or their rows for the writer to encode. */
  rowGroups?(blocks: AsyncIterable<CutBlock>, cutter: RowGroupCutter): AsyncIterable<EncodedRowGroup | RowGroupJob>;
}

/**
 * Rows read into columns (schema order), the line each starts on (when the
 * writer's warnings need it), the bad rows among them, and the records
 * among them that go to the writer as rows (`records`, the reader's own
 * form, written by the shaper).
 */
export interface ColumnBlock<R = never> extends CutBlock {
  lines?: Int32Array;
  /** In input order, each after `at` of the rows (and after the bad rows at the same place that come before it in the input: `line` orders them). */
  records?: ReadonlyArray<{ at: number; line: number; record: R }>;
}

/** Rows of a batch given at a time: BATCH_ROWS, fewer past BATCH_CELLS. */
function batchRows(width: number): number {
  return Math.max(1, Math.min(BATCH_ROWS, Math.floor(BATCH_CELLS / Math.max(1, width))));
}

/**
 * A block's rows to the writer, the runs between its bad rows and records
 * at a time, its bad rows told and its records written in their places.
 */
async function writeBlock<R>(block: ColumnBlock<R>, writer: RowOutput, state: { line?: number }, bad: BadRows, shaper: Shaper<R>): Promise<void> {
  const records = block.records ?? [];
  let k = 0;
  let r = 0;
  for (let i = 0; ; ) {
    for (;;) {
      const b = k < block.bad.length && block.bad[k]!.at <= i ? block.bad[k]! : undefined;
      const rec = r < records.length && records[r]!.at <= i ? records[r]! : undefined;
      if (b && (!rec || b.line < rec.line)) {
        bad.add(b.line, b.why, b.column);
        k++;
      } else if (rec) {
        state.line = rec.line;
        const problem = await takeShaped(shaper, rec.record, (row) => writer.write(row));
        if (problem) bad.add(rec.line, problem.why, problem.column);
        r++;
      } else break;
    }
    if (i === block.rows) return;
    const end = Math.min(k < block.bad.length ? block.bad[k]!.at : block.rows, r < records.length ? records[r]!.at : block.rows);
    if (block.lines) state.line = block.lines[end - 1]!;
    await writer.writeBuilt!(block.columns, i, end);
    i = end;
  }
}

/** Records gathered into `batch`, `full` called each BATCH_ROWS (fewer past BATCH_CELLS); one whose values do not fit is a bad row. */
async function writeBatched<R>(items: ReadonlyArray<Item<R>>, batch: ColumnBatch<R>, bad: BadRows, full: (item: Item<R>) => Promise<void> | void): Promise<void> {
  const rows = batchRows(batch.width);
  for (const item of items) {
    if (item.error !== undefined) {
      bad.add(item.line, item.error, item.column);
      continue;
    }
    try {
      batch.add(item.record);
    } catch (e) {
      if (!(e instanceof InvalidArgumentError)) throw e;
      const problem = rowProblem(e);
      bad.add(item.line, problem.why, problem.column);
      continue;
    }
    if (batch.length === rows) await full(item);
  }
}

/** What `batch` gathered, to the writer. */
function writeTaken<R>(batch: ColumnBatch<R>, writer: RowOutput): Promise<void> {
  const rows = batch.length;
  return writer.writeBuilt!(batch.take(), 0, rows);
}

/** The records gathered into `batch` as blocks, then the tail's blocks. */
async function* builtBlocks<R>(records: AsyncIterable<Array<Item<R>>>, batch: ColumnBatch<R>, bad: BadRows, tail: ColumnTail<R>): AsyncGenerator<CutBlock> {
  const taken = (): CutBlock => {
    const rows = batch.length;
    return { rows, columns: batch.take(), bad: [] };
  };
  const full: CutBlock[] = [];
  for await (const items of records) {
    await writeBatched(items, batch, bad, () => void full.push(taken()));
    yield* full.splice(0);
  }
  if (batch.length > 0) yield taken();
  yield* tail.blocks();
}

/** A reader's RowFailure as the error a caller sees, named `input:line:` as bad rows are; any other error as it is. */
export function located(e: unknown, bad: BadRows): unknown {
  return e instanceof RowFailure ? new InvalidArgumentError(bad.text(e.line, e.why, e.column)) : e;
}

/**
 * Gives `take` (a writer, or a check against the schema) a record as the
 * shaper makes it, or its second form; what `take` refused, when it refused both.
 */
export async function takeShaped<R>(
  shaper: Shaper<R>, record: R, take: (row: Record<string, unknown>) => unknown,
): Promise<{ why: string; column: string | undefined } | undefined> {
  try {
    await take(shaper.row(record));
  } catch (e) {
    if (!(e instanceof InvalidArgumentError)) throw e;
    const again = shaper.retry(record);
    if (again) {
      try {
        await take(again);
        return undefined;
      } catch (e2) {
        if (!(e2 instanceof InvalidArgumentError)) throw e2;
      }
    }
    const problem = rowProblem(e);
    return shaper.advise ? shaper.advise(problem) : problem;
  }
  return undefined;
}
