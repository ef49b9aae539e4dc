export { CODEC_NAMES, type Codec, type CodecName, MAX_BLOCK_SIZE, defineCodec } from './codec.js';
export { getCodec, loadCodec, registerCodec } from './registry.js';
