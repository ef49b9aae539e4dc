/**
 * Wide tables: one row of thousands of columns converts to Parquet and to
 * Trevni with few file descriptors (Trevni spilled one file per column and
 * failed with EMFILE) and memory for the data, not columns × a fixed buffer
 * (each Parquet column had 30 KB of empty buffers, each Trevni column 65 KB).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const MiB = 2 ** 20;

/** Runs wide-convert.ts under `ulimit -n 256`: whether the row came back, and the peak RSS. */
function wide(columns: number, format: 'parquet' | 'trevni'): { same: boolean; maxRss: number } {
  const script = join('test', 'convert', 'wide-convert.ts');
  const r = spawnSync('sh', ['-c', `ulimit -n 256 && exec "${process.execPath}" --import tsx ${script} ${columns} ${format}`], { encoding: 'utf8', timeout: 240_000 });
  assert.equal(r.status, 0, `${columns} columns to ${format}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { same: boolean; maxRss: number };
}

for (const format of ['parquet', 'trevni'] as const) {
  test(`one row of 1,500 and of 10,000 columns to ${format} under ulimit -n 256, in bounded memory`, { timeout: 300_000 }, () => {
    for (const columns of [1_500, 10_000]) {
      const r = wide(columns, format);
      assert.ok(r.same, `${columns} columns: the row read back differs`);
      // 10,000 columns took 601 MiB to Parquet before (and Trevni failed); about 290 MiB now, most of it the process itself.
      assert.ok(r.maxRss < 448 * MiB, `${columns} columns to ${format}: peak RSS ${(r.maxRss / MiB).toFixed(0)} MiB`);
    }
  });
}
