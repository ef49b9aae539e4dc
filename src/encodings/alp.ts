/**
 * ALP (encoding 10, parquet-format AlpEncoding.md) for FLOAT and DOUBLE: a
 * 7-byte page header (mode, integer encoding, log2 of the vector size, value
 * count), an offset per vector, then vectors that each store their values as
 * integers `round(v * 10^e * 10^-f)` (frame of reference, bit-packed LSB
 * first) and the values that do not come back exactly as exceptions (their
 * position and their own bits). Decoding is normative to the bit: `encoded *
 * 10^f * 10^-e`, two multiplications in the type's precision by the
 * correctly rounded constants below; everything the encoder chooses is free.
 */
import type { ByteCursor } from '../bytes/cursor.js';
import type { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError, InvalidArgumentError, UnsupportedError } from '../errors.js';
import { LITTLE_ENDIAN, unpackLsb } from './bits.js';
import { unpackLsb64 } from './bits64.js';
import { packLsb, packLsb64 } from './bit-pack.js';

type FloatType = 'FLOAT' | 'DOUBLE';

// The correctly rounded values of the literals 1e0..1e18 and 1e-0..1e-18 (JS parses literals correctly rounded).
const POW10 = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18];
const NEG_POW10 = [1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18];
// FLOAT's constants, binary32 (exponents to 10): rounding each double literal to binary32 gives the correctly rounded binary32 value for these (test/encodings/alp.test.ts checks).
const POW10_F = POW10.slice(0, 11).map(Math.fround);
const NEG_POW10_F = NEG_POW10.slice(0, 11).map(Math.fround);

const HEADER = 7;
const MAX_EXPONENT: Record<FloatType, number> = { FLOAT: 10, DOUBLE: 18 };
const WIDTH: Record<FloatType, number> = { FLOAT: 4, DOUBLE: 8 };
/** AlpInfo (4) and ForInfo (5 or 9) bytes before a vector's data. */
const VECTOR_HEADER: Record<FloatType, number> = { FLOAT: 9, DOUBLE: 13 };
const TWO32 = 4294967296;

/** FLOAT decoding in binary32: each product of two binary32 values is exact in binary64, so rounding it once is binary32 arithmetic. */
function decodeFloat(encoded: number, f: number, e: number): number {
  return Math.fround(Math.fround(Math.fround(encoded) * POW10_F[f]!) * NEG_POW10_F[e]!);
}

function decodeDouble(encoded: number, f: number, e: number): number {
  return encoded * POW10[f]! * NEG_POW10[e]!;
}

// ------------------------------------------------------------------ decoding

/**
 * Decodes `count` values of `type` from `c.pos` to `c.end` (the page's
 * values section), every size and offset checked against the bytes there;
 * leaves `c.pos` at `c.end`.
 */
export function decodeAlp(c: ByteCursor, type: FloatType, count: number): Float32Array | Float64Array {
  return new AlpStream(c, type, count).read(count);
}

/**
 * A page's values read or passed over `n` at a time. Opening reads the page
 * header and every vector's header (a few bytes per vector), which checks
 * the offsets and sizes of all of them; a skip is then arithmetic, and a
 * read unpacks only the vectors that hold the values it wants: whole ones
 * straight into its output, one it starts or ends inside into a buffer kept
 * for the next call. Leaves `c.pos` at `c.end`.
 */
export class AlpStream {
  private readonly buf: Uint8Array;
  private readonly dv: DataView;
  private readonly vectorSize: number;
  /** Where the offset array starts; vector v is at base + offset[v]. */
  private readonly base: number;
  private readonly at: number;
  private i = 0;
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;
  /** The vector last unpacked for a partial use, and which one it is (-1: none). */
  private readonly vec: Float32Array | Float64Array;
  private readonly vecBytes: Uint8Array;
  private vecIndex = -1;

