import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NumberSet } from '../../src/encodings/number-set.js';
import { Rng } from '../writer/gen.js';

test('64-bit values get the number of their first add, against a Map of their bits, through growth, last-first removals and clears', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const rand = new Rng(seed);
    const r = () => rand.next();
    const set = new NumberSet();
    const oracle = new Map<string, number>();
    const order: string[] = [];
    for (let step = 0; step < 5000; step++) {
      if (r() < 0.002) {
        // Emptied, as a chunk's dictionary is for the next chunk: nothing is found again, and the set grows past its old size.
        set.clear();
        oracle.clear();
        order.length = 0;
        continue;
      }
      if (r() < 0.1 && order.length > 0) {
        // Remove the last few added, as a rolled-back record's entries are.
        for (let k = Math.floor(r() * 4); k >= 0 && order.length > 0; k--) {
          oracle.delete(order.pop()!);
          set.pop();
        }
        continue;
      }
      // Halves from small ranges and their negatives: many repeats, values equal in one half and not the other.
      const half = () => (Math.floor(r() * 6) - 3) * (r() < 0.5 ? 1 : 0x10001);
      const lo = half();
      const hi = half();
      const key = `${lo}:${hi}`;
      const value = 1000 + step;
      const got = set.add(lo, hi, value);
      const known = oracle.get(key);
      if (known !== undefined) assert.equal(got, known, `seed ${seed} step ${step}: ${key}`);
      else {
        assert.equal(got, -1, `seed ${seed} step ${step}: ${key} is new`);
        oracle.set(key, value);
        order.push(key);
      }
      assert.equal(set.size, order.length);
    }
  }
});
