/**
 * parquetry: read Parquet files in any JavaScript runtime.
 *
 * Any table (Parquet, a dataset, Trevni, RedElm, CSV, JSON), one shape:
 * ```ts
 * import { openTable } from 'parquetry';
 * await using table = await openTable(new URL('https://example.com/data.parquet'));
 * for await (const row of table.rows({ columns: ['id'], limit: 10 })) console.log(row);
 * ```
 *
 * The Parquet reader itself:
 * ```ts
 * import { ParquetReader } from 'parquetry';
 * const reader = await ParquetReader.open(bytes);          // Uint8Array, ArrayBuffer, URL or { byteLength, read }
 * for await (const row of reader.rows({ columns: ['id', 'name'] })) console.log(row);
 * ```
 * In Node, `import { openParquet } from 'parquetry'` also opens file paths.
 *
 * Writing:
 * ```ts
 * import { BufferSink, writeRecords } from 'parquetry';
 * const sink = new BufferSink();
 * await writeRecords(sink, [{ id: 1, name: 'a' }]);           // schema inferred
 * const bytes = sink.bytes();
 * ```
 *
 * The rest is in subpaths, so an app loads only what it imports:
 * `parquetry/trevni`, `parquetry/redelm`, `parquetry/dataset`,
 * `parquetry/convert`, `parquetry/recover`, `parquetry/inspect`,
 * `parquetry/arrow` (docs/browsers.md, "Entry points").
 *
 * @module parquetry
 */
export { openTable, type TableInput, type OpenTableOptions } from './table/open.js';
export type { Table, TableFormatName, TableReadOptions, TableBatchOptions, TableArrowOptions, TableColumnsOptions } from './table/table.js';
export { ParquetReader } from './parquet/reader.js';
export type { ReadOptions, ArrowOptions, ColumnBatch } from './parquet/read-options.js';
export type { OpenOptions } from './parquet/file.js';
export type { Filter, ComparisonOp, LikeOp, TemporalLiteral } from './parquet/filter/expression.js';
export { parseWhere, WhereSyntaxError } from './parquet/filter/where.js';
export type { ColumnChunkData } from './shred/column-data.js';
export type { ValueOptions } from './schema/convert.js';
export type { Schema, SchemaNode, LeafNode, GroupNode, ColumnPath } from './schema/tree.js';
export type { LeafKind, GroupKind, TimeUnit } from './schema/logical.js';
export type {
  FileMetaData, RowGroup, ColumnChunk, ColumnMetaData, Statistics, ColumnIndex, OffsetIndex, PageLocation, BoundaryOrder, BloomFilterHeader,
} from './parquet/metadata/index.js';
export type { Values, ByteArrays, PhysicalType } from './encodings/types.js';
export { blobSource, bufferSource, httpSource, type Source, type SourceLike, type HttpSourceOptions, type ReadInput, type UrlOptions } from './io/source.js';
export { BufferSink, webStreamSink, type Sink } from './io/sink.js';
export { detectFormat, FORMAT_MAGIC_BYTES, type FileFormat } from './io/format.js';
export { openS3Source, openS3Sink } from './dataset/s3.js';
export type { S3Options, S3Credentials, S3CredentialProvider, S3RetryOptions } from './io/s3/client.js';
export type { S3WriteOptions } from './io/s3/sink.js';
export { ParquetWriter, type WriterOptions, type ColumnWriteOptions, type WriterSchema } from './parquet/write/writer.js';
export type { ParquetryWarning, WarningCode, WarningHandler } from './warnings.js';
export type { ValueEncoding } from './parquet/write/column-writer.js';
export type { FloatOrder } from './parquet/write/stats.js';
export { writeRecords, type WriteRecordsOptions } from './parquet/write/write-records.js';
export { field, defineSchema, inferSchemaFromRecords, inferSchemaFromCsv, variant } from './schema/public.js';
export type { FieldBuilder, DefinedSchema, RowOf, RowInputOf, InferRow, InferInput, MapInput, IntValue, BinaryValue, TemporalValue, IntervalValue } from './schema/builder.js';
export { VariantValue, type VariantType } from './schema/variant-value.js';
export type { VariantTimestampOptions } from './schema/variant-builders.js';
export { schemaJson, type SchemaJson } from './schema/json.js';
export { formatSchema, schemaAnnotation } from './text/schema-text.js';
export { registerCodec, type Codec, type CodecName } from './codecs/registry.js';
export type { DecryptionOptions, KeyRetriever, KeyTarget } from './parquet/crypto/options.js';
export { encryptParquet } from './parquet/write/encrypt-file.js';
export type { EncryptionOptions, ColumnKey } from './parquet/crypto/file-encryptor.js';
export { InMemoryKms, kmsKeyRetriever, wrapKeyMetadata, type WrapOptions, type KmsClient, type KmsRetrieverOptions, type ExternalKeyMaterial, type KeyMaterial } from './parquet/crypto/kms.js';
export {
  ParquetryError, CorruptFileError, UnsupportedError, UnsupportedOptionError, ChecksumError, InvalidArgumentError, ColumnOptionsError, IOError, ObjectStoreError, LimitError, DecryptionError, MissingKeyError, IncompatibleFilesError,
  type ErrorCode, type ErrorContext,
} from './errors.js';