  constructor(c: ByteCursor, private readonly type: FloatType, private readonly count: number) {
    this.at = c.fileOffset;
    // Exceptions are copied into the output's bytes as they are stored: little-endian.
    if (!LITTLE_ENDIAN) throw new UnsupportedError('ALP decoding on a big-endian platform');
    c.need(HEADER, 'the ALP page header');
    const { buf } = c;
    const start = c.pos;
    const mode = buf[start]!;
    const integerEncoding = buf[start + 1]!;
    const logVector = buf[start + 2]!;
    const n = new DataView(buf.buffer, buf.byteOffset + start + 3, 4).getInt32(0, true);
    if (mode !== 0) throw new UnsupportedError(`ALP compression mode ${mode} (only 0, ALP, is defined)`);
    if (integerEncoding !== 0) throw new UnsupportedError(`ALP integer encoding ${integerEncoding} (only 0, FOR and bit-packing, is defined)`);
    if (logVector < 3 || logVector > 15) this.fail(`log2 of the vector size is ${logVector}, outside 3..15`);
    if (n !== count) this.fail(`the page header counts ${n} values where the page's levels define ${count}`);
    this.buf = buf;
    this.dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.vectorSize = 1 << logVector;
    this.base = start + HEADER; // offsets are relative to the offset array
    this.checkVectors(c.end);
    c.pos = c.end;
    this.lo = new Int32Array(Math.min(this.vectorSize, n));
    this.hi = type === 'DOUBLE' ? new Int32Array(this.lo.length) : this.lo;
    this.vec = type === 'FLOAT' ? new Float32Array(this.lo.length) : new Float64Array(this.lo.length);
    this.vecBytes = new Uint8Array(this.vec.buffer);
  }

  private fail(what: string): never {
    throw new CorruptFileError(`ALP: ${what}`, { offset: this.at });
  }

  /** Checks every vector's header against the bytes up to `end`: each follows the last, and the last ends at `end`. */
  private checkVectors(end: number): void {
    const { buf, dv, base, type, vectorSize, count } = this;
    const vectors = Math.ceil(count / vectorSize);
    const width = WIDTH[type];
    const size = end - base;
    if (vectors * 4 > size) this.fail(`${vectors} vector offsets need ${vectors * 4} bytes but ${size} follow the header`);
    let expected = vectors * 4;
    for (let v = 0; v < vectors; v++) {
      const offset = dv.getUint32(base + 4 * v, true);
      if (offset !== expected) this.fail(`vector ${v} is at offset ${offset} where the previous vectors end at ${expected}`);
      const m = Math.min(vectorSize, count - v * vectorSize);
      const p = base + offset;
      if (p + VECTOR_HEADER[type] > end) this.fail(`vector ${v}'s header runs past the page`);
      const e = buf[p]!;
      const f = buf[p + 1]!;
      const exceptions = dv.getUint16(p + 2, true);
      if (e > MAX_EXPONENT[type] || f > e) this.fail(`vector ${v} has exponent ${e} and factor ${f} (the exponent is at most ${MAX_EXPONENT[type]}, the factor at most the exponent)`);
      if (exceptions > m) this.fail(`vector ${v} of ${m} values has ${exceptions} exceptions`);
      const bits = buf[p + VECTOR_HEADER[type] - 1]!;
      if (bits > width * 8) this.fail(`vector ${v} has a bit width of ${bits}`);
      const vectorBytes = VECTOR_HEADER[type] + Math.ceil((m * bits) / 8) + exceptions * (2 + width);
      if (p + vectorBytes > end) this.fail(`vector ${v} needs ${vectorBytes} bytes but ${end - p} are left`);
      expected = offset + vectorBytes;
    }
    if (base + expected !== end) this.fail(`the vectors end ${end - base - expected} bytes before the page's values do`);
  }

