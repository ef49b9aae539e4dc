/** Whether a path names a dataset: alone, so that telling a file from a dataset loads no dataset code. */
import { stat } from 'node:fs/promises';
import { errnoCode } from './fs-errors.js';
import type { S3Settings } from './s3-credentials.js';
import { isS3Address } from '../io/s3/address.js';

/**
 * A directory, or a glob that is not itself the name of a file; an `s3://`
 * prefix or glob, not an object. A URL, or a path that cannot be looked at
 * for another reason, is not (the file's own reading says why).
 */
export async function isDatasetPath(path: string, s3?: S3Settings): Promise<boolean> {
  if (/^https?:\/\//i.test(path)) return false;
  if (isS3Address(path)) return (await import('./s3.js')).isS3Dataset(path, s3);
  try {
    return (await stat(path)).isDirectory();
  } catch (e) {
    if (errnoCode(e) !== 'ENOENT') return false;
    const { isGlob } = await import('../dataset/discover.js');
    return isGlob(path);
  }
}
