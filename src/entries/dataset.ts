/**
 * `parquetry/dataset`: many Parquet files read as one table, written
 * partitioned, and summarized in `_metadata` files (docs/datasets.md). In
 * Node, `openDataset` also takes directories and globs (the root entry point
 * exports that one too), and `writeDataset` and `writeSummaryFiles` write to
 * directories.
 *
 * @module parquetry/dataset
 */
export {
  openDataset, Dataset, describeDataset, urlFileSystem,
  type DatasetFileSystem, type DatasetOptions, type DatasetReadOptions, type DatasetArrowOptions, type DatasetFile, type ScanPlan, type FileStats,
  type PartitionType, type PartitionValue, type PartitionColumn, type DatasetDescription,
} from '../dataset/index.js';
export type { DirectoryEntry } from '../dataset/file-system.js';
export { s3DatasetFileSystem } from '../dataset/s3.js';
export { summarize, summaryFileBytes, METADATA_FILE, COMMON_METADATA_FILE, type Summary, type SummaryPart } from '../dataset/summary.js';
export { writeDatasetTo, type DatasetOutput, type DatasetWriteOptions, type DatasetWriteReport, type DatasetPart } from '../dataset/write.js';
export { HIVE_NULL, escapePathName, partitionDirectory } from '../dataset/hive-names.js';
