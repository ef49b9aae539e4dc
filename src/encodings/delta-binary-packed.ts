/**
 * DELTA_BINARY_PACKED (encoding 5) for INT32 and INT64. A header
 * (block size, miniblocks per block, value count, first value), then blocks:
 * a zig-zag min delta, one bit width byte per miniblock, and the miniblocks'
 * deltas minus the min delta, bit-packed LSB first. All arithmetic wraps
 * (mod 2^32 or 2^64), as the spec asks.
 */
import { ByteCursor } from '../bytes/cursor.js';
import type { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError } from '../errors.js';
import { LITTLE_ENDIAN, unpackLsb } from './bits.js';
import { sumLsb, unpackLsb64 } from './bits64.js';
import { packLsb, packLsb64 } from './bit-pack.js';

/** Word index of the low and high halves of an int64 in an Int32Array view of a BigInt64Array. */
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = 1 - LO;

interface Header {
  miniblocks: number;
  perMiniblock: number;
  first: bigint;
}

/**
 * Reads and checks the header. The count comes from the caller (the page
 * knows how many values it holds), and the header must agree, so a forged
 * count cannot size an allocation. Returns null for an empty page with no
 * header at all, which some writers emit when every value is null.
 */
function readHeader(c: ByteCursor, count: number): Header | null {
  if (!(Number.isInteger(count) && count >= 0)) throw new CorruptFileError(`invalid value count ${count}`, { offset: c.fileOffset });
  if (count === 0 && c.remaining === 0) return null;
  const at = c.fileOffset;
  const blockSize = c.varUint();
  const miniblocks = c.varUint();
  const total = c.varUint();
  const first = c.zigzag64();
  if (blockSize === 0 || blockSize % 128 !== 0) {
    throw new CorruptFileError(`DELTA_BINARY_PACKED block size ${blockSize} is not a positive multiple of 128`, { offset: at });
  }
  const perMiniblock = blockSize / miniblocks;
  if (!(Number.isInteger(perMiniblock) && perMiniblock % 32 === 0)) {
    throw new CorruptFileError(`DELTA_BINARY_PACKED block of ${blockSize} values cannot have ${miniblocks} miniblocks of a multiple of 32 values`, {
      offset: at,
    });
  }
  if (total !== count) {
    throw new CorruptFileError(`DELTA_BINARY_PACKED header counts ${total} values where the page has ${count}`, { offset: at });
  }
  // Every block costs at least its min delta and its bit widths, even when all its widths are 0.
  const blocks = count > 1 ? Math.ceil((count - 1) / blockSize) : 0;
  c.need(blocks * (1 + miniblocks), `${blocks} DELTA_BINARY_PACKED blocks`);
  return { miniblocks, perMiniblock, first };
}

/**
 * Reads a block's zig-zag min delta at `p` into `out` as low and high 32-bit
 * words, and returns the position after it. Varints of up to 7 bytes
 * (49 bits) decode exactly as numbers; only longer ones, rare outside INT64
 * extremes, go through BigInt.
 */
function readMinDelta(c: ByteCursor, p: number, out: Int32Array): number {
  const { buf, end } = c;
  let u = 0;
  for (let q = p, scale = 1; q < end && scale < 2 ** 49; scale *= 128) {
    const b = buf[q++]!;
    u += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) {
      const v = u % 2 === 0 ? u / 2 : -(u + 1) / 2;
      out[0] = v; // stored mod 2^32
      out[1] = Math.floor(v / 4294967296);
      return q;
    }
  }
  const long = new ByteCursor(buf, p, end, c.base); // and reports a truncated one
  const v = long.zigzag64();
  out[0] = Number(BigInt.asIntN(32, v));
  out[1] = Number(BigInt.asIntN(32, v >> 32n));
  return long.pos;
}

const TWO32 = 4294967296;

/** n * (hi:lo) mod 2^64 for 0 <= n < 2^31, into out as low and high 32-bit words: exact, through products below 2^53. */
function mul64(n: number, lo: number, hi: number, out: Uint32Array): void {
  const a = lo * (n & 0xffff); // < 2^48
  const b = lo * (n >>> 16); // < 2^47, to be shifted up 16 bits
  const low = (a % TWO32) + (b % 65536) * 65536; // < 2^33
  out[0] = low;
  out[1] = Math.floor(a / TWO32) + Math.floor(b / 65536) + Math.floor(low / TWO32) + Math.imul(hi, n);
}

