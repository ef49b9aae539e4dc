/** ASCII text as the byte strings the byte-array encodings take and give, and back: their tests write cases as text. */
import type { ByteArrays } from '../../src/encodings/types.js';

export const ascii = (s: string) => [...s].map((ch) => ch.charCodeAt(0));

export const strings = (s: string[]): ByteArrays => {
  const offsets = new Int32Array(s.length + 1);
  s.forEach((x, i) => (offsets[i + 1] = offsets[i]! + x.length));
  return { data: Uint8Array.from(ascii(s.join(''))), offsets };
};

export const texts = ({ data, offsets }: ByteArrays) =>
  Array.from({ length: offsets.length - 1 }, (_, i) => String.fromCharCode(...data.subarray(offsets[i], offsets[i + 1])));
