/**
 * Bounded memory while writing: streams records into a file until it passes
 * a size target (default 2 GiB) and samples peak RSS as the output grows.
 * A flat RSS column means the writer holds one row group, not the file.
 *
 *   node --import tsx bench/write-memory.ts [targetMiB] [rowGroupMiB]
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openWriter, defineSchema, field as f } from '../src/node/index.js';

const target = Number(process.argv[2] ?? 2048) * 1024 * 1024;
const rowGroupSize = Number(process.argv[3] ?? 128) * 1024 * 1024;
const dir = join('bench', 'out');
mkdirSync(dir, { recursive: true });
const path = join(dir, 'write-memory.parquet');

const schema = defineSchema({
  id: f.int64().required(),
  value: f.double(),
  // Random-ish text so the codec cannot shrink the output to nothing.
  text: f.string(),
  tags: f.list(f.string()),
});

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${Math.floor(rand() * 1e9).toString(36)}`);

const w = await openWriter(path, schema, { rowGroupSize, codec: 'SNAPPY', dictionary: false });
const started = performance.now();
let peak = 0;
const samples: string[] = [];
let next = 256 * 1024 * 1024;
let rows = 0;
const batch = 10_000;
while (true) {
  for (let i = 0; i < batch; i++, rows++) {
    await w.write({
      id: BigInt(rows),
      value: rand() * 1000,
      text: `${words[(rand() * 5000) | 0]} ${words[(rand() * 5000) | 0]} ${Math.floor(rand() * 1e12).toString(36)}`,
      tags: [words[(rand() * 5000) | 0]!, words[(rand() * 5000) | 0]!],
    });
  }
  const rss = process.memoryUsage().rss;
  peak = Math.max(peak, rss);
  let written = 0;
  try {
    // The writer streams into a temp file beside the destination; its size is the output so far.
    written = (w as unknown as { offset: number }).offset;
  } catch {
    written = 0;
  }
  if (written >= next) {
    samples.push(`| ${(written / 2 ** 20).toFixed(0)} | ${rows.toLocaleString('en')} | ${(rss / 2 ** 20).toFixed(0)} | ${(peak / 2 ** 20).toFixed(0)} |`);
    next += 256 * 1024 * 1024;
  }
  if (written >= target) break;
}
await w.close();
const seconds = (performance.now() - started) / 1000;
const size = statSync(path).size;
console.log(`row group budget ${rowGroupSize / 2 ** 20} MiB; wrote ${rows.toLocaleString('en')} rows, ${(size / 2 ** 20).toFixed(0)} MiB in ${seconds.toFixed(1)} s (${(size / 2 ** 20 / seconds).toFixed(0)} MiB/s)`);
console.log('| output MiB | rows | RSS MiB | peak RSS MiB |');
console.log('| ---: | ---: | ---: | ---: |');
for (const s of samples) console.log(s);
rmSync(path, { force: true });
