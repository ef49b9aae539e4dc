/** parquet.thrift: the metadata types, their tables, and decode/encode entry points. */
export type * from './types.js';
export * from './codec.js';
export * as tables from './tables.js';
