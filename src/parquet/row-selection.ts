/**
 * The rows a read wants of one row group, as ordered, disjoint row ranges:
 * from `offset`/`limit`, from the page index's ranges where a filter can
 * match, narrowed by a filter's matches. A lazy read (lazy-column.ts) works
 * through it, passing over the rows between its ranges.
 */
import { InvalidArgumentError } from '../errors.js';

/** Rows [start, end) of a row group. */
export interface RowRange {
  start: number;
  end: number;
}

export class RowSelection {
  private constructor(readonly ranges: readonly RowRange[]) {}

  /** Every row of a row group of `numRows` rows. */
  static all(numRows: number): RowSelection {
    return new RowSelection(numRows > 0 ? [{ start: 0, end: numRows }] : []);
  }

  /** Ranges in order, not overlapping; empty ones are dropped and touching ones joined. */
  static of(ranges: readonly RowRange[]): RowSelection {
    const out: RowRange[] = [];
    let prev = 0;
    for (const r of ranges) {
      if (!(Number.isSafeInteger(r.start) && Number.isSafeInteger(r.end) && r.start >= prev && r.end >= r.start)) {
        throw new InvalidArgumentError(`row ranges must be ordered and disjoint: ${r.start}..${r.end} after ${prev}`);
      }
      prev = r.end;
      if (r.end === r.start) continue;
      const last = out[out.length - 1];
      if (last && last.end === r.start) last.end = r.end;
      else out.push({ start: r.start, end: r.end });
    }
    return new RowSelection(out);
  }

  /** Rows selected. */
  get rows(): number {
    let n = 0;
    for (const r of this.ranges) n += r.end - r.start;
    return n;
  }

  /** The selected rows from the `skip`-th on, at most `take` of them. */
  slice(skip: number, take: number): RowSelection {
    const out: RowRange[] = [];
    let left = take;
    for (const r of this.ranges) {
      if (left <= 0) break;
      const n = r.end - r.start;
      if (skip >= n) {
        skip -= n;
        continue;
      }
      const start = r.start + skip;
      const end = Math.min(r.end, start + left);
      out.push({ start, end });
      left -= end - start;
      skip = 0;
    }
    return new RowSelection(out);
  }
}
