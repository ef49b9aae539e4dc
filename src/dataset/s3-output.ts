/**
 * A dataset written under an S3 prefix: each part is a multipart upload of
 * its own (one part for a small file), its bytes all uploaded when the part
 * closes, and completed only at commit, so readers see no part of a write
 * that fails, and the parts appear one by one, each whole, during the
 * commit. A failure aborts every upload.
 */
import type { DatasetOutput } from './write.js';
import { joinPath } from '../io/paths.js';
import { parseS3Address } from '../io/s3/address.js';
import type { S3Client } from '../io/s3/client.js';
import { objectExists } from '../io/s3/source.js';
import { stagedS3Sink, type S3WriteOptions, type StagedS3Sink } from '../io/s3/sink.js';

export function s3DatasetOutput(client: S3Client, prefix: string, options: S3WriteOptions = {}): DatasetOutput {
  const staged = new Map<string, StagedS3Sink>();
  const address = (path: string) => parseS3Address(joinPath(prefix, path));
  return {
    exists: (path) => objectExists(client, address(path)),
    async create(path) {
      const sink = stagedS3Sink(client, address(path), options);
      staged.set(path, sink);
      return sink;
    },
    async commit(paths) {
      for (const path of paths) {
        await staged.get(path)!.publish();
        staged.delete(path);
      }
    },
    async discard() {
      await Promise.all([...staged.values()].map((s) => s.abort()));
      staged.clear();
    },
  };
}
