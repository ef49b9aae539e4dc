/**
 * One file reached by two spellings is one part: a symbolic link to it,
 * `a/../b`, a name in another case on a file system that ignores case (the
 * file system's `identity`, a real path), or spellings that normalise alike
 * (`fileIdentity`: `./a`, `x/../a`; a URL's escapes). Listed twice, or
 * named twice for one row group, its rows would come twice: a later
 * spelling is an IncompatibleFilesError naming both, or under
 * `badFiles: 'skip'` left out and listed (as finding 7's duplicates in a
 * summary are).
 */
import { IncompatibleFilesError, type ParquetryError } from '../errors.js';
import { fileIdentity } from '../io/paths.js';
import type { DatasetFileSystem } from './file-system.js';

export async function identityOf(fs: DatasetFileSystem, path: string): Promise<string> {
  return (await fs.identity?.(path)) ?? fileIdentity(path);
}

/** `files` with every file once (its first spelling), and the identities kept; a later spelling goes to `skip`, or is thrown without it. */
export async function oncePerFile(fs: DatasetFileSystem, files: readonly string[], skip?: (path: string, e: ParquetryError) => void): Promise<{ files: string[]; identities: Set<string> }> {
  const first = new Map<string, string>();
  const kept: string[] = [];
  for (const path of files) {
    const id = await identityOf(fs, path);
    const earlier = first.get(id);
    if (earlier === undefined) {
      first.set(id, path);
      kept.push(path);
      continue;
    }
    const e = new IncompatibleFilesError(`${path} is ${earlier} under another name: its rows would come twice`, { file: path });
    if (!skip) throw e;
    skip(path, e);
  }
  return { files: kept, identities: new Set(first.keys()) };
}
