import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CorruptFileError, LimitError, ParquetryError } from '../../src/errors.js';
import { ascii, compressedBy, impls, randomBytes } from './fixtures.js';

const corrupt = (e: unknown) => e instanceof CorruptFileError;

/** Some text that compresses, as a page would. */
const page = ascii(Array.from({ length: 400 }, (_, i) => `${i},name${i % 37},${(i * 7919) % 1000}.25\n`).join(''));

for (const { codec, name, impl } of impls) {
  const label = `${codec} (${name})`;
  const packed = compressedBy(codec, page);

  test(`${label}: random bytes are CorruptFileError`, () => {
    for (let seed = 1; seed <= 200; seed++) {
      const junk = randomBytes(seed % 67, seed);
      for (const size of [1, 100, 5000]) {
        if (codec === 'UNCOMPRESSED' && size === junk.length) continue;
        assert.throws(() => impl.decompress(junk, size), corrupt, `seed ${seed}, size ${size}`);
      }
    }
  });

  test(`${label}: truncated input is CorruptFileError`, { skip: !packed && 'no compressor here' }, () => {
    for (let cut = 0; cut < packed!.length; cut += Math.max(1, Math.floor(packed!.length / 97))) {
      assert.throws(() => impl.decompress(packed!.subarray(0, cut), page.length), corrupt, `cut at ${cut}`);
    }
  });

  test(`${label}: a wrong uncompressed size is CorruptFileError`, { skip: !packed && 'no compressor here' }, () => {
    for (const size of [0, 1, page.length - 1, page.length + 1, page.length * 2]) {
      assert.throws(() => impl.decompress(packed!, size), corrupt, `size ${size}`);
    }
  });

  test(`${label}: corrupted bytes give a typed error or a page of the right size`, { skip: !packed && 'no compressor here' }, () => {
    for (let seed = 1; seed <= 300; seed++) {
      const bad = packed!.slice();
      const noise = randomBytes(3, seed);
      bad[(noise[0]! * 256 + noise[1]!) % bad.length]! ^= noise[2]! | 1;
      try {
        assert.equal(impl.decompress(bad, page.length).length, page.length);
      } catch (e) {
        assert.ok(e instanceof ParquetryError && e.code === 'CORRUPT', `seed ${seed}: ${String(e)}`);
      }
    }
  });

  test(`${label}: impossible sizes are refused before allocating`, () => {
    assert.throws(() => impl.decompress(Uint8Array.of(1, 2, 3), 2 ** 31), LimitError);
    assert.throws(() => impl.decompress(Uint8Array.of(1, 2, 3), Number.MAX_SAFE_INTEGER), LimitError);
    for (const size of [-1, 1.5, Number.NaN, Infinity]) assert.throws(() => impl.decompress(Uint8Array.of(1, 2, 3), size), corrupt, String(size));
  });
}
