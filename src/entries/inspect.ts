/**
 * `parquetry/inspect`: what the inspection commands show. `ParquetFile`, an
 * opened file's footer, page indexes, bloom filters and dictionaries; and,
 * as functions, the footer as JSON, page headers, column sizes, size
 * statistics, dictionaries, a timed scan, statistics checked against the data (docs/cli.md), and
 * rows as canonical text.
 *
 * @module parquetry/inspect
 */
export { ParquetFile, type BloomFilterProbe } from '../parquet/file.js';
export type { PageIndexEntry } from '../parquet/filter/indexes.js';
export { selectChunks, chunkPages, type ChunkPages, type PageInfo } from '../parquet/inspect/page-headers.js';
export type { ChunkRef } from '../parquet/chunk-locator.js';
export { decodeStatistics, type DecodedStatistics } from '../parquet/statistics.js';
export { footerJson, thriftJson } from '../parquet/inspect/footer-json.js';
export type { JsonValue } from '../parquet/inspect/unknown-fields.js';
export { columnSizes, type ColumnSize } from '../parquet/inspect/column-size.js';
export { sizeStatistics, type ChunkSizeStats, type PageSizeStats } from '../parquet/inspect/size-stats.js';
export { scanFile, type ScanReport } from '../parquet/inspect/scan.js';
export { columnDictionaries, type ChunkDictionary } from '../parquet/inspect/dictionary.js';
export { checkStatistics, type CheckReport, type CheckOptions, type CheckedStructure, type Lie } from '../parquet/inspect/check-stats.js';
export { canonicalRow, canonicalValue } from '../text/canonical.js';
export { formatBytes } from '../text/byte-size.js';
