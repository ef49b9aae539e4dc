import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CorruptFileError, LimitError, UnsupportedError } from '../../src/errors.js';
import { zstd } from '../../src/codecs/zstd.js';
import { zstdFrames } from '../../src/codecs/zstd-frame.js';
import { MiB, ascii, hex, nodeZstd, randomBytes, repetitiveBytes } from './fixtures.js';

const corrupt = (e: unknown) => e instanceof CorruptFileError;
const noNative = !nodeZstd && 'zstd-napi native binding is not built';

// Written by the zstd 1.5.4 command line tool from this text.
const fox = ascii('The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog. The quick brown fox.');
const foxBlock = 'b50100e40254686520717569636b2062726f776e20666f78206a756d7073206f76657220746865206c617a7920646f672e202e01002d9454';
/** From stdin: no content size, a 2 MiB window, a content checksum. */
const foxStreamed = hex('28b52ffd0458' + foxBlock + '191e459ae6');
/** From a file with --no-check: single segment, 1-byte content size. */
const foxSized = hex('28b52ffd206e' + foxBlock + '19');

function cat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

/**
 * Worked from RFC 8878: magic; frame header descriptor 0x20 (single
 * segment, so a 1-byte content size follows) = 5; one block, header
 * 0x00002B = last, type RLE (1), size 5; the byte to repeat.
 */
test('ZSTD: hand-worked single-segment frame with an RLE block', () => {
  assert.deepEqual(zstd.decompress(hex('28b52ffd' + '20' + '05' + '2b0000' + '78'), 5), ascii('xxxxx'));
  const raw = hex('28b52ffd' + '20' + '03' + '190000' + '616263'); // raw block, size 3
  assert.deepEqual(zstd.decompress(raw, 3), ascii('abc'));
});

test('ZSTD: frames from the zstd tool, with and without a content size', () => {
  assert.deepEqual(zstd.decompress(foxSized, fox.length), fox);
  assert.deepEqual(zstd.decompress(foxStreamed, fox.length), fox);
  assert.equal(zstdFrames(foxStreamed)[0]!.contentSize, undefined);
  assert.equal(zstdFrames(foxStreamed)[0]!.windowSize, 2 * MiB);
});

test('ZSTD: concatenated frames, sized and unsized, around skippable frames', () => {
  const skippable = hex('5e2a4d18' + '02000000' + 'abcd');
  const stream = cat(skippable, foxStreamed, foxSized, skippable, foxStreamed, hex('28b52ffd' + '20' + '05' + '2b0000' + '78'));
  assert.deepEqual(zstd.decompress(stream, 3 * fox.length + 5), cat(fox, fox, fox, ascii('xxxxx')));
});

test('ZSTD: sizes that disagree with the page header are CorruptFileError', () => {
  for (const frame of [foxSized, foxStreamed]) {
    assert.throws(() => zstd.decompress(frame, fox.length - 1), corrupt);
    assert.throws(() => zstd.decompress(frame, fox.length + 1), corrupt);
  }
  // An empty frame that claims data, and a frame claiming more than the page.
  assert.throws(() => zstd.decompress(hex('28b52ffd' + '20' + '00' + '190000' + '616263'), 3), corrupt);
  assert.throws(() => zstd.decompress(hex('28b52ffd' + 'e0' + 'ffffffffffffffff' + '010000'), 100), corrupt);
});

test('ZSTD: headers are checked before fzstd sees them', () => {
  const cases: [string, string][] = [
    ['bad magic', '28b52ffe2005' + '2b000078'],
    ['reserved header bit', '28b52ffd2805' + '2b000078'],
    ['reserved block type', '28b52ffd2005' + '2f000078'],
    ['block larger than the content', '28b52ffd2002' + '2b000078'],
    ['truncated block', '28b52ffd2005' + '19000061'],
    ['truncated header', '28b52ffd'],
    ['trailing bytes', '28b52ffd2005' + '2b000078' + '00'],
  ];
  for (const [what, h] of cases) assert.throws(() => zstd.decompress(hex(h), 5), corrupt, what);
  assert.throws(() => zstd.decompress(hex('28b52ffd' + '21' + '07' + '05' + '2b0000' + '78'), 5), UnsupportedError);
});

test('ZSTD: an unsized frame with a huge window is decoded in a window the page can fill', () => {
  // Window descriptor 0x88: 2^27 bytes; one raw block "hello".
  const frame = hex('28b52ffd' + '00' + '88' + '290000' + '68656c6c6f');
  const t = performance.now();
  for (let i = 0; i < 100; i++) assert.deepEqual(zstd.decompress(frame, 5), ascii('hello'));
  assert.ok(performance.now() - t < 1000, 'no 128 MiB window per call');
});

test('ZSTD: an unsized frame whose window sliding would cost too much is refused', () => {
  // 5000 one-byte RLE blocks: fzstd would slide a 1 MiB window 5000 times.
  const blocks = Array.from({ length: 5000 }, (_, i) => (i === 4999 ? '0b0000' : '0a0000') + '41').join('');
  assert.throws(() => zstd.decompress(hex('28b52ffd' + '00' + '50' + blocks), MiB), LimitError);
});

test('ZSTD: portable compression is unsupported', () => {
  assert.throws(() => zstd.compress(ascii('x')), UnsupportedError);
});

test('ZSTD: zstd-napi frames of every shape decode with fzstd', { skip: noNative }, async () => {
  const napi = (await import('zstd-napi')) as typeof import('zstd-napi');
  const data = cat(repetitiveBytes(300000), randomBytes(200000, 3));
  for (const contentSizeFlag of [true, false]) {
    for (const checksumFlag of [true, false]) {
      const frame = napi.compress(data, { contentSizeFlag, checksumFlag, compressionLevel: 5 });
      assert.deepEqual(zstd.decompress(frame, data.length), data);
      assert.deepEqual(nodeZstd!.decompress(frame, data.length), data);
    }
  }
  const multi = cat(napi.compress(data.subarray(0, 1000), { contentSizeFlag: false }), napi.compress(data.subarray(1000)));
  assert.deepEqual(zstd.decompress(multi, data.length), data);
  assert.deepEqual(nodeZstd!.decompress(multi, data.length), data);
});

test('ZSTD: the native codec refuses output beyond the page size', { skip: noNative }, () => {
  const frame = nodeZstd!.compress(new Uint8Array(4 * MiB));
  assert.throws(() => nodeZstd!.decompress(frame, 1000), corrupt);
  assert.throws(() => nodeZstd!.decompress(foxStreamed, fox.length + 1), corrupt);
  assert.deepEqual(nodeZstd!.decompress(foxStreamed, fox.length), fox);
  assert.throws(() => nodeZstd!.compress(fox, 23), /ZSTD compression level/);
});
