/**
 * parquetry: read Parquet files in any JavaScript runtime.
 *
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
export { ParquetReader, type ParquetInput, type OpenOptions, type ReadOptions, type ArrowOptions, type ColumnBatch, type ColumnPath } from './parquet/reader.js';
export type { Filter, ComparisonOp } from './parquet/filter/expression.js';
export { parseWhere, WhereSyntaxError } from './parquet/filter/where.js';
export type { PageIndexEntry } from './parquet/filter/indexes.js';
export { selectChunks, chunkPages, type ChunkRef, type ChunkPages, type PageInfo } from './parquet/page-headers.js';
export { decodeStatistics, type DecodedStatistics } from './parquet/statistics.js';
export type { ColumnChunkData } from './parquet/column-chunk.js';
export type { ValueOptions } from './schema/convert.js';
export type { Schema, SchemaNode, LeafNode, GroupNode } from './schema/tree.js';
export type { LeafKind, GroupKind, TimeUnit } from './schema/logical.js';
export type {
  FileMetaData, RowGroup, ColumnChunk, ColumnMetaData, Statistics, ColumnIndex, OffsetIndex, PageLocation, BoundaryOrder, BloomFilterHeader,
} from './parquet/metadata/index.js';
export type { Values, ByteArrays, PhysicalType } from './encodings/types.js';
export { blobSource, bufferSource, httpSource, type Source, type SourceLike, type HttpSourceOptions } from './io/source.js';
export { BufferSink, webStreamSink, type Sink } from './io/sink.js';
export { ParquetWriter, type WriterOptions, type ColumnWriteOptions, type WriterSchema } from './parquet/write/writer.js';
export type { ParquetryWarning, WarningCode, WarningHandler } from './warnings.js';
export type { ValueEncoding } from './parquet/write/column-writer.js';
export { MISSING, salvageRowGroups, openForSalvage, checkParquet, recoverParquet, type Missing, type SalvageOptions, type SalvagedRowGroup, type SalvageInput, type Loss, type OpenedForSalvage, type FoundBy, type RecoverReport } from './parquet/recover/index.js';
export { writeRecords, type WriteRecordsOptions } from './parquet/write/write-records.js';
export { field, defineSchema, type FieldBuilder, type DefinedSchema, type RowOf } from './schema/builder.js';
export { inferSchemaFromRecords, inferSchemaFromCsv } from './schema/infer.js';
export { readCsv, readJsonLines, readJsonArray, type Records, type TextInput, type ReadRecordsOptions, type CsvReadRecordsOptions } from './convert/records.js';
export {
  convert, type ConvertSource, type ConvertDestination, type ConvertOptions, type ConvertReport, type ConvertProgress, type ConvertFormat, type BadRow,
} from './convert/convert.js';
export { registerCodec, type Codec, type CodecName } from './codecs/registry.js';
export { canonicalRow, canonicalValue } from './text/canonical.js';
export { schemaJson, type SchemaJson } from './schema/json.js';
export { footerJson, thriftJson, type JsonValue } from './parquet/inspect/footer-json.js';
export { columnSizes, type ColumnSize } from './parquet/inspect/column-size.js';
export { sizeStatistics, type ChunkSizeStats, type PageSizeStats } from './parquet/inspect/size-stats.js';
export { scanFile, type ScanReport } from './parquet/inspect/scan.js';
export { columnDictionaries, type ChunkDictionary } from './parquet/inspect/dictionary.js';
export { checkStatistics, type CheckReport, type CheckOptions, type CheckedStructure, type Lie } from './parquet/inspect/check-stats.js';
export type { DecryptionOptions, KeyRetriever, KeyTarget } from './parquet/crypto/options.js';
export { encryptParquet } from './parquet/crypto/encryptor.js';
export type { EncryptionOptions, ColumnKey } from './parquet/crypto/file-encryptor.js';
export { InMemoryKms, kmsKeyRetriever, wrapKeyMetadata, type WrapOptions, type KmsClient, type KmsRetrieverOptions, type ExternalKeyMaterial, type KeyMaterial } from './parquet/crypto/kms.js';
export { schemaFromArrow } from './arrow/to-schema.js';
export { formatSchema, schemaAnnotation } from './text/schema-text.js';
export { formatBytes } from './text/byte-size.js';
export { TrevniReader, TrevniWriter, AvroTrevniWriter, readAvro, memorySpill, pathSpill, TrevniDraftReader, TrevniDraftWriter, openTrevni, checkTrevni, recoverTrevni, salvageTrevni, type TrevniRecoverReport, type TrevniRecoverOptions, type TrevniLoss, type TrevniSalvage, type SalvagedTrevniRow, type TrevniBlock, type TrevniColumn } from './trevni/index.js';
export {
  RedElmReader, RedElmWriter, redElmSummary, parseRedElmSchema, formatRedElmSchema,
  type RedElmInput, type RedElmOpenOptions, type RedElmReadOptions, type RedElmWriterOptions, type RedElmSummary,
  type RedElmMetaData, type RedElmBlockMeta, type RedElmColumnMeta, type RedElmType, type MetaDataBlock,
} from './redelm/index.js';
export { summarize, summaryFileBytes, METADATA_FILE, COMMON_METADATA_FILE, type Summary, type SummaryPart } from './dataset/summary.js';
export { writeDatasetTo, type DatasetOutput, type DatasetWriteOptions, type DatasetWriteReport, type DatasetPart } from './dataset/write.js';
export { HIVE_NULL, escapePathName, partitionDirectory } from './dataset/hive-names.js';
export { detectFormat, FORMAT_MAGIC_BYTES, type FileFormat } from './io/format.js';
export {
  openDataset, Dataset, urlFileSystem, describeDataset, type DatasetOptions, type DatasetReadOptions, type DatasetArrowOptions, type DatasetFile, type ScanPlan, type DatasetFileSystem, type DatasetDescription, type FileStats,
  type PartitionType, type PartitionValue, type PartitionColumn,
} from './dataset/index.js';
export {
  ParquetryError, CorruptFileError, UnsupportedError, ChecksumError, InvalidArgumentError, IOError, LimitError, DecryptionError, MissingKeyError, IncompatibleFilesError,
  type ErrorCode, type ErrorContext,
} from './errors.js';
