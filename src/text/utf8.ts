/**
 * UTF-8 bytes to string. Short ASCII strings (the common case in data) are
 * built directly, which is several times faster than a TextDecoder call per
 * value; anything else goes through TextDecoder (invalid bytes become U+FFFD).
 */
const decoder = new TextDecoder('utf-8');

export function utf8Decode(data: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n <= 32) {
    let s = '';
    for (let i = start; i < end; i++) {
      const b = data[i]!;
      if (b >= 0x80) return decoder.decode(data.subarray(start, end));
      s += String.fromCharCode(b);
    }
    return s;
  }
  return decoder.decode(data.subarray(start, end));
}
