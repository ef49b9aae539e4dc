/**
 * Every encoding reads `n` values or passes over `n` without making them
 * (page-values.ts valueStream; levels through RleStream and
 * BitPackedStream): any sequence of skips and reads over a page
 * gives, for each read, exactly the values written at those places. The
 * truth is the values handed to the encoder, not our own decoder.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteWriter } from '../../src/bytes/writer.js';
import { BitPackedStream, encodeBitPacked } from '../../src/encodings/bit-packed.js';
import { encodeAlp } from '../../src/encodings/alp.js';
import { encodeByteStreamSplit } from '../../src/encodings/byte-stream-split.js';
import { encodeDeltaInt32, encodeDeltaInt64 } from '../../src/encodings/delta-binary-packed.js';
import { encodeDeltaByteArray } from '../../src/encodings/delta-byte-array.js';
import { encodeDeltaLengthByteArray } from '../../src/encodings/delta-length-byte-array.js';
import { encodePlain } from '../../src/encodings/plain-encode.js';
import { bitWidth } from '../../src/encodings/rle.js';
import { RleStream } from '../../src/encodings/rle-stream.js';
import { encodeDictionaryIndices, encodeRleBooleans, encodeRleHybrid } from '../../src/encodings/rle-encode.js';
import { isByteArrays, type ByteArrays, type PhysicalType, type Values } from '../../src/encodings/types.js';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { loadPageEncodings } from '../../src/parquet/page-values.js';
import { valueStream } from '../../src/parquet/page-value-stream.js';
import type { LeafNode } from '../../src/schema/tree.js';

/** A value as comparable text: numbers by their bits (NaN payloads, -0), byte strings by their bytes. */
function keys(v: Values): string[] {
  if (isByteArrays(v)) return Array.from({ length: v.offsets.length - 1 }, (_, i) => Buffer.from(v.data.subarray(v.offsets[i], v.offsets[i + 1])).toString('hex'));
  const width = v.BYTES_PER_ELEMENT;
  const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return Array.from({ length: v.length }, (_, i) => Buffer.from(bytes.subarray(i * width, (i + 1) * width)).toString('hex'));
}

function byteArrays(items: Uint8Array[]): ByteArrays {
  const offsets = new Int32Array(items.length + 1);
  items.forEach((x, i) => (offsets[i + 1] = offsets[i]! + x.length));
  const data = new Uint8Array(offsets[items.length]!);
  items.forEach((x, i) => data.set(x, offsets[i]!));
  return { data, offsets };
}

interface Case {
  encoding: string;
  type: PhysicalType;
  typeLength?: number;
  values: fc.Arbitrary<Values>;
  encode: (w: ByteWriter, v: Values) => void;
  label?: string;
}

// 'max': fast-check's default size keeps arrays to about 10 values, too few to span a miniblock, a vector or a run.
const count = { minLength: 0, maxLength: 700, size: 'max' as const };
/** Runs and repeats, so RLE runs, shared prefixes and small deltas all occur. */
const repeats = <T>(a: fc.Arbitrary<T>) => fc.array(fc.tuple(a, fc.integer({ min: 1, max: 40 })), { maxLength: 60 }).map((runs) => runs.flatMap(([v, n]) => new Array<T>(n).fill(v)).slice(0, 700));
const ints = fc.oneof(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), count), repeats(fc.integer({ min: -5, max: 5 })));
const longs = fc.oneof(fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), count), repeats(fc.bigInt({ min: -3n, max: 3n })));
const fixed = (len: number) =>
  fc.oneof(
    fc.array(fc.uint8Array({ minLength: len, maxLength: len }), count),
    repeats(fc.uint8Array({ minLength: len, maxLength: len })),
    fc.array(fc.tuple(fc.integer({ min: 0, max: len }), fc.uint8Array({ minLength: len, maxLength: len })), count).map((a) => a.map(([stem, v]) => v.fill(97, 0, stem))),
  );
/** Shared stems with differing tails: values that share part of the one before (DELTA_BYTE_ARRAY's prefixes). */
const stemmed = fc.array(fc.tuple(fc.integer({ min: 0, max: 12 }), fc.uint8Array({ maxLength: 4 })), count).map((a) => a.map(([stem, tail]) => Uint8Array.from([...new Array<number>(stem).fill(97), ...tail])));
const strings = fc.oneof(fc.array(fc.uint8Array({ maxLength: 20 }), count), repeats(fc.uint8Array({ maxLength: 90 })), stemmed);
const bools = fc.oneof(fc.array(fc.integer({ min: 0, max: 1 }), count), repeats(fc.integer({ min: 0, max: 1 })));

