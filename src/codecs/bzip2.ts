/**
 * bzip2 streams (the format of bzip2 1.0 and Apache commons-compress), both
 * ways, in portable TypeScript. Trevni's Java writer has a `bzip2` codec that
 * stores each block as one complete stream (`BZh9...`).
 *
 * Decoding is strict: every Huffman table, selector, symbol and length is
 * checked, block and stream CRCs are verified, and the output never grows
 * past the size the caller expects, so corrupt input ends in a
 * CorruptFileError rather than a hang or an allocation the file asked for.
 *
 * Encoding follows the reference pipeline (RLE1, Burrows-Wheeler by cyclic
 * prefix doubling, move-to-front with RUNA/RUNB zero runs, Huffman coding
 * with up to six tables refined over the block), so any bzip2 decoder reads
 * the result; the bytes are not those of libbzip2.
 */
import { CorruptFileError, InvalidArgumentError, LimitError } from '../errors.js';

const BLOCK_MAGIC_HI = 0x314159;
const BLOCK_MAGIC_LO = 0x265359;
const END_MAGIC_HI = 0x177245;
const END_MAGIC_LO = 0x385090;
const MAX_CODE_LEN = 20;
const GROUP_SIZE = 50;
const MAX_SELECTORS = 18002;

/** The bzip2 CRC: CRC-32 with polynomial 0x04C11DB7, most significant bit first. */
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[i] = c >>> 0;
  }
  return t;
})();

function crcUpdate(crc: number, data: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) crc = (crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ data[i]!) & 0xff]!;
  return crc;
}

function corrupt(msg: string): CorruptFileError {
  return new CorruptFileError(`invalid bzip2 data: ${msg}`);
}

class BitReader {
  private pos = 0;
  private buf = 0;
  private bits = 0;
  constructor(private readonly data: Uint8Array) {}

  /** The next unread byte (after align()). */
  get bytePos(): number {
    return this.pos;
  }

  get exhausted(): boolean {
    return this.pos >= this.data.length && this.bits === 0;
  }

  bit(): number {
    if (this.bits === 0) {
      if (this.pos >= this.data.length) throw corrupt('data ends early');
      this.buf = this.data[this.pos++]!;
      this.bits = 8;
    }
    this.bits--;
    return (this.buf >>> this.bits) & 1;
  }

  read(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }

  /** Skips to the next byte boundary (streams are byte-aligned at their end). */
  align(): void {
    this.bits = 0;
  }
}

interface HuffTable {
  /** limit[len] = largest code of that length (or -1); codes are canonical. */
  limit: Int32Array;
  base: Int32Array;
  perm: Uint16Array;
  minLen: number;
  maxLen: number;
}

function buildTable(lengths: Uint8Array, alphaSize: number): HuffTable {
  let minLen = 32;
  let maxLen = 0;
  for (let i = 0; i < alphaSize; i++) {
    minLen = Math.min(minLen, lengths[i]!);
    maxLen = Math.max(maxLen, lengths[i]!);
  }
  const perm = new Uint16Array(alphaSize);
  let pp = 0;
  for (let len = minLen; len <= maxLen; len++) for (let s = 0; s < alphaSize; s++) if (lengths[s] === len) perm[pp++] = s;
  const limit = new Int32Array(MAX_CODE_LEN + 2).fill(-1);
  const base = new Int32Array(MAX_CODE_LEN + 2);
  let code = 0;
  let idx = 0;
  for (let len = minLen; len <= maxLen; len++) {
    let count = 0;
    for (let s = 0; s < alphaSize; s++) if (lengths[s] === len) count++;
    base[len] = idx - code; // symbol index = code + base[len]
    code += count;
    idx += count;
    limit[len] = code - 1;
    if (code > 2 ** len) throw corrupt('over-subscribed Huffman table');
    code *= 2;
  }
  return { limit, base, perm, minLen, maxLen };
}

function decodeSymbol(br: BitReader, t: HuffTable): number {
  let len = t.minLen;
  let code = br.read(len);
  for (;;) {
    if (code <= t.limit[len]!) return t.perm[code + t.base[len]!]!;
    if (++len > t.maxLen) throw corrupt('invalid Huffman code');
    code = code * 2 + br.bit();
  }
}

