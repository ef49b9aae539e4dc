/**
 * The Parquet writer's options and schema forms, apart from its class
 * (writer.ts) and its machinery (writer-core.ts), which both use them; the
 * class takes the types alone, so the root reaches none of this module's code.
 */
import type { CodecName } from '../../codecs/registry.js';
import type { ColumnIndex, ColumnMetaData } from '../metadata/index.js';
import type { AnyField } from '../../schema/builder.js';
import { projectSchema } from '../../schema/project.js';
import type { Schema, SchemaElementLike } from '../../schema/tree.js';
import type { UnknownFieldRule } from '../../shred/shred.js';
import type { WarningHandler } from '../../warnings.js';
import type { EncryptionOptions } from '../crypto/file-encryptor.js';
import type { ValueEncoding } from './column-writer.js';
import type { PagePlace } from './page-index.js';
import type { FloatOrder } from './stats.js';

/** Options of one column (the writer's `columns` option, by dotted path), over the file-wide ones. */
export interface ColumnWriteOptions {
  codec?: CodecName;
  compressionLevel?: number;
  /** Value encoding once the dictionary is off or given up (default PLAIN). */
  encoding?: ValueEncoding;
  /** Dictionary-encode this column (default true, except booleans). */
  dictionary?: boolean;
  statistics?: boolean;
}

/**
 * The writer's options: codec, row group and page sizes, encodings, statistics, page index, bloom
 * filters, encryption (docs/writing.md).
 */
export interface WriterOptions extends Omit<ColumnWriteOptions, 'encoding'>, UnknownFieldRule {
  /**
   * Hears what the writer changed without failing: a string with lone
   * surrogates (UTF-16 that is not text) is written with U+FFFD in their
   * place, reported once per column with the first record that had one.
   */
  onWarning?: WarningHandler;
  /** Byte budget of a row group in memory before it is written (default 128 MiB). */
  rowGroupSize?: number;
  /**
   * Most rows in a row group (default 1,048,576, Arrow's: a file of millions
   * of small rows still has several row groups for readers to split work
   * across; the byte budget ends one sooner when rows are large).
   */
  rowGroupRows?: number;
  /** Target size of a data page before compression (default 1 MiB). */
  pageSize?: number;
  /** Most rows in a data page (default 20,000). */
  pageRowLimit?: number;
  /** Dictionary size at which a column falls back to its plain encoding (default 1 MiB). */
  dictionaryPageSize?: number;
  /** Data page version (default 1, the most widely read). */
  pageVersion?: 1 | 2;
  /**
   * Write a CRC-32 of every page in its header (default true, as parquet-java
   * does; readers that verify them catch corrupt pages). `false` saves the
   * CRC's time (bench/write.ts) and 6 bytes a page.
   */
  checksums?: boolean;
  /** Binary min/max statistics longer than this are truncated (default 64 bytes). */
  statisticsTruncateLength?: number;
  /**
   * The column order of float columns (FLOAT, DOUBLE, FLOAT16): `'type'`
   * (default, TYPE_ORDER, which every reader knows) or `'total'`
   * (IEEE_754_TOTAL_ORDER: -0 below +0, all-NaN pages bounded by their NaNs;
   * readers that do not know it ignore these columns' bounds). NaN counts
   * are written in either order.
   */
  floatOrder?: FloatOrder;
  /** Per-column settings by dotted leaf path, over the file-wide ones. */
  columns?: Record<string, ColumnWriteOptions>;
  /** Key-value metadata stored in the footer. */
  metadata?: Record<string, string>;
  /** The sort order the rows are in, recorded as sorting_columns in each row group. */
  sortedBy?: { column: string; descending?: boolean; nullsFirst?: boolean }[];
  /**
   * Write a page index (ColumnIndex and OffsetIndex of every column chunk,
   * before the footer) so readers can skip pages (default true).
   */
  pageIndex?: boolean;
  /** Binary min/max in the ColumnIndex longer than this are truncated, the max rounded up (default 64 bytes). */
  columnIndexTruncateLength?: number;
  /**
   * Split-block bloom filters, by dotted leaf path: `true` for the defaults,
   * or `{ ndv, fpp }`: expected distinct values per row group (default: the
   * distinct values each chunk actually has) and false-positive probability
   * (default 0.01). Written after the row groups.
   */
  bloomFilters?: Record<string, { ndv?: number; fpp?: number } | true>;
  /**
   * After every N row groups, write a checkpoint (the file metadata so far,
   * framed between row groups where readers never look; ARCHITECTURE.md
   * "Checkpoints") so that `recover` can restore those row groups if the
   * writer dies before close(). Needs page CRCs (checksums stay on).
   */
  checkpointEvery?: number;
  /**
   * Write the file with Parquet modular encryption (docs/encryption.md):
   * each page, header, bloom filter, page index and the footer sealed as it
   * is written, so memory stays one row group. Not with checkpoints.
   */
  encryption?: EncryptionOptions;
}

/** A column chunk of an encoded row group: its pages, its metadata (offsets from the chunk's start), its column index and bloom filter. */
export interface EncodedChunkBytes {
  pages: PagePlace[];
  meta: ColumnMetaData;
  byteLength: number;
  columnIndex?: ColumnIndex;
  bloom?: Uint8Array;
}

/** A row group encoded apart (`ParquetWriter.encodeRowGroup`), plain data a worker thread can hand over. */
export interface EncodedRowGroup {
  rows: number;
  chunks: EncodedChunkBytes[];
}

/**
 * A schema as a SchemaElement list (root first), what `defineSchema`
 * returns, whose record type (`InferInput`) then types the writer's `write()`, or
 * a schema tree (a table's `schema`: a copy keeps the table's types).
 */
export type WriterSchema<Row = Record<string, unknown>> = readonly SchemaElementLike[] | { elements: readonly SchemaElementLike[]; readonly __input?: Row; fields?: ReadonlyArray<readonly [string, AnyField]> } | Schema;

/** A writer's schema as the elements it writes (a tree, any table's `schema` whatever its format, as the elements it was built from). */
export function writerElements<Row>(schema: WriterSchema<Row>): readonly SchemaElementLike[] {
  return 'root' in schema ? projectSchema(schema, schema.leaves) : 'elements' in schema ? schema.elements : schema;
}

/** The byte budget of a row group in memory when `rowGroupSize` is not given. */
export const DEFAULT_ROW_GROUP_SIZE = 128 * 1024 * 1024;
