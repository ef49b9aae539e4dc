/**
 * What the dataset layer needs from a file system: Node's (src/node/dataset-fs.ts)
 * for paths, `urlFileSystem` for URLs in any runtime, s3-file-system.ts for
 * buckets. A caller (a benchmark counting files opened and bytes read, a
 * test) may wrap any of them.
 */
import { InvalidArgumentError, type ParquetryError } from '../errors.js';
import { httpSource, type Source } from '../io/source.js';

/**
 * One name in a directory: a file, a directory, or an entry that cannot be
 * read (a broken symbolic link; `loop` when it is a link loop), whose error
 * the walk raises unless the name is hidden or loops are skipped.
 */
export type DirectoryEntry =
  | { name: string; kind: 'file' | 'directory' }
  | { name: string; kind: 'unreadable'; error: ParquetryError; loop: boolean };

/** How a dataset lists and opens its files: Node files, URLs, S3, or an adapter of your own. */
export interface DatasetFileSystem {
  /** What a path is: a directory, a file, or absent. */
  kind(path: string): Promise<'file' | 'directory' | 'missing'>;
  /**
   * The names directly in a directory, any order: what a walk (discover.ts)
   * lists level by level, descending only into the directories it keeps.
   */
  children(dir: string): AsyncIterable<DirectoryEntry>;
  /**
   * Every file under a directory, recursively, as paths joined to `dir`
   * with `/`, any order: for a store that lists a whole tree more cheaply
   * than directory by directory (an object store's flat listing, a page per
   * 1,000 keys), used when nothing prunes the walk.
   */
  listAll?(dir: string): AsyncIterable<string>;
  /** Opens a file for random access. */
  open(path: string): Promise<Source>;
  /**
   * What names one file or directory whatever the spelling (a real path:
   * symbolic links followed, case as stored), or undefined when that cannot
   * be known (it is missing); without it, spellings are compared
   * normalised, and a walk cannot meet a directory twice (no links).
   */
  identity?(path: string): Promise<string | undefined>;
}

/**
 * URLs read with HTTP Range requests: a dataset given as a list of URLs
 * (there is no portable way to list a directory over HTTP).
 */
export function urlFileSystem(options: { headers?: Record<string, string> } = {}): DatasetFileSystem {
  return {
    kind: async () => 'file',
    async *children(dir) {
      throw new InvalidArgumentError(`cannot list ${dir}: a dataset over HTTP is given as a list of file URLs`);
    },
    open: (url) => httpSource(url, { headers: options.headers }),
  };
}
