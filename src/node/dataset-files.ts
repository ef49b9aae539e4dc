import { compareUtf8 } from '../bytes/utf8-checks.js';
import { walkFiles } from '../dataset/discover.js';
import { METADATA_FILE } from '../dataset/summary.js';
import { relativeTo } from '../io/paths.js';
import { nodeFileSystem } from './dataset-fs.js';

/**
 * The files of a dataset directory, as paths relative to it with `/`
 * between names, in lexicographic order (the order a dataset reads them):
 * the dataset walk's (discover.ts), so names starting with `.` or `_` are
 * left out at every level (temp files, `_SUCCESS`, `_metadata`, Spark's
 * `_temporary/`), symbolic links followed, and a link loop refused, named,
 * or left out when `loops` is 'skip'.
 */
export async function listDatasetFiles(root: string, options: { loops?: 'error' | 'skip' } = {}): Promise<string[]> {
  const files: string[] = [];
  for await (const path of walkFiles(nodeFileSystem(), root, { loops: options.loops ?? 'error' })) {
    const rel = relativeTo(root, path);
    if (rel !== METADATA_FILE) files.push(rel);
  }
  return files.sort(compareUtf8);
}
