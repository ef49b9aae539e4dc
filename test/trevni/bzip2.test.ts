/** The bzip2 codec (src/codecs/bzip2.ts): round trips, the system bzip2 both ways, and bad input. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { bzip2Compress, bzip2Decompress } from '../../src/codecs/bzip2.js';
import { CorruptFileError, ParquetryError } from '../../src/errors.js';

function samples(): Uint8Array[] {
  const text = new TextEncoder();
  const noise = new Uint8Array(70000);
  let s = 12345;
  for (let i = 0; i < noise.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    noise[i] = s >>> 24;
  }
  const periodic = new Uint8Array(250000);
  for (let i = 0; i < periodic.length; i++) periodic[i] = (i * 7) % 13;
  const big = new Uint8Array(1_900_000); // three blocks at level 9
  for (let i = 0; i < big.length; i++) big[i] = (i * 31 ^ (i >> 7)) & 0x7f;
  return [
    new Uint8Array([0]),
    new Uint8Array(1000), // one long run: RLE1 with counts
    new Uint8Array(300).fill(0xff),
    text.encode('banana'),
    text.encode('abracadabra '.repeat(400)),
    periodic,
    noise,
    big,
  ];
}

const hasBzip2 = (() => {
  try {
    execFileSync('bzip2', ['--help'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test('round trips', () => {
  for (const s of samples()) {
    const z = bzip2Compress(s);
    assert.deepEqual(bzip2Decompress(z, s.length), s);
    assert.deepEqual(bzip2Decompress(z), s);
  }
  const part = samples()[7]!.subarray(0, 250000); // three blocks at level 1
  assert.deepEqual(bzip2Decompress(bzip2Compress(part, 1)), part);
});

test('interoperates with the system bzip2', { skip: !hasBzip2 && 'no bzip2 command' }, () => {
  for (const s of samples()) {
    const mine = bzip2Compress(s);
    assert.deepEqual(new Uint8Array(execFileSync('bzip2', ['-dc'], { input: mine, maxBuffer: 1 << 26 })), s);
    const theirs = new Uint8Array(execFileSync('bzip2', ['-c', '-9'], { input: s, maxBuffer: 1 << 26 }));
    assert.deepEqual(bzip2Decompress(theirs, s.length), s);
  }
  // Concatenated streams, as `cat a.bz2 b.bz2` makes.
  const [a, b] = [samples()[3]!, samples()[4]!];
  const cat = new Uint8Array([...bzip2Compress(a), ...new Uint8Array(execFileSync('bzip2', ['-c'], { input: b }))]);
  assert.deepEqual(bzip2Decompress(cat), new Uint8Array([...a, ...b]));
});

test('bad input ends in CorruptFileError', () => {
  const s = samples()[4]!;
  const z = bzip2Compress(s);
  assert.throws(() => bzip2Decompress(z, s.length - 1), CorruptFileError);
  assert.throws(() => bzip2Decompress(z, s.length + 1), CorruptFileError);
  assert.throws(() => bzip2Decompress(new Uint8Array([0x42, 0x5a, 0x68, 0x30])), CorruptFileError);
  assert.throws(() => bzip2Decompress(new Uint8Array(0)), CorruptFileError);
  for (let n = 0; n < z.length; n += 7) assert.throws(() => bzip2Decompress(z.subarray(0, n), s.length), ParquetryError);
  let seed = 99;
  for (let i = 0; i < 400; i++) {
    const m = z.slice();
    seed = (seed * 1103515245 + 12345) >>> 0;
    m[4 + (seed % (m.length - 4))] ^= 1 << (seed >>> 29);
    try {
      const out = bzip2Decompress(m, s.length);
      assert.equal(out.length, s.length);
    } catch (e) {
      assert.ok(e instanceof ParquetryError, String(e));
    }
  }
});
