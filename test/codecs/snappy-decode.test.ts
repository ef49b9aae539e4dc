/**
 * The JavaScript SNAPPY decoder (src/codecs/snappy-decode.ts) against
 * independent truths: the original bytes after the native `snappy`
 * package's compressor and ours (snappy-encode.ts), blocks built here element by
 * element from the format description, the native decoder's verdict on
 * damaged blocks, and the corpus's expected rows. Every hostile block is a
 * CorruptFileError, never a wrong length, another error or a hang.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineCodec } from '../../src/codecs/codec.js';
import { registerCodec } from '../../src/codecs/registry.js';
import { snappyDecompress } from '../../src/codecs/snappy-decode.js';
import { snappyCompress } from '../../src/codecs/snappy-encode.js';
import { CorruptFileError } from '../../src/errors.js';
import { createNodeSnappy } from '../../src/node/snappy.js';
import { canonical, expectedText, firstDifference, manifest } from '../conformance/corpus.js';
import { SNAPPY_KINDS, SNAPPY_SIZES, ascii, randomBytes, repetitiveBytes, textLike } from './fixtures.js';

const native = createNodeSnappy();
if (!native) throw new Error('the snappy package has no binary for this platform');
const corrupt = (e: unknown) => e instanceof CorruptFileError;

/** An element as the format describes it: literal bytes, or a copy in one of its three forms. */
type Element = { literal: Uint8Array; lengthBytes?: 0 | 1 | 2 | 3 | 4 } | { copy: number; offset: number; form: 1 | 2 | 4 };

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n % 128) | 0x80);
  out.push(n);
  return out;
}

function littleEndian(n: number, bytes: number): number[] {
  return Array.from({ length: bytes }, (_, i) => Math.floor(n / 256 ** i) % 256);
}

/** A block from its preamble's length and its elements, encoded as format_description.txt says. */
function block(length: number, elements: Element[]): Uint8Array {
  const out = varint(length);
  for (const e of elements) {
    if ('literal' in e) {
      const n = e.literal.length - 1;
      const extra = e.lengthBytes ?? (n < 60 ? 0 : n < 256 ? 1 : n < 65536 ? 2 : n < 2 ** 24 ? 3 : 4);
      out.push(extra === 0 ? n << 2 : (59 + extra) << 2, ...littleEndian(n, extra), ...e.literal);
    } else if (e.form === 1) {
      out.push(1 | ((e.copy - 4) << 2) | ((e.offset >> 8) << 5), e.offset & 0xff);
    } else {
      out.push((e.form === 2 ? 2 : 3) | ((e.copy - 1) << 2), ...littleEndian(e.offset, e.form));
    }
  }
  return Uint8Array.from(out);
}

/** What decoding `elements` must give, byte by byte as the format defines a copy. */
function expected(elements: Element[]): Uint8Array {
  const out: number[] = [];
  for (const e of elements) {
    if ('literal' in e) out.push(...e.literal);
    else for (let i = 0; i < e.copy; i++) out.push(out[out.length - e.offset]!);
  }
  return Uint8Array.from(out);
}

test('SNAPPY JS decoder: round trips through the native compressor and ours, every size and kind', () => {
  for (const size of SNAPPY_SIZES) {
    for (const [kind, make] of SNAPPY_KINDS) {
      const data = make(size);
      for (const [by, compress] of [['native', native.compress], ['ours', snappyCompress]] as const) {
        assert.deepEqual(snappyDecompress(compress(data), size), data, `${kind}, ${size} bytes, compressed by ${by}`);
      }
    }
  }
});

test('SNAPPY JS decoder: literals with lengths in the tag and in 1-4 bytes, and every copy form, overlapping or not', () => {
  const r = randomBytes(70000, 11);
  const cases: Element[][] = [
    [{ literal: r.subarray(0, 1) }],
    [{ literal: r.subarray(0, 60) }, { literal: r.subarray(0, 61) }, { literal: r.subarray(0, 300) }, { literal: r.subarray(0, 70000) }],
    // The longer length forms may carry short lengths too.
    [{ literal: r.subarray(0, 5), lengthBytes: 1 }, { literal: r.subarray(0, 5), lengthBytes: 2 }, { literal: r.subarray(0, 5), lengthBytes: 3 }, { literal: r.subarray(0, 5), lengthBytes: 4 }],
    [{ literal: r.subarray(0, 66000) }, { copy: 11, offset: 2047, form: 1 }, { copy: 4, offset: 1, form: 1 }, { copy: 64, offset: 65535, form: 2 }, { copy: 64, offset: 66050, form: 4 }],
    // Overlapping copies of every short offset and length: runs and repeated patterns.
    ...Array.from({ length: 20 }, (_, o) => [
      { literal: r.subarray(100, 100 + o + 1) },
      ...Array.from({ length: 64 }, (_, l) => ({ copy: l + 1, offset: o + 1, form: 2 as const })),
      { copy: 7, offset: o + 1, form: 1 as const },
      { literal: r.subarray(0, 3) },
    ]),
  ];
  for (const elements of cases) {
    const want = expected(elements);
    assert.deepEqual(snappyDecompress(block(want.length, elements), want.length), want);
  }
});

/** A valid block of every element kind, and the output offset at which each element starts. */
const sample: Element[] = [
  { literal: ascii('abcdefgh') },
  { copy: 8, offset: 8, form: 1 },
  { copy: 20, offset: 3, form: 2 },
  { literal: randomBytes(100, 2) },
  { copy: 30, offset: 50, form: 4 },
  { literal: ascii('xyz') },
];
const sampleOut = expected(sample);

