// The writer's machinery beyond its record loop (writer-core.ts, which
// ParquetWriter.open() loads on first use): encoding, statistics, page
// indexes, bloom filters, encryption, GeoParquet metadata, Arrow input.
export { ArrowShredder } from '../../arrow/shred.js';
export { ArrowColumns, batchColumns } from '../../arrow/columns.js';
export { firstUnknownKey, isPlainObject, RecordShredder } from '../../shred/shred.js';
export { FooterChunks } from './footer-chunks.js';
export { encodeBloomFilter, loadBloomHasher } from '../bloom/index.js';
export { ColumnWriter } from './column-writer.js';
export { buildColumnIndex, buildOffsetIndex } from './page-index.js';
export { isFloatColumn } from './stats.js';
export { isWellFormed } from '../../encodings/values-builder.js';
export { encodeCheckpoint } from './checkpoint.js';
export { footerBytes, PARQUET_MAGIC } from './footer-bytes.js';
export { BufferedSink } from '../../io/buffered-sink.js';
export { geoParquetMetadata } from './geoparquet.js';
export { FileEncryptor } from '../crypto/file-encryptor.js';
