/**
 * parquet.thrift (apache/parquet-format, src/main/thrift/parquet.thrift) as
 * declarative tables, one per struct/union/enum: field id, thrift name,
 * type, required/optional. The TypeScript shapes are in types.ts; the
 * compiled codecs in codec.ts.
 *
 * Leniency (required fields that real writers leave out):
 * - ColumnChunk.file_offset: deprecated, "writers should set this field to 0";
 *   some writers omit it. Missing reads as 0 (and is written as 0).
 * Everything else required must be present, or the struct is corrupt.
 */

import { T } from '../thrift/spec.js';
import type { StructSpec } from '../thrift/spec.js';

const R = 'required' as const;
const O = 'optional' as const;

// ------------------------------------------------------------------ enums

export const TypeEnum = T.enum('Type', {
  BOOLEAN: 0,
  INT32: 1,
  INT64: 2,
  INT96: 3,
  FLOAT: 4,
  DOUBLE: 5,
  BYTE_ARRAY: 6,
  FIXED_LEN_BYTE_ARRAY: 7,
});

export const ConvertedTypeEnum = T.enum('ConvertedType', {
  UTF8: 0,
  MAP: 1,
  MAP_KEY_VALUE: 2,
  LIST: 3,
  ENUM: 4,
  DECIMAL: 5,
  DATE: 6,
  TIME_MILLIS: 7,
  TIME_MICROS: 8,
  TIMESTAMP_MILLIS: 9,
  TIMESTAMP_MICROS: 10,
  UINT_8: 11,
  UINT_16: 12,
  UINT_32: 13,
  UINT_64: 14,
  INT_8: 15,
  INT_16: 16,
  INT_32: 17,
  INT_64: 18,
  JSON: 19,
  BSON: 20,
  INTERVAL: 21,
});

export const FieldRepetitionTypeEnum = T.enum('FieldRepetitionType', {
  REQUIRED: 0,
  OPTIONAL: 1,
  REPEATED: 2,
  VECTOR: 3,
});

export const EncodingEnum = T.enum('Encoding', {
  PLAIN: 0,
  // 1 = GROUP_VAR_INT, never used, commented out of the spec
  PLAIN_DICTIONARY: 2,
  RLE: 3,
  BIT_PACKED: 4,
  DELTA_BINARY_PACKED: 5,
  DELTA_LENGTH_BYTE_ARRAY: 6,
  DELTA_BYTE_ARRAY: 7,
  RLE_DICTIONARY: 8,
  BYTE_STREAM_SPLIT: 9,
  ALP: 10,
});

export const CompressionCodecEnum = T.enum('CompressionCodec', {
  UNCOMPRESSED: 0,
  SNAPPY: 1,
  GZIP: 2,
  LZO: 3,
  BROTLI: 4,
  LZ4: 5,
  ZSTD: 6,
  LZ4_RAW: 7,
});

export const PageTypeEnum = T.enum('PageType', {
  DATA_PAGE: 0,
  INDEX_PAGE: 1,
  DICTIONARY_PAGE: 2,
  DATA_PAGE_V2: 3,
});

export const BoundaryOrderEnum = T.enum('BoundaryOrder', {
  UNORDERED: 0,
  ASCENDING: 1,
  DESCENDING: 2,
});

export const EdgeInterpolationAlgorithmEnum = T.enum('EdgeInterpolationAlgorithm', {
  SPHERICAL: 0,
  VINCENTY: 1,
  THOMAS: 2,
  ANDOYER: 3,
  KARNEY: 4,
});

// ------------------------------------------------------------------ statistics

export const SizeStatistics = T.struct('SizeStatistics', [
  [1, 'unencoded_byte_array_data_bytes', T.i64, O],
  [2, 'repetition_level_histogram', T.list(T.i64), O],
  [3, 'definition_level_histogram', T.list(T.i64), O],
]);

export const BoundingBox = T.struct('BoundingBox', [
  [1, 'xmin', T.double, R],
  [2, 'xmax', T.double, R],
  [3, 'ymin', T.double, R],
  [4, 'ymax', T.double, R],
  [5, 'zmin', T.double, O],
  [6, 'zmax', T.double, O],
  [7, 'mmin', T.double, O],
  [8, 'mmax', T.double, O],
]);

export const GeospatialStatistics = T.struct('GeospatialStatistics', [
  [1, 'bbox', BoundingBox, O],
  [2, 'geospatial_types', T.list(T.i32), O],
]);

export const Statistics = T.struct('Statistics', [
  [1, 'max', T.binary, O],
  [2, 'min', T.binary, O],
  [3, 'null_count', T.i64, O],
  [4, 'distinct_count', T.i64, O],
  [5, 'max_value', T.binary, O],
  [6, 'min_value', T.binary, O],
  [7, 'is_max_value_exact', T.bool, O],
  [8, 'is_min_value_exact', T.bool, O],
  [9, 'nan_count', T.i64, O],
]);

