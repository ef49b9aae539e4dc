/**
 * Column chunks stored in other files (`file_path`): a `_metadata` summary
 * names every part's row groups this way, and a plain file may too. Each
 * run of row groups whose chunks live in one file becomes a part: that
 * file read with those row groups, `file_path` resolved relative to the
 * file that names it and kept under the dataset's root unless allowed.
 */
import { CorruptFileError, IncompatibleFilesError, ParquetryError, UnsupportedError } from '../errors.js';
import type { FileMetaData, RowGroup } from '../parquet/metadata/index.js';
import { resolveFilePath } from '../io/file-path-guard.js';
import { fileIdentity } from '../io/paths.js';
import { checkNamedOnce } from '../parquet/named-once.js';

export interface Part {
  /** The file holding the row groups' pages. */
  path: string;
  /** The FileMetaData to read it with: its row groups, `file_path` cleared. */
  metadata: FileMetaData;
  /** Named by another file (a `_metadata`): checked against the part's own footer when opened. */
  namedBy?: string;
}

/**
 * The parts of a file's (or a summary's) metadata, in order of their row
 * groups; a file whose chunks have no `file_path` is one part, itself. A row
 * group that cannot be read (chunks in several files, a path outside the
 * root, a row group named before) is an error, or, given `skip`,
 * told to it and left out.
 */
export function splitParts(file: string, metadata: FileMetaData, root: string, allowOutsideRoot: boolean, skip?: (e: ParquetryError) => void): Part[] {
  const runs: { path: string; groups: RowGroup[] }[] = [];
  const named = new Map<string, number>();
  metadata.rowGroups.forEach((rg, i) => {
    let path: string;
    try {
      const paths = new Set(rg.columns.map((c) => c.filePath));
      if (paths.size > 1) throw new UnsupportedError('the column chunks of one row group are in different files', { file, rowGroup: i });
      const [filePath] = paths;
      path = filePath === undefined ? file : resolveFilePath(file, filePath, root, allowOutsideRoot, { file, rowGroup: i });
      // A file_path naming the file itself, in any spelling, is the file's own chunks.
      if (path !== file && fileIdentity(path) === fileIdentity(file)) path = file;
      checkNamedOnce(named, file, path, filePath, rg, i);
    } catch (e) {
      if (!skip || !(e instanceof UnsupportedError || e instanceof IncompatibleFilesError || e instanceof CorruptFileError)) throw e;
      skip(e);
      return;
    }
    const last = runs[runs.length - 1];
    if (last?.path === path) last.groups.push(rg);
    else runs.push({ path, groups: [rg] });
  });
  // A file of no row groups is its own part (its schema, no rows); one whose row groups were all left out has none.
  if (metadata.rowGroups.length === 0) return [{ path: file, metadata }];
  return runs.map(({ path, groups }) => ({
    path,
    metadata: { ...metadata, rowGroups: groups.map(stripFilePaths), numRows: groups.reduce((n, g) => n + g.numRows, 0) },
    ...(path === file ? {} : { namedBy: file }),
  }));
}

function stripFilePaths(rg: RowGroup): RowGroup {
  return { ...rg, columns: rg.columns.map(({ filePath: _f, ...c }) => c) };
}