/**
 * Decompresses one or more concatenated bzip2 streams. `expectedSize`, when
 * given, is the exact decompressed size; decoding stops with an error as soon
 * as the output would pass it.
 */
export function bzip2Decompress(input: Uint8Array, expectedSize?: number): Uint8Array {
  const limit = expectedSize ?? 2 ** 31 - 1;
  let out = new Uint8Array(expectedSize ?? Math.max(1024, input.length * 4));
  let outLen = 0;
  const br = new BitReader(input);
  const ensure = (n: number) => {
    if (outLen + n > limit) {
      if (expectedSize !== undefined) throw corrupt(`data decompresses to more than ${expectedSize} bytes`);
      throw new LimitError('bzip2 data decompresses to more than 2 GiB');
    }
    if (outLen + n > out.length) {
      const next = new Uint8Array(Math.min(limit, Math.max(out.length * 2, outLen + n)));
      next.set(out.subarray(0, outLen));
      out = next;
    }
  };
  let streams = 0;
  while (!br.exhausted) {
    if (br.read(8) !== 0x42 || br.read(8) !== 0x5a || br.read(8) !== 0x68) throw corrupt('missing the BZh stream header');
    const level = br.read(8) - 0x30;
    if (level < 1 || level > 9) throw corrupt(`block size digit ${level}`);
    const maxBlock = level * 100000;
    let combined = 0;
    const tt = new Uint32Array(maxBlock);
    for (;;) {
      const hi = br.read(24);
      const lo = br.read(24);
      if (hi === END_MAGIC_HI && lo === END_MAGIC_LO) {
        const storedCombined = br.read(32) >>> 0;
        if (storedCombined !== combined >>> 0) throw corrupt('stream CRC mismatch');
        br.align();
        break;
      }
      if (hi !== BLOCK_MAGIC_HI || lo !== BLOCK_MAGIC_LO) throw corrupt('bad block magic');
      const storedCrc = br.read(32) >>> 0;
      if (br.bit()) throw corrupt('randomised blocks (bzip2 0.9.0 and older) are not supported');
      const origPtr = br.read(24);
      // Symbol map: which byte values occur.
      const used = br.read(16);
      const seqToUnseq = new Uint8Array(256);
      let nInUse = 0;
      for (let i = 0; i < 16; i++) {
        if (used & (0x8000 >>> i)) {
          const bits = br.read(16);
          for (let j = 0; j < 16; j++) if (bits & (0x8000 >>> j)) seqToUnseq[nInUse++] = i * 16 + j;
        }
      }
      if (nInUse === 0) throw corrupt('block uses no symbols');
      const alphaSize = nInUse + 2;
      const nGroups = br.read(3);
      if (nGroups < 2 || nGroups > 6) throw corrupt(`${nGroups} Huffman tables`);
      const nSelectors = br.read(15);
      if (nSelectors < 1) throw corrupt('no selectors');
      const mtfGroups = [0, 1, 2, 3, 4, 5].slice(0, nGroups);
      const selectors = new Uint8Array(Math.min(nSelectors, MAX_SELECTORS));
      for (let i = 0; i < nSelectors; i++) {
        let j = 0;
        while (br.bit()) if (++j >= nGroups) throw corrupt('selector out of range');
        const v = mtfGroups[j]!;
        mtfGroups.splice(j, 1);
        mtfGroups.unshift(v);
        if (i < MAX_SELECTORS) selectors[i] = v;
      }
      const tables: HuffTable[] = [];
      for (let g = 0; g < nGroups; g++) {
        const lengths = new Uint8Array(alphaSize);
        let len = br.read(5);
        for (let s = 0; s < alphaSize; s++) {
          for (;;) {
            if (len < 1 || len > MAX_CODE_LEN) throw corrupt(`Huffman code length ${len}`);
            if (!br.bit()) break;
            len += br.bit() ? -1 : 1;
          }
          lengths[s] = len;
        }
        tables.push(buildTable(lengths, alphaSize));
      }
      // Huffman + RUNA/RUNB + move-to-front, into tt as byte values.
      const mtf = new Uint8Array(256);
      for (let i = 0; i < 256; i++) mtf[i] = i;
      const counts = new Uint32Array(256);
      const eob = alphaSize - 1;
      let n = 0;
      let selIdx = 0;
      let left = 0;
      let table = tables[0]!;
      let run = 0;
      let runWeight = 1;
      for (;;) {
        if (left === 0) {
          if (selIdx >= selectors.length) throw corrupt('ran out of selectors');
          table = tables[selectors[selIdx++]!]!;
          left = GROUP_SIZE;
        }
        left--;
        const sym = decodeSymbol(br, table);
        if (sym <= 1) {
          if (runWeight > maxBlock) throw corrupt('zero run longer than the block');
          run += runWeight << sym;
          runWeight <<= 1;
          continue;
        }
        if (run > 0) {
          if (n + run > maxBlock) throw corrupt('block longer than its declared size');
          const b = seqToUnseq[mtf[0]!]!;
          counts[b] += run;
          tt.fill(b, n, n + run);
          n += run;
          run = 0;
          runWeight = 1;
        }
        if (sym === eob) break;
        if (n >= maxBlock) throw corrupt('block longer than its declared size');
        const idx = sym - 1;
        const v = mtf[idx]!;
        mtf.copyWithin(1, 0, idx);
        mtf[0] = v;
        const b = seqToUnseq[v]!;
        counts[b]!++;
        tt[n++] = b;
      }
      if (origPtr >= n) throw corrupt('origin pointer outside the block');
      // Inverse Burrows-Wheeler: tt[i] keeps its byte in the low 8 bits, the link above.
      const cftab = new Uint32Array(257);
      for (let i = 0; i < 256; i++) cftab[i + 1] = cftab[i]! + counts[i]!;
      for (let i = 0; i < n; i++) {
        const b = tt[i]! & 0xff;
        tt[cftab[b]!++]! |= i << 8;
      }
      // Undo RLE1 while walking the links.
      let crc = -1;
      let pos = tt[origPtr]! >>> 8;
      let last = -1;
      let same = 0;
      const blockStart = outLen;
      for (let k = 0; k < n; k++) {
        const entry = tt[pos]!;
        const b = entry & 0xff;
        pos = entry >>> 8;
        if (same === 4) {
          ensure(b);
          out.fill(last, outLen, outLen + b);
          outLen += b;
          same = 0;
          last = -1;
          continue;
        }
        if (b === last) same++;
        else {
          last = b;
          same = 1;
        }
        ensure(1);
        out[outLen++] = b;
      }
      crc = ~crcUpdate(crc, out, blockStart, outLen) >>> 0;
      if (crc !== storedCrc) throw corrupt('block CRC mismatch');
      combined = ((combined << 1) | (combined >>> 31)) ^ crc;
      tt.fill(0, 0, n);
    }
    streams++;
    // Trailing zero padding after the last stream is tolerated, as bzip2 does.
    if (allZeroFrom(input, br.bytePos)) break;
  }
  if (streams === 0) throw corrupt('empty input');
  if (expectedSize !== undefined && outLen !== expectedSize) throw corrupt(`data decompressed to ${outLen} bytes, expected ${expectedSize}`);
  return outLen === out.length ? out : out.slice(0, outLen);
}

