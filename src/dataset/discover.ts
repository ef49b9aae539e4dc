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
import { compareUtf8 } from '../bytes/utf8-checks.js';

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

export interface DiscoverOptions {
  otherFiles: 'skip' | 'error';
  loops: 'skip' | 'error';
  /**
   * The filter's partition predicates: a directory they rule out is never
   * listed. When they rule out every file, the first file found without
   * them is the dataset (a schema is still needed).
   */
  prune?: DirectoryPruner;
}

/** What a walk asks of a filter (partition-filter.ts). */
export interface DirectoryPruner {
  /** Whether a directory name is a `key=value` whose key the filter tests. */
  names(name: string): boolean;
  /** Whether a directory below the root may hold rows the filter keeps (by the `key=value` names on its path). */
  keeps(dir: string): boolean;
}

export async function discover(fs: DatasetFileSystem, input: string | readonly string[], options: DiscoverOptions): Promise<Discovered> {
  if (typeof input !== 'string') {
    if (input.length === 0) throw new InvalidArgumentError('a dataset needs at least one file');
    return { root: '', files: [...input].sort(compareUtf8), skipped: [] };
  }
  const { otherFiles, loops, prune } = options;
  // A path that exists is itself even when it reads as a glob (a directory `data[1]`, a URL with `?`).
  const kind = await fs.kind(input);
  if (kind === 'missing' && isGlob(input)) {
    const { base } = picomatch.scan(input);
    const match = picomatch(input, { dot: false });
    const root = base === '' ? '.' : base;
    const take = async (pruner: DirectoryPruner | undefined, first: boolean) => {
      const files: string[] = [];
      for await (const path of walkFiles(fs, root, { loops, prune: pruner })) {
        const p = base === '' ? path.replace(/^\.\//, '') : path;
        if (!match(p) || hiddenBelowRoot(relativeTo(base, p))) continue;
        files.push(p);
        if (first) break;
      }
      return files;
    };
    let files = await take(prune, false);
    if (files.length === 0 && prune) files = await take(undefined, true);
    if (files.length === 0) throw new IOError(`no file matches ${input}`, { file: input });
    return { root: base, files: files.sort(compareUtf8), skipped: [] };
  }
  if (kind === 'missing') throw new IOError(`cannot read ${input}: no such file or directory`, { file: input });
  if (kind === 'file') return { root: '', files: [input], skipped: [] };
  const root = input.replace(/(.)\/+$/, '$1');
  const summary = joinPath(root, METADATA_FILE);
  let metadataFile: string | undefined;
  const take = async (pruner: DirectoryPruner | undefined, first: boolean) => {
    const files: string[] = [];
    const skipped: string[] = [];
    for await (const path of walkFiles(fs, root, { loops, prune: pruner })) {
      if (path === summary) {
        metadataFile = summary;
        continue;
      }
      const name = baseName(path);
      if (PARQUET_EXTENSIONS.test(name) || !name.includes('.')) files.push(path);
      else if (otherFiles === 'error') throw new InvalidArgumentError(`${path} is not a Parquet file (by its name); otherFiles: 'skip' leaves such files out`, { file: path });
      else skipped.push(path);
      if (first && files.length > 0) break;
    }
    return { files, skipped };
  };
  let found = await take(prune, false);
  if (found.files.length === 0 && !metadataFile && prune) found = await take(undefined, true);
  const { files, skipped } = found;
  if (files.length === 0 && !metadataFile) throw new IOError(`no Parquet file in ${input}`, { file: input });
  return { root, files: files.sort(compareUtf8), ...(metadataFile ? { metadataFile } : {}), skipped: skipped.sort(compareUtf8) };
}

/**
 * The files under `root`, joined to it with `/`, any order: every name but
 * hidden ones (`isHiddenName`, at any level), and the root's own
 * `_metadata`. Directories are listed one level at a time, and only those
 * `prune` keeps, so a pruned walk never lists what it rules out. A store's
 * flat listing (`listAll`, a page per 1,000 keys) serves instead for a
 * whole tree, and for a subtree once no directory in its first level is one
 * the filter names (below it nothing is ruled out by name, and a level's
 * listing a directory would cost more). A directory met again inside itself
 * (a symbolic link loop, by `identity`) is an error naming it, or left out
 * when `loops` is 'skip'.
 */
export async function* walkFiles(fs: DatasetFileSystem, root: string, options: { loops: 'skip' | 'error'; prune?: DirectoryPruner }): AsyncGenerator<string> {
  const { loops, prune } = options;
  const listAll = fs.listAll?.bind(fs);
  async function* flat(dir: string, below: boolean): AsyncGenerator<string> {
    for await (const path of listAll!(dir)) {
      const rel = relativeTo(dir, path);
      if (below && !rel.includes('/')) continue;
      if ((dir === root && rel === METADATA_FILE) || !hiddenBelowRoot(rel)) yield path;
    }
  }
  if (!prune && listAll) {
    yield* flat(root, false);
    return;
  }
  async function* level(dir: string, ancestors: readonly string[]): AsyncGenerator<string> {
    const dirs: string[] = [];
    for await (const e of fs.children(dir)) {
      if (e.name === '' || (isHiddenName(e.name) && !(dir === root && e.name === METADATA_FILE && e.kind === 'file'))) continue;
      const path = joinPath(dir, e.name);
      if (e.kind === 'unreadable') {
        if (e.loop && loops === 'skip') continue;
        throw e.error;
      }
      if (e.kind === 'file') yield path;
      else dirs.push(path);
    }
    if (dirs.length === 0) return;
    // The files below this level, the ones just listed aside: one flat listing when the filter names none of its directories.
    if (listAll && !dirs.some((d) => prune?.names(baseName(d)))) {
      yield* flat(dir, true);
      return;
    }
    for (const path of dirs.sort(compareUtf8)) {
      if (prune && !prune.keeps(path)) continue;
      const id = await fs.identity?.(path);
      if (id !== undefined && ancestors.includes(id)) {
        if (loops === 'skip') continue;
        throw new IOError(`${path} is a symbolic link loop: it leads back to ${id}, a directory it is inside`, { file: path });
      }
      yield* level(path, id === undefined ? ancestors : [...ancestors, id]);
    }
  }
  const rootId = await fs.identity?.(root);
  yield* level(root, rootId === undefined ? [] : [rootId]);
}
