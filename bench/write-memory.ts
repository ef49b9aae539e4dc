/**
 * Bounded memory while writing: streams records one by one (`write()`, the
 * per-record path the CLI uses; a nested list column keeps the shredder in
 * play) into a file until it passes a size target (default 2 GiB), and
 * records RSS each time a row group reaches the file. A flat RSS column
 * means the writer holds one row group, not the file.
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

const mib = (b: number) => (b / 2 ** 20).toFixed(0);
const baseRss = process.memoryUsage().rss;
const w = await openWriter(path, schema, { rowGroupSize, codec: 'SNAPPY', dictionary: false });
const started = performance.now();
const samples: string[] = [];
const rssAt: number[] = [];
let rows = 0;
const batch = 10_000;
// The writer streams into a temp file beside the destination; its offset is the output so far (it moves a row group at a time).
const written = () => (w as unknown as { offset: number }).offset;
let lastWritten = written(); // the leading magic number is not a row group
while (true) {
  for (let i = 0; i < batch; i++, rows++) {
    await w.write({
      id: BigInt(rows),
      value: rand() * 1000,
      text: `${words[(rand() * 5000) | 0]} ${words[(rand() * 5000) | 0]} ${Math.floor(rand() * 1e12).toString(36)}`,
      tags: [words[(rand() * 5000) | 0]!, words[(rand() * 5000) | 0]!],
    });
  }
  const now = written();
  if (now !== lastWritten) {
    lastWritten = now;
    const rss = process.memoryUsage().rss;
    rssAt.push(rss);
    const peak = process.resourceUsage().maxRSS * 1024;
    samples.push(`| ${rssAt.length} | ${mib(now)} | ${rows.toLocaleString('en')} | ${mib(rss)} | ${mib(peak)} |`);
  }
  if (now >= target) break;
}
await w.close();
const seconds = (performance.now() - started) / 1000;
const size = statSync(path).size;
const peak = process.resourceUsage().maxRSS * 1024;
console.log(`row group budget ${rowGroupSize / 2 ** 20} MiB; wrote ${rows.toLocaleString('en')} rows, ${mib(size)} MiB in ${seconds.toFixed(1)} s (${(size / 2 ** 20 / seconds).toFixed(0)} MiB/s)`);
console.log(`RSS before writing ${mib(baseRss)} MiB; after the first row group ${mib(rssAt[0] ?? 0)} MiB; after the last ${mib(rssAt.at(-1) ?? 0)} MiB; peak ${mib(peak)} MiB`);
console.log('');
console.log('| row groups written | output MiB | rows | RSS MiB | peak RSS so far MiB |');
console.log('| ---: | ---: | ---: | ---: | ---: |');
for (const s of samples) console.log(s);
rmSync(path, { force: true });