// ------------------------------------------------------------------ logical types

export const StringType = T.struct('StringType');
export const UUIDType = T.struct('UUIDType');
export const MapType = T.struct('MapType');
export const ListType = T.struct('ListType');
export const VectorType = T.struct('VectorType');
export const EnumType = T.struct('EnumType');
export const DateType = T.struct('DateType');
export const Float16Type = T.struct('Float16Type');
export const NullType = T.struct('NullType');
export const JsonType = T.struct('JsonType');
export const BsonType = T.struct('BsonType');

export const DecimalType = T.struct('DecimalType', [
  [1, 'scale', T.i32, R],
  [2, 'precision', T.i32, R],
]);

export const MilliSeconds = T.struct('MilliSeconds');
export const MicroSeconds = T.struct('MicroSeconds');
export const NanoSeconds = T.struct('NanoSeconds');

/** MilliSeconds / MicroSeconds / NanoSeconds are empty structs: TimeUnit is held as the member name. */
export const TimeUnit = T.unitUnion('TimeUnit', [
  [1, 'MILLIS'],
  [2, 'MICROS'],
  [3, 'NANOS'],
]);

export const TimestampType = T.struct('TimestampType', [
  [1, 'isAdjustedToUTC', T.bool, R],
  [2, 'unit', TimeUnit, R],
]);

export const TimeType = T.struct('TimeType', [
  [1, 'isAdjustedToUTC', T.bool, R],
  [2, 'unit', TimeUnit, R],
]);

export const IntType = T.struct('IntType', [
  [1, 'bitWidth', T.i8, R],
  [2, 'isSigned', T.bool, R],
]);

export const VariantType = T.struct('VariantType', [[1, 'specification_version', T.i8, O]]);

export const GeometryType = T.struct('GeometryType', [[1, 'crs', T.string, O]]);

export const GeographyType = T.struct('GeographyType', [
  [1, 'crs', T.string, O],
  [2, 'algorithm', EdgeInterpolationAlgorithmEnum, O],
]);

export const LogicalType = T.union('LogicalType', [
  [1, 'STRING', StringType],
  [2, 'MAP', MapType],
  [3, 'LIST', ListType],
  [4, 'ENUM', EnumType],
  [5, 'DECIMAL', DecimalType],
  [6, 'DATE', DateType],
  [7, 'TIME', TimeType],
  [8, 'TIMESTAMP', TimestampType],
  // 9: reserved for INTERVAL
  [10, 'INTEGER', IntType],
  [11, 'UNKNOWN', NullType],
  [12, 'JSON', JsonType],
  [13, 'BSON', BsonType],
  [14, 'UUID', UUIDType],
  [15, 'FLOAT16', Float16Type],
  [16, 'VARIANT', VariantType],
  [17, 'GEOMETRY', GeometryType],
  [18, 'GEOGRAPHY', GeographyType],
  [19, 'VECTOR', VectorType],
]);

// ------------------------------------------------------------------ schema

export const SchemaElement = T.struct('SchemaElement', [
  [1, 'type', TypeEnum, O],
  [2, 'type_length', T.i32, O],
  [3, 'repetition_type', FieldRepetitionTypeEnum, O],
  [4, 'name', T.string, R],
  [5, 'num_children', T.i32, O],
  [6, 'converted_type', ConvertedTypeEnum, O],
  [7, 'scale', T.i32, O],
  [8, 'precision', T.i32, O],
  [9, 'field_id', T.i32, O],
  [10, 'logicalType', LogicalType, O],
  [11, 'vector_length', T.i32, O],
]);

// ------------------------------------------------------------------ pages

export const DataPageHeader = T.struct('DataPageHeader', [
  [1, 'num_values', T.i32, R],
  [2, 'encoding', EncodingEnum, R],
  [3, 'definition_level_encoding', EncodingEnum, R],
  [4, 'repetition_level_encoding', EncodingEnum, R],
  [5, 'statistics', Statistics, O],
]);

export const IndexPageHeader = T.struct('IndexPageHeader');

export const DictionaryPageHeader = T.struct('DictionaryPageHeader', [
  [1, 'num_values', T.i32, R],
  [2, 'encoding', EncodingEnum, R],
  [3, 'is_sorted', T.bool, O],
]);

