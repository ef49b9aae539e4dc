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

/**
 * Value `i` of a byte-array column (value i is data[offsets[i] .. offsets[i + 1])) as text.
 * Built for reading values in order: runs of ASCII values are decoded a
 * window at a time, which is several times faster than a call per value;
 * any other window falls back to `utf8Decode` per value. Same strings either way.
 */
export function utf8Column(data: Uint8Array, offsets: ArrayLike<number>): { at(i: number): string; fill(out: unknown[], from: number, count: number): void } {
  const n = offsets.length - 1;
  let lo = 0; // values [lo, hi) lie in the current window
  let hi = 0;
  let base = 0; // byte offset of the window's start
  let text: string | null = null; // the window's text, or null when it is not plain ASCII

  function load(i: number): void {
    lo = i;
    base = offsets[i]!;
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
    if (!ok || end > data.length || end - base <= SHORT) {
      text = null;
      return;
    }
    const s = decoder.decode(data.subarray(base, end));
    // Every non-ASCII sequence (or invalid byte) decodes to fewer UTF-16 units than it has bytes.
    text = s.length === end - base ? s : null;
  }

  function at(i: number): string {
    if (i < lo || i >= hi) {
      if (i < 0 || i >= n) return utf8Decode(data, offsets[i]!, offsets[i + 1]!);
      load(i);
    }
    return text === null ? utf8Decode(data, offsets[i]!, offsets[i + 1]!) : text.substring(offsets[i]! - base, offsets[i + 1]! - base);
  }

  function fill(out: unknown[], from: number, count: number): void {
    for (let k = 0; k < count; k++) {
      const i = from + k;
      if (i >= hi || i < lo) {
        if (i < 0 || i >= n) {
          out[k] = utf8Decode(data, offsets[i]!, offsets[i + 1]!);
          continue;
        }
        load(i);
      }
      out[k] = text === null ? utf8Decode(data, offsets[i]!, offsets[i + 1]!) : text.substring(offsets[i]! - base, offsets[i + 1]! - base);
    }
  }

  return { at, fill };
}