function allZeroFrom(d: Uint8Array, from: number): boolean {
  for (let i = from; i < d.length; i++) if (d[i] !== 0) return false;
  return true;
}

// ---------------------------------------------------------------- encoder

class BitWriter {
  private out: Uint8Array;
  length = 0;
  private acc = 0;
  private nbits = 0;
  constructor(capacity: number) {
    this.out = new Uint8Array(Math.max(64, capacity));
  }
  write(n: number, v: number): void {
    // n <= 24 per call keeps acc within 32 bits.
    this.acc = (this.acc << n) | (v & ((1 << n) - 1));
    this.nbits += n;
    while (this.nbits >= 8) {
      this.nbits -= 8;
      this.byte((this.acc >>> this.nbits) & 0xff);
    }
    this.acc &= (1 << this.nbits) - 1;
  }
  write32(v: number): void {
    this.write(16, v >>> 16);
    this.write(16, v & 0xffff);
  }
  private byte(b: number): void {
    if (this.length === this.out.length) {
      const next = new Uint8Array(this.out.length * 2);
      next.set(this.out);
      this.out = next;
    }
    this.out[this.length++] = b;
  }
  finish(): Uint8Array {
    if (this.nbits > 0) this.write(8 - this.nbits, 0);
    return this.out.slice(0, this.length);
  }
}

