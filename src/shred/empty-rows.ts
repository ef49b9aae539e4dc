/**
 * Rows with no column data: a read that selects no column (a Parquet file
 * with no leaf column or only empty groups, a Trevni file with no column, or
 * a projection onto such groups). Their count is a number in the file's
 * header or row groups that no bytes back, so nothing bounds the work of
 * yielding one empty row per claimed row (2^53 from 17 bytes). Both readers
 * yield them up to a fixed bound and refuse more in one typed error, before
 * the first row, so the caller gets all of them or a reason; the count
 * itself stays readable (`numRows`).
 */
import { LimitError, type ErrorContext } from '../errors.js';

/** Most rows without column data one read yields. */
export const MAX_EMPTY_ROWS = 1 << 16;

/** Refuses a read of `count` rows that hold no column data when it exceeds MAX_EMPTY_ROWS. */
export function checkEmptyRows(count: number, context: ErrorContext): void {
  if (count > MAX_EMPTY_ROWS) {
    throw new LimitError(
      `the read selects no column data, so nothing backs its ${count} rows; at most ${MAX_EMPTY_ROWS} such rows are read (ask fewer with limit; the row count alone is numRows)`,
      context,
    );
  }
}
