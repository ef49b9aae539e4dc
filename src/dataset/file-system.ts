/**
 * What the dataset layer needs from a file system: Node's (src/node/dataset-fs.ts)
 * for paths, `urlFileSystem` for URLs in any runtime. A caller (a benchmark
 * counting files opened and bytes read, a test) may wrap either.
 */
import { InvalidArgumentError } from '../errors.js';
import { httpSource, type Source } from '../io/source.js';

/** How a dataset lists and opens its files: Node files, URLs, S3, or an adapter of your own. */
export interface DatasetFileSystem {
  /** What a path is: a directory, a file (with its size), or absent. */
  kind(path: string): Promise<'file' | 'directory' | 'missing'>;
  /**
   * Every file under a directory, recursively, as paths joined to `dir` with
   * `/`; any order (the dataset sorts). Names starting with `.` or `_` may
   * be left out. A directory reached twice through symbolic links (a loop)
   * is an error naming it, or left out when `loops` is 'skip'.
   */
  list(dir: string, options?: { loops?: 'error' | 'skip' }): AsyncIterable<string>;
  /** Opens a file for random access. */
  open(path: string): Promise<Source>;
  /**
   * What names one file whatever the spelling (a real path: symbolic links
   * followed, case as stored), or undefined when that cannot be known (the
   * file is missing); without it, spellings are compared normalised.
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
    async *list(dir) {
      throw new InvalidArgumentError(`cannot list ${dir}: a dataset over HTTP is given as a list of file URLs`);
    },
    open: (url) => httpSource(url, { headers: options.headers }),
  };
}
