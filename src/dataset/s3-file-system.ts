/**
 * A bucket as a dataset's file system: prefixes are directories. A walk
 * lists one level at a time (ListObjectsV2 with `delimiter=/`: the objects
 * directly under a prefix and its common prefixes), so a filtered read lists
 * only the prefixes on the way to the partitions it keeps; an unpruned walk
 * takes the flat listing of the whole prefix (a page per 1,000 keys).
 * Sizes from the listings spare each file's HEAD when it is opened.
 */
import type { DatasetFileSystem } from './file-system.js';
import { formatS3Address, parseS3Address } from '../io/s3/address.js';
import type { S3Client } from '../io/s3/client.js';
import { listObjects } from '../io/s3/list.js';
import { s3Source } from '../io/s3/source.js';

/** The prefix a directory address lists: its key with one `/` after it (none for the bucket's root). */
function dirPrefix(dir: string): { bucket: string; prefix: string } {
  const { bucket, key } = parseS3Address(dir);
  return { bucket, prefix: key === '' || key.endsWith('/') ? key : `${key}/` };
}

export function s3FileSystem(client: S3Client): DatasetFileSystem {
  const sizes = new Map<string, number>();
  const hasPrefix = async (bucket: string, prefix: string) => {
    for await (const _ of listObjects(client, bucket, prefix, { maxKeys: 1 })) return true;
    return false;
  };
  return {
    async kind(path) {
      const { bucket, key } = parseS3Address(path);
      if (key !== '' && !key.endsWith('/')) {
        const res = await client.request({ bucket, key }, { method: 'HEAD', accept: [404] });
        if (res.ok) {
          const len = res.headers.get('content-length');
          if (len !== null && /^\d+$/.test(len)) sizes.set(path, Number(len));
          return 'file';
        }
      }
      return (await hasPrefix(bucket, dirPrefix(path).prefix)) ? 'directory' : 'missing';
    },
    async *children(dir) {
      const { bucket, prefix } = dirPrefix(dir);
      const base = formatS3Address({ bucket, key: prefix });
      for await (const o of listObjects(client, bucket, prefix, { delimiter: '/' })) {
        if ('prefix' in o) {
          yield { name: o.prefix.slice(prefix.length, -1), kind: 'directory' };
          continue;
        }
        const name = o.key.slice(prefix.length);
        // The prefix's own "folder" marker (some consoles create one) is no file.
        if (name === '') continue;
        sizes.set(base + name, o.size);
        yield { name, kind: 'file' };
      }
    },
    async *listAll(dir) {
      const { bucket, prefix } = dirPrefix(dir);
      for await (const o of listObjects(client, bucket, prefix)) {
        // A "folder" marker is no file.
        if (o.key.endsWith('/')) continue;
        const path = formatS3Address({ bucket, key: o.key });
        sizes.set(path, o.size);
        yield path;
      }
    },
    open: (path) => {
      const size = sizes.get(path);
      return s3Source(client, parseS3Address(path), size === undefined ? {} : { byteLength: size });
    },
  };
}
