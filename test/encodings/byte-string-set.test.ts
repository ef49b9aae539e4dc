import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteStringSet } from '../../src/encodings/byte-string-set.js';
import { Rng } from '../writer/gen.js';

test('byte strings get the number of their first add, against a Map of their text, through growth, last-first removals and clears', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const rand = new Rng(seed);
    const r = () => rand.next();
    const set = new ByteStringSet();
    const oracle = new Map<string, number>();
    const order: string[] = [];
    const buf = new Uint8Array(64);
    for (let step = 0; step < 3000; step++) {
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
      // Short strings over a small alphabet: many repeats, empty strings, and hash collisions among different lengths.
      // Also longer ones, hashed a 32-bit word at a time, with a tail of 0 to 3 bytes.
      const len = r() < 0.7 ? Math.floor(r() * 5) : Math.floor(r() * 13);
      const start = Math.floor(r() * 8);
      for (let i = 0; i < len; i++) buf[start + i] = 97 + Math.floor(r() * 3);
      const key = String.fromCharCode(...buf.subarray(start, start + len));
      // Numbers that are not the entries' positions, as a dictionary's are not when it also holds JS strings.
      const value = 1000 + step;
      const got = set.add(buf, start, start + len, value);
      const known = oracle.get(key);
      if (known !== undefined) assert.equal(got, known, `seed ${seed} step ${step}: ${JSON.stringify(key)}`);
      else {
        assert.equal(got, -1, `seed ${seed} step ${step}: ${JSON.stringify(key)} is new`);
        oracle.set(key, value);
        order.push(key);
      }
      assert.equal(set.size, order.length);
    }
  }
});
