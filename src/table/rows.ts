/**
 * What the tables of row-assembling formats (Trevni, RedElm) do to the rows
 * their readers give: cut to the requested columns, values in the forms
 * the value options ask for, rows skipped and counted, batched, stopped by
 * a signal. Parquet and datasets do all of this in their own readers.
 */
import { InvalidArgumentError, UnsupportedOptionError } from '../errors.js';
import type { ValueOptions } from '../schema/convert.js';
import { valueReshaper } from '../schema/reshape.js';
import type { Plan, RecordPlan } from '../shred/plan.js';
import type { TableBatchOptions, TableReadOptions } from './table.js';

type Row = Record<string, unknown>;
type Shape = (v: unknown) => unknown;

/** The default rows in a batch. */
export const BATCH_ROWS = 4096;

/** A count option checked: a non-negative safe integer, or absent. */
export function countOption(n: number | undefined, name: string): number | undefined {
  if (n !== undefined && (!Number.isSafeInteger(n) || n < 0)) throw new InvalidArgumentError(`${name} must be a non-negative integer, got ${n}`);
  return n;
}

/** The value options: Arrow has its own value types, and column vectors hold the stored values. */
export const VALUE_OPTIONS = ['int64', 'decimal', 'temporal'] as const;

/** Why `toArrow` takes no value option. */
export const ARROW_VALUES = 'Arrow has its own value types';

/** Options a read does not take, refused rather than ignored (a JavaScript caller passes what the types leave out). */
export function refuseOptions(options: object, names: readonly string[], format: string, why: string): void {
  for (const name of names) if ((options as Record<string, unknown>)[name] !== undefined) throw new UnsupportedOptionError(name, format, why);
}

/** `filter` refused for a format that reads rows without one. */
export function refuseFilter(options: TableReadOptions, format: string): void {
  if (options.filter !== undefined) throw new UnsupportedOptionError('filter', format, 'its reader has no row filter; read the rows and test them, or convert the file to Parquet');
}

/** Rows shaped to `plan` (exactly its fields, at every depth) with the leaf values `opts` asks for; undefined when rows already are. */
export function rowShaper(plan: RecordPlan, opts: ValueOptions, projected: boolean): ((row: Row) => Row) | undefined {
  let changes = projected;
  const shapeOf = (p: Plan): Shape | undefined => {
    switch (p.t) {
      case 'leaf': {
        const f = valueReshaper(p.leaf.kind, opts);
        if (f) changes = true;
        return f;
      }
      case 'struct': return structShape(p.fields);
      case 'list': {
        const e = shapeOf(p.element);
        return (v) => (v as unknown[]).map((x) => (x === null || x === undefined ? x : e ? e(x) : x));
      }
      case 'map': {
        const key = p.entry.fields.find((f) => f.name === p.keyName);
        const value = p.entry.fields.find((f) => f.name === p.valueName);
        const k = key && shapeOf(key.plan);
        const val = value && shapeOf(value.plan);
        // A key or value projected away is left out, as the Parquet reader leaves it out.
        return (v) => (v as { key: unknown; value: unknown }[]).map((e) => ({
          ...(key ? { key: k && e.key !== null ? k(e.key) : e.key } : {}),
          ...(value ? { value: val && e.value !== null && e.value !== undefined ? val(e.value) : e.value } : {}),
        }));
      }
      case 'variant': return undefined;
    }
  };
  const structShape = (fields: RecordPlan['fields']): Shape => {
    const parts = fields.map((f) => ({ name: f.name, shape: shapeOf(f.plan) }));
    return (v) => {
      const o = v as Row;
      const out: Row = {};
      for (const { name, shape } of parts) {
        const x = o[name];
        out[name] = x === null || x === undefined || !shape ? (x ?? null) : shape(x);
      }
      return out;
    };
  };
  const top = structShape(plan.fields);
  return changes ? (top as (row: Row) => Row) : undefined;
}

/**
 * `rows` (all of the table's, from its first) cut by offset and limit and
 * shaped, in batches; the signal is checked before each batch is asked for.
 * `skipped` says how many of the first rows the reader already passed over.
 */
export async function* shapedBatches(rows: AsyncIterable<Row>, options: TableBatchOptions, shape: ((row: Row) => Row) | undefined, skipped = 0): AsyncGenerator<Row[]> {
  const size = countOption(options.batchSize, 'batchSize') ?? BATCH_ROWS;
  if (size === 0) throw new InvalidArgumentError('batchSize must be at least 1');
  let skip = Math.max(0, (countOption(options.offset, 'offset') ?? 0) - skipped);
  let left = countOption(options.limit, 'limit') ?? Infinity;
  const signal = options.signal;
  signal?.throwIfAborted();
  if (left === 0) return;
  let batch: Row[] = [];
  for await (const row of rows) {
    if (skip > 0) {
      skip--;
      continue;
    }
    batch.push(shape ? shape(row) : row);
    if (--left === 0) break;
    if (batch.length === size) {
      yield batch;
      signal?.throwIfAborted();
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Batches checked against a signal before each is asked for. */
export async function* abortable<T>(batches: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  signal?.throwIfAborted();
  for await (const b of batches) {
    yield b;
    signal?.throwIfAborted();
  }
}

/** Rows one at a time from batches. */
export async function* unbatched<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const b of batches) yield* b;
}
