export { RedElmReader, type RedElmOpenOptions, type RedElmReadOptions } from './reader.js';
export { isRedElmMagic, REDELM_MAGIC, type MetaDataBlock } from './container.js';
export type { RedElmMetaData, RedElmBlockMeta, RedElmColumnMeta, RedElmType } from './metadata.js';
export { redElmSummary, type RedElmSummary } from './summary.js';
export { RedElmWriter, type RedElmWriterOptions } from './writer.js';
export { parseRedElmSchema, formatRedElmSchema } from './schema.js';