  /** The next `n` values (at most those left). */
  read(n: number): Float32Array | Float64Array {
    n = Math.min(n, this.count - this.i);
    const out = this.type === 'FLOAT' ? new Float32Array(n) : new Float64Array(n);
    const outBytes = new Uint8Array(out.buffer);
    const size = this.vectorSize;
    for (let k = 0; k < n; ) {
      const v = Math.floor(this.i / size);
      const within = this.i - v * size;
      const m = Math.min(size, this.count - v * size);
      const take = Math.min(m - within, n - k);
      if (take === m) this.unpack(v, m, out, outBytes, k);
      else {
        if (this.vecIndex !== v) {
          this.unpack(v, m, this.vec, this.vecBytes, 0);
          this.vecIndex = v;
        }
        out.set(this.vec.subarray(within, within + take), k);
      }
      k += take;
      this.i += take;
    }
    return out;
  }

  /** Passes over the next `n` values (at most those left): the vectors were checked on opening, so nothing is read. */
  skip(n: number): void {
    this.i = Math.min(this.i + n, this.count);
  }

  /** Decodes vector `v`, of `m` values, into out[o, o + m). */
  private unpack(v: number, m: number, out: Float32Array | Float64Array, outBytes: Uint8Array, o: number): void {
    const { buf, dv, type, lo, hi } = this;
    const width = WIDTH[type];
    let p = this.base + dv.getUint32(this.base + 4 * v, true);
    const e = buf[p]!;
    const f = buf[p + 1]!;
    const exceptions = dv.getUint16(p + 2, true);
    const forLo = dv.getInt32(p + 4, true);
    const forHi = type === 'DOUBLE' ? dv.getInt32(p + 8, true) : 0;
    const bits = buf[p + VECTOR_HEADER[type] - 1]!;
    p += VECTOR_HEADER[type];
    if (bits <= 32) {
      unpackLsb(buf, p, bits, m, lo, 0);
      if (type === 'FLOAT') {
        // 32-bit wrapping addition: the frame of reference is the least value, so the sum is the encoded int32.
        for (let i = 0; i < m; i++) out[o + i] = decodeFloat((forLo + lo[i]!) | 0, f, e);
      } else {
        for (let i = 0; i < m; i++) {
          const sum = (forLo >>> 0) + (lo[i]! >>> 0);
          const carry = sum >= TWO32 ? 1 : 0;
          // hi * 2^32 is exact and adding the low word rounds once: the int64's correctly rounded double.
          out[o + i] = decodeDouble(((forHi + carry) | 0) * TWO32 + (sum >>> 0), f, e);
        }
      }
    } else {
      unpackLsb64(buf, p, bits, m, lo, hi);
      for (let i = 0; i < m; i++) {
        const sum = (forLo >>> 0) + (lo[i]! >>> 0);
        const carry = sum >= TWO32 ? 1 : 0;
        out[o + i] = decodeDouble(((forHi + hi[i]! + carry) | 0) * TWO32 + (sum >>> 0), f, e);
      }
    }
    p += Math.ceil((m * bits) / 8);
    const valuesAt = p + 2 * exceptions;
    for (let j = 0; j < exceptions; j++) {
      const pos = dv.getUint16(p + 2 * j, true);
      if (pos >= m) this.fail(`vector ${v} has an exception at position ${pos} of ${m}`);
      // The stored bits exactly, NaN payloads included (byte by byte: no view per value).
      const src = valuesAt + j * width;
      const dst = (o + pos) * width;
      for (let k = 0; k < width; k++) outBytes[dst + k] = buf[src + k]!;
    }
  }
}

// ------------------------------------------------------------------ encoding

/** Up to this many (exponent, factor) pairs, chosen per page from a sample, are tried on each vector. */
const CANDIDATES = 5;
const PAGE_SAMPLE = 256;
const VECTOR_SAMPLE = 32;
/** Encoded doubles stay within ±2^52, so frames of reference and deltas are exact JS numbers. */
const MAX_DOUBLE_INT = 2 ** 52;

