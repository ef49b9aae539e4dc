/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * What a salvage read gives, whatever the format: its options, its
 * batches, and the `Salvage` that tallies them into one report
 * (salvage.ts opens one; parquet.ts and trevni.ts make its batches).
 */
import { InvalidArgumentError } from '../errors.js';
import { MISSING, type Loss, type RecoverReport, type Span } from '../loss.js';
import type { ValueOptions } from '../schema/convert.js';
import type { SalvageOpenOptions } from '../parquet/recover/open.js';

/** How `salvage` reads. Options that only one format can honour are refused for the other (an `UnsupportedOptionError`). */
export interface SalvageOptions extends ValueOptions, SalvageOpenOptions {
  /** Only the rows no field lost (default false: also the rows that kept a field, the lost ones MISSING). */
  wholeOnly?: boolean;
  /** Verify stored checksums (default true): a mismatch locates damage to its page or block. */
  verifyChecksums?: boolean;
  /** The largest decompressed page or block accepted, in bytes (default 2^30). */
  maxDecompressedBytes?: number;
}

/**
 * Rows a salvage read gives, in file order, from one unit of the file: a
 * Parquet row group, or a stretch of a Trevni file's rows.
 */
export interface SalvageBatch {
  /** Each row's top-level fields; a field whose data was lost holds `MISSING`, never a guess or a null. */
  rows: Record<string, unknown>[];
  /** Which rows they are, as `Loss.rows` counts them: within the row group (Parquet), within the file (Trevni); sorted, disjoint, as many rows as `rows`. */
  spans: Span[];
  /** Parquet: the row group they come from. */
  rowGroup?: number;
  /** What was lost since the batch before: the row group's losses (Parquet), every loss with the first batch (Trevni, whose damage is found at open). */
  losses: Loss[];
}

/**
 * A damaged file opened for its salvage read: its batches (read once,
 * `for await`), and the report of what they held and lost, whole once they
 * are all read. Reading to the end or breaking off closes the file.
 */
export interface Salvage extends AsyncIterable<SalvageBatch> {
  readonly format: 'parquet' | 'trevni';
  /** Rows claimed, recovered (given, with or without MISSING fields) and lost, and every loss so far. */
  readonly report: RecoverReport;
  /** Closes the file when the batches are not read to the end (reading them does). */
  close(): Promise<void>;
  /** `await using s = await salvage(…)`: closed when the scope ends. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** What each format gives `salvaged`: its report as found at open (its losses its own to add to), its batches, and how to close. */
export interface SalvageParts {
  format: Salvage['format'];
  report: RecoverReport;
  batches: AsyncIterable<SalvageBatch>;
  close(): Promise<void>;
}

/**
 * A format's batches as a `Salvage`: each batch tallied into the report
 * (rows given, those with a MISSING field, the rest lost), the file closed
 * when they end, break off or fail, or at `close`.
 */
export function salvaged(parts: SalvageParts): Salvage {
  const { report } = parts;
  let closing: Promise<void> | undefined;
  let iterated = false;
  const close = () => (closing ??= parts.close());
  report.rowsRecovered = 0;
  report.rowsWithNulls = 0;
  report.rowsLost = report.numRows;
  return {
    format: parts.format,
    report,
    close,
    [Symbol.asyncDispose]: close,
    async *[Symbol.asyncIterator]() {
      if (iterated) throw new InvalidArgumentError('a salvage read is read once');
      iterated = true;
      try {
        for await (const batch of parts.batches) {
          report.rowsRecovered += batch.rows.length;
          report.rowsLost -= batch.rows.length;
          for (const row of batch.rows) if (Object.values(row).includes(MISSING)) report.rowsWithNulls++;
          yield batch;
        }
      } finally {
        await close();
      }
    },
  };
}
