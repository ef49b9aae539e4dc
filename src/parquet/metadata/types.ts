/**
 * The structs of parquet-format's parquet.thrift as TypeScript types.
 *
 * Conventions (see src/parquet/thrift/spec.ts for the mapping rules):
 * - Field names are the thrift names in camelCase (`num_rows` -> `numRows`).
 * - Optional fields are optional properties, absent when the file has none.
 * - Enums are their member names; a value this version does not know reads
 *   as `UNKNOWN_<n>` so newer files still open.
 * - Unions are objects with a `type` discriminant, the member's name in the
 *   .thrift union (`{ type: 'DECIMAL', scale, precision }`). A member this
 *   version does not know reads as `{ type: 'UNKNOWN_FIELD_<id>' }` (a union
 *   with no member set at all as `UNKNOWN_FIELD_0`); readers then fall back
 *   (to the converted type, for a logical type).
 *   TimeUnit, a union of empty structs, is just `'MILLIS' | 'MICROS' | 'NANOS'`.
 * - Every i64 in parquet.thrift is an offset, size or count, so they are all
 *   `number`; a value beyond Number.MAX_SAFE_INTEGER is a CorruptFileError.
 * - `binary` fields are Uint8Array copies (they do not alias the input).
 */
import type { PhysicalType } from '../../encodings/types.js';

/** Enum value this version does not know. */
export type UnknownEnum = `UNKNOWN_${number}`;
/** Union member this version does not know. */
export type UnknownMemberName = `UNKNOWN_FIELD_${number}`;
export interface UnknownMember {
  type: UnknownMemberName;
}

// ------------------------------------------------------------------ enums

/** Physical type (thrift `Type`), or a code this reader does not know. */
export type ParquetType = PhysicalType | UnknownEnum;

export type ConvertedType =
  | 'UTF8'
  | 'MAP'
  | 'MAP_KEY_VALUE'
  | 'LIST'
  | 'ENUM'
  | 'DECIMAL'
  | 'DATE'
  | 'TIME_MILLIS'
  | 'TIME_MICROS'
  | 'TIMESTAMP_MILLIS'
  | 'TIMESTAMP_MICROS'
  | 'UINT_8'
  | 'UINT_16'
  | 'UINT_32'
  | 'UINT_64'
  | 'INT_8'
  | 'INT_16'
  | 'INT_32'
  | 'INT_64'
  | 'JSON'
  | 'BSON'
  | 'INTERVAL'
  | UnknownEnum;

export type FieldRepetitionType = 'REQUIRED' | 'OPTIONAL' | 'REPEATED' | 'VECTOR' | UnknownEnum;

/** Value 1 (GROUP_VAR_INT) was never used and is commented out of the spec: it reads as UNKNOWN_1. */
export type Encoding =
  | 'PLAIN'
  | 'PLAIN_DICTIONARY'
  | 'RLE'
  | 'BIT_PACKED'
  | 'DELTA_BINARY_PACKED'
  | 'DELTA_LENGTH_BYTE_ARRAY'
  | 'DELTA_BYTE_ARRAY'
  | 'RLE_DICTIONARY'
  | 'BYTE_STREAM_SPLIT'
  | 'ALP'
  | UnknownEnum;

export type CompressionCodec = 'UNCOMPRESSED' | 'SNAPPY' | 'GZIP' | 'LZO' | 'BROTLI' | 'LZ4' | 'ZSTD' | 'LZ4_RAW' | UnknownEnum;

export type PageType = 'DATA_PAGE' | 'INDEX_PAGE' | 'DICTIONARY_PAGE' | 'DATA_PAGE_V2' | UnknownEnum;

/** parquet.thrift's BoundaryOrder: how a ColumnIndex's page bounds are ordered. */
export type BoundaryOrder = 'UNORDERED' | 'ASCENDING' | 'DESCENDING' | UnknownEnum;

export type EdgeInterpolationAlgorithm = 'SPHERICAL' | 'VINCENTY' | 'THOMAS' | 'ANDOYER' | 'KARNEY' | UnknownEnum;

// ------------------------------------------------------------------ statistics

export interface SizeStatistics {
  unencodedByteArrayDataBytes?: number;
  repetitionLevelHistogram?: number[];
  definitionLevelHistogram?: number[];
}

// The geometry layer's box is the Thrift struct itself.
import type { BoundingBox } from '../../geo/bounds.js';
export type { BoundingBox };

export interface GeospatialStatistics {
  bbox?: BoundingBox;
  geospatialTypes?: number[];
}

/** parquet.thrift's Statistics: a chunk's or page's bounds (as stored bytes) and counts. */
export interface Statistics {
  /** DEPRECATED (signed-order) max. */
  max?: Uint8Array;
  /** DEPRECATED (signed-order) min. */
  min?: Uint8Array;
  nullCount?: number;
  distinctCount?: number;
  maxValue?: Uint8Array;
  minValue?: Uint8Array;
  isMaxValueExact?: boolean;
  isMinValueExact?: boolean;
  nanCount?: number;
}

