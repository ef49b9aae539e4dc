/**
 * Decode throughput of the value and level encodings, in values per second.
 * Run: node --import tsx bench/encodings.ts
 * Each case encodes its data once, then decodes it repeatedly; the figure is
 * the best of 21 timed rounds after warm-up (the least disturbed by other
 * work on the machine), with the median beside it.
 */
import { ByteCursor } from '../src/bytes/cursor.js';
import { ByteWriter } from '../src/bytes/writer.js';
import { decodeByteStreamSplit, encodeByteStreamSplit } from '../src/encodings/byte-stream-split.js';
import { decodeDeltaInt32, decodeDeltaInt64, encodeDeltaInt32, encodeDeltaInt64 } from '../src/encodings/delta-binary-packed.js';
import { decodeDeltaByteArray, encodeDeltaByteArray } from '../src/encodings/delta-byte-array.js';
import { decodeDeltaLengthByteArray, encodeDeltaLengthByteArray } from '../src/encodings/delta-length-byte-array.js';
import { take } from '../src/encodings/dictionary.js';
import { decodePlain } from '../src/encodings/plain.js';
import { encodePlain } from '../src/encodings/plain-encode.js';
import { decodeDictionaryIndices, decodeRleHybrid } from '../src/encodings/rle.js';
import { encodeDictionaryIndices, encodeRleHybrid } from '../src/encodings/rle-encode.js';
import type { ByteArrays } from '../src/encodings/types.js';

const N = 1 << 20;

/** Deterministic pseudo-random numbers in [0, 1), so runs compare. */
let seed = 12345;
function random(): number {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
}

function bytesOf(encode: (w: ByteWriter) => void): Uint8Array {
  const w = new ByteWriter(1 << 16);
  encode(w);
  return w.finish().slice();
}

function bench(name: string, values: number, bytes: number, run: () => unknown): void {
  for (let i = 0; i < 5; i++) run();
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const [best, median] = [times[0]!, times[times.length >> 1]!];
  const rate = (ms: number) => ((values / ms) * 1000) / 1e6;
  console.log(
    `${name.padEnd(46)} ${rate(best).toFixed(0).padStart(6)} M values/s (median ${rate(median).toFixed(0).padStart(5)})  ${((bytes / best) * 1000 / 2 ** 20).toFixed(0).padStart(6)} MiB/s of input`,
  );
}

// Levels, bit width 1.
for (const [label, p] of [
  ['90% defined', 0.9],
  ['50% defined', 0.5],
] as const) {
  const levels = Uint8Array.from({ length: N }, () => (random() < p ? 1 : 0));
  const bytes = bytesOf((w) => encodeRleHybrid(w, levels, 1));
  const out = new Uint8Array(N);
  bench(`RLE levels, width 1, ${label}`, N, bytes.length, () => decodeRleHybrid(new ByteCursor(bytes), 1, N, out));
}

// Dictionary indices, bit width 7.
{
  const indices = Int32Array.from({ length: N }, () => Math.floor(random() * 128));
  const bytes = bytesOf((w) => encodeDictionaryIndices(w, indices, 128));
  const out = new Int32Array(N);
  bench('dictionary indices, width 7, random', N, bytes.length, () => decodeDictionaryIndices(new ByteCursor(bytes), N, out));
  const dict = Float64Array.from({ length: 128 }, (_, i) => i * 1.5);
  bench('  take() DOUBLE from 128-entry dictionary', N, N * 4, () => take(dict, indices));
  const strings = makeStrings(128, 10);
  bench('  take() BYTE_ARRAY (10 bytes) from 128', N, N * 4, () => take(strings, indices));
}

// DELTA_BINARY_PACKED.
{
  let x = 0;
  const small = Int32Array.from({ length: N }, () => (x += Math.floor(random() * 200)));
  const wide = Int32Array.from({ length: N }, () => (random() * 2 ** 32) | 0);
  for (const [label, v] of [
    ['small deltas (~8 bits)', small],
    ['random (32 bits)', wide],
  ] as const) {
    const bytes = bytesOf((w) => encodeDeltaInt32(w, v));
    bench(`DELTA_BINARY_PACKED int32, ${label}`, N, bytes.length, () => decodeDeltaInt32(new ByteCursor(bytes), N));
  }
  let t = 1_700_000_000_000_000n;
  const stamps = BigInt64Array.from({ length: N }, () => (t += BigInt(Math.floor(random() * 1_000_000))));
  const random64 = BigInt64Array.from({ length: N }, () => BigInt.asIntN(64, (BigInt((random() * 2 ** 32) >>> 0) << 32n) | BigInt((random() * 2 ** 32) >>> 0)));
  for (const [label, v] of [
    ['timestamps (~20 bits)', stamps],
    ['random (64 bits)', random64],
  ] as const) {
    const bytes = bytesOf((w) => encodeDeltaInt64(w, v));
    bench(`DELTA_BINARY_PACKED int64, ${label}`, N, bytes.length, () => decodeDeltaInt64(new ByteCursor(bytes), N));
  }
}

// PLAIN.
{
  const doubles = Float64Array.from({ length: N }, () => random());
  const bytes = bytesOf((w) => encodePlain(w, 'DOUBLE', doubles));
  bench('PLAIN double', N, bytes.length, () => decodePlain(new ByteCursor(bytes), 'DOUBLE', N));
  const split = bytesOf((w) => encodeByteStreamSplit(w, 'DOUBLE', doubles));
  bench('BYTE_STREAM_SPLIT double', N, split.length, () => decodeByteStreamSplit(new ByteCursor(split), 'DOUBLE', N));
  const strings = makeStrings(N, 10);
  const sb = bytesOf((w) => encodePlain(w, 'BYTE_ARRAY', strings));
  bench('PLAIN byte array, 10-byte strings', N, sb.length, () => decodePlain(new ByteCursor(sb), 'BYTE_ARRAY', N));
  const dl = bytesOf((w) => encodeDeltaLengthByteArray(w, strings));
  bench('DELTA_LENGTH_BYTE_ARRAY, 10-byte strings', N, dl.length, () => decodeDeltaLengthByteArray(new ByteCursor(dl), N));
  const sorted = makeStrings(N, 10, true);
  const db = bytesOf((w) => encodeDeltaByteArray(w, sorted));
  bench('DELTA_BYTE_ARRAY, sorted 10-byte strings', N, db.length, () => decodeDeltaByteArray(new ByteCursor(db), N));
}

function makeStrings(n: number, len: number, sorted = false): ByteArrays {
  const data = new Uint8Array(n * len);
  for (let i = 0; i < data.length; i++) data[i] = 97 + Math.floor(random() * 26);
  if (sorted) {
    // sortable: a zero-padded counter in front, so neighbours share a prefix
    for (let i = 0; i < n; i++) {
      const s = String(i).padStart(7, '0');
      for (let k = 0; k < 7; k++) data[i * len + k] = s.charCodeAt(k);
    }
  }
  return { data, offsets: Int32Array.from({ length: n + 1 }, (_, i) => i * len) };
}
