/**
 * Java's "modified UTF-8" (DataOutput.writeUTF, serialized strings and class
 * names): UTF-16 code units one by one, U+0000 as the two bytes C0 80, each
 * surrogate as its own three-byte sequence. Lone surrogates are kept.
 */
import { CorruptFileError } from '../errors.js';

/** Decodes `bytes`; `offset` (the file offset of bytes[0]) locates errors. */
export function decodeModifiedUtf8(bytes: Uint8Array, offset: number): string {
  const units: number[] = [];
  let text = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    let unit: number;
    if (b < 0x80) {
      unit = b;
      i += 1;
    } else if ((b & 0xe0) === 0xc0 && i + 1 < bytes.length && (bytes[i + 1]! & 0xc0) === 0x80) {
      unit = ((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
      i += 2;
    } else if ((b & 0xf0) === 0xe0 && i + 2 < bytes.length && (bytes[i + 1]! & 0xc0) === 0x80 && (bytes[i + 2]! & 0xc0) === 0x80) {
      unit = ((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
      i += 3;
    } else {
      throw new CorruptFileError(`malformed modified UTF-8 byte 0x${b.toString(16)}`, { offset: offset + i });
    }
    units.push(unit);
    // Flush in slices: String.fromCharCode takes its units as arguments.
    if (units.length === 4096) text += String.fromCharCode(...units.splice(0));
  }
  return text + String.fromCharCode(...units);
}

/** The modified UTF-8 bytes of `s`. */
export function encodeModifiedUtf8(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 1 && c < 0x80) {
      out[n++] = c;
    } else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
    } else {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    }
  }
  return out.subarray(0, n);
}
