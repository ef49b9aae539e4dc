/**
 * The byte buffer text is written into from column vectors: ASCII and
 * UTF-8 strings, integers, dates and timestamps printed straight into the
 * bytes, as String(v) and temporal-format.ts print them.
 */
import { copyBytes } from '../bytes/concat.js';
import { writeDouble } from './double-text.js';

const encoder = new TextEncoder();

/**
 * A field's cells for a block of rows, as spans: the block's i-th row's
 * bytes are src[start[i]] to src[end[i]].
 */
export interface Spans {
  src: Uint8Array;
  start: Int32Array;
  end: Int32Array;
}

/** One growing byte buffer: the text of a block of rows. */
export class TextBytes {
  buf: Uint8Array;
  pos = 0;

  constructor(size = 1 << 20) {
    this.buf = new Uint8Array(size);
  }

  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    bigger.set(this.buf.subarray(0, this.pos));
    this.buf = bigger;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.pos++] = b;
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    copyBytes(this.buf, this.pos, b, 0, n);
    this.pos += n;
  }

  /** src[s] to src[e]. */
  span(src: Uint8Array, s: number, e: number): void {
    this.room(e - s);
    copyBytes(this.buf, this.pos, src, s, e);
    this.pos += e - s;
  }

  /** A string's UTF-8: ASCII byte by byte, the rest through TextEncoder (lone surrogates become U+FFFD, as `encode` makes them). */
  text(s: string): void {
    this.room(s.length * 3);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.pos = p + encoder.encodeInto(s.slice(i), buf.subarray(p)).written;
        return;
      }
      buf[p++] = c;
    }
    this.pos = p;
  }

  /** An integer of at most 2^53 in magnitude, as String(v) prints it. */
  int(v: number): void {
    this.room(17);
    const buf = this.buf;
    let p = this.pos;
    if (v < 0) {
      buf[p++] = 45;
      v = -v;
    }
    let end = p + 1;
    for (let t = 10; t <= v; t *= 10) end++;
    p = end;
    do {
      const q = Math.floor(v / 10);
      buf[--p] = 48 + (v - q * 10);
      v = q;
    } while (v > 0);
    this.pos = end;
  }

  /** values[k], a finite double, as String(v) prints it: an integer within 2^53 as one, others by double-text.ts where it can (given the array and index: see writeDouble). */
  double(values: Float64Array | Float32Array, k: number): void {
    const v = values[k]!;
    if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return this.int(v);
    this.room(25);
    const end = writeDouble(this.buf, this.pos, values, k);
    if (end < 0) this.text(String(v));
    else this.pos = end;
  }

  /** Writes `n` as `width` digits at `p` (n < 10^width). */
  private digits(p: number, n: number, width: number): void {
    for (let i = p + width - 1; i >= p; i--) {
      const q = Math.floor(n / 10);
      this.buf[i] = 48 + n - q * 10;
      n = q;
    }
  }

  /** `YYYY-MM-DD` (`quoted`: in quotes) for days since the epoch, as formatDate prints it; false, writing nothing, for a year outside 0-9999. */
  date(days: number, quoted: boolean): boolean {
    const y = civil(days);
    if (y < 0 || y > 9999) return false;
    this.room(12);
    let p = this.pos;
    if (quoted) this.buf[p++] = 34;
    this.ymd(p, y, civilMonth, civilDay);
    p += 10;
    if (quoted) this.buf[p++] = 34;
    this.pos = p;
    return true;
  }

  private ymd(p: number, y: number, m: number, d: number): void {
    const buf = this.buf;
    two(buf, p, Math.floor(y / 100));
    two(buf, p + 2, y % 100);
    buf[p + 4] = 45;
    two(buf, p + 5, m);
    buf[p + 7] = 45;
    two(buf, p + 8, d);
  }

  /**
   * `YYYY-MM-DDTHH:MM:SS.fff` then `tail` (the Z, the closing quote) for `v`
   * units since the epoch, `per` a second, as formatTimestamp prints it
   * (the opening quote when `tail` ends in one); false, writing nothing,
   * beyond 2^52 units (NANOS past 52 days from the epoch go to formatTimestamp) or outside years 0-9999.
   * v comes as its 64 bits' high and low 32 (signed): a number past 2^31 passed to a call is a new heap object.
   */
  timestamp(high: number, low: number, per: number, tail: string): boolean {
    const v = high * 4294967296 + (low >>> 0);
    if (!(Math.abs(v) <= 2 ** 52)) return false;
    const perDay = per * 86400;
    let days = Math.floor(v / perDay);
    let rem = v - days * perDay;
    if (rem < 0) {
      days--;
      rem += perDay;
    } else if (rem >= perDay) {
      days++;
      rem -= perDay;
    }
    const y = civil(days);
    if (y < 0 || y > 9999) return false;
    const width = per === 1000 ? 3 : per === 1e6 ? 6 : 9;
    this.room(32);
    const buf = this.buf;
    let p = this.pos;
    const quoted = tail.charCodeAt(tail.length - 1) === 34;
    if (quoted) buf[p++] = 34;
    this.ymd(p, y, civilMonth, civilDay);
    const secs = Math.floor(rem / per);
    const frac = rem - secs * per;
    const hours = Math.floor(secs / 3600);
    const minutes = Math.floor(secs / 60) - hours * 60;
    buf[p + 10] = 84; // T
    two(buf, p + 11, hours);
    buf[p + 13] = 58;
    two(buf, p + 14, minutes);
    buf[p + 16] = 58;
    two(buf, p + 17, secs - Math.floor(secs / 60) * 60);
    buf[p + 19] = 46;
    this.digits(p + 20, frac, width);
    p += 20 + width;
    for (let i = 0; i < tail.length; i++) buf[p++] = tail.charCodeAt(i);
    this.pos = p;
    return true;
  }

  /**
   * Quotes the CSV cell written since `start` where csvQuote would (it
   * holds the delimiter, a quote, CR or LF), doubling its quotes, on the
   * bytes: `delim` an ASCII delimiter's code.
   */
  quoteSince(start: number, delim: number): void {
    let quotes = 0;
    let quote = false;
    for (let i = start; i < this.pos; i++) {
      const b = this.buf[i]!;
      if (b === 34) quotes++;
      else if (b === delim || b === 10 || b === 13) quote = true;
    }
    if (!quote && quotes === 0) return;
    this.room(quotes + 2);
    const buf = this.buf;
    let w = this.pos + quotes + 1;
    buf[w] = 34;
    for (let i = this.pos - 1; i >= start; i--) {
      const b = buf[i]!;
      buf[--w] = b;
      if (b === 34) buf[--w] = 34;
    }
    buf[start] = 34;
    this.pos += quotes + 2;
  }

}

