/** The Parquet VARIANT logical type: binary decoding and shredded-variant reassembly. */
export { assembleVariant } from './assemble.js';
export { splitVariantBin } from './bin.js';
export { MAX_VARIANT_DEPTH, VariantMetadata, decodeVariant, decodeVariantValue, parseVariantMetadata } from './decode.js';
