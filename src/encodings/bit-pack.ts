/** Bit packing, LSB first (bits.ts unpacks): the encoders' side, apart so a read does not load it. */
import { InvalidArgumentError } from '../errors.js';

/** A bit buffer for packing LSB first: whole bytes leave as soon as they fill. */
class LsbWriter {
  private acc = 0;
  private bits = 0;
  constructor(
    private readonly dst: Uint8Array,
    private p: number,
  ) {}

  /** Appends the low `n` (0..32) bits of `v`. */
  put32(v: number, n: number): void {
    if (n <= 24) {
      this.put(v & (n === 0 ? 0 : 0xffffffff >>> (32 - n)), n);
    } else {
      this.put(v & 0xffff, 16);
      this.put((v >>> 16) & (0xffffffff >>> (48 - n)), n - 16);
    }
  }

  /** Appends `v`, already below 2^n, n <= 24: the buffer holds < 8 bits, so it stays under 32. */
  private put(v: number, n: number): void {
    this.acc |= v << this.bits;
    this.bits += n;
    while (this.bits >= 8) {
      this.dst[this.p++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.bits -= 8;
    }
  }

  /** Writes out a last partial byte, zero-padded. */
  flush(): void {
    if (this.bits > 0) this.dst[this.p++] = this.acc & 0xff;
    this.acc = 0;
    this.bits = 0;
  }
}

/**
 * Packs `src[start .. start + n)` at `width` bits (0..32) each, LSB first,
 * into `dst` from byte `dpos` (ceil(n * width / 8) bytes; the caller sizes
 * `dst` and any padding beyond stays as it is, zero in a fresh array).
 * Below width 32 every value must fit: silently dropping bits would write a
 * different column than the caller holds.
 */
export function packLsb(src: ArrayLike<number>, start: number, n: number, width: number, dst: Uint8Array, dpos: number): void {
  const w = new LsbWriter(dst, dpos);
  for (let i = start, e = start + n; i < e; i++) {
    const v = src[i]!;
    if (width < 32 && v >>> width !== 0) {
      throw new InvalidArgumentError(`value ${v} at index ${i} does not fit in ${width} bits`);
    }
    w.put32(v, width);
  }
  w.flush();
}

/** Packs 64-bit values given as low/high halves at `width` bits (33..64), LSB first. */
export function packLsb64(lo: Int32Array, hi: Int32Array, start: number, n: number, width: number, dst: Uint8Array, dpos: number): void {
  const w = new LsbWriter(dst, dpos);
  for (let k = start, e = start + n; k < e; k++) {
    w.put32(lo[k]!, 32);
    w.put32(hi[k]!, width - 32);
  }
  w.flush();
}
