/** Thrift compact protocol: wire primitives, declarative struct tables, and their compiled codecs. */
export * from './compact.js';
export * from './spec.js';
export * from './codec.js';
export { codegenAvailable, generateDecoder, generatedSource } from './gen.js';
export type { GeneratedDecoder } from './gen.js';
