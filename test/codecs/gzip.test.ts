import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { crc32 } from '../../src/checksum/crc32.js';
import { CorruptFileError } from '../../src/errors.js';
import { gzip } from '../../src/codecs/gzip.js';
import { nodeGzip } from '../../src/node/codecs.js';
import { ascii, cat, randomBytes, repetitiveBytes } from './fixtures.js';

const corrupt = (e: unknown) => e instanceof CorruptFileError;
const both = [
  ['fflate', gzip],
  ['node:zlib', nodeGzip],
] as const;

test('GZIP: concatenated members decode to their concatenation', () => {
  const a = repetitiveBytes(5000);
  const b = randomBytes(3000, 2);
  const two = cat(zlib.gzipSync(a), zlib.gzipSync(b));
  const three = cat(two, zlib.gzipSync(new Uint8Array(0)));
  // Identical members: the second member's trailer must not be taken for the first's.
  const same = cat(zlib.gzipSync(a), zlib.gzipSync(a));
  for (const [name, codec] of both) {
    assert.deepEqual(codec.decompress(two, 8000), cat(a, b), name);
    assert.deepEqual(codec.decompress(three, 8000), cat(a, b), name);
    assert.deepEqual(codec.decompress(same, 10000), cat(a, a), name);
    assert.throws(() => codec.decompress(same, 5000), corrupt, name);
  }
});

test('GZIP: header fields (extra, name, comment, header CRC) are skipped', () => {
  const data = ascii('gzip header fields');
  const plain = zlib.gzipSync(data);
  const header = Uint8Array.from([...plain.subarray(0, 3), 4 | 8 | 16 | 2, ...plain.subarray(4, 10), 3, 0, 1, 2, 3, ...ascii('name\0comment\0')]);
  const hcrc = crc32(header) & 0xffff;
  const member = cat(header, Uint8Array.of(hcrc & 0xff, hcrc >>> 8), plain.subarray(10));
  for (const [name, codec] of both) assert.deepEqual(codec.decompress(member, data.length), data, name);
});

test('GZIP: zero padding after the last member is accepted, other trailing bytes are not', () => {
  const data = ascii('padded');
  const member = zlib.gzipSync(data);
  for (const [name, codec] of both) {
    assert.deepEqual(codec.decompress(cat(member, new Uint8Array(16)), data.length), data, name);
    assert.throws(() => codec.decompress(cat(member, ascii('trailing garbage')), data.length), corrupt, name);
  }
});

test('GZIP: a wrong CRC or length in the trailer is CorruptFileError', () => {
  const data = repetitiveBytes(1000);
  const member = zlib.gzipSync(data);
  for (const at of [member.length - 8, member.length - 1]) {
    const bad = member.slice();
    bad[at]! ^= 1;
    for (const [name, codec] of both) assert.throws(() => codec.decompress(bad, data.length), corrupt, `${name} byte ${at}`);
  }
});

test('GZIP: fflate and zlib read each other, at every level', () => {
  const data = cat(repetitiveBytes(20000), randomBytes(5000, 8));
  for (const level of [0, 1, 6, 9]) {
    assert.deepEqual(nodeGzip.decompress(gzip.compress(data, level), data.length), data);
    assert.deepEqual(gzip.decompress(nodeGzip.compress(data, level), data.length), data);
  }
  assert.throws(() => gzip.compress(data, 10), /GZIP compression level/);
  assert.throws(() => nodeGzip.compress(data, -1), /GZIP compression level/);
});

test('GZIP: portable compress output is reproducible', () => {
  const data = ascii('same bytes every time');
  assert.deepEqual(gzip.compress(data), gzip.compress(data));
  assert.deepEqual(gzip.compress(data).subarray(4, 8), new Uint8Array(4));
});

test('GZIP: a bomb stops at the declared size', () => {
  const bomb = zlib.gzipSync(new Uint8Array(16 << 20), { level: 9 });
  for (const [name, codec] of both) assert.throws(() => codec.decompress(bomb, 1000), corrupt, name);
});