// ------------------------------------------------------------------ logical types

export type TimeUnit = 'MILLIS' | 'MICROS' | 'NANOS' | UnknownMemberName;

export interface StringType {
  type: 'STRING';
}
export interface MapType {
  type: 'MAP';
}
export interface ListType {
  type: 'LIST';
}
export interface EnumType {
  type: 'ENUM';
}
export interface DecimalType {
  type: 'DECIMAL';
  scale: number;
  precision: number;
}
export interface DateType {
  type: 'DATE';
}
export interface TimeType {
  type: 'TIME';
  isAdjustedToUTC: boolean;
  unit: TimeUnit;
}
export interface TimestampType {
  type: 'TIMESTAMP';
  isAdjustedToUTC: boolean;
  unit: TimeUnit;
}
export interface IntType {
  type: 'INTEGER';
  /** 8, 16, 32 or 64. */
  bitWidth: number;
  isSigned: boolean;
}
/** NullType: the thrift union member is named UNKNOWN (a column that is always null). */
export interface NullType {
  type: 'UNKNOWN';
}
export interface JsonType {
  type: 'JSON';
}
export interface BsonType {
  type: 'BSON';
}
export interface UUIDType {
  type: 'UUID';
}
export interface Float16Type {
  type: 'FLOAT16';
}
export interface VariantType {
  type: 'VARIANT';
  specificationVersion?: number;
}
export interface GeometryType {
  type: 'GEOMETRY';
  /** Absent = OGC:CRS84. */
  crs?: string;
}
export interface GeographyType {
  type: 'GEOGRAPHY';
  /** Absent = OGC:CRS84. */
  crs?: string;
  /** Absent = SPHERICAL. */
  algorithm?: EdgeInterpolationAlgorithm;
}
export interface VectorType {
  type: 'VECTOR';
}

export type LogicalType =
  | StringType
  | MapType
  | ListType
  | EnumType
  | DecimalType
  | DateType
  | TimeType
  | TimestampType
  | IntType
  | NullType
  | JsonType
  | BsonType
  | UUIDType
  | Float16Type
  | VariantType
  | GeometryType
  | GeographyType
  | VectorType
  | UnknownMember;

// ------------------------------------------------------------------ schema

export interface SchemaElement {
  /** Set for leaves only. */
  type?: ParquetType;
  typeLength?: number;
  /** Absent on the root. */
  repetitionType?: FieldRepetitionType;
  name: string;
  /** Set for groups only. */
  numChildren?: number;
  convertedType?: ConvertedType;
  scale?: number;
  precision?: number;
  fieldId?: number;
  logicalType?: LogicalType;
  /** For repetition VECTOR: element slots per parent occurrence. */
  vectorLength?: number;
}

// ------------------------------------------------------------------ pages

export interface DataPageHeader {
  numValues: number;
  encoding: Encoding;
  definitionLevelEncoding: Encoding;
  repetitionLevelEncoding: Encoding;
  statistics?: Statistics;
}

/** Empty in the spec ("TODO"). */
export type IndexPageHeader = Record<string, never>;

export interface DictionaryPageHeader {
  numValues: number;
  encoding: Encoding;
  isSorted?: boolean;
}

export interface DataPageHeaderV2 {
  numValues: number;
  numNulls: number;
  numRows: number;
  encoding: Encoding;
  definitionLevelsByteLength: number;
  repetitionLevelsByteLength: number;
  /** Absent means true (the spec's default). */
  isCompressed?: boolean;
  statistics?: Statistics;
}

export interface PageHeader {
  type: PageType;
  uncompressedPageSize: number;
  compressedPageSize: number;
  crc?: number;
  dataPageHeader?: DataPageHeader;
  indexPageHeader?: IndexPageHeader;
  dictionaryPageHeader?: DictionaryPageHeader;
  dataPageHeaderV2?: DataPageHeaderV2;
}

// ------------------------------------------------------------------ bloom filters

export type BloomFilterAlgorithm = { type: 'BLOCK' } | UnknownMember;
export type BloomFilterHash = { type: 'XXHASH' } | UnknownMember;
export type BloomFilterCompression = { type: 'UNCOMPRESSED' } | UnknownMember;

/** parquet.thrift's BloomFilterHeader: a bloom filter's size, algorithm, hash and compression. */
export interface BloomFilterHeader {
  /** Size of the bitset in bytes. */
  numBytes: number;
  algorithm: BloomFilterAlgorithm;
  hash: BloomFilterHash;
  compression: BloomFilterCompression;
}

// ------------------------------------------------------------------ column chunks, row groups

export interface KeyValue {
  key: string;
  value?: string;
}