/**
 * Sorts the cyclic rotations of `s` (prefix doubling with counting sorts) and
 * returns the rotation start indexes in sorted order.
 */
function sortRotations(s: Uint8Array): Int32Array {
  const n = s.length;
  const sa = new Int32Array(n);
  let rank = new Int32Array(n);
  let tmp = new Int32Array(n);
  const cnt = new Int32Array(Math.max(256, n) + 1);
  for (let i = 0; i < n; i++) cnt[s[i]! + 1]!++;
  for (let i = 1; i <= 256; i++) cnt[i]! += cnt[i - 1]!;
  for (let i = 0; i < n; i++) sa[cnt[s[i]!]!++] = i;
  let classes = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && s[sa[i]!] !== s[sa[i - 1]!]) classes++;
    rank[sa[i]!] = classes;
  }
  classes++;
  for (let k = 1; k < n && classes < n; k *= 2) {
    // Order by the second half: rotation i-k sorted as rotation i is.
    for (let i = 0; i < n; i++) {
      let j = sa[i]! - k;
      if (j < 0) j += n;
      tmp[i] = j;
    }
    // Stable counting sort by the first half's class.
    cnt.fill(0, 0, classes + 1);
    for (let i = 0; i < n; i++) cnt[rank[tmp[i]!]! + 1]!++;
    for (let i = 1; i <= classes; i++) cnt[i]! += cnt[i - 1]!;
    for (let i = 0; i < n; i++) sa[cnt[rank[tmp[i]!]!]!++] = tmp[i]!;
    // New classes.
    let c = 0;
    tmp[sa[0]!] = 0;
    for (let i = 1; i < n; i++) {
      const a = sa[i - 1]!;
      const b = sa[i]!;
      let a2 = a + k;
      if (a2 >= n) a2 -= n;
      let b2 = b + k;
      if (b2 >= n) b2 -= n;
      if (rank[a] !== rank[b] || rank[a2] !== rank[b2]) c++;
      tmp[b] = c;
    }
    const swap = rank;
    rank = tmp;
    tmp = swap;
    classes = c + 1;
  }
  return sa;
}

/** Code lengths for `freq`, none longer than `maxLen` (the bzip2 way: flatten and retry). */
function codeLengths(freq: Uint32Array, alphaSize: number, maxLen: number): Uint8Array {
  const weights = new Float64Array(alphaSize);
  for (let i = 0; i < alphaSize; i++) weights[i] = Math.max(1, freq[i]!);
  const lengths = new Uint8Array(alphaSize);
  for (;;) {
    // Plain Huffman with a sorted-array two-queue merge.
    const order = Array.from({ length: alphaSize }, (_, i) => i).sort((a, b) => weights[a]! - weights[b]! || a - b);
    const parent = new Int32Array(2 * alphaSize).fill(-1);
    const w = new Float64Array(2 * alphaSize);
    for (let i = 0; i < alphaSize; i++) w[i] = weights[i]!;
    let q1 = 0;
    const internal: number[] = [];
    let q2 = 0;
    let next = alphaSize;
    const take = (): number => {
      if (q1 < alphaSize && (q2 >= internal.length || w[order[q1]!]! <= w[internal[q2]!]!)) return order[q1++]!;
      return internal[q2++]!;
    };
    for (let k = 0; k < alphaSize - 1; k++) {
      const a = take();
      const b = take();
      w[next] = w[a]! + w[b]!;
      parent[a] = next;
      parent[b] = next;
      internal.push(next++);
    }
    let tooLong = false;
    for (let i = 0; i < alphaSize; i++) {
      let d = 0;
      for (let p = i; parent[p]! >= 0; p = parent[p]!) d++;
      lengths[i] = d;
      if (d > maxLen) tooLong = true;
    }
    if (!tooLong) return lengths;
    for (let i = 0; i < alphaSize; i++) weights[i] = 1 + Math.floor(weights[i]! / 2);
  }
}

