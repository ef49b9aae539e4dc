/**
 * The portable entry's S3 functions (browsers, Deno, workers: credentials
 * the application supplies, or none for a public bucket), loaded on first
 * use: an object to read, an object to write, a bucket as a dataset's file
 * system. Node's entry takes `s3://` addresses wherever it takes paths.
 */
import type { S3Options } from '../io/s3/client.js';
import { parseS3Address } from '../io/s3/address.js';
import type { S3WriteOptions } from '../io/s3/sink.js';
import type { Source } from '../io/source.js';
import type { Sink } from '../io/sink.js';
import type { DatasetFileSystem } from './file-system.js';

// Each function imports the client when called: the root entry point exports
// the first two, and a bundle that never calls them should not hold it. (The
// address parser is small, and openTable imports it statically anyway.)
const client = async (options: S3Options) => new (await import('../io/s3/client.js')).S3Client(options);

/** An `s3://` object for `ParquetReader.open`; `byteLength`, when known, saves the HEAD. */
export async function openS3Source(address: string, options: S3Options & { byteLength?: number } = {}): Promise<Source> {
  const { byteLength, ...rest } = options;
  const { s3Source } = await import('../io/s3/source.js');
  return s3Source(await client(rest), parseS3Address(address), byteLength === undefined ? {} : { byteLength });
}

/** An `s3://` object to write: one PUT up to a part's size, else a multipart upload; it appears only when `close` completes it. */
export async function openS3Sink(address: string, options: S3Options & S3WriteOptions = {}): Promise<Sink> {
  const { partSize, ...rest } = options;
  const { s3Sink } = await import('../io/s3/sink.js');
  return s3Sink(await client(rest), parseS3Address(address), partSize === undefined ? {} : { partSize });
}

/** A bucket as `openDataset`'s `fileSystem`: `s3://` prefixes and globs listed by ListObjectsV2. */
export async function s3DatasetFileSystem(options: S3Options = {}): Promise<DatasetFileSystem> {
  const { s3FileSystem } = await import('./s3-file-system.js');
  return s3FileSystem(await client(options));
}
