/**
 * Datasets in Node: directories and globs listed on the local file system,
 * files opened with positioned reads; URL lists through HTTP.
 */
import type { Dataset, DatasetOptions } from '../dataset/dataset.js';
import { urlFileSystem, type DatasetFileSystem } from '../dataset/file-system.js';
import { registerNodeCodecs } from './codecs.js';
import { nodeFileSystem } from './dataset-fs.js';
import type { S3Settings } from './s3-credentials.js';
import { isS3Address } from '../io/s3/address.js';

registerNodeCodecs();

export { nodeFileSystem };

/**
 * The Node `openDataset`'s options: a dataset's, with the file system optional (local files, URLs,
 * `s3://`), HTTP headers and S3 settings.
 */
export type NodeDatasetOptions = Omit<DatasetOptions, 'fileSystem'> & { fileSystem?: DatasetFileSystem; headers?: Record<string, string>; s3?: S3Settings };

/**
 * Opens a dataset: a directory, a glob (`data/**\/*.parquet`), or a list of
 * paths, http(s) URLs or `s3://` addresses (docs/datasets.md); an `s3://`
 * prefix or glob too, listed by ListObjectsV2 under its fixed leading prefix.
 *
 * @example
 * ```ts
 * const ds = await openDataset('sales/', { hivePartitioning: true });
 * for await (const row of ds.rows({ filter: { column: 'year', op: '=', value: 2024 } })) console.log(row);
 * ```
 */
export async function openDataset(input: string | readonly (string | URL)[], options: NodeDatasetOptions = {}): Promise<Dataset> {
  const { s3, headers, ...rest } = options;
  const paths = typeof input === 'string' ? input : input.map(String);
  const all = typeof paths === 'string' ? [paths] : paths;
  const fileSystem = options.fileSystem
    ?? (all.some(isS3Address) ? await (await import('./s3.js')).s3DatasetFileSystem(s3)
      : all.some((p) => /^https?:\/\//i.test(p)) ? urlFileSystem({ headers }) : nodeFileSystem());
  // The dataset layer (filters, partitions, Arrow output) loads here, not with the root entry point that exports this.
  const { Dataset } = await import('../dataset/dataset.js');
  return Dataset.open(paths, { ...rest, fileSystem });
}
