import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decompressLz4 as otherLz4, decompressLz4Raw as otherLz4Raw } from 'hyparquet-compressors';
import { CorruptFileError } from '../../src/errors.js';
import { HADOOP_CHUNK, compressLz4, lz4 } from '../../src/codecs/lz4.js';
import { decodeLz4Block, encodeLz4Block, lz4BlockBound } from '../../src/codecs/lz4-block.js';
import { compressLz4Raw, lz4Raw } from '../../src/codecs/lz4-raw.js';
import { MiB, ascii, hex, randomBytes, repetitiveBytes } from './fixtures.js';

const corrupt = (e: unknown) => e instanceof CorruptFileError;

/**
 * Worked from lz4_Block_format.md:
 *   0x3F          token: 3 literals; match nibble 15 -> 15 + 4 + extension
 *   'abc'         literals
 *   0x03 0x00     offset 3, shorter than the match: an overlapping copy
 *   0xFF 0x1A     match extension 255 + 26 -> length 19 + 281 = 300
 *   0xF0          token: literal nibble 15 -> 15 + extension, no match (last)
 *   0xFF 0x03     literal extension 255 + 3 -> 273 literals
 *   (273 bytes)
 */
const tail = Uint8Array.from({ length: 273 }, (_, i) => (i * 7) & 0xff);
const handBlock = Uint8Array.from([0x3f, 0x61, 0x62, 0x63, 0x03, 0x00, 0xff, 0x1a, 0xf0, 0xff, 0x03, ...tail]);
const handOutput = Uint8Array.from([...ascii('abc'.repeat(101)), ...tail]);

test('LZ4 block: hand-worked vector with overlap and 15/255 length extensions', () => {
  assert.equal(handOutput.length, 576);
  assert.deepEqual(lz4Raw.decompress(handBlock, 576), handOutput);
});

test('LZ4 block: a literal run of exactly 15 carries a zero extension byte', () => {
  const data = ascii('fifteen bytes!!');
  assert.equal(data.length, 15);
  const block = compressLz4Raw(data);
  assert.deepEqual(block, Uint8Array.from([0xf0, 0x00, ...data]));
  assert.deepEqual(lz4Raw.decompress(block, 15), data);
});

test('LZ4 block: the empty block is one zero token', () => {
  assert.deepEqual(compressLz4Raw(new Uint8Array(0)), Uint8Array.of(0));
  assert.deepEqual(lz4Raw.decompress(Uint8Array.of(0), 0), new Uint8Array(0));
});

test('LZ4 block: bounds violations are CorruptFileError', () => {
  const cases: [string, number[], number][] = [
    ['offset 0', [0x10, 0x61, 0x00, 0x00, 0x00], 5],
    ['offset before the output start', [0x10, 0x61, 0x02, 0x00, 0x00], 5],
    ['literals past the input', [0x50, 0x61, 0x62], 5],
    ['literals past the uncompressed size', [0x30, 0x61, 0x62, 0x63], 2],
    ['match past the uncompressed size', [0x1f, 0x61, 0x01, 0x00, 0x05, 0x00], 10],
    ['literal extension past the input', [0xf0, 0xff], 300],
    ['match extension past the input', [0x1f, 0x61, 0x01, 0x00, 0xff], 300],
    ['offset cut short', [0x10, 0x61, 0x01], 5],
    ['ends after a match, without the final literals', [0x10, 0x61, 0x01, 0x00], 5],
    ['output shorter than declared', [0x30, 0x61, 0x62, 0x63], 4],
    ['empty input for a nonempty page', [], 4],
  ];
  for (const [what, bytes, size] of cases) {
    assert.throws(() => lz4Raw.decompress(Uint8Array.from(bytes), size), corrupt, what);
  }
});

test('LZ4 block: matches stay inside the window they are given', () => {
  // Output "abcd" then a block whose match reaches 4 back: fine with the
  // window at 0, corrupt with the window starting at the block.
  const dst = new Uint8Array(8);
  dst.set(ascii('abcd'));
  const block = Uint8Array.of(0x00, 0x04, 0x00, 0x00);
  assert.equal(decodeLz4Block(block, 0, 4, dst, 4, 8, 0), 8);
  assert.deepEqual(dst, ascii('abcdabcd'));
  assert.throws(() => decodeLz4Block(block, 0, 4, dst, 4, 8, 4), corrupt);
});