/** The month and day of the last `civil` call: a tuple returned per value cost an allocation per cell. */
let civilMonth = 0;
let civilDay = 0;

/** The year from days since 1970-01-01, and its month and day in civilMonth, civilDay (Hinnant's civil_from_days, as temporal-format.ts's, in numbers for days within ±2^31). */
function civil(days: number): number {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  civilDay = doy - Math.floor((153 * mp + 2) / 5) + 1;
  civilMonth = mp < 10 ? mp + 3 : mp - 9;
  return yoe + era * 400 + (civilMonth <= 2 ? 1 : 0);
}

/**
 * `n` rows from their fields' spans, in a buffer of their size: each row
 * the fields' cells, each after its prefix (the delimiter, the JSON key),
 * then `end`.
 */
export function joinRows(fields: Spans[], n: number, prefixes: Uint8Array[], end: Uint8Array): Uint8Array {
  // Each row's place first, then each field's cells copied into the rows, one field at a time: its source buffer stays the same through a loop.
  // Each long loop is a function of its own: code after a loop V8 compiled while it ran, not run by then, threw that code away on every call (bits.ts's unpack1).
  const at = new Int32Array(n);
  const buf = new Uint8Array(rowPlaces(at, fields, prefixes, end.length));
  for (let f = 0; f < fields.length; f++) {
    const pre = prefixes[f]!;
    const { src, start, end: stop } = fields[f]!;
    copyCells(buf, at, n, pre, src, start, stop);
  }
  endRows(buf, at, n, end);
  return buf;
}

/** Sets each row's place in the joined text and returns the text's size. */
function rowPlaces(at: Int32Array, fields: Spans[], prefixes: Uint8Array[], endLength: number): number {
  let size = 0;
  for (let i = 0; i < at.length; i++) {
    at[i] = size;
    size += endLength;
    for (let f = 0; f < fields.length; f++) size += prefixes[f]!.length + fields[f]!.end[i]! - fields[f]!.start[i]!;
  }
  return size;
}

/** Writes `end` at each row's place, after its cells. */
function endRows(buf: Uint8Array, at: Int32Array, n: number, end: Uint8Array): void {
  for (let i = 0; i < n; i++) {
    let p = at[i]!;
    for (let j = 0; j < end.length; j++) buf[p++] = end[j]!;
  }
}

/** Cells up to this many bytes are copied byte by byte: a view for set() per cell, at 32 bytes (copyBytes' default), was most of the text's allocation (nested fields' cells as CSV are 30-60 bytes). */
const CELL_COPY = 128;

/** Each row's prefix and cell at its place `at[i]`, which moves past them. */
function copyCells(buf: Uint8Array, at: Int32Array, n: number, pre: Uint8Array, src: Uint8Array, start: Int32Array, stop: Int32Array): void {
  const k = pre.length;
  for (let i = 0; i < n; i++) {
    let p = at[i]!;
    for (let j = 0; j < k; j++) buf[p++] = pre[j]!;
    const s = start[i]!;
    const e = stop[i]!;
    copyBytes(buf, p, src, s, e, CELL_COPY);
    at[i] = p + e - s;
  }
}

/** Writes n (0-99) as two digits at p. */
function two(buf: Uint8Array, p: number, n: number): void {
  const t = Math.floor(n / 10);
  buf[p] = 48 + t;
  buf[p + 1] = 48 + n - t * 10;
}
