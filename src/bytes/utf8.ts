/**
 * UTF-8 bytes to strings: one value at a time, and whole string columns.
 * Invalid bytes become U+FFFD, as TextDecoder makes them.
 */
const decoder = new TextDecoder('utf-8');

/** Values up to this many bytes are built in JS when ASCII; a TextDecoder call costs more than that. */
const SHORT = 24;

/** Reused argument arrays for String.fromCharCode, one per length: no allocation per value. */
const CODES: number[][] = Array.from({ length: SHORT + 1 }, (_, n) => new Array<number>(n).fill(0));

export function utf8Decode(data: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n <= 0) return '';
  if (n <= SHORT) {
    // One fromCharCode call over a scratch array: a flat string, not one intermediate string per byte.
    const codes = CODES[n]!;
    for (let i = 0; i < n; i++) {
      const b = data[start + i]!;
      if (b >= 0x80) return decoder.decode(data.subarray(start, end));
      codes[i] = b;
    }
    return String.fromCharCode.apply(null, codes);
  }
  return decoder.decode(data.subarray(start, end));
}

/**
 * Bytes per decoding window of a string column. Consecutive values are
 * decoded with one TextDecoder call per window and cut out of the result;
 * V8 may keep such a value as a slice of its window, so a value that
 * outlives its neighbours holds at most this many bytes of them.
 */
const WINDOW = 2048;

/** For windows: throws on invalid UTF-8 (then values are decoded one by one) and keeps a U+FEFF. */
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The portable check: a fatal TextDecoder, native in every runtime, but it makes the string it then drops. */
let validUtf8 = (data: Uint8Array): boolean => {
  try {
    strict.decode(data);
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
 * Value `i` of a byte-array column (value i is data[offsets[i] .. offsets[i + 1])) as text,
 * the same string `utf8Decode` gives. Built for reading values in order:
 * consecutive values are decoded a window at a time, which is several times
 * faster than a call per value. A window of valid UTF-8 whose values each
 * start on a character boundary (and none with a byte order mark, which a
 * decode of the value alone drops) is cut at the values' UTF-16 positions;
 * any other window falls back to `utf8Decode` per value.
 */
export function utf8Column(data: Uint8Array, offsets: ArrayLike<number>): { at(i: number): string; fill(out: unknown[], from: number, count: number): void } {
  const n = offsets.length - 1;
  let lo = 0; // values [lo, hi) lie in the current window
  let hi = 0;
  let base = 0; // byte offset of the window's start
  let text: string | null = null; // the window's text; null: decode value by value
  /** Non-ASCII windows: the UTF-16 start of value i at units[i - lo] (and the end after the last); null when bytes and units agree. */
  let units: Int32Array | null = null;
  let unitsBuf = new Int32Array(0);

  function load(i: number): void {
    lo = i;
    base = offsets[i]!;
    text = null;
    units = null;
    let prev = offsets[i + 1]!;
    let ok = prev >= base;
    let j = i + 1;
    while (j < n) {
      const next = offsets[j + 1]!;
      if (next - base > WINDOW) break;
      if (next < prev) ok = false; // offsets out of order: leave them to utf8Decode
      prev = next;
      j++;
    }
    hi = j;
    const end = offsets[j]!;
    if (!ok || base < 0 || end > data.length || (j - i > 1 && end - base <= SHORT)) return;
    let s: string;
    try {
      s = strict.decode(data.subarray(base, end));
    } catch {
      return; // invalid somewhere: value by value, with U+FFFD where it belongs
    }
    if (s.length === end - base) {
      text = s; // every byte was one character: ASCII
      return;
    }
    // A character starts at every byte that is not a continuation byte; one of four bytes takes two UTF-16 units.
    if (unitsBuf.length < j - i + 1) unitsBuf = new Int32Array(Math.max(64, 2 * (j - i + 1)));
    const u = unitsBuf;
    let pos = 0;
    for (let v = i; v < j; v++) {
      const a = offsets[v]!;
      const b = offsets[v + 1]!;
      if (a < b) {
        const first = data[a]!;
        if ((first & 0xc0) === 0x80) return; // starts inside a character: invalid alone
        if (first === 0xef && b - a >= 3 && data[a + 1] === 0xbb && data[a + 2] === 0xbf) return; // alone, its BOM would be dropped
      }
      u[v - i] = pos;
      for (let k = a; k < b; k++) {
        const c = data[k]!;
        if ((c & 0xc0) !== 0x80) pos += c >= 0xf0 ? 2 : 1;
      }
    }
    u[j - i] = pos;
    if (pos !== s.length) return; // cannot happen for valid UTF-8; stay safe
    text = s;
    units = u;
  }

  function at(i: number): string {
    if (i < lo || i >= hi) {
      if (!(i >= 0 && i < n)) return utf8Decode(data, offsets[i]!, offsets[i + 1]!);
      load(i);
    }
    if (text === null) return utf8Decode(data, offsets[i]!, offsets[i + 1]!);
    if (units === null) return text.substring(offsets[i]! - base, offsets[i + 1]! - base);
    return text.substring(units[i - lo]!, units[i - lo + 1]!);
  }

  function fill(out: unknown[], from: number, count: number): void {
    for (let k = 0; k < count; k++) out[k] = at(from + k);
  }

  return { at, fill };
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
