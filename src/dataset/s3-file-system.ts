/**
 * A bucket as a dataset's file system: prefixes are directories, listed by
 * ListObjectsV2, so a glob lists only under its fixed leading prefix
 * (`s3://b/sales/year=2024/**` lists `sales/year=2024/`). Sizes from the
 * listing spare each file's HEAD when it is opened.
 */
import type { DatasetFileSystem } from './file-system.js';
import { formatS3Address, parseS3Address } from '../io/s3/address.js';
import type { S3Client } from '../io/s3/client.js';
import { listObjects } from '../io/s3/list.js';
import { s3Source } from '../io/s3/source.js';

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
      return (await hasPrefix(bucket, key === '' || key.endsWith('/') ? key : `${key}/`)) ? 'directory' : 'missing';
    },
    async *list(dir) {
      const { bucket, key } = parseS3Address(dir);
      const prefix = key === '' || key.endsWith('/') ? key : `${key}/`;
      for await (const o of listObjects(client, bucket, prefix)) {
        // A "folder" marker some consoles create is no file.
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
