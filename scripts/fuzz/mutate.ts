/**
 * Deterministic byte-level and structured mutations of Parquet and Trevni files. Every mutation is
 * plain data (JSON), so a failing case prints as something that reproduces
 * it exactly: `applyMutation(originalBytes, mutation)`.
 */

import { applyStructured, applyRange, type RangeMutation, type StructuredMutation } from './structured.js';
import { applyTrevni, type TrevniMutation } from './trevni.js';
import { Rng as GenRng } from '../../test/writer/gen.js';

export type Mutation =
  | { kind: 'none' }
  /** A field of the decoded footer or of a page header changed, and the struct encoded back (structured.ts). */
  | StructuredMutation
  /** A page or column chunk deleted or duplicated (structured.ts). */
  | RangeMutation
  /** A Trevni header, metadata, descriptor or block edited (trevni.ts). */
  | TrevniMutation
  /** XOR these bytes. */
  | { kind: 'flip'; at: [position: number, xor: number][] }
  /** Keep the first `length` bytes. */
  | { kind: 'truncate'; length: number }
  /** Zero `length` bytes from `start`. */
  | { kind: 'zero'; start: number; length: number }
  /** Overwrite bytes at `at` with the ULEB128 (or zig-zag) varint of `value` (a decimal string, may exceed 2^53). */
  | { kind: 'varint'; at: number; value: string; zigzag: boolean }
  /** Overwrite the 4-byte footer length before the trailing magic. */
  | { kind: 'footerLength'; value: number }
  /** Remove bytes [start, end). */
  | { kind: 'cut'; start: number; end: number }
  /** Keep the first `keep` bytes of the footer, then a fixed-up length and the magic. */
  | { kind: 'footerPrefix'; keep: number }
  /** Copy `length` bytes from `from` over `to`. */
  | { kind: 'copy'; from: number; to: number; length: number };

/** The writer tests' seedable PRNG (mulberry32), with the fuzz's integer in [0, n). */
export class Rng {
  private readonly g: GenRng;
  constructor(seed: number) {
    this.g = new GenRng(seed);
  }
  next(): number {
    return this.g.next();
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return this.g.pick(xs);
  }
}

function varintBytes(v: bigint): number[] {
  const out: number[] = [];
  let x = v;
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x > 0n) b |= 0x80;
    out.push(b);
  } while (x > 0n);
  return out;
}

export function applyMutation(src: Uint8Array, m: Mutation): Uint8Array {
  const b = src.slice();
  const n = b.length;
  switch (m.kind) {
    case 'none':
      return b;
    case 'flip':
      for (const [p, x] of m.at) if (p >= 0 && p < n) b[p]! ^= x;
      return b;
    case 'truncate':
      return b.subarray(0, Math.max(0, Math.min(n, m.length)));
    case 'zero':
      b.fill(0, Math.max(0, m.start), Math.min(n, m.start + m.length));
      return b;
    case 'varint': {
      let v = BigInt(m.value);
      if (m.zigzag) v = v < 0n ? -2n * v - 1n : 2n * v;
      varintBytes(v).forEach((x, i) => {
        if (m.at + i < n) b[m.at + i] = x;
      });
      return b;
    }
    case 'footerLength':
      if (n >= 8) new DataView(b.buffer, b.byteOffset, n).setUint32(n - 8, m.value >>> 0, true);
      return b;
    case 'cut': {
      // Clamped: a stacked mutation may meet a file an earlier one shortened.
      const start = Math.max(0, Math.min(m.start, n));
      const end = Math.max(start, Math.min(m.end, n));
      const out = new Uint8Array(n - (end - start));
      out.set(b.subarray(0, start), 0);
      out.set(b.subarray(end), start);
      return out;
    }
    case 'footerPrefix': {
      if (n < 12) return b;
      const len = new DataView(b.buffer, b.byteOffset, n).getUint32(n - 8, true);
      const start = n - 8 - len;
      if (start < 0) return b;
      const keep = Math.min(m.keep, len);
      const out = new Uint8Array(start + keep + 8);
      out.set(b.subarray(0, start + keep), 0);
      const dv = new DataView(out.buffer);
      dv.setUint32(start + keep, keep, true);
      out.set(b.subarray(n - 4), start + keep + 4);
      return out;
    }
    case 'copy':
      b.copyWithin(m.to, m.from, m.from + m.length);
      return b;
    case 'footerField':
    case 'pageHeaderField':
      return applyStructured(src, m);
    case 'range':
      return applyRange(src, m);
    case 'trevni':
      return applyTrevni(src, m);
  }
}

