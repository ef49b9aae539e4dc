/**
 * Plain words for the file system errors a user can fix, with Node's message
 * for the rest (the same words the CLI uses for its FILE arguments).
 */
import { IOError } from '../errors.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
};

export function errnoCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}

export function fsReason(e: unknown): string {
  const code = errnoCode(e);
  return (code !== undefined && REASONS[code]) || ((e as Error)?.message ?? String(e));
}

/** `cannot read PATH: why`. */
export function cannotRead(path: string, e: unknown): IOError {
  return new IOError(`cannot read ${path}: ${fsReason(e)}`, {}, { cause: e });
}
