/**
 * What checkpoints cost: the same 2,000,000-row flat table (bench/write.ts's
 * kind of columns: INT32, INT64, DOUBLE, a 100-value STRING, a unique
 * STRING) written with writeColumns in row groups of 50,000 rows (40 row
 * groups), without checkpoints and with checkpointEvery 8 and 1; CPU time
 * and wall time (median of RUNS rounds, variants interleaved) and file size.
 *
 *   node --import tsx bench/checkpoint.ts [runs]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineSchema, field, openWriter, type WriterOptions } from '../src/node/index.js';

const ROWS = 2_000_000;
const RUNS = Number(process.argv[2] ?? 3);
const schema = defineSchema({
  id: field.int32().required(),
  big: field.int64().required(),
  amount: field.double().required(),
  category: field.string().required(),
  uid: field.string().required(),
});
const columns = {
  id: Int32Array.from({ length: ROWS }, (_, i) => i),
  big: BigInt64Array.from({ length: ROWS }, (_, i) => BigInt(i) * 1000003n + 17n),
  amount: Float64Array.from({ length: ROWS }, (_, i) => ((i * 2654435761) % 1e6) / 100),
  category: Array.from({ length: ROWS }, (_, i) => `category_${i % 100}`),
  uid: Array.from({ length: ROWS }, (_, i) => `user-${i}-${((i * 2654435761) >>> 0).toString(16)}`),
};
const dir = mkdtempSync(join(tmpdir(), 'parquetry-ckpt-bench-'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const variants: [string, WriterOptions][] = [['none', {}], ['checkpointEvery 8', { checkpointEvery: 8 }], ['checkpointEvery 1', { checkpointEvery: 1 }]];
const samples = variants.map(([name]) => ({ name, cpu: [] as number[], wall: [] as number[], size: 0 }));
// Rounds interleave the variants, after one round not counted (JIT warm-up), so load and warm-up fall on all alike.
for (let r = -1; r < RUNS; r++) {
  for (const [v, [, extra]] of variants.entries()) {
    const path = join(dir, `${v}.parquet`);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const w = await openWriter(path, schema, { rowGroupRows: 50_000, ...extra });
    await w.writeColumns(columns);
    await w.close();
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    if (r >= 0) {
      samples[v]!.cpu.push((c.user + c.system) / 1e6);
      samples[v]!.wall.push(wall);
    }
    samples[v]!.size = statSync(path).size;
    rmSync(path);
  }
}
const results = samples.map((s) => ({ name: s.name, cpu: median(s.cpu), wall: median(s.wall), size: s.size }));
rmSync(dir, { recursive: true, force: true });
const base = results[0]!;
console.log('| writer | CPU s (median) | wall s (median) | size bytes | size vs none |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of results) {
  console.log(`| ${r.name} | ${r.cpu.toFixed(2)} | ${r.wall.toFixed(2)} | ${r.size} | +${(r.size - base.size)} (${(((r.size - base.size) / base.size) * 100).toFixed(3)}%) |`);
}