/**
 * A page's values read or passed over `n` at a time, INT32 or INT64 (`wide`).
 * Values follow from the ones before them, so passing over a whole miniblock
 * still advances the running value: by the sum of its deltas, taken straight
 * from the packed bits (sumLsb) plus its min delta times its count, with
 * nothing unpacked. A miniblock that a read or skip ends inside is unpacked
 * once into `pending`, whose rest the next call serves. The 64-bit sums run
 * on 32-bit halves, so no BigInt is made per value. All arithmetic wraps
 * (mod 2^32 or 2^64). Leaves `c.pos` after the last miniblock used; unused
 * trailing miniblocks carry no bytes and their widths may be anything, and
 * the last miniblock's padding may be missing at the end of the input.
 */
export class DeltaBinaryPackedStream {
  private readonly h: Header | null;
  /** Values read or passed over. */
  private i = 0;
  /** The last value of the last miniblock used (the first value before any), as 32-bit halves. */
  private lastLo = 0;
  private lastHi = 0;
  /** The next miniblock's bytes, how many of its block's miniblocks are used, where its block's widths are, and that block's min delta. */
  private p: number;
  private m: number;
  private widthsAt = 0;
  private readonly min = new Int32Array(2);
  /** Unpacking scratch, and the values of a miniblock partly used: pending[at, end). */
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;
  private readonly pending: Int32Array | BigInt64Array;
  private readonly pendingWords: Uint32Array | Int32Array;
  private pendingAt = 0;
  private pendingEnd = 0;
  /** The open miniblock's bit width and where its bytes start. */
  private width = 0;
  private at = 0;
  private readonly sum = new Uint32Array(2);
  private readonly product = new Uint32Array(2);

  constructor(private readonly c: ByteCursor, private readonly count: number, private readonly wide: boolean) {
    this.h = readHeader(c, count);
    this.p = c.pos;
    this.m = this.h?.miniblocks ?? 0;
    if (this.h !== null) {
      const first = this.h.first;
      this.lastLo = Number(BigInt.asUintN(32, first));
      this.lastHi = Number(BigInt.asIntN(32, first >> 32n));
    }
    const scratch = this.h === null ? 0 : Math.min(this.h.perMiniblock, count);
    this.lo = new Int32Array(scratch);
    this.hi = new Int32Array(scratch);
    this.pending = wide ? new BigInt64Array(scratch) : new Int32Array(scratch);
    this.pendingWords = wide ? new Uint32Array(this.pending.buffer) : (this.pending as Int32Array);
  }

  /** The next `n` values (at most those left): Int32Array for INT32, BigInt64Array for INT64. */
  read(n: number): Int32Array | BigInt64Array {
    n = Math.min(n, this.count - this.i);
    const out = this.wide ? new BigInt64Array(n) : new Int32Array(n);
    this.walk(n, this.wide ? new Uint32Array(out.buffer) : (out as Int32Array));
    return out;
  }

  /** Passes over the next `n` values (at most those left): whole miniblocks summed, not unpacked. */
  skip(n: number): void {
    this.walk(Math.min(n, this.count - this.i), null);
  }

  /** Moves past the next `n` values, writing them into `words` (as unpack does) for a read, or only advancing for a skip. */
  private walk(n: number, words: Uint32Array | Int32Array | null): void {
    const s = this.wide ? 2 : 1;
    let k = 0;
    if (n > 0 && this.i === 0) {
      if (words && this.wide) {
        words[LO] = this.lastLo;
        words[HI] = this.lastHi;
      } else if (words) words[0] = this.lastLo;
      k = this.i = 1;
    }
    while (k < n) {
      if (this.pendingAt < this.pendingEnd) {
        const take = Math.min(this.pendingEnd - this.pendingAt, n - k);
        if (words) words.set(this.pendingWords.subarray(this.pendingAt * s, (this.pendingAt + take) * s), k * s);
        this.pendingAt += take;
        k += take;
        this.i += take;
        continue;
      }
      const len = this.miniblock();
      if (len <= n - k) {
        if (words) this.unpack(words, k, len);
        else this.pass(len);
        k += len;
        this.i += len;
      } else {
        this.unpack(this.pendingWords, 0, len);
        this.pendingAt = 0;
        this.pendingEnd = len;
      }
    }
    this.c.pos = this.p;
  }