export const DataPageHeaderV2 = T.struct('DataPageHeaderV2', [
  [1, 'num_values', T.i32, R],
  [2, 'num_nulls', T.i32, R],
  [3, 'num_rows', T.i32, R],
  [4, 'encoding', EncodingEnum, R],
  [5, 'definition_levels_byte_length', T.i32, R],
  [6, 'repetition_levels_byte_length', T.i32, R],
  // default true: kept absent when absent, so a round trip is exact; readers treat absent as true
  [7, 'is_compressed', T.bool, O],
  [8, 'statistics', Statistics, O],
]);

export const SplitBlockAlgorithm = T.struct('SplitBlockAlgorithm');
export const BloomFilterAlgorithm = T.union('BloomFilterAlgorithm', [[1, 'BLOCK', SplitBlockAlgorithm]]);
export const XxHash = T.struct('XxHash');
export const BloomFilterHash = T.union('BloomFilterHash', [[1, 'XXHASH', XxHash]]);
export const Uncompressed = T.struct('Uncompressed');
export const BloomFilterCompression = T.union('BloomFilterCompression', [[1, 'UNCOMPRESSED', Uncompressed]]);

export const BloomFilterHeader = T.struct('BloomFilterHeader', [
  [1, 'numBytes', T.i32, R],
  [2, 'algorithm', BloomFilterAlgorithm, R],
  [3, 'hash', BloomFilterHash, R],
  [4, 'compression', BloomFilterCompression, R],
]);

export const PageHeader = T.struct('PageHeader', [
  [1, 'type', PageTypeEnum, R],
  [2, 'uncompressed_page_size', T.i32, R],
  [3, 'compressed_page_size', T.i32, R],
  [4, 'crc', T.i32, O],
  [5, 'data_page_header', DataPageHeader, O],
  [6, 'index_page_header', IndexPageHeader, O],
  [7, 'dictionary_page_header', DictionaryPageHeader, O],
  [8, 'data_page_header_v2', DataPageHeaderV2, O],
]);

// ------------------------------------------------------------------ column chunks, row groups

export const KeyValue = T.struct('KeyValue', [
  [1, 'key', T.string, R],
  [2, 'value', T.string, O],
]);

export const SortingColumn = T.struct('SortingColumn', [
  [1, 'column_idx', T.i32, R],
  [2, 'descending', T.bool, R],
  [3, 'nulls_first', T.bool, R],
]);

export const PageEncodingStats = T.struct('PageEncodingStats', [
  [1, 'page_type', PageTypeEnum, R],
  [2, 'encoding', EncodingEnum, R],
  [3, 'count', T.i32, R],
]);

export const ColumnMetaData = T.struct('ColumnMetaData', [
  [1, 'type', TypeEnum, R],
  [2, 'encodings', T.list(EncodingEnum), R],
  [3, 'path_in_schema', T.list(T.string), R],
  [4, 'codec', CompressionCodecEnum, R],
  [5, 'num_values', T.i64, R],
  [6, 'total_uncompressed_size', T.i64, R],
  [7, 'total_compressed_size', T.i64, R],
  [8, 'key_value_metadata', T.list(KeyValue), O],
  [9, 'data_page_offset', T.i64, R],
  [10, 'index_page_offset', T.i64, O],
  [11, 'dictionary_page_offset', T.i64, O],
  [12, 'statistics', Statistics, O],
  [13, 'encoding_stats', T.list(PageEncodingStats), O],
  [14, 'bloom_filter_offset', T.i64, O],
  [15, 'bloom_filter_length', T.i32, O],
  [16, 'size_statistics', SizeStatistics, O],
  [17, 'geospatial_statistics', GeospatialStatistics, O],
]);

export const EncryptionWithFooterKey = T.struct('EncryptionWithFooterKey');

export const EncryptionWithColumnKey = T.struct('EncryptionWithColumnKey', [
  [1, 'path_in_schema', T.list(T.string), R],
  [2, 'key_metadata', T.binary, O],
]);

export const ColumnCryptoMetaData = T.union('ColumnCryptoMetaData', [
  [1, 'ENCRYPTION_WITH_FOOTER_KEY', EncryptionWithFooterKey],
  [2, 'ENCRYPTION_WITH_COLUMN_KEY', EncryptionWithColumnKey],
]);

export const ColumnChunk = T.struct('ColumnChunk', [
  [1, 'file_path', T.string, O],
  // Leniency: required (default 0) and deprecated; some writers leave it out.
  [2, 'file_offset', T.i64, R, 0],
  [3, 'meta_data', ColumnMetaData, O],
  [4, 'offset_index_offset', T.i64, O],
  [5, 'offset_index_length', T.i32, O],
  [6, 'column_index_offset', T.i64, O],
  [7, 'column_index_length', T.i32, O],
  [8, 'crypto_metadata', ColumnCryptoMetaData, O],
  [9, 'encrypted_column_metadata', T.binary, O],
]);