test('LZ4 block encoder keeps the end-of-block rules', () => {
  // Parse the sequences back: the last five bytes are literals and the last
  // match starts at least 12 bytes before the end.
  for (const data of [repetitiveBytes(5000), new Uint8Array(100), ascii('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')]) {
    const block = new Uint8Array(lz4BlockBound(data.length));
    const end = encodeLz4Block(data, 0, data.length, block, 0);
    let ip = 0;
    let op = 0;
    let lastMatchStart = -1;
    let lastLiterals = 0;
    for (;;) {
      const token = block[ip++]!;
      let lit = token >> 4;
      if (lit === 15) for (let b = 255; b === 255; lit += b) b = block[ip++]!;
      ip += lit;
      op += lit;
      lastLiterals = lit;
      if (ip === end) break;
      ip += 2;
      let len = (token & 15) + 4;
      if (len === 19) for (let b = 255; b === 255; len += b) b = block[ip++]!;
      lastMatchStart = op;
      op += len;
    }
    assert.equal(op, data.length);
    assert.ok(lastMatchStart >= 0, 'the input is compressible');
    assert.ok(lastMatchStart <= data.length - 12, 'the last match starts 12 bytes before the end');
    assert.ok(lastLiterals >= 5, 'the last 5 bytes are literals');
    assert.deepEqual(lz4Raw.decompress(block.subarray(0, end), data.length), data);
  }
});

test('LZ4_RAW output is read by another implementation (hyparquet-compressors)', () => {
  for (const data of [Uint8Array.of(1), randomBytes(MiB), repetitiveBytes(MiB), randomBytes(70000, 5).map((b) => b & 3)]) {
    assert.deepEqual(otherLz4Raw(compressLz4Raw(data), data.length), data);
  }
});

test('LZ4 (Hadoop): hand-worked buffer of two chunks, the second split in two blocks', () => {
  const framed = hex(
    '00000008' + '00000008' + '40616263640400' + '00' +
    '00000003' + '00000003' + '207879' + '00000002' + '107a',
  );
  assert.deepEqual(lz4.decompress(framed, 11), ascii('abcdabcdxyz'));
});

/** The frames of Hadoop-framed LZ4: uncompressed and compressed size of each. */
function hadoopFrames(framed: Uint8Array): { size: number; compressed: number }[] {
  const frames: { size: number; compressed: number }[] = [];
  for (let ip = 0; ip < framed.length; ) {
    const dv = new DataView(framed.buffer, framed.byteOffset + ip);
    frames.push({ size: dv.getUint32(0), compressed: dv.getUint32(4) });
    ip += 8 + dv.getUint32(4);
  }
  return frames;
}

/**
 * What the readers in use need of the frames: Hadoop's (parquet-java) at
 * most HADOOP_CHUNK bytes in each; arrow-rs's a compressed size below the
 * bytes that follow, for every frame but the last.
 */
function readableFrames(framed: Uint8Array): string[] {
  const frames = hadoopFrames(framed);
  const problems: string[] = [];
  let after = framed.length;
  frames.forEach((f, i) => {
    after -= 8 + f.compressed;
    if (f.size > HADOOP_CHUNK) problems.push(`frame ${i} holds ${f.size} bytes`);
    if (i < frames.length - 1 && f.compressed >= after) problems.push(`frame ${i} (${f.compressed} bytes compressed) outsizes the ${after} bytes after it`);
  });
  return problems;
}

test('LZ4 (Hadoop): compress frames equal chunks no larger than Hadoop reads, each smaller than what follows it', () => {
  for (const n of [0, 100, HADOOP_CHUNK, HADOOP_CHUNK + 1, 256 * 1024, 3 * HADOOP_CHUNK + 10, 8 * MiB]) {
    const data = repetitiveBytes(n);
    const framed = compressLz4(data);
    const sizes = hadoopFrames(framed).map((f) => f.size);
    assert.equal(sizes.length, Math.max(1, Math.ceil(n / HADOOP_CHUNK)), `${n} bytes`);
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `${n} bytes: frames of ${sizes.join(', ')}`);
    assert.deepEqual(readableFrames(framed), [], `${n} bytes`);
    assert.deepEqual(lz4.decompress(framed, data.length), data);
    // hyparquet-compressors rejects the one-token block of an empty input.
    if (n > 0) assert.deepEqual(otherLz4(framed, data.length), data);
  }
  assert.deepEqual(compressLz4(new Uint8Array(0)), hex('00000000' + '00000001' + '00'));
});

