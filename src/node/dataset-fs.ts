/**
 * The local file system as a dataset sees it: directories read one at a
 * time (symbolic links followed: a link is what it leads to), files opened
 * for positioned reads, real paths as identities (so a walk refuses a link
 * loop and a file reached by two spellings is read once).
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { IOError } from '../errors.js';
import type { DatasetFileSystem } from '../dataset/file-system.js';
import { joinPath } from '../io/paths.js';
import { fileSource } from './file-source.js';
import { errnoCode, fsReason } from './fs-errors.js';

/** The local file system as a dataset sees it (Node's `openDataset` default for paths); wrap it to count the files opened and bytes read. */
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
    async *children(dir) {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (e) {
        // ENOTDIR is also a file where the path needs a directory on the way: say which.
        const file = errnoCode(e) === 'ENOTDIR' && await stat(dir).then((st) => !st.isDirectory(), () => false);
        throw new IOError(`cannot list ${dir}: ${file ? 'it is a file, not a directory' : fsReason(e)}`, { file: dir }, { cause: e });
      }
      for (const entry of entries) {
        const { name } = entry;
        if (!entry.isSymbolicLink()) {
          yield { name, kind: entry.isDirectory() ? 'directory' : 'file' };
          continue;
        }
        const path = joinPath(dir, name);
        try {
          yield { name, kind: (await stat(path)).isDirectory() ? 'directory' : 'file' };
        } catch (e) {
          yield { name, kind: 'unreadable', loop: errnoCode(e) === 'ELOOP', error: new IOError(`cannot read ${path}: ${fsReason(e)}`, { file: path }, { cause: e }) };
        }
      }
    },
    open: (path) => fileSource(path),
    identity: (path) => realpath(path).catch(() => undefined),
  };
}
