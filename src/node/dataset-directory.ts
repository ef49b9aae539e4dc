/** A dataset's directory as the output `writeDataset` and `convert` write parts into: staged, published together. */
import { lstat, mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InvalidArgumentError, IOError } from '../errors.js';
import type { Sink } from '../io/sink.js';
import type { DatasetOutput } from '../dataset/write.js';
import { listDatasetFiles } from './dataset-files.js';
import { prepareSummaryFiles } from './dataset-summary.js';
import { METADATA_FILE } from '../dataset/summary.js';
import { fileSink } from './file-sink.js';
import { errnoCode, fsReason } from './fs-errors.js';

/** A dataset directory as a `DatasetOutput`: parts staged, published by `commit`, then the summary files when asked for (or when there were some). */
export async function datasetDirectory(dir: string, options: { append?: boolean; writeSummary?: boolean } = {}): Promise<DatasetOutput & { readonly summaryFiles: string[] }> {
  if (!options.append && (await directoryHasFiles(dir))) {
    throw new InvalidArgumentError(`${dir} already holds files: add parts to it with the append option (--append), or write elsewhere`);
  }
  const summarize = options.writeSummary || (await exists(join(dir, METADATA_FILE)));
  const staged = await stagedOutput(dir);
  const summaryFiles: string[] = [];
  return {
    ...staged,
    async commit(paths) {
      // The summary is merged before the parts are published: parts it cannot take (another schema) fail the write while it can still be undone.
      const summary = summarize ? await prepareSummaryFiles(dir, { pending: new Map(paths.map((p) => [p, staged.stagedFile(p)])) }) : undefined;
      await staged.commit(paths);
      if (summary) for (const f of (await summary.write()).written) summaryFiles.push(f);
    },
    summaryFiles,
  };
}

async function directoryHasFiles(dir: string): Promise<boolean> {
  return (await exists(dir)) && (await listDatasetFiles(dir)).length > 0;
}

/** Whether anything is at `path` (a dangling link counts). */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return false;
    throw new IOError(`cannot read ${path}: ${fsReason(e)}`, { file: path }, { cause: e });
  }
}

async function stagedOutput(dir: string): Promise<DatasetOutput & { stagedFile(path: string): string }> {
  // node:crypto is loaded here, not at import: a program that only reads never needs it.
  const { randomBytes } = await import('node:crypto');
  const run = randomBytes(6).toString('hex');
  const staged = new Map<string, string>();
  const createdDirs: string[] = [];
  const stagedPath = (path: string) => {
    const final = join(dir, ...path.split('/'));
    return join(dirname(final), `.${basename(final)}.parquetry-pending-${run}`);
  };
  return {
    exists: (path) => exists(join(dir, ...path.split('/'))),
    stagedFile: (path) => staged.get(path)!,
    async create(path): Promise<Sink> {
      const target = stagedPath(path);
      try {
        const made = await mkdir(dirname(target), { recursive: true });
        if (made !== undefined) createdDirs.push(made);
      } catch (e) {
        throw new IOError(`cannot create the directory of ${join(dir, path)}: ${fsReason(e)}`, { file: join(dir, path) }, { cause: e });
      }
      staged.set(path, target);
      return fileSink(target);
    },
    async commit(paths) {
      for (const path of paths) {
        const final = join(dir, ...path.split('/'));
        try {
          await rename(staged.get(path)!, final);
        } catch (e) {
          throw new IOError(`cannot publish ${final}: ${fsReason(e)}`, { file: final }, { cause: e });
        }
        staged.delete(path);
      }
    },
    async discard() {
      await Promise.all([...staged.values()].map((p) => rm(p, { force: true }).catch(() => undefined)));
      staged.clear();
      // Directories this run made and left empty go too, deepest first (each mkdir returned the top one it made).
      for (const top of createdDirs.reverse()) await removeEmptyTree(top);
    },
  };
}

/** Removes `top` and the directories under it as long as they are empty; stops at anything else. */
async function removeEmptyTree(top: string): Promise<void> {
  const walk = async (d: string): Promise<boolean> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return false;
    }
    let empty = true;
    for (const e of entries) if (!(e.isDirectory() && (await walk(join(d, e.name))))) empty = false;
    if (!empty) return false;
    return rmdir(d).then(() => true, () => false);
  };
  await walk(top);
}