const I32 = ints.map((a) => Int32Array.from(a));
const I64 = longs.map((a) => BigInt64Array.from(a));
const F32 = fc.array(fc.float(), count).map((a) => Float32Array.from(a));
const F64 = fc.array(fc.double(), count).map((a) => Float64Array.from(a));
/** Decimals (which ALP stores as integers) mixed with arbitrary floats (its exceptions). */
const decimals = (round: (x: number) => number) =>
  fc.array(fc.oneof(fc.integer({ min: -1e6, max: 1e6 }).map((x) => round(x / 100)), fc.double().map(round)), count);
const ALP32 = decimals(Math.fround).map((a) => Float32Array.from(a));
const ALP64 = decimals((x) => x).map((a) => Float64Array.from(a));
const BOOL = bools.map((a) => Uint8Array.from(a));
const STR = strings.map(byteArrays);
const FLBA = (len: number) => fixed(len).map(byteArrays);

const plain = (type: PhysicalType, typeLength?: number) => (w: ByteWriter, v: Values) => encodePlain(w, type, v, typeLength);
const alp = (type: 'FLOAT' | 'DOUBLE', logVector: number) => (w: ByteWriter, v: Values) => encodeAlp(w, type, v as Float32Array | Float64Array, logVector);
const bss = (type: PhysicalType, typeLength?: number) => (w: ByteWriter, v: Values) => encodeByteStreamSplit(w, type, v, typeLength);

const CASES: Case[] = [
  { encoding: 'PLAIN', type: 'BOOLEAN', values: BOOL, encode: plain('BOOLEAN') },
  { encoding: 'PLAIN', type: 'INT32', values: I32, encode: plain('INT32') },
  { encoding: 'PLAIN', type: 'INT64', values: I64, encode: plain('INT64') },
  { encoding: 'PLAIN', type: 'FLOAT', values: F32, encode: plain('FLOAT') },
  { encoding: 'PLAIN', type: 'DOUBLE', values: F64, encode: plain('DOUBLE') },
  { encoding: 'PLAIN', type: 'INT96', values: FLBA(12), encode: plain('INT96') },
  { encoding: 'PLAIN', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 3, values: FLBA(3), encode: plain('FIXED_LEN_BYTE_ARRAY', 3) },
  { encoding: 'PLAIN', type: 'BYTE_ARRAY', values: STR, encode: plain('BYTE_ARRAY') },
  { encoding: 'RLE', type: 'BOOLEAN', values: BOOL, encode: (w, v) => encodeRleBooleans(w, v as Uint8Array) },
  { encoding: 'DELTA_BINARY_PACKED', type: 'INT32', values: I32, encode: (w, v) => encodeDeltaInt32(w, v as Int32Array) },
  { encoding: 'DELTA_BINARY_PACKED', type: 'INT64', values: I64, encode: (w, v) => encodeDeltaInt64(w, v as BigInt64Array) },
  { encoding: 'DELTA_LENGTH_BYTE_ARRAY', type: 'BYTE_ARRAY', values: STR, encode: (w, v) => encodeDeltaLengthByteArray(w, v as ByteArrays) },
  { encoding: 'DELTA_BYTE_ARRAY', type: 'BYTE_ARRAY', values: STR, encode: (w, v) => encodeDeltaByteArray(w, v as ByteArrays) },
  { encoding: 'DELTA_BYTE_ARRAY', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 5, values: FLBA(5), encode: (w, v) => encodeDeltaByteArray(w, v as ByteArrays) },
  { encoding: 'ALP', type: 'FLOAT', values: ALP32, encode: alp('FLOAT', 3), label: ' in vectors of 8' },
  { encoding: 'ALP', type: 'DOUBLE', values: ALP64, encode: alp('DOUBLE', 3), label: ' in vectors of 8' },
  { encoding: 'ALP', type: 'DOUBLE', values: ALP64, encode: alp('DOUBLE', 6), label: ' in vectors of 64' },
  { encoding: 'BYTE_STREAM_SPLIT', type: 'FLOAT', values: F32, encode: bss('FLOAT') },
  { encoding: 'BYTE_STREAM_SPLIT', type: 'DOUBLE', values: F64, encode: bss('DOUBLE') },
  { encoding: 'BYTE_STREAM_SPLIT', type: 'INT32', values: I32, encode: bss('INT32') },
  { encoding: 'BYTE_STREAM_SPLIT', type: 'INT64', values: I64, encode: bss('INT64') },
  { encoding: 'BYTE_STREAM_SPLIT', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 3, values: FLBA(3), encode: bss('FIXED_LEN_BYTE_ARRAY', 3) },
];

// The reader loads the DELTA, BYTE_STREAM_SPLIT and ALP decoders for a chunk that uses them.
before(() => loadPageEncodings());

