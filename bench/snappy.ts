/**
 * SNAPPY decompression speed of the portable JavaScript decoder
 * (src/codecs/snappy-decode.ts, what browsers and Node without the native
 * addon use) against hysnappy's wasm build of the reference code, the
 * native `snappy` package (what Node uses when its binary is there) and
 * hyparquet's JavaScript decoder, on
 * - every SNAPPY page of Parquet files (the T1 file bench/data/flat.parquet,
 *   made by bench/data.ts, and the shared corpus's SNAPPY files), caught as
 *   the reader decompresses them;
 * - 4 MiB blocks of random bytes, CSV-like text and an INT64 column,
 *   compressed by the native compressor.
 * The decoders take turns within each round (rotated), each pass timed for
 * wall and CPU (user + system) time; the table gives medians, in MB/s of
 * output (10^6 bytes).
 *
 * Run: node --import tsx bench/snappy.ts [--rounds N] [--corpus DIR] [files...]
 */
import { existsSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { snappyUncompress } from 'hyparquet';
import { snappyUncompressor } from 'hysnappy';
import { defineCodec, type Codec } from '../src/codecs/codec.js';
import { registerCodec } from '../src/codecs/registry.js';
import { snappyDecompress, snappyLength } from '../src/codecs/snappy-decode.js';
import { openParquet } from '../src/node/index.js';
import { createNodeSnappy } from '../src/node/snappy.js';
import { csvBlock, int64Block, rng } from './blocks.js';
import { FLAT } from './data.js';
import { argValue, median } from './harness.js';

interface Block {
  input: Uint8Array;
  size: number;
}

const native = createNodeSnappy();
if (!native) throw new Error('the native snappy package is needed as the reference');
const wasm = snappyUncompressor();

/** Each with the same preamble check in front, as the codecs have. */
const decoders: [string, Codec][] = [
  ['parquetry JS', defineCodec('SNAPPY', snappyDecompress, () => new Uint8Array())],
  ['hysnappy wasm', defineCodec('SNAPPY', (input, size) => (snappyLength(input), wasm(input, size)), () => new Uint8Array())],
  ['snappy native', native],
  [
    'hyparquet JS',
    defineCodec('SNAPPY', (input, size) => {
      snappyLength(input);
      const out = new Uint8Array(size);
      snappyUncompress(input, out);
      return out;
    }, () => new Uint8Array()),
  ],
];

/** Every SNAPPY block the reader decompresses reading `paths` whole. */
async function pagesOf(paths: string[]): Promise<Block[]> {
  const blocks: Block[] = [];
  registerCodec('SNAPPY', defineCodec('SNAPPY', (input, size) => (blocks.push({ input: input.slice(), size }), native!.decompress(input, size)), () => new Uint8Array()));
  for (const path of paths) {
    try {
      const reader = await openParquet(path);
      for await (const _ of reader.rows());
      await reader.close();
    } catch {
      // The corpus holds damaged files: the pages read before the damage count.
    }
  }
  return blocks;
}

function generated(make: (size: number) => Uint8Array): Block[] {
  const data = make(4 << 20);
  return [{ input: native!.compress(data), size: data.length }];
}

const random = (size: number) => {
  const r = rng(3);
  return Uint8Array.from({ length: size }, () => Math.floor(r() * 256));
};

/** One pass over `blocks`, repeated to at least `min` bytes of output: wall and CPU seconds, bytes. */
function pass(codec: Codec, blocks: Block[], min: number): { wall: number; cpu: number; bytes: number } {
  let bytes = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  while (bytes < min) for (const b of blocks) bytes += codec.decompress(b.input, b.size).length;
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1e6, bytes };
}

const rounds = Number(argValue('--rounds') ?? 7);
const corpus = argValue('--corpus') ?? '/work/shared/corpus/parquet-testing';
const files = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
const corpusFiles = existsSync(corpus)
  ? readdirSync(corpus, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.parquet')).map((f) => join(corpus, f))
  : [];

const workloads: [string, Block[]][] = [
  [`T1 file pages (${files.length ? files.join(', ') : 'bench/data/flat.parquet'})`, await pagesOf(files.length ? files : [FLAT])],
  ['corpus SNAPPY pages', await pagesOf(corpusFiles)],
  ['random bytes, 4 MiB', generated(random)],
  ['CSV-like text, 4 MiB', generated(csvBlock)],
  ['INT64 column, 4 MiB', generated(int64Block)],
];
registerCodec('SNAPPY', native);

console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${rounds} rounds, decoders rotated\n`);
console.log(`| blocks | count | MB out | ratio | ${decoders.map(([n]) => `${n} MB/s wall (CPU)`).join(' | ')} |`);
console.log(`| --- | ---: | ---: | ---: | ${decoders.map(() => '---:').join(' | ')} |`);
for (const [label, blocks] of workloads) {
  if (blocks.length === 0) continue;
  const out = blocks.reduce((n, b) => n + b.size, 0);
  const packed = blocks.reduce((n, b) => n + b.input.length, 0);
  // Every decoder's output checked against the native one's before timing.
  for (const [name, codec] of decoders) {
    for (const b of blocks) {
      if (Buffer.compare(codec.decompress(b.input, b.size), native.decompress(b.input, b.size)) !== 0) throw new Error(`${name} disagrees on ${label}`);
    }
  }
  const min = Math.max(out, 64e6);
  const runs = decoders.map(() => [] as { wall: number; cpu: number; bytes: number }[]);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < decoders.length; k++) {
      const i = (k + r) % decoders.length;
      runs[i]!.push(pass(decoders[i]![1], blocks, min));
    }
  }
  const cells = runs.map((rs) => {
    const wall = median(rs.map((x) => x.bytes / x.wall / 1e6));
    const cpu = median(rs.map((x) => x.bytes / x.cpu / 1e6));
    return `${wall.toFixed(0)} (${cpu.toFixed(0)})`;
  });
  console.log(`| ${label} | ${blocks.length} | ${(out / 1e6).toFixed(1)} | ${(out / packed).toFixed(2)} | ${cells.join(' | ')} |`);
}
console.log(`\nload average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
