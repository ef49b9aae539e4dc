// hysnappy's compressor alone (its index holds the decompressor too, which
// the package does not use): its types are its index's.
declare module 'hysnappy/js/compress.js' {
  export { snappyCompressor } from 'hysnappy';
}
