import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snappyUncompress } from 'hyparquet';
import { CorruptFileError } from '../../src/errors.js';
import { loadSnappy } from '../../src/codecs/snappy.js';
import { snappyLength } from '../../src/codecs/snappy-decode.js';
import { createNodeSnappy } from '../../src/node/snappy.js';
import { MiB, SNAPPY_KINDS, SNAPPY_SIZES, ascii, randomBytes, repetitiveBytes, textLike } from './fixtures.js';

const snappy = await loadSnappy();
const corrupt = (e: unknown) => e instanceof CorruptFileError;

/**
 * Worked from snappy's format_description.txt:
 *   0x0F             preamble: 15 bytes uncompressed
 *   0x0C 'abcd'      literal, tag 00, length-1 = 3 in the upper six bits
 *   0x11 0x04        copy with 1-byte offset, tag 01: length-4 = 4 in bits 2-4,
 *                    offset 4 (shorter than the length: it overlaps)
 *   0x0A 0x02 0x00   copy with 2-byte offset, tag 10: length-1 = 2, offset 2
 */
test('SNAPPY: hand-worked block with a literal and both short copy forms', () => {
  const block = Uint8Array.of(0x0f, 0x0c, 0x61, 0x62, 0x63, 0x64, 0x11, 0x04, 0x0a, 0x02, 0x00);
  assert.deepEqual(snappy.decompress(block, 15), ascii('abcdabcdabcdcdc'));
});

test('SNAPPY: the length preamble is a 32-bit varint', () => {
  assert.equal(snappyLength(Uint8Array.of(0x00)), 0);
  assert.equal(snappyLength(Uint8Array.of(0xac, 0x02)), 300);
  assert.equal(snappyLength(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f)), 0xffffffff);
  assert.throws(() => snappyLength(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x1f)), corrupt);
  assert.throws(() => snappyLength(Uint8Array.of(0x80, 0x80)), corrupt);
  assert.throws(() => snappyLength(new Uint8Array(0)), corrupt);
});

test('SNAPPY: a preamble that disagrees with the page header is refused before decoding', () => {
  const block = snappy.compress(ascii('hello hello hello'));
  assert.throws(() => snappy.decompress(block, 16), corrupt);
  assert.throws(() => snappy.decompress(block, 18), corrupt);
  // Declared larger than the buffer the decoder would get: must not write past it.
  assert.throws(() => snappy.decompress(Uint8Array.of(0x80, 0x80, 0x04, 0x00, 0x61), 1), corrupt);
});

/** The compressor's bound on its output (snappy-encode.ts): the input, a byte per 12 more, and the preamble. */
const bound = (n: number) => 16 + n + Math.ceil(n / 12);

/** 65 fresh bytes, then the same 4 each time: literals too long for the tag alone between short copies, an output longer than its input. */
function longLiterals(n: number): Uint8Array {
  const out = randomBytes(n, 21);
  for (let i = 65; i + 4 <= n; i += 69) out.set(ascii('ABCD'), i);
  return out;
}

test('SNAPPY: the compressor\'s output is read by two independent decoders (the native one, hyparquet\'s), within its bound', () => {
  const native = createNodeSnappy()!;
  const cases: [string, Uint8Array][] = [
    ...SNAPPY_SIZES.flatMap((n) => SNAPPY_KINDS.map(([kind, make]): [string, Uint8Array] => [`${kind}, ${n} bytes`, make(n)])),
    ['long literals, 1 MiB', longLiterals(MiB)],
    ['random, 2^24 + 5 bytes', randomBytes(2 ** 24 + 5, 8)],
  ];
  assert.ok(snappy.compress(longLiterals(MiB)).length > MiB);
  for (const [what, data] of cases) {
    const packed = snappy.compress(data);
    assert.ok(packed.length <= bound(data.length), `${what}: ${packed.length} bytes`);
    assert.deepEqual(native.decompress(packed, data.length), data, what);
    const out = new Uint8Array(data.length);
    snappyUncompress(packed, out);
    assert.deepEqual(out, data, what);
  }
});

test('SNAPPY: the compressor compresses as well as the native one, within 2%', () => {
  const native = createNodeSnappy()!;
  for (const [what, data] of [['text-like', textLike(MiB, 5)], ['repetitive', repetitiveBytes(MiB)], ['runs', randomBytes(MiB, 6).map((b) => (b < 8 ? 1 : 0))]] as const) {
    const ours = snappy.compress(data).length;
    const theirs = native.compress(data).length;
    assert.ok(ours <= theirs * 1.02, `${what}: ${ours} bytes against ${theirs}`);
  }
});

test('SNAPPY: bad elements are CorruptFileError', () => {
  const cases: [string, number[], number][] = [
    ['copy offset 0', [0x05, 0x00, 0x61, 0x01, 0x00], 5],
    ['copy offset past the start', [0x08, 0x00, 0x61, 0x01, 0x05], 8],
    ['literal past the input', [0x05, 0x10, 0x61], 5],
    ['output short of the preamble', [0x05, 0x04, 0x61, 0x62], 5],
    ['output past the preamble', [0x01, 0x04, 0x61, 0x62], 1],
  ];
  for (const [what, bytes, size] of cases) assert.throws(() => snappy.decompress(Uint8Array.from(bytes), size), corrupt, what);
});