export interface SortingColumn {
  columnIdx: number;
  descending: boolean;
  nullsFirst: boolean;
}

export interface PageEncodingStats {
  pageType: PageType;
  encoding: Encoding;
  count: number;
}

/**
 * parquet.thrift's ColumnMetaData: a chunk's type, encodings, codec, sizes, page offsets and
 * statistics.
 */
export interface ColumnMetaData {
  type: ParquetType;
  encodings: Encoding[];
  pathInSchema: string[];
  codec: CompressionCodec;
  numValues: number;
  totalUncompressedSize: number;
  totalCompressedSize: number;
  keyValueMetadata?: KeyValue[];
  dataPageOffset: number;
  indexPageOffset?: number;
  dictionaryPageOffset?: number;
  statistics?: Statistics;
  encodingStats?: PageEncodingStats[];
  bloomFilterOffset?: number;
  bloomFilterLength?: number;
  sizeStatistics?: SizeStatistics;
  geospatialStatistics?: GeospatialStatistics;
}

export interface EncryptionWithFooterKey {
  type: 'ENCRYPTION_WITH_FOOTER_KEY';
}
export interface EncryptionWithColumnKey {
  type: 'ENCRYPTION_WITH_COLUMN_KEY';
  pathInSchema: string[];
  keyMetadata?: Uint8Array;
}
export type ColumnCryptoMetaData = EncryptionWithFooterKey | EncryptionWithColumnKey | UnknownMember;

/**
 * parquet.thrift's ColumnChunk: where one column of a row group lies, its metadata and its page
 * index's place.
 */
export interface ColumnChunk {
  filePath?: string;
  /** DEPRECATED; required in the spec but read as 0 when a writer omits it. */
  fileOffset: number;
  /** Optional in the spec, but every real writer sets it. */
  metaData?: ColumnMetaData;
  offsetIndexOffset?: number;
  offsetIndexLength?: number;
  columnIndexOffset?: number;
  columnIndexLength?: number;
  cryptoMetadata?: ColumnCryptoMetaData;
  encryptedColumnMetadata?: Uint8Array;
}

/** parquet.thrift's RowGroup: a row group's column chunks, rows and sizes. */
export interface RowGroup {
  columns: ColumnChunk[];
  totalByteSize: number;
  numRows: number;
  sortingColumns?: SortingColumn[];
  fileOffset?: number;
  totalCompressedSize?: number;
  ordinal?: number;
}

export type ColumnOrder =
  | { type: 'TYPE_ORDER' }
  | { type: 'IEEE_754_TOTAL_ORDER' }
  | { type: 'INT96_TIMESTAMP_ORDER' }
  | UnknownMember;

// ------------------------------------------------------------------ page index

/** parquet.thrift's PageLocation: one page's offset, stored size and first row. */
export interface PageLocation {
  offset: number;
  compressedPageSize: number;
  firstRowIndex: number;
}

/** parquet.thrift's OffsetIndex: where each page of a column chunk lies and its first row. */
export interface OffsetIndex {
  pageLocations: PageLocation[];
  unencodedByteArrayDataBytes?: number[];
}

/** parquet.thrift's ColumnIndex: per-page bounds, null pages and counts of a column chunk. */
export interface ColumnIndex {
  nullPages: boolean[];
  minValues: Uint8Array[];
  maxValues: Uint8Array[];
  boundaryOrder: BoundaryOrder;
  nullCounts?: number[];
  repetitionLevelHistograms?: number[];
  definitionLevelHistograms?: number[];
  nanCounts?: number[];
}

// ------------------------------------------------------------------ encryption

export interface AesGcmV1 {
  type: 'AES_GCM_V1';
  aadPrefix?: Uint8Array;
  aadFileUnique?: Uint8Array;
  supplyAadPrefix?: boolean;
}
export interface AesGcmCtrV1 {
  type: 'AES_GCM_CTR_V1';
  aadPrefix?: Uint8Array;
  aadFileUnique?: Uint8Array;
  supplyAadPrefix?: boolean;
}
export type EncryptionAlgorithm = AesGcmV1 | AesGcmCtrV1 | UnknownMember;

export interface FileCryptoMetaData {
  encryptionAlgorithm: EncryptionAlgorithm;
  keyMetadata?: Uint8Array;
}

// ------------------------------------------------------------------ file

/** The footer: parquet.thrift's FileMetaData, with fields in camelCase. */
export interface FileMetaData {
  version: number;
  /** Depth-first list; schema[0] is the root. */
  schema: SchemaElement[];
  numRows: number;
  rowGroups: RowGroup[];
  keyValueMetadata?: KeyValue[];
  createdBy?: string;
  columnOrders?: ColumnOrder[];
  encryptionAlgorithm?: EncryptionAlgorithm;
  footerSigningKeyMetadata?: Uint8Array;
}