export const RowGroup = T.struct('RowGroup', [
  [1, 'columns', T.list(ColumnChunk), R],
  [2, 'total_byte_size', T.i64, R],
  [3, 'num_rows', T.i64, R],
  [4, 'sorting_columns', T.list(SortingColumn), O],
  [5, 'file_offset', T.i64, O],
  [6, 'total_compressed_size', T.i64, O],
  [7, 'ordinal', T.i16, O],
]);

export const TypeDefinedOrder = T.struct('TypeDefinedOrder');
export const IEEE754TotalOrder = T.struct('IEEE754TotalOrder');
export const Int96TimestampOrder = T.struct('Int96TimestampOrder');

export const ColumnOrder = T.union('ColumnOrder', [
  [1, 'TYPE_ORDER', TypeDefinedOrder],
  [2, 'IEEE_754_TOTAL_ORDER', IEEE754TotalOrder],
  [3, 'INT96_TIMESTAMP_ORDER', Int96TimestampOrder],
]);

// ------------------------------------------------------------------ page index

export const PageLocation = T.struct('PageLocation', [
  [1, 'offset', T.i64, R],
  [2, 'compressed_page_size', T.i32, R],
  [3, 'first_row_index', T.i64, R],
]);

export const OffsetIndex = T.struct('OffsetIndex', [
  [1, 'page_locations', T.list(PageLocation), R],
  [2, 'unencoded_byte_array_data_bytes', T.list(T.i64), O],
]);

export const ColumnIndex = T.struct('ColumnIndex', [
  [1, 'null_pages', T.list(T.bool), R],
  [2, 'min_values', T.list(T.binary), R],
  [3, 'max_values', T.list(T.binary), R],
  [4, 'boundary_order', BoundaryOrderEnum, R],
  [5, 'null_counts', T.list(T.i64), O],
  [6, 'repetition_level_histograms', T.list(T.i64), O],
  [7, 'definition_level_histograms', T.list(T.i64), O],
  [8, 'nan_counts', T.list(T.i64), O],
]);

// ------------------------------------------------------------------ encryption

export const AesGcmV1 = T.struct('AesGcmV1', [
  [1, 'aad_prefix', T.binary, O],
  [2, 'aad_file_unique', T.binary, O],
  [3, 'supply_aad_prefix', T.bool, O],
]);

export const AesGcmCtrV1 = T.struct('AesGcmCtrV1', [
  [1, 'aad_prefix', T.binary, O],
  [2, 'aad_file_unique', T.binary, O],
  [3, 'supply_aad_prefix', T.bool, O],
]);

export const EncryptionAlgorithm = T.union('EncryptionAlgorithm', [
  [1, 'AES_GCM_V1', AesGcmV1],
  [2, 'AES_GCM_CTR_V1', AesGcmCtrV1],
]);

export const FileCryptoMetaData = T.struct('FileCryptoMetaData', [
  [1, 'encryption_algorithm', EncryptionAlgorithm, R],
  [2, 'key_metadata', T.binary, O],
]);

// ------------------------------------------------------------------ file

export const FileMetaData = T.struct('FileMetaData', [
  [1, 'version', T.i32, R],
  [2, 'schema', T.list(SchemaElement), R],
  [3, 'num_rows', T.i64, R],
  [4, 'row_groups', T.list(RowGroup), R],
  [5, 'key_value_metadata', T.list(KeyValue), O],
  [6, 'created_by', T.string, O],
  [7, 'column_orders', T.list(ColumnOrder), O],
  [8, 'encryption_algorithm', EncryptionAlgorithm, O],
  [9, 'footer_signing_key_metadata', T.binary, O],
]);

/** Every struct table, by thrift name (unions and enums excluded). */
export const STRUCTS: Readonly<Record<string, StructSpec>> = {
  SizeStatistics, BoundingBox, GeospatialStatistics, Statistics,
  StringType, UUIDType, MapType, ListType, VectorType, EnumType, DateType, Float16Type, NullType,
  DecimalType, MilliSeconds, MicroSeconds, NanoSeconds, TimestampType, TimeType, IntType, JsonType, BsonType, VariantType, GeometryType, GeographyType,
  SchemaElement, DataPageHeader, IndexPageHeader, DictionaryPageHeader, DataPageHeaderV2,
  SplitBlockAlgorithm, XxHash, Uncompressed, BloomFilterHeader, PageHeader,
  KeyValue, SortingColumn, PageEncodingStats, ColumnMetaData,
  EncryptionWithFooterKey, EncryptionWithColumnKey, ColumnChunk, RowGroup,
  TypeDefinedOrder, IEEE754TotalOrder, Int96TimestampOrder,
  PageLocation, OffsetIndex, ColumnIndex, AesGcmV1, AesGcmCtrV1, FileCryptoMetaData, FileMetaData,
};