/** Bits of a non-negative integer below 2^53. */
function bitsFor(x: number): number {
  return x < TWO32 ? 32 - Math.clz32(x) : 64 - Math.clz32(Math.floor(x / TWO32));
}

/** The integer a value encodes to with (e, f), or NaN when it does not come back to the same bits. */
function encodeOne(type: FloatType, x: number, e: number, f: number): number {
  if (type === 'FLOAT') {
    const s = Math.fround(Math.fround(x * POW10_F[e]!) * NEG_POW10_F[f]!);
    if (!(Math.abs(s) < 2 ** 31)) return NaN;
    // Adding and taking away 2^23 (in binary32) rounds to an integer; the decode check catches what it gets wrong.
    const r = s >= 0 ? Math.fround(Math.fround(s + 8388608) - 8388608) : Math.fround(Math.fround(s - 8388608) + 8388608);
    return decodeFloat(r, f, e) === x && (x !== 0 || 1 / x > 0) ? r : NaN;
  }
  const s = x * POW10[e]! * NEG_POW10[f]!;
  if (!(Math.abs(s) < MAX_DOUBLE_INT)) return NaN;
  const r = s >= 0 ? s + 4503599627370496 - 4503599627370496 : s - 4503599627370496 + 4503599627370496;
  return decodeDouble(r, f, e) === x && (x !== 0 || 1 / x > 0) ? r : NaN;
}

/** Estimated bits of `n` values with (e, f), from the values at `idx`: packed width of the non-exceptions' range plus each exception's cost. */
function cost(type: FloatType, values: Float32Array | Float64Array, idx: ArrayLike<number>, n: number, e: number, f: number): number {
  let min = Infinity;
  let max = -Infinity;
  let exceptions = 0;
  for (let i = 0; i < idx.length; i++) {
    const r = encodeOne(type, values[idx[i]!]!, e, f);
    if (r !== r) exceptions++;
    else {
      if (r < min) min = r;
      if (r > max) max = r;
    }
  }
  const bits = max >= min ? bitsFor(max - min) : 0;
  return (n * bits + (exceptions * n / idx.length) * (16 + WIDTH[type] * 8));
}

/** Evenly spaced positions in [start, end), at most `k`. */
function sample(start: number, end: number, k: number): Int32Array {
  const n = end - start;
  const m = Math.min(n, k);
  const out = new Int32Array(m);
  for (let i = 0; i < m; i++) out[i] = start + Math.floor((i * n) / m);
  return out;
}

/** The pairs that encode a sample of the whole page best, best first. */
function pagePairs(type: FloatType, values: Float32Array | Float64Array): [number, number][] {
  const idx = sample(0, values.length, PAGE_SAMPLE);
  const scored: { e: number; f: number; c: number }[] = [];
  for (let e = 0; e <= MAX_EXPONENT[type]; e++) {
    for (let f = 0; f <= e; f++) scored.push({ e, f, c: cost(type, values, idx, idx.length, e, f) });
  }
  // Ties go to the larger exponent and the larger factor, as in the paper.
  scored.sort((a, b) => a.c - b.c || b.e - a.e || b.f - a.f);
  return scored.slice(0, CANDIDATES).map((s) => [s.e, s.f]);
}

/**
 * Appends `values` ALP-encoded, in vectors of 2^logVectorSize values. Each
 * vector takes the best of a few (exponent, factor) pairs the page's sample
 * chose; values that do not survive the round trip (NaN, infinities, -0,
 * too many digits, out of range) are kept as exceptions with their bits.
 */
