/**
 * What a salvage read (`salvage`, over Parquet's and Trevni's own) says
 * about the data it could not return: one loss record
 * and one recovery report for both formats, and the marker of a field whose
 * bytes were lost. Each format fills in where its unit of loss sits (a
 * Parquet row group and page, a Trevni block) and its own report fields.
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

/** What was lost, where, and why, in a Parquet or Trevni file. */
export interface Loss {
  /** Dotted leaf path (Parquet) or column name (Trevni). */
  column: string;
  /** Bytes of the file the lost unit occupies. */
  bytes: Span;
  /** Rows whose value in this column is lost: within the row group (Parquet), within the file (Trevni). */
  rows: Span;
  /** The error's class name and message. */
  error: { name: string; message: string };
  /** Parquet: the row group. */
  rowGroup?: number;
  /** Parquet: the data page's ordinal within the chunk (the dictionary page is not counted); absent when the chunk is lost before its pages. */
  page?: number;
  /** Trevni: the block's index within the column; absent when the column's block descriptors are lost (and with them every row). */
  block?: number;
}

/** How a Parquet file's row groups were found: its footer, else the last checkpoint, else a scan of page headers. */
export type FoundBy = 'footer' | 'checkpoint' | 'scan';

/**
 * What `checkParquet`/`recoverParquet`, `checkTrevni`/`recoverTrevni` and
 * a `salvage` read found: rows claimed, recovered and lost, and each loss
 * (docs/recovery.md). Fields marked Parquet or Trevni are absent for the
 * other format. A salvage read's rows recovered are those it gave.
 */
export interface RecoverReport {
  format: 'parquet' | 'trevni';
  /** Rows the file claims: its footer's or checkpoint's row groups (Parquet), its header (Trevni). */
  numRows: number;
  /**
   * Rows written out. Parquet: whole, or with lost fields written as null.
   * Trevni has no null a column of any type can hold: only the rows intact
   * in every field.
   */
  rowsRecovered: number;
  /** Of those, rows with a field written as null (a salvage read: given as MISSING) because its data was lost (a Trevni recovery has none). */
  rowsWithNulls: number;
  /** Rows not written: Parquet, every field lost or their row group skipped; Trevni, any field lost. */
  rowsLost: number;
  /** Top-level fields that hold null in the output where their data was lost (made optional when they were required); none for Trevni. */
  fieldsNulled: string[];
  losses: Loss[];
  /** True when nothing was lost (and, for Parquet, the file was read through its footer); else `recover` exits with status 3. */
  whole: boolean;
  /** Parquet: whether the row groups were found by the footer or, the footer being gone, by the last checkpoint or a page-header scan. */
  foundBy?: FoundBy;
  /** Parquet: why the footer could not be used. */
  footerError?: { name: string; message: string };
  /**
   * Parquet, without a footer (found by checkpoint or scan), or with a
   * footer whose row groups hold fewer rows than it counts: the byte from
   * which nothing was recovered, and why. The file held more from there (its
   * footer at least), so rows may be lost beyond `rowsLost`: how many is unknown.
   */
  lostFrom?: { offset: number; reason: string };
  /** Parquet: row groups the footer or checkpoint describes. */
  rowGroups?: number;
  /** Trevni: blocks read. */
  blocks?: number;
  /** Trevni: the root fields that lost rows, with those rows (sorted, disjoint). */
  fieldsLost?: { field: string; rows: Span[] }[];
}

/** An error as a loss report records it. */
export function described(e: unknown): { name: string; message: string } {
  return e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
}
