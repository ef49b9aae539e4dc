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
 */
import { lazyAsync, lazyClass, lazyGenerator, lazyModule } from './lazy.js';
import type * as writer from './parquet/write/writer.js';
import type * as trevni from './trevni/index.js';
import type * as redElm from './redelm/index.js';
import type * as dataset from './dataset/index.js';

// What a footer read does not need loads on first use (src/lazy.ts): the
// writers, recovery, conversion, Trevni, RedElm and datasets, each behind a
// wrapper of the same type. A module shared by several wrappers is loaded once.
const writerModule = lazyModule(() => import('./parquet/write/writer.js'));
const recoverModule = () => import('./parquet/recover/index.js');
const recordsModule = () => import('./convert/records.js');
const trevniModule = lazyModule(() => import('./trevni/index.js'));
const redElmModule = lazyModule(() => import('./redelm/index.js'));
const datasetModule = lazyModule(() => import('./dataset/index.js'));

/** @function */
export const openTable = lazyAsync(() => import('./table/open.js'), 'openTable');
export type { TableInput, OpenTableOptions } from './table/open.js';
export type { Table, TableFormatName, TableReadOptions, TableBatchOptions, TableArrowOptions, TableColumnsOptions } from './table/table.js';
export { ParquetReader, type BloomFilterProbe, type OpenOptions, type ReadOptions, type ArrowOptions, type ColumnBatch } from './parquet/reader.js';
export { type ColumnPath } from './schema/tree.js';
export type { Filter, ComparisonOp, LikeOp, TemporalLiteral } from './parquet/filter/expression.js';
export { parseWhere, WhereSyntaxError } from './parquet/filter/where.js';
export type { PageIndexEntry } from './parquet/filter/indexes.js';
export { selectChunks, chunkPages, type ChunkRef, type ChunkPages, type PageInfo } from './parquet/inspect/page-headers.js';
export { decodeStatistics, type DecodedStatistics } from './parquet/statistics.js';
export type { ColumnChunkData } from './shred/column-data.js';
export type { ValueOptions } from './schema/convert.js';
export type { Schema, SchemaNode, LeafNode, GroupNode } from './schema/tree.js';
export type { LeafKind, GroupKind, TimeUnit } from './schema/logical.js';
export type {
  FileMetaData, RowGroup, ColumnChunk, ColumnMetaData, Statistics, ColumnIndex, OffsetIndex, PageLocation, BoundaryOrder, BloomFilterHeader,
} from './parquet/metadata/index.js';
export type { Values, ByteArrays, PhysicalType } from './encodings/types.js';
export { blobSource, bufferSource, httpSource, type Source, type SourceLike, type HttpSourceOptions, type ReadInput, type UrlOptions } from './io/source.js';
export { BufferSink, webStreamSink, type Sink } from './io/sink.js';
/** Writes a Parquet file to a Sink, one row group in memory at a time; opened by `ParquetWriter.open(sink, schema, options)` (docs/writing.md). @class */
export const ParquetWriter = lazyClass(writerModule, 'ParquetWriter');
export type ParquetWriter<Row = Record<string, unknown>> = writer.ParquetWriter<Row>;
export type { WriterOptions, ColumnWriteOptions, WriterSchema } from './parquet/write/writer.js';
export type { ParquetryWarning, WarningCode, WarningHandler } from './warnings.js';
export type { ValueEncoding } from './parquet/write/column-writer.js';
export type { FloatOrder } from './parquet/write/stats.js';
export { MISSING, type Missing } from './loss.js';
/** @function */
export const salvageRowGroups = lazyGenerator(recoverModule, 'salvageRowGroups');
/** @function */
export const openForSalvage = lazyAsync(recoverModule, 'openForSalvage');
/** @function */
export const checkParquet = lazyAsync(recoverModule, 'checkParquet');
/** @function */
export const recoverParquet = lazyAsync(recoverModule, 'recoverParquet');
export type { SalvageOptions, SalvagedRowGroup, SalvageInput, Loss, OpenedForSalvage, FoundBy, RecoverReport } from './parquet/recover/index.js';
/** @function */
export const writeRecords = lazyAsync(() => import('./parquet/write/write-records.js'), 'writeRecords');
export type { WriteRecordsOptions } from './parquet/write/write-records.js';
export { field, defineSchema, type FieldBuilder, type DefinedSchema, type RowOf, type InferRow } from './schema/builder.js';
export { variant, VariantValue, type VariantType, type VariantTimestampOptions } from './schema/variant-value.js';
export { inferSchemaFromRecords, inferSchemaFromCsv } from './schema/infer.js';
/** @function */
export const readCsv = lazyAsync(recordsModule, 'readCsv');
/** @function */
export const readJsonLines = lazyAsync(recordsModule, 'readJsonLines');
/** @function */
export const readJsonArray = lazyAsync(recordsModule, 'readJsonArray');
export type { Records, TextInput, ReadRecordsOptions, CsvReadRecordsOptions } from './convert/records.js';
/** @function */
export const convert = lazyAsync(() => import('./convert/convert.js'), 'convert');
export type { ConvertSource, ConvertDestination, ConvertOptions, ConvertReport, ConvertProgress, ConvertFormat, BadRow } from './convert/convert.js';
export { registerCodec, type Codec, type CodecName } from './codecs/registry.js';
export { canonicalRow, canonicalValue } from './text/canonical.js';
export { schemaJson, type SchemaJson } from './schema/json.js';
export { footerJson, thriftJson } from './parquet/inspect/footer-json.js';
export type { JsonValue } from './parquet/inspect/unknown-fields.js';
export { columnSizes, type ColumnSize } from './parquet/inspect/column-size.js';
export { sizeStatistics, type ChunkSizeStats, type PageSizeStats } from './parquet/inspect/size-stats.js';
export { scanFile, type ScanReport } from './parquet/inspect/scan.js';
export { columnDictionaries, type ChunkDictionary } from './parquet/inspect/dictionary.js';
/** @function */
export const checkStatistics = lazyAsync(() => import('./parquet/inspect/check-stats.js'), 'checkStatistics');
export type { CheckReport, CheckOptions, CheckedStructure, Lie } from './parquet/inspect/check-stats.js';
export type { DecryptionOptions, KeyRetriever, KeyTarget } from './parquet/crypto/options.js';
/** @function */
export const encryptParquet = lazyAsync(() => import('./parquet/write/encrypt-file.js'), 'encryptParquet');
export type { EncryptionOptions, ColumnKey } from './parquet/crypto/file-encryptor.js';
export { InMemoryKms, kmsKeyRetriever, wrapKeyMetadata, type WrapOptions, type KmsClient, type KmsRetrieverOptions, type ExternalKeyMaterial, type KeyMaterial } from './parquet/crypto/kms.js';
/** @function */
export const schemaFromArrow = lazyAsync(() => import('./arrow/to-schema.js'), 'schemaFromArrow');
export { formatSchema, schemaAnnotation } from './text/schema-text.js';
export { formatBytes } from './text/byte-size.js';
/** Reads a Trevni file of version 2 or 1: `TrevniReader.open(input, options)`, then rows, columns or Avro records (docs/trevni.md). @class */
export const TrevniReader = lazyClass(trevniModule, 'TrevniReader');
export type TrevniReader = trevni.TrevniReader;
/** Writes a Trevni file column by column: `TrevniWriter.open(sink, columns, options)` (docs/trevni.md). @class */
export const TrevniWriter = lazyClass(trevniModule, 'TrevniWriter');
export type TrevniWriter = trevni.TrevniWriter;
/** Writes Avro records into a Trevni file with trevni-avro's columns: `AvroTrevniWriter.open(sink, avroSchema, options)` (docs/trevni.md). @class */
export const AvroTrevniWriter = lazyClass(trevniModule, 'AvroTrevniWriter');
export type AvroTrevniWriter = trevni.AvroTrevniWriter;
/** Reads a file of the Trevni wiki draft's Dremel dialect: `TrevniDraftReader.open(input, options)` (docs/trevni.md). @class */
export const TrevniDraftReader = lazyClass(trevniModule, 'TrevniDraftReader');
export type TrevniDraftReader = trevni.TrevniDraftReader;
/** Writes a file of the Trevni wiki draft's Dremel dialect from a Parquet schema: `TrevniDraftWriter.open(sink, schema, options)` (docs/trevni.md). @class */
export const TrevniDraftWriter = lazyClass(trevniModule, 'TrevniDraftWriter');
export type TrevniDraftWriter = trevni.TrevniDraftWriter;
/** @function */
export const readAvro = lazyGenerator(trevniModule, 'readAvro');
/** @function */
export const openTrevni = lazyAsync(trevniModule, 'openTrevni');
/** @function */
export const checkTrevni = lazyAsync(trevniModule, 'checkTrevni');
/** @function */
export const recoverTrevni = lazyAsync(trevniModule, 'recoverTrevni');
/** @function */
export const salvageTrevni = lazyAsync(trevniModule, 'salvageTrevni');
export type { TrevniRecoverOptions, TrevniSalvage, SalvagedTrevniRow, TrevniBlock, TrevniColumn } from './trevni/index.js';
export { memorySpill, pathSpill } from './trevni/spill.js';
/** Reads a RedElm file: `RedElmReader.open(input, options)`, then `rows()` (docs/redelm.md). @class */
export const RedElmReader = lazyClass(redElmModule, 'RedElmReader');
export type RedElmReader = redElm.RedElmReader;
/** Writes a RedElm file the Java prototype reads back: `RedElmWriter.open(sink, schemaText, options)` (docs/redelm.md). @class */
export const RedElmWriter = lazyClass(redElmModule, 'RedElmWriter');
export type RedElmWriter = redElm.RedElmWriter;
export { redElmSummary, type RedElmSummary } from './redelm/summary.js';
export { parseRedElmSchema, formatRedElmSchema } from './redelm/schema.js';
export type {
  RedElmOpenOptions, RedElmReadOptions, RedElmWriterOptions, RedElmMetaData, RedElmBlockMeta, RedElmColumnMeta, RedElmType, MetaDataBlock,
} from './redelm/index.js';
export { summarize, summaryFileBytes, METADATA_FILE, COMMON_METADATA_FILE, type Summary, type SummaryPart } from './dataset/summary.js';
/** @function */
export const writeDatasetTo = lazyAsync(() => import('./dataset/write.js'), 'writeDatasetTo');
export type { DatasetOutput, DatasetWriteOptions, DatasetWriteReport, DatasetPart } from './dataset/write.js';
export { HIVE_NULL, escapePathName, partitionDirectory } from './dataset/hive-names.js';
export { detectFormat, FORMAT_MAGIC_BYTES, type FileFormat } from './io/format.js';
/** @function */
export const openDataset = lazyAsync(datasetModule, 'openDataset');
/** Many Parquet files read as one table, with the reader's API; opened by `openDataset` (docs/datasets.md). @class */
export const Dataset = lazyClass(datasetModule, 'Dataset');
export type Dataset = dataset.Dataset;
/** @function */
export const describeDataset = lazyAsync(datasetModule, 'describeDataset');
export { urlFileSystem, type DatasetFileSystem, type DirectoryEntry } from './dataset/file-system.js';
const s3Module = lazyModule(() => import('./dataset/s3.js'));
/** @function */
export const openS3Source = lazyAsync(s3Module, 'openS3Source');
/** @function */
export const openS3Sink = lazyAsync(s3Module, 'openS3Sink');
/** @function */
export const s3DatasetFileSystem = lazyAsync(s3Module, 's3DatasetFileSystem');
export type { S3Options, S3Credentials, S3CredentialProvider, S3RetryOptions } from './io/s3/client.js';
export type { S3WriteOptions } from './io/s3/sink.js';
export type {
  DatasetOptions, DatasetReadOptions, DatasetArrowOptions, DatasetFile, ScanPlan, DatasetDescription, FileStats, PartitionType, PartitionValue, PartitionColumn,
} from './dataset/index.js';
export {
  ParquetryError, CorruptFileError, UnsupportedError, UnsupportedOptionError, ChecksumError, InvalidArgumentError, ColumnOptionsError, IOError, ObjectStoreError, LimitError, DecryptionError, MissingKeyError, IncompatibleFilesError,
  type ErrorCode, type ErrorContext,
} from './errors.js';
