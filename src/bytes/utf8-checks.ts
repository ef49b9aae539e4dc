/**
 * UTF-8 checks and order, for conversion's input and datasets' names:
 * validity, where it fails, a sequence cut at a block's end, and code
 * point order (utf8.ts decodes, which a read loads without these).
 */
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The portable check: a fatal TextDecoder, native in every runtime, but it makes the string it then drops. */
let validUtf8 = (data: Uint8Array): boolean => {
  try {
    fatal.decode(data);
    return true;
  } catch {
    return false;
  }
};

/** Whether all of `data` is valid UTF-8. */
export function isUtf8(data: Uint8Array): boolean {
  return validUtf8(data);
}

/**
 * Installs a runtime's check that makes no string (Node's `buffer.isUtf8`):
 * a CSV input's bytes are all checked as they pass, on the thread that cuts
 * them, where the TextDecoder's strings cost 0.1-0.2 s per 100 MB.
 */
export function registerUtf8Check(check: (data: Uint8Array) => boolean): void {
  validUtf8 = check;
}

/**
 * The index of the first byte of data[start..end) that does not begin a
 * valid UTF-8 sequence there (what TextDecoder turns into U+FFFD: overlong
 * forms, surrogates, code points past U+10FFFF, stray continuation bytes,
 * sequences cut short), or -1 when every byte is valid.
 */
export function invalidUtf8At(data: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; ) {
    const b = data[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      n = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + n >= end) return i; // cut short
    const c = data[i + 1]!;
    if (c < lo || c > hi) return i;
    for (let k = 2; k <= n; k++) if ((data[i + k]! & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return -1;
}

/** How many bytes at the end of data[0..end) begin a UTF-8 sequence that the bytes after `end` may complete (0 to 3). */
export function incompleteUtf8Tail(data: Uint8Array, end: number): number {
  for (let k = 1; k <= 3 && k <= end; k++) {
    const b = data[end - k]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > k ? k : 0;
  }
  return 0;
}

/** UTF-16 code units compare like UTF-8 bytes once surrogates are moved above U+E000-U+FFFF. */
function unitRank(c: number): number {
  return c >= 0xe000 ? c - 0x800 : c >= 0xd800 ? c + 0x2000 : c;
}

/** Strings in the order of their UTF-8 bytes (code point order): DuckDB's and Parquet's order, not JS's `<`. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitRank(x) - unitRank(y);
  }
  return a.length - b.length;
}
