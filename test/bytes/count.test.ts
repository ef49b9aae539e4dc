import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countByte, countBytes } from '../../src/bytes/count.js';

test('countBytes and countByte agree with a byte-by-byte count at every alignment and length, the bytes dense, sparse and next to their neighbours (0x80 and 0x7f bits, x ± 1)', () => {
  let s = 12345;
  const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0);
  for (const [x, y] of [[10, 34], [0, 255], [0x7f, 0x80], [34, 10]] as const) {
    const alphabet = [x, y, x + 1, x - 1, y ^ 0x80, x ^ 0x80, 0, 0xff, 0x7f, 0x80, 65];
    for (let round = 0; round < 200; round++) {
      const buffer = new Uint8Array(300);
      const dense = round % 3;
      for (let i = 0; i < buffer.length; i++) buffer[i] = dense === 0 ? alphabet[next() % alphabet.length]! & 0xff : dense === 1 ? (next() % 50 === 0 ? x : 65) : next() & 0xff;
      const offset = next() % 8;
      const b = buffer.subarray(offset, offset + 200 + (next() % 90));
      const from = next() % 20;
      const to = Math.max(from, b.length - (next() % 20));
      let nx = 0;
      let ny = 0;
      for (let i = from; i < to; i++) {
        if (b[i] === x) nx++;
        else if (b[i] === y) ny++;
      }
      assert.deepEqual(countBytes(b, from, to, x, y), [nx, ny], `x ${x} y ${y} offset ${offset} [${from}, ${to})`);
      assert.equal(countByte(b, from, to, x), nx);
      assert.equal(countByte(b, from, to, y), b.subarray(from, to).filter((c) => c === y).length);
    }
  }
  assert.deepEqual(countBytes(new Uint8Array(0), 0, 0, 10, 34), [0, 0]);
  assert.deepEqual(countBytes(Uint8Array.of(10, 34, 10), 1, 2, 10, 34), [0, 1]);
});
