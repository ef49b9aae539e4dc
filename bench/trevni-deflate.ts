/**
 * Trevni deflate: fflate (the portable codec) against node:zlib's raw
 * inflate and deflate (the Node codec, registered by src/node/codecs.ts), on
 * every deflate block of the Java-written corpus files and of a generated
 * file with 64 KiB blocks. Best of 7 rounds of at least 0.3 s each.
 *
 * Run:  node --import tsx bench/trevni-deflate.ts     (needs ../shared/trevni-corpus)
 */
import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import { deflateSync, inflateSync } from 'fflate';
import { BufferSink } from '../src/io/sink.js';
import { TrevniReader } from '../src/trevni/reader.js';
import { TrevniWriter } from '../src/trevni/writer.js';

async function blocksOf(bytes: Uint8Array): Promise<{ data: Uint8Array; size: number }[]> {
  const r = await TrevniReader.open(bytes);
  const out: { data: Uint8Array; size: number }[] = [];
  for (const c of r.columns) {
    if (c.codec !== 'deflate') continue;
    for (const b of await r.blocks(c.index)) out.push({ data: bytes.subarray(b.offset, b.offset + b.compressedSize), size: b.uncompressedSize });
  }
  return out;
}
const corpus = new URL('../../shared/trevni-corpus/', import.meta.url);
const corpusBlocks: { data: Uint8Array; size: number }[] = [];
for (const f of ['multiblock_deflate_crc32.trv', 'avro_multiblock_deflate.trv', 'sorted_values_deflate_crc32.trv', 'types_deflate_crc32.trv', 'types_deflate_null.trv', 'column_overrides.trv', 'zero_rows.trv']) corpusBlocks.push(...(await blocksOf(new Uint8Array(readFileSync(new URL(f, corpus))))));

// a generated file: 64 KiB blocks of mixed columns
let seed = 1;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const sink = new BufferSink();
const w = await TrevniWriter.open(sink, [{ name: 'id', type: 'long' }, { name: 's', type: 'string' }, { name: 'd', type: 'double' }, { name: 'tags', type: 'string', array: true }], { codec: 'deflate' });
for (let i = 0; i < 300000; i++) await w.writeRow([BigInt(i), `user-${Math.floor(rnd() * 5000)}-${'x'.repeat(Math.floor(rnd() * 20))}`, Math.round(rnd() * 1e6) / 100, Array.from({ length: Math.floor(rnd() * 3) }, () => ['red', 'green', 'blue', 'é😀'][Math.floor(rnd() * 4)]!)]);
await w.close();
const genBlocks = await blocksOf(sink.bytes());

const raw = (bs: { data: Uint8Array; size: number }[]) => bs.map((b) => inflateSync(b.data, { out: new Uint8Array(b.size + 1) }));
const fflateInflate = (b: { data: Uint8Array; size: number }) => inflateSync(b.data, { out: new Uint8Array(b.size + 1) });
const zlibInflate = (b: { data: Uint8Array; size: number }) => zlib.inflateRawSync(b.data, { maxOutputLength: Math.max(1, b.size) });

function time(label: string, bs: { data: Uint8Array; size: number }[], f: (b: { data: Uint8Array; size: number }) => unknown, bytes: number): number {
  // warm up, then best of 7 rounds
  for (const b of bs) f(b);
  let best = Infinity;
  for (let round = 0; round < 7; round++) {
    const t = process.hrtime.bigint();
    let reps = 0;
    do { for (const b of bs) f(b); reps++; } while (Number(process.hrtime.bigint() - t) < 3e8);
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e9 / reps);
  }
  const mbs = bytes / 1e6 / best;
  console.log(`${label.padEnd(44)} ${mbs.toFixed(0).padStart(6)} MB/s`);
  return mbs;
}
for (const [name, bs] of [['corpus deflate blocks', corpusBlocks], ['generated 64 KiB blocks', genBlocks]] as const) {
  const out = bs.reduce((s, b) => s + b.size, 0);
  console.log(`${name}: ${bs.length} blocks, ${(out / 1e6).toFixed(2)} MB uncompressed, ${(bs.reduce((s, b) => s + b.data.length, 0) / 1e6).toFixed(2)} MB compressed`);
  const a = time('  inflate fflate (uncompressed MB/s)', bs, fflateInflate, out);
  const z = time('  inflate node:zlib inflateRawSync', bs, zlibInflate, out);
  console.log(`  inflate speed-up ${(z / a).toFixed(2)}x`);
  const rawBlocks = raw(bs).map((x, i) => ({ data: x.subarray(0, bs[i]!.size), size: bs[i]!.size }));
  const c1 = time('  deflate fflate level 6 (input MB/s)', rawBlocks, (b) => deflateSync(b.data, { level: 6 }), out);
  const c2 = time('  deflate node:zlib deflateRawSync level 6', rawBlocks, (b) => zlib.deflateRawSync(b.data, { level: 6 }), out);
  const s1 = rawBlocks.reduce((s, b) => s + deflateSync(b.data, { level: 6 }).length, 0), s2 = rawBlocks.reduce((s, b) => s + zlib.deflateRawSync(b.data, { level: 6 }).length, 0);
  console.log(`  deflate speed-up ${(c2 / c1).toFixed(2)}x; output ${s1} (fflate) vs ${s2} (zlib) bytes`);
}
