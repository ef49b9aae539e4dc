// hysnappy's two halves, imported apart (its index holds both, and a bundle
// of a reader would keep the compressor): their types are its index's.
declare module 'hysnappy/js/uncompress.js' {
  export { snappyUncompressor } from 'hysnappy';
}
declare module 'hysnappy/js/compress.js' {
  export { snappyCompressor } from 'hysnappy';
}
