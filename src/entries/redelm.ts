/**
 * `parquetry/redelm`: RedElm files (2012, Parquet's predecessor), read and
 * written as the Java prototype does (docs/redelm.md). In Node, `openRedElm`
 * also opens file paths.
 *
 * @module parquetry/redelm
 */
export { RedElmReader, type RedElmOpenOptions, type RedElmReadOptions } from '../redelm/reader.js';
export { RedElmWriter, type RedElmWriterOptions } from '../redelm/writer.js';
export { redElmSummary, type RedElmSummary } from '../redelm/summary.js';
export { parseRedElmSchema, formatRedElmSchema } from '../redelm/schema.js';
export type { MetaDataBlock } from '../redelm/container.js';
export type { RedElmMetaData, RedElmBlockMeta, RedElmColumnMeta, RedElmType } from '../redelm/metadata.js';
