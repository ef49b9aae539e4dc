/**
 * `openParquet` on its own, with the native codecs registered: what a
 * footer read needs, without the writer, Trevni, Arrow and conversion that
 * the Node entry point (index.ts) also exports. The CLI's reading commands
 * import this, so `parquetry meta` compiles a third less code.
 */
import { registerNodeCodecs } from './codecs.js';
import { ParquetFile, type OpenOptions } from '../parquet/file.js';
import { ParquetReader } from '../parquet/reader.js';
import { decodeAhead } from '../parquet/chunk-reads.js';
import type { ReadInput } from '../io/source.js';
import { fileSource, openFileWith } from './file-source.js';
import type { OpenChunkFile } from '../parquet/file-path.js';
import type { S3Settings } from './s3-credentials.js';
import { isS3Address } from '../io/s3/address.js';

/** `s3`: how `s3://` addresses are reached (docs/s3.md); the environment's settings otherwise. */
export type NodeOpenOptions = OpenOptions & { s3?: S3Settings };

registerNodeCodecs();
// Decoding ahead in a worker thread, only when asked: on 2 cores it gained no wall time, and no larger machine was there to show it pays (docs/decisions/decode-ahead.md).
decodeAhead.make = async (reads, groups, leaves, options) => {
  // Only a read of every row reads each row group whole, in order.
  if (options.offset || options.limit !== undefined || options.decodeThread !== true) return undefined;
  return (await import('../parquet/decode-ahead.js')).DecodeAhead.for(reads, groups, leaves, async (schema, chunkOptions) => (await import('./decode-thread.js')).startDecodeThread(schema, chunkOptions));
};

/**
 * Opens a Parquet file: a path, an http(s) URL string, an `s3://` address, a URL, bytes, or a source object.
 *
 * @example
 * ```ts
 * const reader = await openParquet('data.parquet');
 * console.log(reader.numRows, reader.schema.leaves.map((l) => l.path.join('.')));
 * ```
 *
 * `Row` types the rows (see `ParquetReader`): `openParquet<InferRow<typeof schema>>(path)`.
 */
export async function openParquet<Row = Record<string, unknown>>(input: string | ReadInput, options: NodeOpenOptions = {}): Promise<ParquetReader<Row>> {
  return new ParquetReader<Row>(await openParquetFile(input, options));
}

/**
 * Opens a Parquet file for inspection, as `openParquet` opens it for reading: a path, an http(s)
 * URL string, an `s3://` address, a URL, bytes, a Blob or a source object.
 *
 * @example
 * ```ts
 * await using file = await openParquetFile('data.parquet');
 * for (const entry of (await file.pageIndex(0, 'id')) ?? []) console.log(entry.firstRow, entry.min, entry.max);
 * ```
 */
export async function openParquetFile(input: string | ReadInput, options: NodeOpenOptions = {}): Promise<ParquetFile> {
  if (typeof input === 'string' && isS3Address(input)) {
    const { s3, ...rest } = options;
    return (await import('./s3.js')).openS3ParquetFile(input, rest, s3);
  }
  if (typeof input === 'string') {
    if (/^https?:\/\//i.test(input)) return ParquetFile.open(new URL(input), options);
    return openFileWith(input, (source) => ParquetFile.fromSource(source, { ...options, openFile: options.openFile ?? localChunkFiles }));
  }
  return ParquetFile.open(input, options);
}

/** Opens the local files a Parquet file's column chunks name (`file_path`), where the reader resolved them. */
export const localChunkFiles: OpenChunkFile = (_, resolved) => fileSource(resolved);
