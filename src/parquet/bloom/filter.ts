/**
 * Split-block bloom filters (parquet-format BloomFilter.md): the bitset is a
 * sequence of 256-bit blocks, each eight 32-bit little-endian words. A 64-bit
 * hash picks a block with its upper 32 bits (`(upper * blocks) >> 32`) and
 * sets or tests one bit in each word with its lower 32 bits
 * (`(lower * SALT[i]) >>> 27`).
 */
import { InvalidArgumentError } from '../../errors.js';

/** The eight salts of the spec. */
export const SALT = new Uint32Array([
  0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
]);

export const BYTES_PER_BLOCK = 32;
/** Smallest bitset a writer makes (one block). */
export const MIN_BLOOM_BYTES = 32;
/** Largest bitset a writer makes: 128 MiB, as parquet-mr and Arrow. */
export const MAX_BLOOM_BYTES = 128 * 1024 * 1024;

const MASK32 = 0xffffffffn;

/**
 * Bitset size in bytes for `ndv` distinct values at false-positive rate
 * `fpp`: the spec's `-8 / log(1 - fpp^(1/8))` bits per value, rounded up to a
 * power of two between 32 bytes and 128 MiB.
 */
export function optimalBloomBytes(ndv: number, fpp: number): number {
  if (!(typeof ndv === 'number' && Number.isFinite(ndv) && ndv >= 0)) {
    throw new InvalidArgumentError(`bloom filter ndv must be a non-negative number; got ${String(ndv)}`);
  }
  if (!(typeof fpp === 'number' && fpp > 0 && fpp < 1)) {
    throw new InvalidArgumentError(`bloom filter fpp must be a number between 0 and 1 (exclusive); got ${String(fpp)}`);
  }
  const bits = (-8 * ndv) / Math.log(1 - Math.pow(fpp, 1 / 8));
  let bytes = Math.ceil(bits / 8);
  if (!(bytes >= MIN_BLOOM_BYTES)) bytes = MIN_BLOOM_BYTES; // also catches NaN
  if (bytes >= MAX_BLOOM_BYTES) return MAX_BLOOM_BYTES;
  let p = MIN_BLOOM_BYTES;
  while (p < bytes) p *= 2;
  return p;
}

export class SplitBlockBloomFilter {
  /** The bitset as stored in the file (little-endian words). */
  readonly bitset: Uint8Array;
  readonly #words: Uint32Array;
  readonly #blocks: bigint;
  readonly #aligned: boolean;

  /** A filter sized for `ndv` distinct values at false-positive rate `fpp` (see optimalBloomBytes). */
  static forDistinct(ndv: number, fpp: number): SplitBlockBloomFilter {
    return new SplitBlockBloomFilter(new Uint8Array(optimalBloomBytes(ndv, fpp)));
  }

  /** Wraps a bitset (not copied): its length must be a positive multiple of 32 bytes. */
  constructor(bitset: Uint8Array) {
    if (!(bitset instanceof Uint8Array) || bitset.length === 0 || bitset.length % BYTES_PER_BLOCK !== 0) {
      const n = bitset instanceof Uint8Array ? `${bitset.length} bytes` : 'not a Uint8Array';
      throw new InvalidArgumentError(`a bloom filter bitset must be a positive multiple of ${BYTES_PER_BLOCK} bytes; got ${n}`);
    }
    this.bitset = bitset;
    // Word access straight on the bytes where the platform is little-endian and the view aligned.
    this.#aligned = LITTLE_ENDIAN && bitset.byteOffset % 4 === 0;
    this.#words = this.#aligned ? new Uint32Array(bitset.buffer, bitset.byteOffset, bitset.length / 4) : new Uint32Array(0);
    this.#blocks = BigInt(bitset.length / BYTES_PER_BLOCK);
  }

  /** Number of 256-bit blocks. */
  get numBlocks(): number {
    return this.bitset.length / BYTES_PER_BLOCK;
  }

  #block(hash: bigint): number {
    return Number((((hash >> 32n) & MASK32) * this.#blocks) >> 32n);
  }

  insert(hash: bigint): void {
    const base = this.#block(hash) * 8;
    const key = Number(hash & MASK32);
    for (let i = 0; i < 8; i++) {
      const bit = 1 << (Math.imul(key, SALT[i]!) >>> 27);
      if (this.#aligned) this.#words[base + i]! |= bit;
      else setWordBit(this.bitset, (base + i) * 4, bit);
    }
  }

  mightContain(hash: bigint): boolean {
    const base = this.#block(hash) * 8;
    const key = Number(hash & MASK32);
    for (let i = 0; i < 8; i++) {
      const bit = 1 << (Math.imul(key, SALT[i]!) >>> 27);
      const word = this.#aligned ? this.#words[base + i]! : readWord(this.bitset, (base + i) * 4);
      if ((word & bit) === 0) return false;
    }
    return true;
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function readWord(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

function setWordBit(b: Uint8Array, at: number, bit: number): void {
  b[at] = b[at]! | (bit & 0xff);
  b[at + 1] = b[at + 1]! | ((bit >>> 8) & 0xff);
  b[at + 2] = b[at + 2]! | ((bit >>> 16) & 0xff);
  b[at + 3] = b[at + 3]! | ((bit >>> 24) & 0xff);
}
