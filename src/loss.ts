/**
 * What a salvage read (Parquet's `salvageRowGroups`, Trevni's
 * `salvageTrevni`) says about the data it could not return: the shape both
 * formats' loss reports share, and the marker of a field whose bytes were
 * lost. Each format adds where its unit of loss sits (a Parquet row group
 * and page, a Trevni block).
 */

/** The value of a field whose bytes were lost: distinct from a stored null. */
export const MISSING: unique symbol = Symbol.for('parquetry.missing');
/** The type of `MISSING`, the value of a field whose data was lost. */
export type Missing = typeof MISSING;

/** A half-open span [start, end) of rows or bytes. */
export interface Span {
  start: number;
  end: number;
}

/** Overlapping or touching spans joined, in order. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** The rows both span lists (each sorted and disjoint) hold, sorted and disjoint. */
export function intersectSpans(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const start = Math.max(a[i]!.start, b[j]!.start);
    const end = Math.min(a[i]!.end, b[j]!.end);
    if (start < end) out.push({ start, end });
    if (a[i]!.end < b[j]!.end) i++;
    else j++;
  }
  return out;
}

export interface LossBase {
  /** Dotted leaf path (Parquet) or column name (Trevni). */
  column: string;
  /** Bytes of the file the lost unit occupies. */
  bytes: Span;
  /** Rows whose value in this column is lost. */
  rows: Span;
  /** The error's class name and message. */
  error: { name: string; message: string };
}

/** An error as a loss report records it. */
export function described(e: unknown): { name: string; message: string } {
  return e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
}
