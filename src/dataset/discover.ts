/**
 * Which files a dataset is: a directory (every Parquet file under it), a
 * glob (`data/**\/*.parquet`), or a list of paths or URLs; in lexicographic
 * order of their paths' UTF-8 bytes (DuckDB's order, which JS's `<` is not
 * past U+FFFF), so rows come in the same order every time.
 */
import picomatch from 'picomatch/posix.js';
import { InvalidArgumentError, IOError } from '../errors.js';
import type { DatasetFileSystem } from './file-system.js';
import { baseName, joinPath, relativeTo } from '../io/paths.js';
import { METADATA_FILE } from './summary.js';
import { compareUtf8 } from '../bytes/utf8.js';

export interface Discovered {
  /**
   * The dataset's root: the directory, a glob's fixed leading directories,
   * or '' for a list. `file_path` resolution and Hive keys stay under it.
   */
  root: string;
  /** Data files, sorted. */
  files: string[];
  /** The `_metadata` summary at the root (directory input only). */
  metadataFile?: string;
  /** Files left out because their names do not look like Parquet (`otherFiles: 'skip'`). */
  skipped: string[];
}

/** Extensions a Parquet part may carry; a name without an extension (Hive's `000000_0`) is taken too. */
const PARQUET_EXTENSIONS = /\.(parquet|parq|pq)$/i;

/**
 * Names a dataset never reads as data: hidden and temp files (`.x`, the
 * writer's `.NAME.parquetry-tmp-*`), `_SUCCESS`, `_metadata`, and
 * directories such as Spark's `_temporary`, as Spark and pyarrow skip them.
 */
export function isHiddenName(name: string): boolean {
  return name.startsWith('.') || name.startsWith('_');
}

/** Whether any segment of `rel` (a path under the root) is hidden. */
function hiddenBelowRoot(rel: string): boolean {
  return rel.split('/').some(isHiddenName);
}

export function isGlob(input: string): boolean {
  return picomatch.scan(input).isGlob;
}

export async function discover(fs: DatasetFileSystem, input: string | readonly string[], otherFiles: 'skip' | 'error', loops: 'skip' | 'error'): Promise<Discovered> {
  if (typeof input !== 'string') {
    if (input.length === 0) throw new InvalidArgumentError('a dataset needs at least one file');
    return { root: '', files: [...input].sort(compareUtf8), skipped: [] };
  }
  // A path that exists is itself even when it reads as a glob (a directory `data[1]`, a URL with `?`).
  const kind = await fs.kind(input);
  if (kind === 'missing' && isGlob(input)) {
    const { base } = picomatch.scan(input);
    const match = picomatch(input, { dot: false });
    const files: string[] = [];
    for await (const path of fs.list(base === '' ? '.' : base, { loops })) {
      const p = base === '' ? path.replace(/^\.\//, '') : path;
      if (match(p) && !hiddenBelowRoot(relativeTo(base, p))) files.push(p);
    }
    if (files.length === 0) throw new IOError(`no file matches ${input}`, { file: input });
    return { root: base, files: files.sort(compareUtf8), skipped: [] };
  }
  if (kind === 'missing') throw new IOError(`cannot read ${input}: no such file or directory`, { file: input });
  if (kind === 'file') return { root: '', files: [input], skipped: [] };
  const files: string[] = [];
  const skipped: string[] = [];
  const root = input.replace(/(.)\/+$/, '$1');
  const summary = joinPath(root, METADATA_FILE);
  const metadataFile = (await fs.kind(summary)) === 'file' ? summary : undefined;
  for await (const path of fs.list(root, { loops })) {
    const rel = relativeTo(root, path);
    if (hiddenBelowRoot(rel)) continue;
    const name = baseName(rel);
    if (PARQUET_EXTENSIONS.test(name) || !name.includes('.')) files.push(path);
    else if (otherFiles === 'error') throw new InvalidArgumentError(`${path} is not a Parquet file (by its name); otherFiles: 'skip' leaves such files out`, { file: path });
    else skipped.push(path);
  }
  if (files.length === 0 && !metadataFile) throw new IOError(`no Parquet file in ${input}`, { file: input });
  return { root, files: files.sort(compareUtf8), ...(metadataFile ? { metadataFile } : {}), skipped: skipped.sort(compareUtf8) };
}

