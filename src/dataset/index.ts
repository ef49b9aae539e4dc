/** Datasets: many Parquet files read as one table (docs/datasets.md). */
import { Dataset, type DatasetOptions } from './dataset.js';
import { urlFileSystem } from './file-system.js';

export { Dataset, type DatasetOptions, type DatasetReadOptions, type DatasetArrowOptions, type DatasetFile, type ScanPlan, type FileStats } from './dataset.js';
export { urlFileSystem, type DatasetFileSystem } from './file-system.js';
export type { PartitionType, PartitionValue, PartitionColumn } from './hive.js';
export { describeDataset, type DatasetDescription } from './describe.js';

/**
 * Opens a dataset in any runtime: a list of URLs (read with HTTP Range
 * requests), or anything a `fileSystem` adapter lists and opens. Node's
 * entry point takes paths, directories and globs as well.
 *
 * @example
 * ```ts
 * const ds = await openDataset(['https://example.com/t/part-0.parquet', 'https://example.com/t/part-1.parquet']);
 * console.log((await ds.fileStats()).reduce((n, f) => n + f.numRows, 0)); // rows, from every footer (or `_metadata`)
 * ```
 */
export function openDataset(input: string | readonly (string | URL)[], options: Partial<DatasetOptions> & { headers?: Record<string, string> } = {}): Promise<Dataset> {
  const fileSystem = options.fileSystem ?? urlFileSystem({ headers: options.headers });
  return Dataset.open(typeof input === 'string' ? input : input.map(String), { ...options, fileSystem });
}
