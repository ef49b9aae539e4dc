/**
 * Distinct 64-bit values, each given as its two 32-bit halves, with a number
 * it was added with: a writer's dictionary of INT32, INT64, FLOAT and DOUBLE
 * values (to their dictionary indices) looked up by their bits (open
 * addressing), with no bigint or heap number made per lookup, as a Map keyed
 * by the values made them. Entries are removed last-added first (a
 * rolled-back record's), as in ByteStringSet.
 */

import { EMPTY, LastFirstSet } from './last-first-set.js';

export class NumberSet extends LastFirstSet {
  private lo = new Int32Array(4);
  private hi = new Int32Array(4);
  private values = new Int32Array(4);

  /** The number (lo, hi) was added with; when it is not there, it is added with `value` (0 or more), and -1 is given. */
  add(lo: number, hi: number, value: number): number {
    const table = this.table;
    const mask = table.length - 1;
    for (let slot = hash(lo, hi) & mask; ; slot = (slot + 1) & mask) {
      const e = table[slot]!;
      if (e === EMPTY) {
        this.store(lo, hi, value);
        return -1;
      }
      if (this.lo[e] === lo && this.hi[e] === hi) return this.values[e]!;
    }
  }

  private store(lo: number, hi: number, value: number): void {
    const index = this.size++;
    if (index === this.lo.length) {
      this.lo = grown(this.lo);
      this.hi = grown(this.hi);
      this.values = grown(this.values);
    }
    this.lo[index] = lo;
    this.hi[index] = hi;
    this.values[index] = value;
    this.placed(index);
  }

  protected hashOf(index: number): number {
    return hash(this.lo[index]!, this.hi[index]!);
  }
}

function grown(a: Int32Array): Int32Array<ArrayBuffer> {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
}

/** The halves mixed (murmur3's finalizer), so that neighbouring integers and doubles that differ in their high bits spread. */
function hash(lo: number, hi: number): number {
  let h = lo ^ Math.imul(hi, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
