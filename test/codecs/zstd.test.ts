import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CorruptFileError, InvalidArgumentError, LimitError, UnsupportedError } from '../../src/errors.js';
import { getCodec, loadCodec } from '../../src/codecs/index.js';
import { loadZstd } from '../../src/codecs/zstd.js';
import { zstdFrames } from '../../src/codecs/zstd-frame.js';
import { MiB, ascii, cat, hex, nodeZstd, portableZstd as zstd, randomBytes, repetitiveBytes } from './fixtures.js';

const corrupt = (e: unknown) => e instanceof CorruptFileError;
const noNative = !nodeZstd && 'zstd-napi native binding is not built';

// Written by the zstd 1.5.4 command line tool from this text.
const fox = ascii('The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog. The quick brown fox.');
const foxBlock = 'b50100e40254686520717569636b2062726f776e20666f78206a756d7073206f76657220746865206c617a7920646f672e202e01002d9454';
/** From stdin: no content size, a 2 MiB window, a content checksum. */
const foxStreamed = hex('28b52ffd0458' + foxBlock + '191e459ae6');
/** From a file with --no-check: single segment, 1-byte content size. */
const foxSized = hex('28b52ffd206e' + foxBlock + '19');
/** Single segment, content size 5, one RLE block of "x". */
const xxxxx = hex('28b52ffd' + '20' + '05' + '2b0000' + '78');
/** Single segment, content size 3, one raw block "abc". */
const abcSized = hex('28b52ffd' + '20' + '03' + '190000' + '616263');
/** No content size (1 KiB window), one raw block "abc". */
const abcUnsized = hex('28b52ffd' + '00' + '00' + '190000' + '616263');
const skippable = hex('5e2a4d18' + '02000000' + 'abcd');

/**
 * Worked from RFC 8878: magic; frame header descriptor 0x20 (single
 * segment, so a 1-byte content size follows) = 5; one block, header
 * 0x00002B = last, type RLE (1), size 5; the byte to repeat.
 */
test('ZSTD: hand-worked single-segment frame with an RLE block', () => {
  assert.deepEqual(zstd.decompress(xxxxx, 5), ascii('xxxxx'));
  assert.deepEqual(zstd.decompress(abcSized, 3), ascii('abc'));
  assert.deepEqual(zstd.decompress(abcUnsized, 3), ascii('abc'));
});

test('ZSTD: the crafted frame that hung fzstd is CorruptFileError at once', { timeout: 10000 }, () => {
  const vector = hex('28b52ffd20644b000000ffffff5400003401');
  const t = performance.now();
  for (const size of [0, 1, 9, 100, 1000, MiB]) assert.throws(() => zstd.decompress(vector, size), corrupt, `size ${size}`);
  // Every prefix, and the frame alone (content size 100, but an RLE block of 9).
  for (let n = 1; n < vector.length; n++) assert.throws(() => zstd.decompress(vector.subarray(0, n), 100), corrupt, `prefix ${n}`);
  assert.throws(() => zstd.decompress(vector.subarray(0, 10), 9), corrupt);
  assert.ok(performance.now() - t < 1000, 'it returns');
});

test('ZSTD: frames from the zstd tool, with and without a content size', () => {
  assert.deepEqual(zstd.decompress(foxSized, fox.length), fox);
  assert.deepEqual(zstd.decompress(foxStreamed, fox.length), fox);
  assert.equal(zstdFrames(foxStreamed)[0]!.contentSize, undefined);
  assert.equal(zstdFrames(foxStreamed)[0]!.windowSize, 2 * MiB);
});

test('ZSTD: concatenated frames, sized and unsized, around skippable frames', () => {
  const stream = cat(skippable, foxStreamed, foxSized, skippable, foxStreamed, xxxxx);
  assert.deepEqual(zstd.decompress(stream, 3 * fox.length + 5), cat(fox, fox, fox, ascii('xxxxx')));
  // libzstd's one-shot call sizes its output from the first frame alone:
  // a small sized frame ahead of a larger one, or of one without a size.
  assert.deepEqual(zstd.decompress(cat(abcSized, foxSized), 3 + fox.length), cat(ascii('abc'), fox));
  assert.deepEqual(zstd.decompress(cat(abcSized, foxStreamed, abcSized), 6 + fox.length), cat(ascii('abc'), fox, ascii('abc')));
  assert.deepEqual(zstd.decompress(cat(skippable, abcUnsized, skippable, xxxxx, abcUnsized), 11), ascii('abcxxxxxabc'));
  // Skippable frames only, and an empty sized frame among others.
  assert.deepEqual(zstd.decompress(cat(skippable, skippable), 0), new Uint8Array(0));
  assert.deepEqual(zstd.decompress(cat(hex('28b52ffd' + '20' + '00' + '010000'), abcSized), 3), ascii('abc'));
});

test('ZSTD: a thousand small frames in one page', () => {
  const frames = Array.from({ length: 1000 }, (_, i) => (i % 2 ? abcSized : abcUnsized));
  const want = ascii('abc'.repeat(1000));
  assert.deepEqual(zstd.decompress(cat(...frames), want.length), want);
  assert.throws(() => zstd.decompress(cat(...frames), want.length - 1), corrupt);
});

