/**
 * The portable entry's S3 functions (browsers, Deno, workers: credentials
 * the application supplies, or none for a public bucket), loaded on first
 * use: an object to read, an object to write, a bucket as a dataset's file
 * system. Node's entry takes `s3://` addresses wherever it takes paths.
 */
import { S3Client, type S3Options } from '../io/s3/client.js';
import { parseS3Address } from '../io/s3/address.js';
import { s3Source } from '../io/s3/source.js';
import { s3Sink, type S3WriteOptions } from '../io/s3/sink.js';
import type { Source } from '../io/source.js';
import type { Sink } from '../io/sink.js';
import type { DatasetFileSystem } from './file-system.js';
import { s3FileSystem } from './s3-file-system.js';

/** An `s3://` object for `ParquetReader.open`; `byteLength`, when known, saves the HEAD. */
export async function openS3Source(address: string, options: S3Options & { byteLength?: number } = {}): Promise<Source> {
  const { byteLength, ...client } = options;
  return s3Source(new S3Client(client), parseS3Address(address), byteLength === undefined ? {} : { byteLength });
}

/** An `s3://` object to write: one PUT up to a part's size, else a multipart upload; it appears only when `close` completes it. */
export async function openS3Sink(address: string, options: S3Options & S3WriteOptions = {}): Promise<Sink> {
  const { partSize, ...client } = options;
  return s3Sink(new S3Client(client), parseS3Address(address), partSize === undefined ? {} : { partSize });
}

/** A bucket as `openDataset`'s `fileSystem`: `s3://` prefixes and globs listed by ListObjectsV2. */
export async function s3DatasetFileSystem(options: S3Options = {}): Promise<DatasetFileSystem> {
  return s3FileSystem(new S3Client(options));
}