/** Steps over a page: [skip?, how many], clipped to what is left. */
const steps = fc.array(fc.tuple(fc.boolean(), fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 400 }))), { maxLength: 12 });

function check(encoding: string, leaf: LeafNode, page: Uint8Array, want: string[], plan: [boolean, number][]): void {
  // The page's bytes sit after others, as they do in a decompressed page after its levels.
  const data = new Uint8Array(3 + page.length);
  data.set(page, 3);
  const s = valueStream(encoding, leaf, data, 3, data.length, want.length);
  let at = 0;
  for (const [skip, n0] of [...plan, [false, want.length] as [boolean, number]]) {
    const n = Math.min(n0, want.length - at);
    if (skip) s.skip(n);
    else assert.deepEqual(keys(s.read(n)), want.slice(at, at + n), `${encoding} ${leaf.physicalType}: values ${at}..${at + n} after ${JSON.stringify(plan)}`);
    at += n;
  }
}

for (const c of CASES) {
  test(`${c.encoding} ${c.type}${c.label ?? ''}: skip(k) then read(m) is values [k, k + m)`, () => {
    const leaf = { physicalType: c.type, typeLength: c.typeLength } as LeafNode;
    fc.assert(
      fc.property(c.values, steps, (values, plan) => {
        const w = new ByteWriter();
        c.encode(w, values);
        check(c.encoding, leaf, w.finish().slice(), keys(values), plan);
      }),
      { numRuns: 150 },
    );
  });
}

test('dictionary indices: skip(k) then read(m) is indices [k, k + m)', () => {
  const leaf = { physicalType: 'INT32' } as LeafNode;
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 5000 }), fc.array(fc.nat(), count), steps, (size, raw, plan) => {
      const indices = Int32Array.from(raw, (x) => x % size);
      const w = new ByteWriter();
      encodeDictionaryIndices(w, indices, size);
      check('RLE_DICTIONARY', leaf, w.finish().slice(), keys(indices), plan);
    }),
    { numRuns: 200 },
  );
});

/** Any skips and reads over levels: each gives the levels there (read) and how many equal the maximum (both). */
function checkLevels(s: RleStream | BitPackedStream, levels: number[], max: number, plan: [boolean, number][]): void {
  const check = { max, what: 'definition' };
  let at = 0;
  for (const [skip, n0] of [...plan, [false, levels.length] as [boolean, number]]) {
    const n = Math.min(n0, levels.length - at);
    const atMax = levels.slice(at, at + n).filter((v) => v === max).length;
    if (skip) assert.equal(s.skip(n, check), atMax);
    else {
      const out = new Uint16Array(n);
      assert.equal(s.read(n, out, 0, check), atMax);
      assert.deepEqual([...out], levels.slice(at, at + n));
    }
    at += n;
  }
}

test('levels: RleStream.skip counts and checks what read would', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 9 }), fc.array(fc.nat(), { maxLength: 2000, size: 'max' }), steps, (max, raw, plan) => {
      const levels = raw.map((x) => x % (max + 1));
      const w = new ByteWriter();
      const runs = levels.flatMap((v, i) => (i % 7 === 0 ? new Array<number>(30).fill(v) : [v]));
      encodeRleHybrid(w, runs, bitWidth(max));
      checkLevels(new RleStream(new ByteCursor(w.finish().slice()), bitWidth(max)), runs, max, plan);
    }),
    { numRuns: 200 },
  );
});

test('levels: BitPackedStream (v1 BIT_PACKED) skips and reads at any width', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 16 }), fc.array(fc.nat(), { maxLength: 2000, size: 'max' }), steps, (width, raw, plan) => {
      // A maximum below what the width holds, sometimes, so levels over it would be caught.
      const max = width === 0 ? 0 : (1 << width) - 1 - (raw.length % 2);
      const levels = raw.map((x) => x % (max + 1));
      const w = new ByteWriter();
      encodeBitPacked(w, levels, width);
      w.u8(0xff); // what follows the levels in a page
      checkLevels(new BitPackedStream(new ByteCursor(w.finish().slice()), width, levels.length), levels, max, plan);
    }),
    { numRuns: 200 },
  );
});

test('a level above the maximum in levels passed over is still corrupt', () => {
  const levels = [0, 1, 3, 1, ...new Array<number>(20).fill(2)];
  const rle = new ByteWriter();
  encodeRleHybrid(rle, levels, 2);
  const packed = new ByteWriter();
  encodeBitPacked(packed, levels, 2);
  for (const s of [new RleStream(new ByteCursor(rle.finish().slice()), 2), new BitPackedStream(new ByteCursor(packed.finish().slice()), 2, 24)]) {
    assert.throws(() => s.skip(24, { max: 2, what: 'definition' }), /definition level 3 exceeds/);
  }
});
