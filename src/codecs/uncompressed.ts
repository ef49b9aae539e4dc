/** UNCOMPRESSED: the page bytes as they are; only the size is checked. */
import { defineCodec } from './codec.js';

export const uncompressed = defineCodec(
  'UNCOMPRESSED',
  (input) => input,
  (input) => input,
);