test('SNAPPY JS decoder: hostile elements are CorruptFileError', () => {
  const n = sampleOut.length;
  const lit = (s: string): Element => ({ literal: ascii(s) });
  const cases: [string, Uint8Array, number][] = [
    ['a copy first', block(4, [{ copy: 4, offset: 1, form: 1 }]), 4],
    ...([1, 2, 4] as const).flatMap((form): [string, Uint8Array, number][] => [
      [`offset 0, ${form}-byte form`, block(9, [lit('abcd'), { copy: 5, offset: 0, form }]), 9],
      [`offset before the start, ${form}-byte form`, block(9, [lit('abcd'), { copy: 5, offset: 5, form }]), 9],
      [`copy past the output, ${form}-byte form`, block(9, [lit('abcd'), { copy: 6, offset: 4, form }]), 9],
    ]),
    ['offset of 2^31 and more', block(9, [lit('abcd'), { copy: 5, offset: 2 ** 31, form: 4 }]), 9],
    ['offset of 2^32 - 1', block(9, [lit('abcd'), { copy: 5, offset: 2 ** 32 - 1, form: 4 }]), 9],
    ['literal past the output', block(3, [lit('abcd')]), 3],
    ['literal length past the input, 4 bytes', Uint8Array.of(5, 63 << 2, 0xff, 0xff, 0xff, 0xff, 0x61), 5],
    ['literal length of 2^31, 4 bytes', Uint8Array.of(5, 63 << 2, 0xff, 0xff, 0xff, 0x7f, 0x61), 5],
    ['literal length past the input, 1 byte', Uint8Array.of(100, 60 << 2, 98, 0x61), 100],
    ['literal length bytes cut off', Uint8Array.of(100, 62 << 2, 98), 100],
    ['copy offset bytes cut off, 2-byte form', Uint8Array.of(9, 0x0c, 0x61, 0x62, 0x63, 0x64, 0x0a, 0x02), 9],
    ['copy offset bytes cut off, 4-byte form', Uint8Array.of(9, 0x0c, 0x61, 0x62, 0x63, 0x64, 0x0b, 0x02, 0, 0), 9],
    ['copy offset byte cut off, 1-byte form', Uint8Array.of(9, 0x0c, 0x61, 0x62, 0x63, 0x64, 0x01), 9],
    ['output short of the preamble', block(n + 1, sample), n + 1],
    ['output past the preamble', block(n - 1, sample), n - 1],
    ['a literal after the end', Uint8Array.from([...block(n, sample), 0x00, 0x61]), n],
    ['a copy after the end', Uint8Array.from([...block(n, sample), 0x01, 0x01]), n],
    ['one byte after the end', Uint8Array.from([...block(n, sample), 0x00]), n],
    ['preamble only', Uint8Array.of(5), 5],
  ];
  for (const [what, bytes, size] of cases) assert.throws(() => snappyDecompress(bytes, size), corrupt, what);
});

test('SNAPPY JS decoder: every proper prefix of a block is CorruptFileError', () => {
  for (const whole of [block(sampleOut.length, sample), native.compress(textLike(5000, 1)), native.compress(randomBytes(300, 4))]) {
    const size = sizeOf(whole);
    assert.equal(snappyDecompress(whole, size).length, size);
    for (let cut = 0; cut < whole.length; cut++) assert.throws(() => snappyDecompress(whole.subarray(0, cut), size), corrupt, `cut at ${cut}`);
  }
});

/** The preamble's length, read independently of the decoder. */
function sizeOf(b: Uint8Array): number {
  let n = 0;
  for (let i = 0, scale = 1; ; i++, scale *= 128) {
    n += (b[i]! & 0x7f) * scale;
    if (b[i]! < 0x80) return n;
  }
}

test('SNAPPY JS decoder: damaged blocks are refused exactly when the native decoder refuses them, else decode alike', () => {
  const sources = [block(sampleOut.length, sample), native.compress(textLike(3000, 2)), native.compress(repetitiveBytes(2000)), native.compress(randomBytes(500, 9))];
  let refused = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const source = sources[seed % sources.length]!;
    const bad = source.slice();
    const noise = randomBytes(4, seed);
    // Past the preamble: a damaged preamble is the page header check's, tested apart.
    const at = 1 + ((noise[0]! * 256 + noise[1]!) % (bad.length - 2)) + (sizeOf(bad) >= 128 ? 1 : 0);
    if (at >= bad.length) continue;
    bad[at] = noise[2]! & 1 ? noise[3]! : bad[at]! ^ (1 << (noise[3]! & 7));
    const size = sizeOf(bad);
    let want: Uint8Array | undefined;
    try {
      want = native.decompress(bad, size);
    } catch (e) {
      assert.ok(corrupt(e), String(e));
    }
    if (want) {
      assert.deepEqual(snappyDecompress(bad, size), want, `seed ${seed}`);
    } else {
      refused++;
      assert.throws(() => snappyDecompress(bad, size), corrupt, `seed ${seed}`);
    }
  }
  assert.ok(refused > 100, `only ${refused} damaged blocks refused: the sweep tests too little`);
});

test('SNAPPY JS decoder: every SNAPPY file of the corpus reads to its expected rows', async () => {
  let calls = 0;
  registerCodec('SNAPPY', defineCodec('SNAPPY', (input, size) => (calls++, snappyDecompress(input, size)), native.compress));
  const entries = manifest().filter((e) => e.expected && e.tags.includes('codec:SNAPPY'));
  assert.ok(entries.length >= 10, `${entries.length} SNAPPY files with expected rows`);
  for (const entry of entries) {
    const actual = await canonical(entry.path);
    const want = expectedText(entry);
    assert.ok(actual === want, `${entry.path}: ${firstDifference(actual, want)}`);
  }
  assert.ok(calls > entries.length, `${calls} pages decompressed`);
});
