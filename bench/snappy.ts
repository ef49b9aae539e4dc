/**
 * SNAPPY speed of the portable JavaScript codec (src/codecs/snappy-decode.ts
 * and snappy-encode.ts, what browsers and Node without the native addon
 * use) against hysnappy's wasm build of the reference code (the portable
 * codec before), the native `snappy` package (what Node uses when its
 * binary is there) and, decompressing, hyparquet's JavaScript decoder, on
 * - every SNAPPY page of Parquet files (the T1 file bench/data/flat.parquet,
 *   made by bench/data.ts, and the shared corpus's SNAPPY files), caught as
 *   the reader decompresses them;
 * - 4 MiB blocks of random bytes, CSV-like text and an INT64 column,
 *   compressed by the native compressor.
 * The implementations take turns within each round (rotated), each pass
 * timed for wall and CPU (user + system) time; the tables give medians in
 * MB/s of uncompressed bytes (10^6), and the ratio each compressor reaches.
 *
 * Run: node --import tsx bench/snappy.ts [--rounds N] [--corpus DIR] [T1 file]
 */
import { existsSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { snappyUncompress } from 'hyparquet';
import { snappyCompressor, snappyUncompressor } from 'hysnappy';
import { defineCodec } from '../src/codecs/codec.js';
import { registerCodec } from '../src/codecs/registry.js';
import { snappyDecompress, snappyLength } from '../src/codecs/snappy-decode.js';
import { snappyCompress } from '../src/codecs/snappy-encode.js';
import { openParquet } from '../src/node/index.js';
import { createNodeSnappy } from '../src/node/snappy.js';
import { csvBlock, int64Block, rng } from './blocks.js';
import { FLAT } from './data.js';
import { argValue, median } from './harness.js';

interface Block {
  packed: Uint8Array;
  data: Uint8Array;
}
/** One call on one block; returns the length it made. */
type Run = (b: Block) => number;

const native = createNodeSnappy();
if (!native) throw new Error('the native snappy package is needed as the reference');
const wasmDecode = snappyUncompressor();
const wasmEncode = snappyCompressor();

/** Each with the page-size check in front that the codecs have. */
const decoders: [string, (input: Uint8Array, size: number) => Uint8Array][] = [
  ['parquetry JS', snappyDecompress],
  ['hysnappy wasm', (input, size) => (snappyLength(input), wasmDecode(input, size))],
  ['snappy native', (input, size) => native.decompress(input, size)],
  [
    'hyparquet JS',
    (input, size) => {
      snappyLength(input);
      const out = new Uint8Array(size);
      snappyUncompress(input, out);
      return out;
    },
  ],
];

const encoders: [string, (data: Uint8Array) => Uint8Array][] = [
  ['parquetry JS', snappyCompress],
  ['hysnappy wasm', (data) => wasmEncode(data)],
  ['snappy native', (data) => native.compress(data)],
];

/** Every SNAPPY block the reader decompresses reading `paths` whole. */
async function pagesOf(paths: string[]): Promise<Block[]> {
  const blocks: Block[] = [];
  registerCodec('SNAPPY', defineCodec('SNAPPY', (input, size) => {
    const data = native!.decompress(input, size);
    // Copies: the reader may decode a page in place.
    blocks.push({ packed: input.slice(), data: data.slice() });
    return data;
  }, snappyCompress));
  for (const path of paths) {
    let reader;
    try {
      reader = await openParquet(path);
      for await (const _ of reader.rows());
    } catch {
      // The corpus holds damaged files: the pages read before the damage count.
    } finally {
      await reader?.close();
    }
  }
  registerCodec('SNAPPY', native!);
  return blocks;
}

function generated(make: (size: number) => Uint8Array): Block[] {
  const data = make(4 << 20);
  return [{ packed: native!.compress(data), data }];
}

const random = (size: number) => {
  const r = rng(3);
  return Uint8Array.from({ length: size }, () => Math.floor(r() * 256));
};

/** `run` over `blocks` again and again until `min` bytes are done: uncompressed bytes per second, wall and CPU. */
function pass(run: Run, blocks: Block[], min: number): { wall: number; cpu: number } {
  let bytes = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  while (bytes < min) for (const b of blocks) bytes += (run(b), b.data.length);
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { wall: bytes / wall / 1e6, cpu: bytes / ((c.user + c.system) / 1e6) / 1e6 };
}

/** Medians over the rounds, the runs rotated in each, as `wall (CPU)` cells. */
function rounds(runs: Run[], blocks: Block[], count: number): string[] {
  const min = Math.max(blocks.reduce((n, b) => n + b.data.length, 0), 64e6);
  const results = runs.map(() => [] as { wall: number; cpu: number }[]);
  for (let r = 0; r < count; r++) {
    for (let k = 0; k < runs.length; k++) {
      const i = (k + r) % runs.length;
      results[i]!.push(pass(runs[i]!, blocks, min));
    }
  }
  return results.map((rs) => `${median(rs.map((x) => x.wall)).toFixed(0)} (${median(rs.map((x) => x.cpu)).toFixed(0)})`);
}

const count = Number(argValue('--rounds') ?? 7);
const corpus = argValue('--corpus') ?? '/work/shared/corpus/parquet-testing';
const t1 = process.argv.slice(2).find((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--')) ?? FLAT;
const corpusFiles = existsSync(corpus)
  ? readdirSync(corpus, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.parquet')).map((f) => join(corpus, f))
  : [];

const workloads: [string, Block[]][] = [
  ['T1 file pages', await pagesOf([t1])],
  ['corpus SNAPPY pages', await pagesOf(corpusFiles)],
  ['random bytes, 4 MiB', generated(random)],
  ['CSV-like text, 4 MiB', generated(csvBlock)],
  ['INT64 column, 4 MiB', generated(int64Block)],
];
const size = (bs: Block[], f: (b: Block) => number) => bs.reduce((n, b) => n + f(b), 0);

console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${count} rounds, implementations rotated; T1 file ${t1}\n`);
console.log('### Decompression, MB/s wall (CPU)\n');
console.log(`| blocks | count | MB | ratio | ${decoders.map(([n]) => n).join(' | ')} |`);
console.log(`| --- | ---: | ---: | ---: | ${decoders.map(() => '---:').join(' | ')} |`);
for (const [label, blocks] of workloads) {
  if (blocks.length === 0) continue;
  // Every decoder's output checked against the original before timing.
  for (const [name, decode] of decoders) {
    for (const b of blocks) if (Buffer.compare(decode(b.packed, b.data.length), b.data) !== 0) throw new Error(`${name} disagrees on ${label}`);
  }
  const cells = rounds(decoders.map(([, decode]) => (b: Block) => decode(b.packed, b.data.length).length), blocks, count);
  console.log(`| ${label} | ${blocks.length} | ${(size(blocks, (b) => b.data.length) / 1e6).toFixed(1)} | ${(size(blocks, (b) => b.data.length) / size(blocks, (b) => b.packed.length)).toFixed(2)} | ${cells.join(' | ')} |`);
}

console.log('\n### Compression, MB/s wall (CPU), and ratio\n');
console.log(`| blocks | ${encoders.map(([n]) => n).join(' | ')} |`);
console.log(`| --- | ${encoders.map(() => '---:').join(' | ')} |`);
for (const [label, blocks] of workloads) {
  if (blocks.length === 0) continue;
  const ratios = encoders.map(([, encode]) => {
    for (const b of blocks.slice(0, 50)) if (Buffer.compare(native.decompress(encode(b.data), b.data.length), b.data) !== 0) throw new Error(`${label}: no round trip`);
    return size(blocks, (b) => b.data.length) / size(blocks, (b) => encode(b.data).length);
  });
  const cells = rounds(encoders.map(([, encode]) => (b: Block) => encode(b.data).length), blocks, count);
  console.log(`| ${label} | ${cells.map((c, i) => `${c}, ${ratios[i]!.toFixed(3)}`).join(' | ')} |`);
}
console.log(`\nload average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
