/**
 * The recovery invariant, judged against the original file's rows: every row
 * recovered is an original row, in order (a field lost may be null where the
 * report names it), and whatever did not come back is reported as lost.
 * Shared by the recovery sweeps; the fuzz campaign may use it too.
 */
import { isDeepStrictEqual } from 'node:util';
import { BufferSink } from '../../src/io/sink.js';
import { ParquetryError } from '../../src/errors.js';
import { ParquetReader } from '../../src/index.js';
import { recoverParquet, type RecoverReport } from '../../src/parquet/recover/index.js';
import type { SalvageOpenOptions } from '../../src/parquet/recover/open.js';

export interface Recovered {
  report: RecoverReport;
  rows: Record<string, unknown>[];
}

/** `recoverParquet` of `bytes` and the rows of the file it wrote; a ParquetryError (nothing recovered) is returned, anything else thrown. */
export async function recoverRows(bytes: Uint8Array, options: SalvageOpenOptions = {}): Promise<Recovered | ParquetryError> {
  const sink = new BufferSink();
  let report: RecoverReport;
  try {
    report = await recoverParquet(bytes, sink, options);
  } catch (e) {
    if (e instanceof ParquetryError) return e;
    throw e;
  }
  const rows = await (await ParquetReader.open(sink.bytes())).readRows();
  return { report, rows };
}

/** Whether the report says something was lost: rows, pages, or the file's tail (how much it held unknown). */
export function reportsLoss(r: RecoverReport): boolean {
  return !r.whole && (r.rowsLost > 0 || r.losses.length > 0 || r.lostFrom !== undefined);
}

export interface Verdict {
  /** Recovered rows that are no original row at their place. */
  wrong: number;
  /** Fewer rows (or fields) came back than the original has, and the report does not say so. */
  unreported: boolean;
}

/**
 * Matches the recovered rows in order against the original's (a row may
 * hold null in a field the report lists in fieldsNulled); a row that matches
 * no later original row is wrong. A footer names the fields and nothing
 * checks it: with `ignoreNames`, fields are matched by their order.
 */
export function judge(original: readonly Record<string, unknown>[], got: Recovered | ParquetryError, options: { ignoreNames?: boolean } = {}): Verdict {
  if (got instanceof ParquetryError) return { wrong: 0, unreported: false };
  const nulled = new Set(got.report.fieldsNulled);
  const norm = (v: unknown): unknown => (options.ignoreNames ? unnamed(v) : v);
  /** 'exact', 'nulled' (equal but for fields lost), or null. */
  const match = (r: Record<string, unknown>, o: Record<string, unknown>): 'exact' | 'nulled' | null => {
    const names = Object.keys(r);
    if (names.length !== Object.keys(o).length) return null;
    let outcome: 'exact' | 'nulled' = 'exact';
    for (const [i, [k, v]] of Object.entries(o).entries()) {
      const name = options.ignoreNames ? names[i]! : k;
      if (isDeepStrictEqual(norm(r[name]), norm(v))) continue;
      if (r[name] !== null || !nulled.has(name)) return null;
      outcome = 'nulled';
    }
    return outcome;
  };
  let wrong = 0;
  let at = 0;
  let exact = got.rows.length === original.length;
  for (const r of got.rows) {
    let k = at;
    let m: 'exact' | 'nulled' | null = null;
    while (k < original.length && (m = match(r, original[k]!)) === null) k++;
    if (m === null) {
      wrong++;
      exact = false;
      continue;
    }
    if (m === 'nulled') exact = false;
    at = k + 1;
  }
  return { wrong, unreported: !exact && !reportsLoss(got.report) };
}

/** A value with every object's keys dropped: its fields' values, in an order that does not depend on the names (a name like "8" moves first in a JS object). */
function unnamed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(unnamed);
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return v;
  const text = (x: unknown): string => JSON.stringify(x, (_k, y: unknown) => (typeof y === 'bigint' ? `${y}n` : y)) ?? 'undefined';
  return Object.values(v).map(unnamed).sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}
