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
import type { Shaper } from './shape.js';
import type { OutputSummary, RowOutput } from './output.js';

/** What a strict library reader's first bad row says of going on. */
export const STRICT_HINT = 'without strict, bad rows are skipped and counted';

/** Rows an output that takes columns is given at a time. */
const BATCH_ROWS = 4096;

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

/** A writer's complaint about a row, without the writer's record numbering. */
function rowProblem(e: InvalidArgumentError): { why: string; column: string | undefined } {
  const column = e.context.column;
  let why = e.detail.replace(/^record \d+: /, '');
  if (column !== undefined) why = why.replace(/^field [^:]*: /, '');
  return { why, column };
}

/** A record read, with the line it starts on. */
export interface Lined<R> {
  line: number;
  record: R;
}

/**
 * The schema, settled from the records before the first one past the sample
 * (the header row and bad rows aside), and every good record in order; bad
 * rows go to `bad`. A RowFailure from the reader comes out as it is.
 */
export async function settle<R>(
  items: AsyncIterator<Item<R>>, shaper: Shaper<R>, sampleSize: number, bad: BadRows, header?: (first: R) => boolean,
): Promise<{ schema: DefinedSchema; records: AsyncGenerator<Lined<R>> }> {
  let first = true;
  /** The next good record, or undefined at the end. */
  const next = async (): Promise<Lined<R> | undefined> => {
    for (;;) {
      const step = await items.next();
      if (step.done) return undefined;
      const item = step.value;
      if (item.error !== undefined) {
        if (first && header) throw new RowFailure(item.line, `the first row cannot be read: ${item.error}`);
        bad.add(item.line, item.error, item.column);
        continue;
      }
      if (first) {
        first = false;
        if (header && header(item.record)) continue;
      }
      const problem = shaper.check(item.record);
      if (problem !== undefined) {
        bad.add(item.line, problem);
        continue;
      }
      return { line: item.line, record: item.record };
    }
  };
  const sample: Array<Lined<R>> = [];
  let past: Lined<R> | undefined;
  // Stopped before the end (a failure here, or the caller leaving `records` early), the
  // items are returned, so their input is closed: a Web stream cancelled, a fetch stopped.
  const stop = async () => void (await items.return?.());
  let schema: DefinedSchema;
  try {
    for (let r = await next(); r; r = await next()) {
      if (sample.length >= sampleSize) {
        past = r;
        break;
      }
      sample.push(r);
    }
    // A variant declared with shred: 'auto' takes its shape from the same sample.
    schema = resolveAutoVariants(shaper.schema(sample.map((s) => s.record)), sample.map((s) => s.record));
  } catch (e) {
    await stop();
    throw sample.length === 0 ? allBad(e, bad) : e;
  }
  async function* records(): AsyncGenerator<Lined<R>> {
    try {
      yield* sample;
      if (!past) return;
      yield past;
      for (let r = await next(); r; r = await next()) yield r;
    } finally {
      await stop();
    }
  }
  return { schema, records: records() };
}

/** Inference's refusal of an empty sample, when bad rows emptied it: it says so (a JSON array read as JSON Lines is all bad lines). */
function allBad(e: unknown, bad: BadRows): unknown {
  const first = bad.first[0];
  if (!(e instanceof InvalidArgumentError) || !first) return e;
  return new InvalidArgumentError(`${e.detail}: every record read was a bad row (${bad.count}); the first is ${first.text}`, e.context);
}

/** Text input → Parquet or Trevni: sample, settle the schema, then write every record in order. */
export async function textToTable<R>(
  items: AsyncIterator<Item<R>>, shaper: Shaper<R>, open: (schema: DefinedSchema) => Promise<RowOutput>,
  sampleSize: number, state: { output?: RowOutput; line?: number }, bad: BadRows,
  header?: (first: R) => boolean,
): Promise<OutputSummary> {
  try {
    const { schema, records } = await settle(items, shaper, sampleSize, bad, header);
    const writer = await open(schema);
    state.output = writer;
    const batch = writer.writeColumns ? shaper.batch?.() : undefined;
    if (batch) {
      for await (const { line, record } of records) {
        try {
          batch.add(record);
        } catch (e) {
          if (!(e instanceof InvalidArgumentError)) throw e;
          const problem = rowProblem(e);
          bad.add(line, problem.why, problem.column);
          continue;
        }
        if (batch.length === BATCH_ROWS) {
          state.line = line;
          await writer.writeColumns!(batch.take());
        }
      }
      if (batch.length > 0) await writer.writeColumns!(batch.take());
      return await writer.close();
    }
    for await (const { line, record } of records) {
      state.line = line; // for the writer's warnings, which come while it takes the record
      const problem = await takeShaped(shaper, record, (row) => writer.write(row));
      if (problem) bad.add(line, problem.why, problem.column);
    }
    return await writer.close();
  } catch (e) {
    throw located(e, bad);
  }
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
    return rowProblem(e);
  }
  return undefined;
}
