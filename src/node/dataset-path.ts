/** Whether a path names a dataset: alone, so that telling a file from a dataset loads no dataset code. */
import { stat } from 'node:fs/promises';
import { errnoCode } from './fs-errors.js';

/**
 * A directory, or a glob that is not itself the name of a file. A URL, or a
 * path that cannot be looked at for another reason, is not (the file's own
 * reading says why).
 */
export async function isDatasetPath(path: string): Promise<boolean> {
  if (/^https?:\/\//i.test(path)) return false;
  try {
    return (await stat(path)).isDirectory();
  } catch (e) {
    if (errnoCode(e) !== 'ENOENT') return false;
    const { isGlob } = await import('../dataset/discover.js');
    return isGlob(path);
  }
}
