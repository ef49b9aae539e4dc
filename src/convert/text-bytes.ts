/**
 * The byte buffer text is written into from column vectors: ASCII and
 * UTF-8 strings, integers, dates and timestamps printed straight into the
 * bytes, as String(v) and temporal-format.ts print them.
 */
import { copyBytes } from '../bytes/concat.js';
import { PAIRS, writeDouble } from './double-text.js';

const encoder = new TextEncoder();

/** Cells up to this many bytes are copied byte by byte: a view for set() per cell, at 32 bytes (copyBytes' default), was most of the text's allocation (nested fields' cells as CSV are 30-60 bytes). */
export const CELL_COPY = 128;

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

  /** values[k], a finite double, as String(v) prints it (see writeFinite). */
  double(values: Float64Array | Float32Array, k: number): void {
    this.room(DOUBLE_ROOM);
    const end = writeFinite(this.buf, this.pos, values, k);
    if (end < 0) this.text(String(values[k]!));
    else this.pos = end;
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

/** Bytes the writers below may write at most (the caller makes room): an integer within 2^53, a double as double-text.ts prints it, a date, a timestamp, each with its quotes. */
export const INT_ROOM = 17;
export const DOUBLE_ROOM = 25;
export const DATE_ROOM = 12;
export const TIMESTAMP_ROOM = 32;

/** Writes n (0-99) as two digits at p. */
function two(buf: Uint8Array, p: number, n: number): void {
  buf[p] = PAIRS[2 * n]!;
  buf[p + 1] = PAIRS[2 * n + 1]!;
}

/** Writes an integer of at most 2^53 in magnitude at p as String(v) prints it; returns the end. */
export function writeInt(buf: Uint8Array, p: number, v: number): number {
  if (v < 0) {
    buf[p++] = 45;
    v = -v;
  }
  let end = p + 1;
  for (let t = 10; t <= v; t *= 10) end++;
  p = end;
  // Two digits a step; below 2^31 in int32 arithmetic.
  while (v >= 2147483648) {
    const q = Math.floor(v / 100);
    const r = 2 * (v - q * 100);
    buf[--p] = PAIRS[r + 1]!;
    buf[--p] = PAIRS[r]!;
    v = q;
  }
  while (v >= 100) {
    const q = (v / 100) | 0;
    const r = 2 * (v - q * 100);
    buf[--p] = PAIRS[r + 1]!;
    buf[--p] = PAIRS[r]!;
    v = q;
  }
  if (v >= 10) {
    buf[--p] = PAIRS[2 * v + 1]!;
    buf[--p] = PAIRS[2 * v]!;
  } else buf[--p] = 48 + v;
  return end;
}

/**
 * Writes values[k], a finite double, at p as String(v) prints it: an
 * integer within 2^53 as one, others by double-text.ts; returns the end,
 * or -1 (nothing written) where String(v) must print it.
 */
export function writeFinite(buf: Uint8Array, p: number, values: Float64Array | Float32Array, k: number): number {
  const v = values[k]!;
  if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return writeInt(buf, p, v);
  return writeDouble(buf, p, values, k);
}

/** Writes `n` (an integer below 10^width, below 2^31) as `width` digits at `p`. */
function digits(buf: Uint8Array, p: number, n: number, width: number): void {
  let i = p + width;
  while (i - p >= 2) {
    const q = (n / 100) | 0;
    const r = 2 * (n - q * 100);
    buf[--i] = PAIRS[r + 1]!;
    buf[--i] = PAIRS[r]!;
    n = q;
  }
  if (i > p) buf[--i] = 48 + n;
}

/** `YYYY-MM-DD` at p, from civil's year and its month and day. */
function ymd(buf: Uint8Array, p: number, y: number): void {
  const c = (y / 100) | 0;
  two(buf, p, c);
  two(buf, p + 2, y - c * 100);
  buf[p + 4] = 45;
  two(buf, p + 5, civilMonth);
  buf[p + 7] = 45;
  two(buf, p + 8, civilDay);
}

/** Writes `YYYY-MM-DD` (`quoted`: in quotes) at p for days since the epoch, as formatDate prints it; returns the end, or -1 (nothing written) for a year outside 0-9999. */
export function writeDate(buf: Uint8Array, p: number, days: number, quoted: boolean): number {
  const y = civil(days);
  if (y < 0 || y > 9999) return -1;
  if (quoted) buf[p++] = 34;
  ymd(buf, p, y);
  p += 10;
  if (quoted) buf[p++] = 34;
  return p;
}

/**
 * Writes `YYYY-MM-DDTHH:MM:SS.fff` then `tail` (the Z, the closing quote)
 * at p for `v` units since the epoch, `per` a second, as formatTimestamp
 * prints it (the opening quote when `tail` ends in one); returns the end,
 * or -1 (nothing written) beyond 2^52 units (NANOS past 52 days from the
 * epoch go to formatTimestamp) or outside years 0-9999. v comes as its 64
 * bits' high and low 32 (signed): a number past 2^31 passed to a call is a
 * new heap object.
 */
export function writeTimestamp(buf: Uint8Array, p: number, high: number, low: number, per: number, tail: string): number {
  const v = high * 4294967296 + (low >>> 0);
  if (!(Math.abs(v) <= 2 ** 52)) return -1;
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
  if (y < 0 || y > 9999) return -1;
  const width = per === 1000 ? 3 : per === 1e6 ? 6 : 9;
  const quoted = tail.charCodeAt(tail.length - 1) === 34;
  if (quoted) buf[p++] = 34;
  ymd(buf, p, y);
  const secs = Math.floor(rem / per);
  const frac = rem - secs * per;
  const hours = (secs / 3600) | 0;
  const minutes = ((secs / 60) | 0) - hours * 60;
  buf[p + 10] = 84; // T
  two(buf, p + 11, hours);
  buf[p + 13] = 58;
  two(buf, p + 14, minutes);
  buf[p + 16] = 58;
  two(buf, p + 17, secs - ((secs / 60) | 0) * 60);
  buf[p + 19] = 46;
  digits(buf, p + 20, frac, width);
  p += 20 + width;
  for (let i = 0; i < tail.length; i++) buf[p++] = tail.charCodeAt(i);
  return p;
}

/** The month and day of the last `civil` call: a tuple returned per value cost an allocation per cell. */
let civilMonth = 0;
let civilDay = 0;

/**
 * The year from days since 1970-01-01, and its month and day in civilMonth,
 * civilDay (Hinnant's civil_from_days, as temporal-format.ts's). Counted
 * from the year -400 (an era, 146,097 days, before Hinnant's year 0), every
 * step is of non-negative int32s; an earlier day gives -1, one past 2^31
 * days 10^6.
 */
function civil(days: number): number {
  const z = days + 719468 + 146097;
  if (!(z >= 0 && z < 2 ** 31)) return z < 0 ? -1 : 1e6;
  const era = (z / 146097) | 0;
  const doe = z - era * 146097;
  const yoe = ((doe - ((doe / 1460) | 0) + ((doe / 36524) | 0) - ((doe / 146096) | 0)) / 365) | 0;
  const doy = doe - (365 * yoe + ((yoe / 4) | 0) - ((yoe / 100) | 0));
  const mp = ((5 * doy + 2) / 153) | 0;
  civilDay = doy - (((153 * mp + 2) / 5) | 0) + 1;
  civilMonth = mp < 10 ? mp + 3 : mp - 9;
  return yoe + (era - 1) * 400 + (civilMonth <= 2 ? 1 : 0);
}
