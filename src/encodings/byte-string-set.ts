/**
 * Distinct byte strings, each with a number it was added with: a writer's
 * dictionary of BYTE_ARRAY values (to their dictionary indices) looked up by their bytes (a hash of them,
 * open addressing), with no JS string or view made per lookup. Entries are
 * removed last-added first (a rolled-back record's), which open addressing
 * allows: no entry added before the last one probed past its slot.
 */

import { copyBytes } from '../bytes/concat.js';
import { EMPTY, LastFirstSet } from './last-first-set.js';

export class ByteStringSet extends LastFirstSet {
  private data = new Uint8Array(0);
  /** Entry i is data[offsets[i], offsets[i + 1]). */
  private offsets = new Int32Array(2);
  private hashes = new Int32Array(2);
  private values = new Int32Array(2);

  /** The number src[start, end) was added with; when it is not there, it is added with `value` (0 or more), and -1 is given. */
  add(src: Uint8Array, start: number, end: number, value: number): number {
    const h = hashBytes(src, start, end);
    const mask = this.table.length - 1;
    const { table, offsets, data } = this;
    const n = end - start;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = table[slot]!;
      if (e === EMPTY) break;
      if (this.hashes[e] !== h) continue;
      const at = offsets[e]!;
      if (offsets[e + 1]! - at !== n) continue;
      let i = 0;
      while (i < n && data[at + i] === src[start + i]) i++;
      if (i === n) return this.values[e]!;
    }
    this.store(src, start, end, h, value);
    return -1;
  }

  private store(src: Uint8Array, start: number, end: number, h: number, value: number): void {
    const index = this.size++;
    if (this.size + 1 > this.offsets.length) {
      const offsets = new Int32Array(this.offsets.length * 2);
      offsets.set(this.offsets);
      this.offsets = offsets;
      const hashes = new Int32Array(this.hashes.length * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
      const values = new Int32Array(this.values.length * 2);
      values.set(this.values);
      this.values = values;
    }
    const at = this.offsets[index]!;
    const next = at + end - start;
    if (next > this.data.length) {
      const data = new Uint8Array(Math.max(next, this.data.length * 2));
      data.set(this.data.subarray(0, at));
      this.data = data;
    }
    copyBytes(this.data, at, src, start, end);
    this.offsets[index + 1] = next;
    this.hashes[index] = h;
    this.values[index] = value;
    this.placed(index);
  }

  protected hashOf(index: number): number {
    return this.hashes[index]!;
  }
}

/**
 * FNV-1a over 32-bit words (then the bytes left), finished by murmur3's
 * mixer, which spreads every word into the low bits a slot is taken from: a
 * quarter of the multiplications of FNV-1a a byte at a time.
 */
function hashBytes(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  let i = start;
  for (; i + 4 <= end; i += 4) h = Math.imul(h ^ (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)), 0x01000193);
  for (; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