function canonicalCodes(lengths: Uint8Array, alphaSize: number): Uint32Array {
  const codes = new Uint32Array(alphaSize);
  let code = 0;
  for (let len = 1; len <= MAX_CODE_LEN; len++) {
    for (let s = 0; s < alphaSize; s++) if (lengths[s] === len) codes[s] = code++;
    code *= 2;
  }
  return codes;
}

function encodeBlock(bw: BitWriter, block: Uint8Array, blockCrc: number): void {
  const n = block.length;
  const sa = sortRotations(block);
  const last = new Uint8Array(n);
  let origPtr = 0;
  for (let i = 0; i < n; i++) {
    const j = sa[i]!;
    if (j === 0) origPtr = i;
    last[i] = block[j === 0 ? n - 1 : j - 1]!;
  }
  // Symbol map and move-to-front with zero runs.
  const inUse = new Uint8Array(256);
  for (let i = 0; i < n; i++) inUse[last[i]!] = 1;
  const unseqToSeq = new Uint8Array(256);
  let nInUse = 0;
  for (let i = 0; i < 256; i++) if (inUse[i]) unseqToSeq[i] = nInUse++;
  const alphaSize = nInUse + 2;
  const eob = alphaSize - 1;
  const syms = new Uint16Array(n + 1);
  let ns = 0;
  const mtf = new Uint8Array(256);
  for (let i = 0; i < nInUse; i++) mtf[i] = i;
  let zeros = 0;
  const flushZeros = () => {
    while (zeros > 0) {
      zeros--;
      syms[ns++] = zeros & 1;
      zeros >>>= 1;
    }
  };
  for (let i = 0; i < n; i++) {
    const v = unseqToSeq[last[i]!]!;
    if (mtf[0] === v) {
      zeros++;
      continue;
    }
    flushZeros();
    let j = 1;
    while (mtf[j] !== v) j++;
    mtf.copyWithin(1, 0, j);
    mtf[0] = v;
    syms[ns++] = j + 1;
  }
  flushZeros();
  syms[ns++] = eob;

  // Huffman tables: start from frequency bands, refine by assigning each group of 50 to its cheapest table.
  const nGroups = ns < 200 ? 2 : ns < 600 ? 3 : ns < 1200 ? 4 : ns < 2400 ? 5 : 6;
  const nSelectors = Math.ceil(ns / GROUP_SIZE);
  const freq = new Uint32Array(alphaSize);
  for (let i = 0; i < ns; i++) freq[syms[i]!]!++;
  let lengths: Uint8Array[] = [];
  {
    let remaining = ns;
    let gs = 0;
    for (let g = nGroups; g > 0; g--) {
      const target = remaining / g;
      let ge = gs - 1;
      let acc = 0;
      while (acc < target && ge < alphaSize - 1) acc += freq[++ge]!;
      const len = new Uint8Array(alphaSize);
      for (let s = 0; s < alphaSize; s++) len[s] = s >= gs && s <= ge ? 0 : 15;
      lengths.push(len);
      gs = ge + 1;
      remaining -= acc;
    }
  }
  const selectors = new Uint8Array(nSelectors);
  for (let iter = 0; iter < 4; iter++) {
    const gfreq = lengths.map(() => new Uint32Array(alphaSize));
    for (let sel = 0; sel < nSelectors; sel++) {
      const from = sel * GROUP_SIZE;
      const to = Math.min(ns, from + GROUP_SIZE);
      let best = 0;
      let bestCost = Infinity;
      for (let g = 0; g < nGroups; g++) {
        let cost = 0;
        const len = lengths[g]!;
        for (let i = from; i < to; i++) cost += len[syms[i]!]!;
        if (cost < bestCost) {
          bestCost = cost;
          best = g;
        }
      }
      selectors[sel] = best;
      const f = gfreq[best]!;
      for (let i = from; i < to; i++) f[syms[i]!]!++;
    }
    lengths = gfreq.map((f) => codeLengths(f, alphaSize, 17));
  }
  const codes = lengths.map((l) => canonicalCodes(l, alphaSize));

  bw.write(24, BLOCK_MAGIC_HI);
  bw.write(24, BLOCK_MAGIC_LO);
  bw.write32(blockCrc);
  bw.write(1, 0);
  bw.write(24, origPtr);
  let used16 = 0;
  for (let i = 0; i < 16; i++) for (let j = 0; j < 16; j++) if (inUse[i * 16 + j]) used16 |= 0x8000 >>> i;
  bw.write(16, used16);
  for (let i = 0; i < 16; i++) {
    if (!(used16 & (0x8000 >>> i))) continue;
    let bits = 0;
    for (let j = 0; j < 16; j++) if (inUse[i * 16 + j]) bits |= 0x8000 >>> j;
    bw.write(16, bits);
  }
  bw.write(3, nGroups);
  bw.write(15, nSelectors);
  const order = [0, 1, 2, 3, 4, 5].slice(0, nGroups);
  for (let i = 0; i < nSelectors; i++) {
    const v = selectors[i]!;
    const j = order.indexOf(v);
    for (let k = 0; k < j; k++) bw.write(1, 1);
    bw.write(1, 0);
    order.splice(j, 1);
    order.unshift(v);
  }
  for (const len of lengths) {
    let cur = len[0]!;
    bw.write(5, cur);
    for (let s = 0; s < alphaSize; s++) {
      const target = len[s]!;
      while (cur < target) {
        bw.write(2, 2);
        cur++;
      }
      while (cur > target) {
        bw.write(2, 3);
        cur--;
      }
      bw.write(1, 0);
    }
  }
  for (let sel = 0; sel < nSelectors; sel++) {
    const len = lengths[selectors[sel]!]!;
    const code = codes[selectors[sel]!]!;
    for (let i = sel * GROUP_SIZE, to = Math.min(ns, i + GROUP_SIZE); i < to; i++) {
      const s = syms[i]!;
      bw.write(len[s]!, code[s]!);
    }
  }
}

