/** Thrift compact protocol: wire primitives, declarative struct tables, and their compiled decoders and encoders. */
export * from './compact.js';
export * from './compact-write.js';
export * from './spec.js';
export * from './codec.js';
export * from './encode.js';