test('ZSTD: sizes that disagree with the page header are CorruptFileError', () => {
  const pages: [Uint8Array, number][] = [
    [foxSized, fox.length],
    [foxStreamed, fox.length],
    [cat(abcUnsized, foxSized), fox.length + 3],
    [cat(foxSized, abcUnsized), fox.length + 3],
  ];
  for (const [frame, size] of pages) {
    assert.equal(zstd.decompress(frame, size).length, size);
    for (const wrong of [0, 1, size - 1, size + 1, 2 * size]) assert.throws(() => zstd.decompress(frame, wrong), corrupt, `${wrong}`);
  }
  // An empty frame that holds data, and a frame claiming more than the page.
  assert.throws(() => zstd.decompress(hex('28b52ffd' + '20' + '00' + '190000' + '616263'), 3), corrupt);
  assert.throws(() => zstd.decompress(hex('28b52ffd' + 'e0' + 'ffffffffffffffff' + '010000'), 100), corrupt);
  assert.throws(() => zstd.decompress(hex('28b52ffd' + 'a0' + 'ffffff7f' + '010000'), 100), corrupt);
});

test('ZSTD: headers are checked before libzstd sees them', () => {
  const cases: [string, string][] = [
    ['bad magic', '28b52ffe2005' + '2b000078'],
    ['reserved header bit', '28b52ffd2805' + '2b000078'],
    ['reserved block type', '28b52ffd2005' + '2f000078'],
    ['block larger than the content', '28b52ffd2002' + '2b000078'],
    ['truncated block', '28b52ffd2005' + '19000061'],
    ['truncated header', '28b52ffd'],
    ['trailing bytes', '28b52ffd2005' + '2b000078' + '00'],
    ['truncated skippable frame', '28b52ffd2005' + '2b000078' + '5e2a4d18' + '05000000' + 'abcd'],
  ];
  for (const [what, h] of cases) assert.throws(() => zstd.decompress(hex(h), 5), corrupt, what);
  assert.throws(() => zstd.decompress(hex('28b52ffd' + '21' + '07' + '05' + '2b0000' + '78'), 5), UnsupportedError);
});

test('ZSTD: a content checksum that does not match is CorruptFileError', () => {
  const bad = foxStreamed.slice();
  bad[bad.length - 1]! ^= 1;
  assert.throws(() => zstd.decompress(bad, fox.length), (e: unknown) => corrupt(e) && /checksum/.test((e as Error).message));
});

test('ZSTD: unsized frames with windows up to the format maximum decode, without allocating them', () => {
  // Window descriptors 0x88 (2^27), 0xa8 (2^31, beyond what wasm32 libzstd
  // accepts) and 0xff (2^41 + 7 * 2^38); one raw block "hello".
  const t = performance.now();
  for (const descriptor of ['88', 'a8', 'ff']) {
    const frame = hex('28b52ffd' + '00' + descriptor + '290000' + '68656c6c6f');
    for (let i = 0; i < 100; i++) assert.deepEqual(zstd.decompress(frame, 5), ascii('hello'), descriptor);
    // The same with a content size: not single segment, so the window descriptor stays.
    assert.deepEqual(zstd.decompress(hex('28b52ffd' + '80' + descriptor + '05000000' + '290000' + '68656c6c6f'), 5), ascii('hello'));
  }
  assert.ok(performance.now() - t < 2000, 'no window allocated per call');
});

test('ZSTD: an unsized frame of many tiny blocks decodes in linear time', () => {
  // 5000 one-byte RLE blocks under a 1 MiB window: fzstd slid its window after each.
  const blocks = Array.from({ length: 5000 }, (_, i) => (i === 4999 ? '0b0000' : '0a0000') + '41').join('');
  const t = performance.now();
  assert.deepEqual(zstd.decompress(hex('28b52ffd' + '00' + '50' + blocks), 5000), new Uint8Array(5000).fill(0x41));
  assert.ok(performance.now() - t < 1000);
});

test('ZSTD: pages the wasm heap cannot hold are LimitError, and the codec still works after', () => {
  const hello = hex('28b52ffd' + '00' + '00' + '290000' + '68656c6c6f');
  assert.throws(() => zstd.decompress(hello, 2 ** 31 - 16), LimitError);
  // A sized frame that claims nearly 2 GiB, on a page that says the same.
  const claim = 2 ** 31 - 100;
  const big = cat(hex('28b52ffd' + 'a0'), Uint8Array.of(claim & 255, (claim >>> 8) & 255, (claim >>> 16) & 255, claim >>> 24), hex('290000' + '68656c6c6f'));
  assert.throws(() => zstd.decompress(big, claim), LimitError);
  // A large page that fits is only reserved, not filled: a short frame is CorruptFileError.
  assert.throws(() => zstd.decompress(hello, 256 * MiB), corrupt);
  assert.deepEqual(zstd.decompress(hello, 5), ascii('hello'));
  const data = randomBytes(100000, 9);
  assert.deepEqual(zstd.decompress(zstd.compress(data), data.length), data);
});

