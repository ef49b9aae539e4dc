/**
 * Reads every page of the selected columns (fetch, checksum, decompress,
 * decode levels and values), as parquet-java's `scan` does, and reports
 * what was read and how fast. Values are decoded into column vectors but
 * not turned into row objects, so the figure is the decoder's, not the
 * assembler's.
 */
import type { ParquetFile } from '../file.js';
import { ParquetReader } from '../reader.js';
import type { ColumnPath } from '../../schema/tree.js';

/** What `scanFile` read and decoded, and how fast. */
export interface ScanReport {
  rows: number;
  /** Leaf columns read. */
  columns: number;
  /** Level entries decoded (values and nulls) over all chunks read. */
  values: number;
  /** Bytes of the chunks read, as stored and as the pages declare them decompressed. */
  compressedBytes: number;
  uncompressedBytes: number;
  seconds: number;
}

/** Reads all of `columns` (default every column) in every row group. */
export async function scanFile(file: ParquetFile, columns?: readonly ColumnPath[]): Promise<ScanReport> {
  const leaves = file.selectLeaves(columns);
  const report: ScanReport = { rows: file.numRows, columns: leaves.length, values: 0, compressedBytes: 0, uncompressedBytes: 0, seconds: 0 };
  for (const rg of file.metadata.rowGroups) {
    for (const leaf of leaves) {
      report.compressedBytes += rg.columns[leaf.columnIndex]!.metaData?.totalCompressedSize ?? 0;
      report.uncompressedBytes += rg.columns[leaf.columnIndex]!.metaData?.totalUncompressedSize ?? 0;
    }
  }
  const start = performance.now();
  for await (const batch of new ParquetReader(file).columns({ columns: leaves.map((l) => l.path) })) report.values += batch.data.length;
  report.seconds = (performance.now() - start) / 1000;
  return report;
}
