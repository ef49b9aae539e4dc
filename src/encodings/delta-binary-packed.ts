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
import { LITTLE_ENDIAN, packLsb, packLsb64, unpackLsb, unpackLsb64 } from './bits.js';

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

/** Receives one miniblock's worth: the block's min delta as 32-bit halves, the bit width, where the packed deltas start, how many are needed. */
type MiniblockSink = (minLo: number, minHi: number, width: number, p: number, n: number) => void;

/**
 * Walks the blocks after the header until `count` values are covered and
 * leaves `c.pos` after the last miniblock used. Unused trailing miniblocks
 * carry no bytes and their widths may be anything; the last miniblock's
 * padding bytes may be missing at the end of the input.
 */
function readBlocks(c: ByteCursor, h: Header, count: number, maxWidth: number, sink: MiniblockSink): void {
  // The position lives in a local until the end: the loop runs once per 32-odd values.
  const { buf, end, base } = c;
  const { miniblocks, perMiniblock } = h;
  const bytesPerBit = perMiniblock / 8;
  const min = new Int32Array(2);
  let p = c.pos;
  for (let i = 1; i < count; ) {
    p = readMinDelta(c, p, min);
    const minLo = min[0]! >>> 0;
    const minHi = min[1]!;
    const widthsAt = p;
    if (miniblocks > end - p) {
      throw new CorruptFileError(`${miniblocks} miniblock bit widths need ${miniblocks} bytes but only ${end - p} remain`, { offset: base + p });
    }
    p += miniblocks;
    for (let m = 0; m < miniblocks && i < count; m++) {
      const width = buf[widthsAt + m]!;
      if (width > maxWidth) {
        throw new CorruptFileError(`miniblock bit width ${width} is over the ${maxWidth} bits of the type`, { offset: base + widthsAt + m });
      }
      const n = Math.min(perMiniblock, count - i);
      const need = Math.ceil((n * width) / 8);
      if (need > end - p) {
        throw new CorruptFileError(`miniblock of ${n} values at ${width} bits needs ${need} bytes but only ${end - p} remain`, { offset: base + p });
      }
      sink(minLo, minHi, width, p, n);
      p = Math.min(p + bytesPerBit * width, end);
      i += n;
    }
  }
  c.pos = p;
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

/** Decodes `count` INT32 values and leaves `c.pos` after the last miniblock used. */
export function decodeDeltaInt32(c: ByteCursor, count: number): Int32Array {
  const h = readHeader(c, count);
  const out = new Int32Array(count);
  if (h === null || count === 0) return out;
  let last = Number(BigInt.asIntN(32, h.first));
  out[0] = last;
  let i = 1;
  // Widths up to 64 are accepted: DuckDB computes INT32 deltas in 64 bits and
  // writes 33-bit miniblocks. Only the low 32 bits matter under mod-2^32 arithmetic.
  let hiScratch: Int32Array | undefined;
  readBlocks(c, h, count, 64, (minLo, _minHi, width, p, n) => {
    if (width <= 32) unpackLsb(c.buf, p, width, n, out, i);
    else unpackLsb64(c.buf, p, width, n, out.subarray(i, i + n), (hiScratch = hiScratch && hiScratch.length >= n ? hiScratch : new Int32Array(n)));
    let v = last; // a local, not the captured variable, inside the hot loop
    for (let k = i, e = i + n; k < e; k++) out[k] = v = (v + minLo + out[k]!) | 0;
    last = v;
    i += n;
  });
  return out;
}

/**
 * Decodes `count` INT64 values and leaves `c.pos` after the last miniblock
 * used. The sums run on 32-bit halves written straight into the result's
 * memory, so no BigInt is made per value.
 */
export function decodeDeltaInt64(c: ByteCursor, count: number): BigInt64Array {
  const h = readHeader(c, count);
  const out = new BigInt64Array(count);
  if (h === null || count === 0) return out;
  out[0] = h.first;
  const words = new Uint32Array(out.buffer);
  let lastLo = words[LO]!;
  let lastHi = words[HI]!;
  const scratch = Math.min(h.perMiniblock, count);
  const lo = new Int32Array(scratch);
  const hi = new Int32Array(scratch);
  let i = 1;
  readBlocks(c, h, count, 64, (minLo, minHi, width, p, n) => {
    if (width <= 32) {
      unpackLsb(c.buf, p, width, n, lo, 0);
      hi.fill(0, 0, n);
    } else {
      unpackLsb64(c.buf, p, width, n, lo, hi);
    }
    // Unsigned 32-bit adds, with the carry out of each low word read off as "the sum wrapped below an addend".
    let vLo = lastLo;
    let vHi = lastHi;
    for (let k = 0, j = 2 * i; k < n; k++, j += 2) {
      const dLo = (lo[k]! + minLo) >>> 0;
      const dHi = hi[k]! + minHi + (dLo < minLo ? 1 : 0);
      const sLo = (vLo + dLo) >>> 0;
      vHi = (vHi + dHi + (sLo < dLo ? 1 : 0)) | 0;
      vLo = sLo;
      words[j + LO] = vLo;
      words[j + HI] = vHi;
    }
    lastLo = vLo;
    lastHi = vHi;
    i += n;
  });
  return out;
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