test('LZ4 (Hadoop): a frame that compresses far better than the one before it is stored as literals, so arrow-rs reads on', () => {
  // Incompressible, then constant: the frames shrink towards the end.
  const n = 3 * HADOOP_CHUNK;
  const data = new Uint8Array(n);
  data.set(randomBytes(Math.floor(n * 0.6), 3));
  const framed = compressLz4(data);
  assert.deepEqual(readableFrames(framed), []);
  const frames = hadoopFrames(framed);
  assert.ok(frames.at(-1)!.compressed > frames.at(-1)!.size, 'the last frame is stored as literals');
  assert.deepEqual(lz4.decompress(framed, n), data);
  assert.deepEqual(otherLz4(framed, n), data);
  // Frames that shrink no faster than that are left compressed.
  const even = compressLz4(repetitiveBytes(n));
  assert.ok(hadoopFrames(even).every((f) => f.compressed < f.size / 2));
});

test('LZ4 falls back to a plain LZ4 block when the Hadoop framing does not parse', () => {
  const data = repetitiveBytes(1000);
  assert.deepEqual(lz4.decompress(compressLz4Raw(data), 1000), data);
  assert.deepEqual(lz4.decompress(handBlock, 576), handOutput);
});

// Written by the lz4 1.9.4 command line tool from this text.
const fox = ascii('The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog. The quick brown fox.');
const foxBody = '38000000ff1e54686520717569636b2062726f776e20666f78206a756d7073206f76657220746865206c617a7920646f672e202d00295020666f782e';

test('LZ4 frames from the lz4 tool: content checksum, content size, block checksums, linked blocks', () => {
  const frames = [
    '04224d186440a7' + foxBody + '00000000d80ff920', // defaults: content checksum
    '04224d187c406e0000000000000023' + foxBody + '78015038' + '00000000d80ff920', // --content-size -BX -BD
    '04224d18604082' + foxBody + '00000000', // --no-frame-crc
  ];
  for (const f of frames) assert.deepEqual(lz4.decompress(hex(f), fox.length), fox);
});

test('LZ4 frames: uncompressed blocks, linked blocks, skippable and concatenated frames', () => {
  const linked = hex(
    '04224d18404000' + // FLG: version 1, linked blocks; BD: 64 KB
    '04000080' + '61626364' + // uncompressed block "abcd"
    '04000000' + '00040000' + // compressed block: a match 4 back, into the previous block
    '00000000',
  );
  assert.deepEqual(lz4.decompress(linked, 8), ascii('abcdabcd'));
  const independent = linked.slice();
  independent[4] = 0x60;
  assert.throws(() => lz4.decompress(independent, 8), corrupt);
  const skippable = hex('5a2a4d18' + '03000000' + 'ffffff');
  const two = Uint8Array.from([...linked, ...skippable, ...linked]);
  assert.deepEqual(lz4.decompress(two, 16), ascii('abcdabcdabcdabcd'));
});

test('LZ4 frames: bad descriptors and sizes are CorruptFileError', () => {
  const good = '04224d18604082' + foxBody + '00000000';
  const bad = [
    '04224d18a04082' + foxBody + '00000000', // version 2
    '04224d18624082' + foxBody + '00000000', // reserved FLG bit
    '04224d18603082' + foxBody + '00000000', // block size code 3
    '04224d18604082' + foxBody, // no end mark
    '04224d186c40' + '0100000000000000' + '82' + foxBody + '00000000', // content size 1
  ];
  assert.deepEqual(lz4.decompress(hex(good), fox.length), fox);
  for (const b of bad) assert.throws(() => lz4.decompress(hex(b), fox.length), corrupt, b.slice(0, 20));
});

test('LZ4: data that fits no layout names each failure', () => {
  assert.throws(
    () => lz4.decompress(randomBytes(64, 9), 100),
    (e: unknown) => corrupt(e) && /Hadoop framing: .*raw block: .*LZ4 frame: /.test((e as Error).message),
  );
});
