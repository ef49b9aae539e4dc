/**
 * Distinct 64-bit values, each given as its two 32-bit halves, with a number
 * it was added with: a writer's dictionary of INT32, INT64, FLOAT and DOUBLE
 * values (to their dictionary indices) looked up by their bits (open
 * addressing), with no bigint or heap number made per lookup, as a Map keyed
 * by the values made them. Entries are removed last-added first (a
 * rolled-back record's), as in ByteStringSet.
 */

const EMPTY = -1;

export class NumberSet {
  private lo = new Int32Array(4);
  private hi = new Int32Array(4);
  private values = new Int32Array(4);
  /** Slots: an entry's index, or EMPTY. */
  private table = new Int32Array(8).fill(EMPTY);
  size = 0;

  /** The number (lo, hi) was added with; when it is not there, it is added with `value` (0 or more), and -1 is given. */
  add(lo: number, hi: number, value: number): number {
    const table = this.table;
    const mask = table.length - 1;
    for (let slot = hash(lo, hi) & mask; ; slot = (slot + 1) & mask) {
      const e = table[slot]!;
      if (e === EMPTY) {
        this.store(lo, hi, value, slot);
        return -1;
      }
      if (this.lo[e] === lo && this.hi[e] === hi) return this.values[e]!;
    }
  }

  private store(lo: number, hi: number, value: number, slot: number): void {
    const index = this.size++;
    if (index === this.lo.length) {
      this.lo = grown(this.lo);
      this.hi = grown(this.hi);
      this.values = grown(this.values);
    }
    this.lo[index] = lo;
    this.hi[index] = hi;
    this.values[index] = value;
    if (this.size * 2 > this.table.length) this.rehash(this.table.length * 2);
    else this.table[slot] = index;
  }

  private place(index: number): void {
    const mask = this.table.length - 1;
    let slot = hash(this.lo[index]!, this.hi[index]!) & mask;
    while (this.table[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.table[slot] = index;
  }

  private rehash(slots: number): void {
    this.table = new Int32Array(slots).fill(EMPTY);
    for (let i = 0; i < this.size; i++) this.place(i);
  }

  /** Removes the entry added last. */
  pop(): void {
    const index = --this.size;
    const mask = this.table.length - 1;
    let slot = hash(this.lo[index]!, this.hi[index]!) & mask;
    while (this.table[slot] !== index) slot = (slot + 1) & mask;
    this.table[slot] = EMPTY;
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
