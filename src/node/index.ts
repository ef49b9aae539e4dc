/**
 * The Node entry point: everything in the portable API, plus file paths as
 * inputs and outputs, and native codecs (node:zlib, zstd-napi) registered at
 * import. The subpaths' Node entry points (src/node/entries/) add their own
 * path functions.
 *
 * @module parquetry (Node)
 */
import { registerNodeCodecs } from './codecs.js';
import { writableSink } from './file-sink.js';
import type { Writable } from 'node:stream';
import { webStreamSink, type Sink } from '../io/sink.js';
import { ParquetWriter, type WriterOptions, type WriterSchema } from '../parquet/write/writer.js';
import { writeRecords, type WriteRecordsOptions } from '../parquet/write/write-records.js';
import type { FileMetaData } from '../parquet/metadata/index.js';
import type { RecordBatch, Table } from '../arrow/peer.js';
import type { NodeS3Settings } from './s3.js';
import type { TrevniColumnSpec, TrevniWriter, TrevniWriterOptions } from '../trevni/writer.js';
import type { RedElmWriter, RedElmWriterOptions } from '../redelm/writer.js';
import type { Schema } from '../schema/tree.js';
import { InvalidArgumentError } from '../errors.js';
import { destinationFile } from './destination.js';

registerNodeCodecs();

export * from '../index.js';
export { fileSource } from './file-source.js';
export { fileSink, writableSink } from './file-sink.js';
export { openParquet, type NodeOpenOptions } from './open-parquet.js';
export type { S3Settings } from './s3-credentials.js';
export type { NodeS3Settings } from './s3.js';
// Paths, directories and globs too; Node programs open a dataset without the `parquetry/dataset` import.
export { openDataset, type NodeDatasetOptions } from './dataset.js';
// Paths, directories, globs and s3:// through the AWS settings too; this export takes the place of the portable `openTable`.
export { openTable, type NodeOpenTableOptions } from './table.js';

/** Where a writer can write: a file path, an `s3://` address, a Node Writable, a Web WritableStream, or a Sink. */
export type Destination = string | Writable | WritableStream<Uint8Array> | Sink;

/** `s3`: how an `s3://` destination is reached and how big its upload parts are (docs/s3.md). */
export interface DestinationOptions {
  s3?: NodeS3Settings;
}

async function toSink(dest: Destination, s3?: NodeS3Settings): Promise<Sink> {
  if (typeof dest === 'string') return destinationFile(dest, s3);
  // node:stream is loaded here, not at import: most programs that read never need it.
  const { Writable } = await import('node:stream');
  if (dest instanceof Writable) return writableSink(dest);
  if (typeof (dest as WritableStream).getWriter === 'function') return webStreamSink(dest as WritableStream<Uint8Array>);
  return dest as Sink;
}

/**
 * Opens a streaming writer. A path is written to a temporary file beside it
 * (beside a symlink's target, for a symlink) and renamed into place by
 * `close()`; on error or `abort()` nothing is left. A FIFO or device is
 * written straight into; a directory is refused at once. An `s3://` address
 * is uploaded (in parts past 8 MiB) and appears only when `close()` completes it.
 *
 * `format` picks the writer (default `parquet`); each takes its format's
 * schema and options, as its class's `open(sink, schema, options)` does:
 * Trevni its columns, RedElm a schema or its message text. The Trevni and
 * RedElm writers load on first use.
 *
 * @example
 * ```ts
 * const w = await openWriter('out.parquet', defineSchema({ id: field.int64().required(), name: field.string() }));
 * await w.write({ id: 1n, name: 'a' });
 * await w.close();
 * const t = await openWriter('out.trv', [{ name: 'id', type: 'long' }], { format: 'trevni', codec: 'deflate' });
 * ```
 */
export async function openWriter<Row = Record<string, unknown>>(dest: Destination, schema: WriterSchema<Row>, options?: WriterOptions & DestinationOptions & { format?: 'parquet' }): Promise<ParquetWriter<Row>>;
export async function openWriter(dest: Destination, schema: readonly TrevniColumnSpec[], options: TrevniWriterOptions & DestinationOptions & { format: 'trevni' }): Promise<TrevniWriter>;
export async function openWriter(dest: Destination, schema: string | Schema, options: RedElmWriterOptions & DestinationOptions & { format: 'redelm' }): Promise<RedElmWriter>;
export async function openWriter(dest: Destination, schema: unknown, options: DestinationOptions & { format?: 'parquet' | 'trevni' | 'redelm' } = {}): Promise<ParquetWriter | TrevniWriter | RedElmWriter> {
  const { s3, format = 'parquet', ...writerOptions } = options;
  if (format !== 'parquet' && format !== 'trevni' && format !== 'redelm') throw new InvalidArgumentError(`format must be parquet, trevni or redelm, got ${String(format)}`);
  const sink = await toSink(dest, s3);
  try {
    if (format === 'trevni') return await (await import('../trevni/writer.js')).TrevniWriter.open(sink, schema as readonly TrevniColumnSpec[], writerOptions);
    if (format === 'redelm') return await (await import('../redelm/writer.js')).RedElmWriter.open(sink, schema as string | Schema, writerOptions);
    return await ParquetWriter.open(sink, schema as WriterSchema, writerOptions);
  } catch (e) {
    await sink.abort();
    throw e;
  }
}

/**
 * Writes records to a file (or stream) in one call; the schema is inferred
 * from a sample when not given.
 *
 * @example
 * ```ts
 * await writeParquet('out.parquet', [{ id: 1, tags: ['a'] }], { codec: 'ZSTD' });
 * ```
 */
export async function writeParquet(dest: Destination, records: Iterable<unknown> | AsyncIterable<unknown> | Table | RecordBatch, options: WriteRecordsOptions & DestinationOptions = {}): Promise<FileMetaData> {
  const { s3, ...writeOptions } = options;
  return writeRecords(await toSink(dest, s3), records, writeOptions);
}
