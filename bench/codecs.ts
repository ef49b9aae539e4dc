/**
 * Decompression (and compression) throughput of every codec implementation
 * on 1 MiB blocks, best of several passes; ZSTD's wasm and native builds on
 * page sizes from 8 KiB to 1 MiB and at several levels; CRC-32 by input size.
 * Run: node --import tsx bench/codecs.ts
 */
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import { crc32Portable } from '../src/checksum/crc32.js';
import { brotliCodec } from '../src/codecs/brotli.js';
import type { Codec } from '../src/codecs/codec.js';
import { gzip } from '../src/codecs/gzip.js';
import { lz4 } from '../src/codecs/lz4.js';
import { lz4Raw } from '../src/codecs/lz4-raw.js';
import { loadSnappy } from '../src/codecs/snappy.js';
import { zstd as loadingZstd } from '../src/codecs/zstd.js';
import { createNodeZstd, nodeBrotli, nodeGzip } from '../src/node/codecs.js';
import { csvBlock, int64Block } from './blocks.js';

const MiB = 1 << 20;

/** Best time in ms over `passes` passes of `reps` calls. */
function best(fn: () => unknown, reps: number, passes = 10): number {
  let min = Infinity;
  for (let p = 0; p < passes; p++) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) fn();
    min = Math.min(min, (performance.now() - t) / reps);
  }
  return min;
}

function mibPerSecond(bytes: number, ms: number): string {
  return ((bytes / MiB / ms) * 1000).toFixed(0);
}

const require = createRequire(import.meta.url);
const nodeZstd = createNodeZstd();
const wasmZstd = await loadingZstd;

interface Impl {
  codec: string;
  name: string;
  impl: Codec;
}

const impls: Impl[] = [
  { codec: 'SNAPPY', name: 'parquetry (JS)', impl: await loadSnappy() },
  { codec: 'GZIP', name: 'fflate', impl: gzip },
  { codec: 'GZIP', name: 'node:zlib', impl: nodeGzip },
  { codec: 'BROTLI', name: 'brotli-wasm', impl: brotliCodec(require('brotli-wasm')) },
  { codec: 'BROTLI', name: 'node:zlib', impl: nodeBrotli },
  { codec: 'ZSTD', name: '@bokuweb/zstd-wasm', impl: wasmZstd },
  ...(nodeZstd ? [{ codec: 'ZSTD', name: 'zstd-napi', impl: nodeZstd }] : []),
  { codec: 'LZ4_RAW', name: 'parquetry', impl: lz4Raw },
  { codec: 'LZ4', name: 'parquetry (Hadoop)', impl: lz4 },
];

/** Every implementation of a codec decodes the same bytes: those its native (else only) implementation wrote. */
function referenceEncoder(codec: string): Codec {
  const all = impls.filter((i) => i.codec === codec);
  return (all.find((i) => /zlib|napi/.test(i.name)) ?? all[0]!).impl;
}

for (const [label, data] of [
  ['CSV-like text', csvBlock(MiB)],
  ['INT64 column (PLAIN)', int64Block(MiB)],
] as const) {
  console.log(`\n### ${label}, 1 MiB blocks\n`);
  console.log('| codec | implementation | ratio | decompress MiB/s | compress MiB/s |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const { codec, name, impl } of impls) {
    const compressed = referenceEncoder(codec).compress(data);
    const ratio = (data.length / compressed.length).toFixed(2);
    const dec = best(() => impl.decompress(compressed, data.length), 5);
    // Slow compressors get fewer repetitions.
    const once = best(() => impl.compress(data), 1, 1);
    const enc = mibPerSecond(data.length, best(() => impl.compress(data), once > 50 ? 1 : 3, once > 50 ? 3 : 6));
    console.log(`| ${codec} | ${name} | ${ratio} | ${mibPerSecond(data.length, dec)} | ${enc} |`);
  }
}

/** Repetitions so that one pass handles about `total` bytes. */
const repsFor = (size: number, total = 8 * MiB) => Math.max(3, Math.round(total / size));

if (nodeZstd) {
  const zstds = [
    ['wasm', wasmZstd],
    ['napi', nodeZstd],
  ] as const;
  for (const [label, make] of [
    ['CSV-like text', csvBlock],
    ['INT64 column (PLAIN)', int64Block],
  ] as const) {
    console.log(`\n### ZSTD by page size, ${label}, level 3 (MiB/s; wasm = @bokuweb/zstd-wasm, napi = zstd-napi)\n`);
    console.log('| page | ratio | decompress wasm | decompress napi | wasm/napi | compress wasm | compress napi | wasm/napi |');
    console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const size of [8 * 1024, 16 * 1024, 32 * 1024, 64 * 1024, MiB]) {
      const data = make(size);
      const packed = nodeZstd.compress(data);
      const reps = repsFor(size);
      const [dw, dn] = zstds.map(([, impl]) => best(() => impl.decompress(packed, size), reps));
      const [cw, cn] = zstds.map(([, impl]) => best(() => impl.compress(data), Math.max(1, reps / 4)));
      const row = [
        `${size / 1024} KiB`,
        (size / packed.length).toFixed(2),
        mibPerSecond(size, dw!),
        mibPerSecond(size, dn!),
        (dn! / dw!).toFixed(2),
        mibPerSecond(size, cw!),
        mibPerSecond(size, cn!),
        (cn! / cw!).toFixed(2),
      ];
      console.log(`| ${row.join(' | ')} |`);
    }
  }

  const data = csvBlock(MiB);
  console.log('\n### ZSTD by level, CSV-like text, 1 MiB (MiB/s)\n');
  console.log('| level | ratio | decompress wasm | decompress napi | compress wasm | compress napi |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const level of [-5, 1, 3, 9, 19]) {
    const packed = nodeZstd.compress(data, level);
    const [dw, dn] = zstds.map(([, impl]) => best(() => impl.decompress(packed, data.length), 5));
    const passes = level >= 19 ? 2 : 5;
    const [cw, cn] = zstds.map(([, impl]) => best(() => impl.compress(data, level), 1, passes));
    const row = [level, (data.length / packed.length).toFixed(2), mibPerSecond(MiB, dw!), mibPerSecond(MiB, dn!), mibPerSecond(MiB, cw!), mibPerSecond(MiB, cn!)];
    console.log(`| ${row.join(' | ')} |`);
  }
}

console.log('\n### CRC-32, GB/s by input size\n');
console.log('| bytes | portable (slice-by-8) | zlib.crc32 |');
console.log('| ---: | ---: | ---: |');
const random = new Uint8Array(MiB).map((_, i) => (i * 2654435761) >>> 24);
for (const size of [16, 64, 128, 256, 512, 4096, 65536, MiB]) {
  const d = random.subarray(0, size);
  const reps = Math.max(1, (4 * MiB) / size);
  const js = best(() => crc32Portable(d), reps);
  const native = typeof zlib.crc32 === 'function' ? (size / best(() => zlib.crc32(d), reps) / 1e6).toFixed(2) : 'n/a';
  console.log(`| ${size} | ${(size / js / 1e6).toFixed(2)} | ${native} |`);
}