/** A byte range [start, end) of a file. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Where the interesting bytes of a file lie: for Parquet its footer, the
 * start of each column chunk (page headers), each chunk and each page; for
 * Trevni the header (as the "footer") and each column's descriptors.
 */
export interface FileMap {
  size: number;
  footerStart: number;
  footerEnd: number;
  chunkStarts: number[];
  chunks?: Span[];
  pages?: Span[];
  /** Each chunk's pages, in order (Parquet). */
  chunkPages?: Span[][];
}

const INTERESTING_VALUES = ['0', '1', '-1', '2', '127', '128', '255', '4096', '65535', '65536', '2147483647', '2147483648', '4294967295', '4294967296',
  '9007199254740991', '9007199254740993', '9223372036854775807', '18446744073709551615', '1000000000', '268435456'];

/** One random mutation of a file, aimed at its footer and page headers more often than chance would. */
export function randomMutation(rng: Rng, map: FileMap): Mutation {
  const { size, footerStart, footerEnd, chunkStarts } = map;
  const anywhere = () => rng.int(size);
  const inFooter = () => footerStart + rng.int(Math.max(1, footerEnd - footerStart));
  const inHeader = () => (chunkStarts.length ? rng.pick(chunkStarts) + rng.int(40) : anywhere());
  const somewhere = () => {
    const r = rng.next();
    return Math.min(size - 1, r < 0.4 ? inFooter() : r < 0.75 ? inHeader() : anywhere());
  };
  const r = rng.next();
  if (r < 0.3) {
    // Half single-bit flips, half whole-byte changes.
    const count = 1 + rng.int(rng.next() < 0.7 ? 2 : 16);
    const xor = () => (rng.next() < 0.5 ? 1 << rng.int(8) : 1 + rng.int(255));
    return { kind: 'flip', at: Array.from({ length: count }, () => [somewhere(), xor()] as [number, number]) };
  }
  if (r < 0.5) {
    const value = rng.next() < 0.7 ? rng.pick(INTERESTING_VALUES) : String(BigInt(rng.int(2 ** 31)) * BigInt(1 + rng.int(2 ** 20)));
    return { kind: 'varint', at: somewhere(), value, zigzag: rng.next() < 0.5 };
  }
  if (r < 0.62) {
    const start = somewhere();
    return { kind: 'zero', start, length: 1 + rng.int(rng.next() < 0.8 ? 16 : 1024) };
  }
  if (r < 0.7) {
    const pick = rng.next();
    const len = footerEnd - footerStart;
    const value = pick < 0.3 ? rng.int(size + 16) : pick < 0.6 ? len + rng.int(9) - 4 : rng.pick([0, 1, 4, size - 8, size - 12, size, 0x7fffffff, 0xffffffff]);
    return { kind: 'footerLength', value };
  }
  if (r < 0.8) {
    const start = 4 + rng.int(Math.max(1, footerStart - 4));
    const end = Math.min(footerStart, start + 1 + rng.int(64));
    return { kind: 'cut', start, end: Math.max(start, end) };
  }
  if (r < 0.9) {
    const from = rng.next() < 0.5 ? inHeader() : anywhere();
    const to = somewhere();
    return { kind: 'copy', from: Math.min(from, size - 1), to, length: 1 + rng.int(48) };
  }
  return { kind: 'truncate', length: rng.int(size) };
}