/** Compresses `input` as one bzip2 stream with block size `level` (1-9, 9 by default as commons-compress). */
export function bzip2Compress(input: Uint8Array, level = 9): Uint8Array {
  if (!Number.isInteger(level) || level < 1 || level > 9) throw new InvalidArgumentError(`bzip2 block size must be 1 to 9, got ${level}`);
  const bw = new BitWriter(input.length / 2 + 64);
  bw.write(24, 0x425a68);
  bw.write(8, 0x30 + level);
  const maxBlock = level * 100000 - 19;
  const block = new Uint8Array(maxBlock);
  let combined = 0;
  let i = 0;
  while (i < input.length) {
    // RLE1: runs of 4 to 255 equal bytes become 4 bytes and a count.
    let bl = 0;
    const start = i;
    while (i < input.length && bl + 5 <= maxBlock) {
      const b = input[i]!;
      let r = 1;
      while (r < 255 && i + r < input.length && input[i + r] === b) r++;
      if (r >= 4) {
        block[bl++] = b;
        block[bl++] = b;
        block[bl++] = b;
        block[bl++] = b;
        block[bl++] = r - 4;
        i += r;
      } else {
        block[bl++] = b;
        i++;
      }
    }
    const crc = ~crcUpdate(-1, input, start, i) >>> 0;
    combined = (((combined << 1) | (combined >>> 31)) ^ crc) >>> 0;
    encodeBlock(bw, block.subarray(0, bl), crc);
  }
  bw.write(24, END_MAGIC_HI);
  bw.write(24, END_MAGIC_LO);
  bw.write32(combined);
  return bw.finish();
}