  /** Opens the next miniblock (reading its block's head when it is the block's first): its width and bytes in `width`, `at`; returns how many values it holds. */
  private miniblock(): number {
    const h = this.h!;
    const { buf, end, base } = this.c;
    let p = this.p;
    if (this.m === h.miniblocks) {
      p = readMinDelta(this.c, p, this.min);
      if (h.miniblocks > end - p) {
        throw new CorruptFileError(`${h.miniblocks} miniblock bit widths need ${h.miniblocks} bytes but only ${end - p} remain`, { offset: base + p });
      }
      this.widthsAt = p;
      p += h.miniblocks;
      this.m = 0;
    }
    const width = buf[this.widthsAt + this.m]!;
    if (width > 64) throw new CorruptFileError(`miniblock bit width ${width} is over the 64 bits of the type`, { offset: base + this.widthsAt + this.m });
    const n = Math.min(h.perMiniblock, this.count - this.i);
    const need = Math.ceil((n * width) / 8);
    if (need > end - p) {
      throw new CorruptFileError(`miniblock of ${n} values at ${width} bits needs ${need} bytes but only ${end - p} remain`, { offset: base + p });
    }
    this.width = width;
    this.at = p;
    this.p = Math.min(p + (h.perMiniblock / 8) * width, end);
    this.m++;
    return n;
  }

  /**
   * Unpacks the open miniblock's `n` values into `words` from value `o`
   * (an Int32Array of INT32 values, or the 32-bit words of INT64 ones).
   * Widths over 32 are accepted for INT32 too: DuckDB computes INT32 deltas
   * in 64 bits and writes 33-bit miniblocks, and only the low 32 bits matter
   * under mod-2^32 arithmetic.
   */
  private unpack(words: Uint32Array | Int32Array, o: number, n: number): void {
    const { buf } = this.c;
    const { width, at, lo, hi } = this;
    const minLo = this.min[0]! >>> 0;
    if (!this.wide) {
      const out = words as Int32Array;
      if (width <= 32) unpackLsb(buf, at, width, n, out, o);
      else {
        unpackLsb64(buf, at, width, n, lo, hi);
        out.set(lo.subarray(0, n), o);
      }
      let v = this.lastLo;
      for (let k = o, e = o + n; k < e; k++) out[k] = v = (v + minLo + out[k]!) | 0;
      this.lastLo = v;
      return;
    }
    const minHi = this.min[1]!;
    if (width <= 32) {
      unpackLsb(buf, at, width, n, lo, 0);
      hi.fill(0, 0, n);
    } else {
      unpackLsb64(buf, at, width, n, lo, hi);
    }
    // Unsigned 32-bit adds, with the carry out of each low word read off as "the sum wrapped below an addend".
    let vLo = this.lastLo;
    let vHi = this.lastHi;
    for (let k = 0, j = 2 * o; k < n; k++, j += 2) {
      const dLo = (lo[k]! + minLo) >>> 0;
      const dHi = hi[k]! + minHi + (dLo < minLo ? 1 : 0);
      const sLo = (vLo + dLo) >>> 0;
      vHi = (vHi + dHi + (sLo < dLo ? 1 : 0)) | 0;
      vLo = sLo;
      words[j + LO] = vLo;
      words[j + HI] = vHi;
    }
    this.lastLo = vLo;
    this.lastHi = vHi;
  }

  /** Moves the running value past the open miniblock's `n` values: by their packed deltas' sum plus n times the min delta. */
  private pass(n: number): void {
    const { sum } = this;
    sumLsb(this.c.buf, this.at, this.width, n, sum);
    const minLo = this.min[0]! >>> 0;
    if (!this.wide) {
      this.lastLo = (this.lastLo + sum[0]! + Math.imul(minLo, n)) | 0;
      return;
    }
    const { product } = this;
    mul64(n, minLo, this.min[1]!, product);
    const mLo = product[0]!;
    const dLo = (sum[0]! + mLo) >>> 0;
    const dHi = sum[1]! + product[1]! + (dLo < mLo ? 1 : 0);
    const sLo = (this.lastLo + dLo) >>> 0;
    this.lastHi = (this.lastHi + dHi + (sLo < dLo ? 1 : 0)) | 0;
    this.lastLo = sLo;
  }
}

/** Decodes `count` INT32 values and leaves `c.pos` after the last miniblock used. */
export function decodeDeltaInt32(c: ByteCursor, count: number): Int32Array {
  return new DeltaBinaryPackedStream(c, count, false).read(count) as Int32Array;
}

