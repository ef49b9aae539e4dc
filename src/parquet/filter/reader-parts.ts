/**
 * What the reader uses for filters, page indexes and bloom filters, in one
 * module: the reader imports it on the first read that needs any of them
 * (reader.ts `filtering`), so opening a file compiles none of it.
 */
export { bindFilter } from './expression.js';
export { domainOf } from './compare.js';
export { pageEntries } from './indexes.js';
export { bloomMightContain, IndexCache, readRanges, scanRowGroup, scanRowGroupUntil } from './scan.js';
export { loadBloomHasher } from '../bloom/index.js';