test('ZSTD: round trips at several levels, each a single frame with its content size', () => {
  const data = cat(repetitiveBytes(150000), randomBytes(50000, 5), ascii('tail'));
  for (const level of [-131072, -5, -1, 0, 1, 3, 9, 19, 22, undefined]) {
    const packed = zstd.compress(data, level);
    const frames = zstdFrames(packed);
    assert.equal(frames.length, 1, `level ${level}`);
    assert.equal(frames[0]!.contentSize, data.length, `level ${level}`);
    assert.deepEqual(zstd.decompress(packed, data.length), data, `level ${level}`);
  }
  // Higher levels compress better on repetitive text.
  const text = repetitiveBytes(200000);
  assert.ok(zstd.compress(text, 19).length < zstd.compress(text, -5).length);
  for (const level of [23, -131073, 1.5, Number.NaN]) assert.throws(() => zstd.compress(fox, level), InvalidArgumentError, String(level));
});

test('ZSTD: mutated frames give a typed error or a page of the right size, and leave the codec intact', () => {
  const data = cat(repetitiveBytes(20000), randomBytes(3000, 8));
  const packed = zstd.compress(data, 5);
  for (let seed = 1; seed <= 2000; seed++) {
    const bad = packed.slice();
    const noise = randomBytes(4, seed);
    for (let k = 0; k < 1 + (noise[3]! & 3); k++) bad[(noise[k]! * 251 + noise[(k + 1) & 3]! * 7 + seed) % bad.length]! ^= noise[2]! | 1;
    try {
      assert.equal(zstd.decompress(bad, data.length).length, data.length);
    } catch (e) {
      assert.ok(e instanceof CorruptFileError || e instanceof UnsupportedError, `seed ${seed}: ${String(e)}`);
    }
  }
  assert.deepEqual(zstd.decompress(packed, data.length), data);
});

test('ZSTD: loadCodec and loadZstd give the one wasm codec', async () => {
  assert.equal(await loadZstd(), zstd);
  assert.equal(await loadCodec('ZSTD'), zstd);
  assert.equal(getCodec('ZSTD'), zstd);
});

test('ZSTD: zstd-napi frames of every shape decode with the wasm codec', { skip: noNative }, async () => {
  const napi = (await import('zstd-napi')) as typeof import('zstd-napi');
  const data = cat(repetitiveBytes(300000), randomBytes(200000, 3));
  for (const contentSizeFlag of [true, false]) {
    for (const checksumFlag of [true, false]) {
      for (const windowLog of [10, 17, 27]) {
        const frame = napi.compress(data, { contentSizeFlag, checksumFlag, windowLog, compressionLevel: 5 });
        assert.equal(zstdFrames(frame)[0]!.contentSize, contentSizeFlag ? data.length : undefined);
        assert.deepEqual(zstd.decompress(frame, data.length), data);
        assert.deepEqual(nodeZstd!.decompress(frame, data.length), data);
      }
    }
  }
  const multi = cat(napi.compress(data.subarray(0, 1000), { contentSizeFlag: false }), napi.compress(data.subarray(1000)));
  assert.deepEqual(zstd.decompress(multi, data.length), data);
  assert.deepEqual(nodeZstd!.decompress(multi, data.length), data);
});

test('ZSTD: a streaming compressor\'s output (no content size, many blocks, flushes) decodes', { skip: noNative }, async () => {
  const napi = (await import('zstd-napi')) as typeof import('zstd-napi');
  const data = cat(repetitiveBytes(700000), randomBytes(300000, 6));
  const stream = new napi.CompressStream({ compressionLevel: 3, checksumFlag: true });
  const chunks: Uint8Array[] = [];
  stream.on('data', (c: Uint8Array) => chunks.push(c));
  const done = new Promise((resolve, reject) => stream.on('end', resolve).on('error', reject));
  for (let at = 0; at < data.length; at += 65536) stream.write(data.subarray(at, at + 65536));
  stream.end();
  await done;
  const frame = cat(...chunks);
  const [info] = zstdFrames(frame);
  assert.equal(info!.contentSize, undefined);
  assert.deepEqual(zstd.decompress(frame, data.length), data);
  assert.deepEqual(zstd.decompress(cat(frame, frame), 2 * data.length), cat(data, data));
  assert.throws(() => zstd.decompress(frame, data.length - 1), corrupt);
  assert.throws(() => zstd.decompress(frame.subarray(0, frame.length - 5), data.length), corrupt);
});

test('ZSTD: the native codec refuses output beyond the page size', { skip: noNative }, () => {
  const frame = nodeZstd!.compress(new Uint8Array(4 * MiB));
  assert.throws(() => nodeZstd!.decompress(frame, 1000), corrupt);
  assert.throws(() => nodeZstd!.decompress(foxStreamed, fox.length + 1), corrupt);
  assert.deepEqual(nodeZstd!.decompress(foxStreamed, fox.length), fox);
  assert.throws(() => nodeZstd!.compress(fox, 23), /ZSTD compression level/);
});
