/**
 * Datasets in Node: directories and globs listed on the local file system,
 * files opened with positioned reads; URL lists through HTTP.
 */
import { realpath, stat } from 'node:fs/promises';
import { IOError } from '../errors.js';
// The portable entry's Dataset: its module loads on first use (src/lazy.ts).
import { Dataset } from '../index.js';
import type { DatasetOptions } from '../dataset/dataset.js';
import { urlFileSystem, type DatasetFileSystem } from '../dataset/file-system.js';
import { joinPath } from '../io/paths.js';
import { registerNodeCodecs } from './codecs.js';
import { fileSource } from './file-source.js';
import { listDatasetFiles } from './dataset-files.js';
import { errnoCode, fsReason } from './fs-errors.js';

registerNodeCodecs();

/** The local file system as a dataset sees it: directories listed by `listDatasetFiles` (symbolic links followed, loops refused or skipped). */
export function nodeFileSystem(): DatasetFileSystem {
  return {
    async kind(path) {
      try {
        return (await stat(path)).isDirectory() ? 'directory' : 'file';
      } catch (e) {
        if (errnoCode(e) === 'ENOENT' || errnoCode(e) === 'ENOTDIR') return 'missing';
        throw new IOError(`cannot read ${path}: ${fsReason(e)}`, { file: path }, { cause: e });
      }
    },
    async *list(dir, options) {
      for (const rel of await listDatasetFiles(dir, options)) yield joinPath(dir, rel);
    },
    open: (path) => fileSource(path),
    identity: (path) => realpath(path).catch(() => undefined),
  };
}

export type NodeDatasetOptions = Omit<DatasetOptions, 'fileSystem'> & { fileSystem?: DatasetFileSystem; headers?: Record<string, string> };

/**
 * Opens a dataset: a directory, a glob (`data/**\/*.parquet`), or a list of
 * paths or http(s) URLs (README "Datasets").
 *
 * ```ts
 * const ds = await openDataset('sales/', { hivePartitioning: true });
 * for await (const row of ds.rows({ filter: { column: 'year', op: '=', value: 2024 } })) console.log(row);
 * ```
 */
export function openDataset(input: string | readonly (string | URL)[], options: NodeDatasetOptions = {}): Promise<Dataset> {
  const paths = typeof input === 'string' ? input : input.map(String);
  const urls = (typeof paths === 'string' ? [paths] : paths).some((p) => /^https?:\/\//i.test(p));
  const fileSystem = options.fileSystem ?? (urls ? urlFileSystem({ headers: options.headers }) : nodeFileSystem());
  return Dataset.open(paths, { ...options, fileSystem });
}