export function encodeAlp(w: ByteWriter, type: FloatType, values: Float32Array | Float64Array, logVectorSize = 10): void {
  if (type !== 'FLOAT' && type !== 'DOUBLE') throw new InvalidArgumentError(`ALP does not apply to ${String(type)}`);
  if (!(Number.isInteger(logVectorSize) && logVectorSize >= 3 && logVectorSize <= 15)) throw new InvalidArgumentError(`ALP's log2 vector size must be 3..15, got ${logVectorSize}`);
  const n = values.length;
  const vectorSize = 1 << logVectorSize;
  const vectors = Math.ceil(n / vectorSize);
  const width = WIDTH[type];
  if (!LITTLE_ENDIAN) throw new UnsupportedError('ALP encoding on a big-endian platform');
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const pairs = n > 0 ? pagePairs(type, values) : [];
  const encoded = new Float64Array(Math.min(n, vectorSize));
  const positions = new Uint16Array(encoded.length);
  const lo = new Int32Array(encoded.length);
  const hi = new Int32Array(encoded.length);
  const parts: Uint8Array[] = [];
  for (let v = 0; v < vectors; v++) {
    const start = v * vectorSize;
    const m = Math.min(vectorSize, n - start);
    let [e, f] = pairs[0]!;
    if (pairs.length > 1) {
      const idx = sample(start, start + m, VECTOR_SAMPLE);
      let best = Infinity;
      for (const [pe, pf] of pairs) {
        const c = cost(type, values, idx, m, pe, pf);
        if (c < best) [best, e, f] = [c, pe, pf];
      }
    }
    let exceptions = 0;
    let min = Infinity;
    let max = -Infinity;
    let placeholder = NaN;
    for (let i = 0; i < m; i++) {
      const r = encodeOne(type, values[start + i]!, e, f);
      encoded[i] = r;
      if (r !== r) positions[exceptions++] = i;
      else {
        if (placeholder !== placeholder) placeholder = r;
        if (r < min) min = r;
        if (r > max) max = r;
      }
    }
    let bits = placeholder === placeholder ? bitsFor(max - min) : 0;
    if (placeholder !== placeholder || Math.ceil((m * bits) / 8) + exceptions * (2 + width) > m * (2 + width)) {
      // No value encodes, or the few that do are so far apart that packing them costs more than keeping every value as an exception.
      for (let i = 0; i < m; i++) positions[i] = i;
      exceptions = m;
      min = max = placeholder = 0;
      bits = 0;
    }
    // Exceptions take the first encoded value's place, keeping the frame tight.
    for (let j = 0; j < exceptions; j++) encoded[positions[j]!] = placeholder;
    const packed = Math.ceil((m * bits) / 8);
    const part = new Uint8Array(VECTOR_HEADER[type] + packed + exceptions * (2 + width));
    const dv = new DataView(part.buffer);
    part[0] = e;
    part[1] = f;
    dv.setUint16(2, exceptions, true);
    if (type === 'FLOAT') dv.setInt32(4, min, true);
    else dv.setBigInt64(4, BigInt(min), true);
    part[VECTOR_HEADER[type] - 1] = bits;
    const p = VECTOR_HEADER[type];
    if (bits <= 32) {
      for (let i = 0; i < m; i++) lo[i] = encoded[i]! - min;
      packLsb(lo, 0, m, bits, part, p);
    } else {
      for (let i = 0; i < m; i++) {
        const d = encoded[i]! - min;
        lo[i] = d % TWO32;
        hi[i] = Math.floor(d / TWO32);
      }
      packLsb64(lo, hi, 0, m, bits, part, p);
    }
    const at = p + packed;
    for (let j = 0; j < exceptions; j++) {
      const i = positions[j]!;
      dv.setUint16(at + 2 * j, i, true);
      const src = (start + i) * width;
      const dst = at + 2 * exceptions + j * width;
      for (let k = 0; k < width; k++) part[dst + k] = bytes[src + k]!;
    }
    parts.push(part);
  }
  w.u8(0); // compression mode: ALP
  w.u8(0); // integer encoding: FOR and bit-packing
  w.u8(logVectorSize);
  w.i32le(n);
  let offset = vectors * 4;
  for (const part of parts) {
    w.u32le(offset);
    offset += part.length;
  }
  for (const part of parts) w.bytes(part);
}
