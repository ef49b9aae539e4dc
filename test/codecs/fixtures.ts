/** Inputs and implementations shared by the codec tests. */
import { concatBytes } from '../../src/bytes/concat.js';
import { loadBrotli } from '../../src/codecs/brotli.js';
import type { Codec, CodecName } from '../../src/codecs/codec.js';
import { gzip } from '../../src/codecs/gzip.js';
import { lz4 } from '../../src/codecs/lz4.js';
import { lz4Raw } from '../../src/codecs/lz4-raw.js';
import { loadSnappy } from '../../src/codecs/snappy.js';
import { uncompressed } from '../../src/codecs/uncompressed.js';
import { zstd as loadingZstd } from '../../src/codecs/zstd.js';
import { createNodeZstd, nodeBrotli, nodeGzip } from '../../src/node/codecs.js';

export const MiB = 1 << 20;

export function hex(s: string): Uint8Array {
  return Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
}

/** Frames or members end to end. */
export const cat = (...parts: Uint8Array[]): Uint8Array => concatBytes(parts);

export function ascii(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/** Deterministic pseudo-random bytes (mulberry32). */
export function randomBytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = (t ^ (t >>> 14)) >>> 24;
  }
  return out;
}

/** Highly repetitive: a short record repeated, with a counter so it is not one run. */
export function repetitiveBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  const unit = ascii('2024-01-01,widget,42.00,ok\n');
  for (let i = 0; i < n; i++) out[i] = unit[i % unit.length]!;
  return out;
}

/** Text from a few words, as CSV or log pages hold. */
export function textLike(n: number, seed: number): Uint8Array {
  const words = ['alpha', 'beta', 'gamma', ',', '\n', '2024-01-', 'widget', ' '];
  const r = randomBytes(n, seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; ) for (const c of ascii(words[r[i]! % words.length]!)) if (i < n) out[i++] = c;
  return out;
}

/** Sizes the SNAPPY round trips cover: each literal length form's edges, 64 KiB's, and large. */
export const SNAPPY_SIZES = [0, 1, 2, 3, 4, 15, 16, 17, 59, 60, 61, 64, 65, 255, 256, 257, 65535, 65536, 65537, 1 << 20, 5 << 20];
export const SNAPPY_KINDS: [string, (n: number) => Uint8Array][] = [
  ['random', (n) => randomBytes(n, n + 3)],
  ['repetitive', repetitiveBytes],
  ['runs of one byte', (n) => randomBytes(n, n + 5).map((b) => (b < 8 ? 1 : 0))],
  ['text-like', (n) => textLike(n, n + 7)],
];

export const inputs: [string, Uint8Array][] = [
  ['empty', new Uint8Array(0)],
  ['1 byte', Uint8Array.of(0x5a)],
  ['random 1 MiB', randomBytes(MiB)],
  ['repetitive 1 MiB', repetitiveBytes(MiB)],
];

export interface Impl {
  codec: CodecName;
  name: string;
  impl: Codec;
  /** Whether compress works. */
  compresses: boolean;
}

export const nodeZstd = createNodeZstd();
/** The portable ZSTD codec (libzstd in wasm), once its wasm is instantiated. */
export const portableZstd = await loadingZstd;
/** The portable BROTLI codec as browsers get it: brotli-wasm's glue and wasm, embedded. */
export const portableBrotli = await loadBrotli();

export const impls: Impl[] = [
  { codec: 'UNCOMPRESSED', name: 'identity', impl: uncompressed, compresses: true },
  { codec: 'SNAPPY', name: 'parquetry', impl: await loadSnappy(), compresses: true },
  { codec: 'GZIP', name: 'fflate', impl: gzip, compresses: true },
  { codec: 'GZIP', name: 'node:zlib', impl: nodeGzip, compresses: true },
  { codec: 'BROTLI', name: 'brotli-wasm', impl: portableBrotli, compresses: true },
  { codec: 'BROTLI', name: 'node:zlib', impl: nodeBrotli, compresses: true },
  { codec: 'ZSTD', name: 'zstd-wasm', impl: portableZstd, compresses: true },
  ...(nodeZstd ? [{ codec: 'ZSTD' as const, name: 'zstd-napi', impl: nodeZstd, compresses: true }] : []),
  { codec: 'LZ4_RAW', name: 'parquetry', impl: lz4Raw, compresses: true },
  { codec: 'LZ4', name: 'parquetry', impl: lz4, compresses: true },
];

/** Some implementation's compressed form of `data` for `codec`, if any can compress it here. */
export function compressedBy(codec: CodecName, data: Uint8Array): Uint8Array | undefined {
  return impls.find((i) => i.codec === codec && i.compresses)?.impl.compress(data);
}
