/**
 * The byte buffer text is written into from column vectors: ASCII and
 * UTF-8 strings, integers, dates and timestamps printed straight into the
 * bytes, as String(v) and temporal-format.ts print them.
 */
import { copyBytes } from '../bytes/concat.js';
import { writeDouble } from './double-text.js';

const encoder = new TextEncoder();

/** Cells up to this many bytes are copied byte by byte: a view for set() per cell, at 32 bytes (copyBytes' default), was most of the text's allocation (nested fields' cells as CSV are 30-60 bytes). */
const CELL_COPY = 128;

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
    copyBytes(this.buf, this.pos, src, s, e, CELL_COPY);
    this.pos += e - s;
  }

  /** src[s] to src[e] in double quotes. */
  quoted(src: Uint8Array, s: number, e: number): void {
    this.room(e - s + 2);
    const buf = this.buf;
    buf[this.pos] = 34;
    copyBytes(buf, this.pos + 1, src, s, e, CELL_COPY);
    this.pos += e - s + 2;
    buf[this.pos - 1] = 34;
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

/** Writes n (0-99) as two digits at p. */
function two(buf: Uint8Array, p: number, n: number): void {
  const t = Math.floor(n / 10);
  buf[p] = 48 + t;
  buf[p + 1] = 48 + n - t * 10;
}
