import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { IOError } from '../errors.js';
import { errnoCode, fsReason } from './fs-errors.js';
import { compareUtf8 } from '../bytes/utf8.js';

/**
 * The files of a dataset directory, as paths relative to it with `/`
 * between names, in lexicographic order (the order a dataset reads them).
 * Names starting with `.` or `_` are left out at every level: temp files,
 * `_SUCCESS`, `_metadata`, Spark's `_temporary/`. Symbolic links are
 * followed; one leading back to a directory it is inside (or to itself) is
 * refused, named, since following it would never end, or left out when
 * `loops` is 'skip'.
 */
export async function listDatasetFiles(root: string, options: { loops?: 'error' | 'skip' } = {}): Promise<string[]> {
  const files: string[] = [];
  await walk(root, '', [await realDir(root, root)], files, options.loops === 'skip');
  return files.sort(compareUtf8);
}

async function walk(dir: string, rel: string, ancestors: string[], out: string[], skipLoops: boolean): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    throw new IOError(`cannot list ${dir}: ${fsReason(e)}`, { file: dir }, { cause: e });
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name.startsWith('_')) continue;
    const path = join(dir, entry.name);
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    let isDir = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      try {
        isDir = (await stat(path)).isDirectory();
      } catch (e) {
        if (skipLoops && errnoCode(e) === 'ELOOP') continue;
        throw new IOError(`cannot read ${path}: ${fsReason(e)}`, { file: path }, { cause: e });
      }
    }
    if (!isDir) {
      out.push(relPath);
      continue;
    }
    const real = await realDir(path, path);
    if (ancestors.includes(real) && skipLoops) continue;
    if (ancestors.includes(real)) throw new IOError(`${path} is a symbolic link loop: it leads back to ${real}, a directory it is inside`, { file: path });
    await walk(path, relPath, [...ancestors, real], out, skipLoops);
  }
}

async function realDir(path: string, named: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (e) {
    throw new IOError(`cannot read ${named}: ${fsReason(e)}`, { file: named }, { cause: e });
  }
}