/** Decodes `count` INT64 values and leaves `c.pos` after the last miniblock used. */
export function decodeDeltaInt64(c: ByteCursor, count: number): BigInt64Array {
  return new DeltaBinaryPackedStream(c, count, true).read(count) as BigInt64Array;
}

const BLOCK = 128;
const MINIBLOCKS = 4;
const PER_MINIBLOCK = BLOCK / MINIBLOCKS;

/**
 * Fills `lo`/`hi` with the deltas of values [i, i + n) from their
 * predecessors minus the smallest of them (as unsigned bit patterns), and
 * writes that min delta to the stream.
 */
type BlockFiller = (i: number, n: number, lo: Int32Array, hi: Int32Array) => void;

/** The framing parquet-java uses: blocks of 128 values in 4 miniblocks of 32. */
function encodeBlocks(w: ByteWriter, count: number, writeFirst: () => void, fill: BlockFiller): void {
  w.varUint(BLOCK);
  w.varUint(MINIBLOCKS);
  w.varUint(count);
  writeFirst();
  const lo = new Int32Array(BLOCK);
  const hi = new Int32Array(BLOCK);
  const widths = new Uint8Array(MINIBLOCKS);
  const body = new Uint8Array(PER_MINIBLOCK * 8);
  for (let i = 1; i < count; i += BLOCK) {
    const n = Math.min(BLOCK, count - i);
    // Zeros past n are the padding of the last miniblock.
    lo.fill(0);
    hi.fill(0);
    fill(i, n, lo, hi);
    const used = Math.ceil(n / PER_MINIBLOCK);
    widths.fill(0);
    for (let m = 0; m < used; m++) {
      let loBits = 0;
      let hiBits = 0;
      for (let k = m * PER_MINIBLOCK, e = k + PER_MINIBLOCK; k < e; k++) {
        loBits |= lo[k]!;
        hiBits |= hi[k]!;
      }
      widths[m] = hiBits !== 0 ? 64 - Math.clz32(hiBits) : 32 - Math.clz32(loBits);
    }
    w.bytes(widths);
    for (let m = 0; m < used; m++) {
      const width = widths[m]!;
      if (width <= 32) packLsb(lo, m * PER_MINIBLOCK, PER_MINIBLOCK, width, body, 0);
      else packLsb64(lo, hi, m * PER_MINIBLOCK, PER_MINIBLOCK, width, body, 0);
      w.bytes(body.subarray(0, (PER_MINIBLOCK * width) / 8));
    }
  }
}

/** Appends `values` DELTA_BINARY_PACKED. */
export function encodeDeltaInt32(w: ByteWriter, values: Int32Array): void {
  encodeBlocks(
    w,
    values.length,
    () => w.zigzag32(values.length > 0 ? values[0]! : 0),
    (i, n, lo) => {
      let min = 0x7fffffff;
      for (let k = 0; k < n; k++) {
        const d = (values[i + k]! - values[i + k - 1]!) | 0;
        lo[k] = d;
        if (d < min) min = d;
      }
      w.zigzag32(min);
      for (let k = 0; k < n; k++) lo[k] = (lo[k]! - min) | 0;
    },
  );
}

/** Appends `values` DELTA_BINARY_PACKED, doing the 64-bit sums on 32-bit halves. */
export function encodeDeltaInt64(w: ByteWriter, values: BigInt64Array): void {
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  encodeBlocks(
    w,
    values.length,
    () => w.zigzag64(values.length > 0 ? values[0]! : 0n),
    (i, n, lo, hi) => {
      let minLo = 0;
      let minHi = 0;
      for (let k = 0, a = 2 * i; k < n; k++, a += 2) {
        const dLo = (words[a + LO]! >>> 0) - (words[a - 2 + LO]! >>> 0);
        const dHi = (words[a + HI]! - words[a - 2 + HI]! - (dLo < 0 ? 1 : 0)) | 0;
        const uLo = dLo >>> 0;
        lo[k] = uLo;
        hi[k] = dHi;
        if (k === 0 || dHi < minHi || (dHi === minHi && uLo < minLo)) {
          minLo = uLo;
          minHi = dHi;
        }
      }
      w.zigzag64((BigInt(minHi) << 32n) | BigInt(minLo));
      for (let k = 0; k < n; k++) {
        const dLo = (lo[k]! >>> 0) - minLo;
        lo[k] = dLo;
        hi[k] = (hi[k]! - minHi - (dLo < 0 ? 1 : 0)) | 0;
      }
    },
  );
}
