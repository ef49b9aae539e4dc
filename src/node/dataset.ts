/**
 * Datasets in Node: directories and globs listed on the local file system,
 * files opened with positioned reads; URL lists through HTTP.
 */
import { opendir, realpath, stat } from 'node:fs/promises';
import { IOError } from '../errors.js';
import { Dataset, type DatasetOptions } from '../dataset/dataset.js';
import { urlFileSystem, type DatasetFileSystem } from '../dataset/file-system.js';
import { joinPath } from '../dataset/paths.js';
import { registerNodeCodecs } from './codecs.js';
import { fileSource } from './file-source.js';
import { errnoCode, fsReason } from './fs-errors.js';

registerNodeCodecs();

/** The local file system as a dataset sees it. Symbolic links are followed; one that leads back to a directory being listed is a loop. */
export function nodeFileSystem(): DatasetFileSystem {
  return {
    async kind(path) {
      try {
        return (await stat(path)).isDirectory() ? 'directory' : 'file';
      } catch (e) {
        if (errnoCode(e) === 'ENOENT') return 'missing';
        throw new IOError(`cannot read ${path}: ${fsReason(e)}`, { file: path }, { cause: e });
      }
    },
    list: (dir, options) => listTree(dir, options?.loops ?? 'error'),
    open: (path) => fileSource(path),
  };
}

async function* listTree(dir: string, loops: 'error' | 'skip', ancestors: string[] = []): AsyncGenerator<string> {
  let real: string;
  try {
    real = await realpath(dir);
  } catch (e) {
    throw new IOError(`cannot read ${dir}: ${fsReason(e)}`, { file: dir }, { cause: e });
  }
  if (ancestors.includes(real)) {
    if (loops === 'skip') return;
    throw new IOError(`symbolic link loop: ${dir} leads back to ${real}, which contains it`, { file: dir });
  }
  const chain = [...ancestors, real];
  let entries;
  try {
    entries = await opendir(dir);
  } catch (e) {
    throw new IOError(`cannot read ${dir}: ${fsReason(e)}`, { file: dir }, { cause: e });
  }
  for await (const entry of entries) {
    const path = joinPath(dir, entry.name);
    let isDir = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      try {
        isDir = (await stat(path)).isDirectory();
      } catch (e) {
        // ELOOP: a link that points at itself.
        if (loops === 'skip') continue;
        throw new IOError(`cannot read ${path}: ${fsReason(e)}`, { file: path }, { cause: e });
      }
    }
    if (isDir) yield* listTree(path, loops, chain);
    else if (entry.isFile() || entry.isSymbolicLink()) yield path;
  }
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
