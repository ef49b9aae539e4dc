import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { crc32, crc32Portable, registerCrc32 } from '../../src/checksum/crc32.js';
import { createNodeCrc32 } from '../../src/node/codecs.js';
import { ascii, randomBytes } from '../codecs/fixtures.js';

test('CRC-32 check value and empty input', () => {
  assert.equal(crc32Portable(ascii('123456789')), 0xcbf43926);
  assert.equal(crc32Portable(new Uint8Array(0)), 0);
  assert.equal(crc32Portable(ascii('The quick brown fox jumps over the lazy dog')), 0x414fa339);
  // An all-ones word: the result must stay unsigned.
  assert.equal(crc32Portable(Uint8Array.of(0xff, 0xff, 0xff, 0xff)), 0xffffffff);
});

test('CRC-32 continues from an initial value across any split', () => {
  const data = randomBytes(1000, 7);
  const whole = crc32Portable(data);
  for (const cut of [0, 1, 7, 8, 9, 500, 999, 1000]) {
    assert.equal(crc32Portable(data.subarray(cut), crc32Portable(data.subarray(0, cut))), whole, `cut at ${cut}`);
  }
});

test('CRC-32 respects the view of a subarray', () => {
  const data = randomBytes(100, 3);
  assert.equal(crc32Portable(data.subarray(13, 77)), crc32Portable(data.slice(13, 77)));
});

test('CRC-32 agrees with zlib.crc32 on random data of every length mod 8', { skip: typeof zlib.crc32 !== 'function' && 'zlib.crc32 needs Node 20.15' }, () => {
  for (let n = 0; n < 300; n++) {
    const data = randomBytes(n, n + 1);
    assert.equal(crc32Portable(data), zlib.crc32(data), `length ${n}`);
    assert.equal(crc32Portable(data, 0x12345678), zlib.crc32(data, 0x12345678), `length ${n}, seeded`);
  }
  const big = randomBytes(1 << 20, 99);
  assert.equal(crc32Portable(big), zlib.crc32(big));
});

test('the Node CRC-32 gives the portable results on both sides of its size switch', { skip: !createNodeCrc32() && 'zlib.crc32 needs Node 20.15' }, () => {
  const node = createNodeCrc32()!;
  for (const n of [0, 1, 127, 128, 129, 4096]) {
    const data = randomBytes(n, n + 5);
    assert.equal(node(data), crc32Portable(data));
    assert.equal(node(data, 0xdeadbeef), crc32Portable(data, 0xdeadbeef));
  }
});

test('registerCrc32 swaps the implementation behind crc32', () => {
  const data = ascii('123456789');
  registerCrc32(() => 42);
  try {
    assert.equal(crc32(data), 42);
  } finally {
    registerCrc32(crc32Portable);
  }
  assert.equal(crc32(data), 0xcbf43926);
});
