/** `writeDataset` in Node: records as a dataset in a directory or an `s3://` prefix. */
import { writeDatasetTo, type DatasetWriteOptions, type DatasetWriteReport } from '../dataset/write.js';
import { datasetOutput } from './destination.js';
import type { NodeS3Settings } from './s3.js';

/** `writeDataset`'s options: `writeDatasetTo`'s, plus appending, summary files and S3 settings. */
export interface WriteDatasetOptions extends DatasetWriteOptions {
  /** For an `s3://` prefix: how the store is reached, and upload part sizes (docs/s3.md). */
  s3?: NodeS3Settings;
  /** Add parts to a directory that already holds some (new parts are numbered past the names taken); without it, a directory with files is refused. */
  append?: boolean;
  /**
   * Then write `_metadata` and `_common_metadata` for every part in the
   * directory. Done anyway when the directory had a `_metadata` before: left
   * as it was, it would hide the new parts from readers that plan from it.
   */
  writeSummary?: boolean;
}

/** What `writeDataset` wrote, summary files included. */
export interface WriteDatasetResult extends DatasetWriteReport {
  /** The summary files written, with `writeSummary`. */
  summaryFiles: string[];
}

/**
 * Writes `records` as a dataset in directory `dir` (docs/datasets.md, "Datasets: writing"), created if need be. Parts are staged under hidden names
 * (`.NAME.parquetry-pending-RUN`, each itself written through a temp file)
 * and renamed into place together at the end; a failure removes them, and a
 * killed process leaves only hidden files, which dataset readers skip. An
 * `s3://` prefix: each part an upload completed at commit (node/s3.ts).
 */
export async function writeDataset(dir: string, records: Iterable<unknown> | AsyncIterable<unknown>, options: WriteDatasetOptions = {}): Promise<WriteDatasetResult> {
  const { append, writeSummary, s3, ...writeOptions } = options;
  const directory = await datasetOutput(dir, { append, writeSummary }, s3);
  const report = await writeDatasetTo(directory, records, writeOptions);
  return { ...report, summaryFiles: directory.summaryFiles };
}

