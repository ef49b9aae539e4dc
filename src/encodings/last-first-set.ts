/**
 * The slots of an open-addressing hash set whose entries are removed
 * last-added first (a rolled-back record's): no entry added before the last
 * one probed past its slot, so removing it needs no tombstone. The entries
 * themselves are the subclass's, by index.
 */

export const EMPTY = -1;

export abstract class LastFirstSet {
  /** Slots: an entry's index, or EMPTY. */
  protected table = new Int32Array(2).fill(EMPTY);
  size = 0;

  /** The hash of entry `index`. */
  protected abstract hashOf(index: number): number;

  /** Puts entry `index` (the last added) in a slot, growing the table past half full. */
  protected placed(index: number): void {
    if (this.size * 2 > this.table.length) {
      this.table = new Int32Array(this.table.length * 2).fill(EMPTY);
      for (let i = 0; i < this.size; i++) this.place(i);
    } else this.place(index);
  }

  private place(index: number): void {
    const mask = this.table.length - 1;
    let slot = this.hashOf(index) & mask;
    while (this.table[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.table[slot] = index;
  }

  /** Removes every entry, keeping the buffers at the size they grew to (a column's next chunk fills them again). */
  clear(): void {
    this.table.fill(EMPTY);
    this.size = 0;
  }

  /** Removes the entry added last. */
  pop(): void {
    const index = --this.size;
    const mask = this.table.length - 1;
    let slot = this.hashOf(index) & mask;
    while (this.table[slot] !== index) slot = (slot + 1) & mask;
    this.table[slot] = EMPTY;
  }
}
