/**
 * Wide tables: one row of thousands of columns converts to Parquet, Trevni
 * and RedElm with few file descriptors (Trevni spilled one file per column
 * and failed with EMFILE) and memory for the data, not columns × a fixed
 * buffer (each Parquet column had 30 KB of empty buffers, each Trevni column
 * 65 KB, each Trevni draft column 2.5 KB, each RedElm column 6 KB; and one
 * file write per page took more).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck, sqlString } from '../writer/oracles.js';
import { scriptArgs } from '../cli/bin.js';

const MiB = 2 ** 20;
const KiB = 2 ** 10;

type Format = 'parquet' | 'trevni' | 'trevni-draft' | 'redelm';

/**
 * Runs wide-convert.ts under `ulimit -n 256`: whether the row came back, the
 * write's peak RSS and the whole run's; with `heapMiB`, in a V8 heap of that
 * size (beyond it the child dies), and with `keep`, the output left there
 * and not read back.
 */
function wide(columns: number, format: Format, heapMiB?: number, keep?: string): { same: boolean; writeRss: number; maxRss: number } {
  const args = [...(heapMiB ? [`--max-old-space-size=${heapMiB}`] : []), ...scriptArgs('./wide-convert.ts', import.meta.url), String(columns), format, ...(keep ? [keep] : [])];
  // The arguments after the script's text are its "$@".
  const r = spawnSync('sh', ['-c', 'ulimit -n 256 && exec "$@"', 'sh', process.execPath, ...args], { encoding: 'utf8', timeout: 240_000 });
  assert.equal(r.status, 0, `${columns} columns to ${format}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { same: boolean; writeRss: number; maxRss: number };
}

for (const format of ['parquet', 'trevni', 'trevni-draft', 'redelm'] as const) {
  test(`one row of 2,000 and of 20,000 columns to ${format} under ulimit -n 256, in memory bounded per column`, { timeout: 300_000 }, (t) => {
    const [small, large] = [2_000, 20_000].map((columns) => {
      const r = wide(columns, format);
      assert.ok(r.same, `${columns} columns: the row read back differs`);
      return r;
    });
    // What each further column costs the write (the process itself cancels out): 5.5-7.5 KiB now,
    // CSV reading and schema included; 13 KB with RedElm's fixed 6 KB of buffers per column.
    const perColumn = (large!.writeRss - small!.writeRss) / 18_000;
    t.diagnostic(`${format}: ${(perColumn / KiB).toFixed(1)} KiB a column; 20,000 columns peak at ${(large!.maxRss / MiB).toFixed(0)} MiB, the write at ${(large!.writeRss / MiB).toFixed(0)} MiB`);
    assert.ok(perColumn < 9 * KiB, `to ${format}: ${(perColumn / KiB).toFixed(1)} KB of peak RSS per column`);
    assert.ok(large!.maxRss < 512 * MiB, `20,000 columns to ${format}: peak RSS ${(large!.maxRss / MiB).toFixed(0)} MiB`);
  });
}

test('one row of 50,000 columns to Parquet and back under ulimit -n 256, the write in 100 MiB and 5 KiB a column', { timeout: 300_000 }, (t) => {
  // Before: 525 MiB for the write (V8 let the writers' garbage and the footer's objects reach twice the live heap at close),
  // and reading the file back overflowed the stack (a compiled row builder of four locals a column).
  const r = wide(50_000, 'parquet');
  t.diagnostic(`50,000 columns: the write peaks at ${(r.writeRss / MiB).toFixed(0)} MiB`);
  assert.ok(r.same, 'the row read back differs');
  // 407 MiB before the column writers lost a closure and a key object a column and the close most of its comparators' garbage, 356 after;
  // 378-381 MiB (two runs) before the CSV readers were shared by type and a chunk's flush stopped building lists, maps and copies
  // of its bounds it did not need (562 to 326 MiB allocated at close), 309 after.
  assert.ok(r.writeRss < 100 * MiB + 50_000 * 5 * KiB, `peak RSS of the write ${(r.writeRss / MiB).toFixed(0)} MiB`);
});

test('one row of 50,000 columns to Parquet in a heap of 160 MiB, and DuckDB reads the row back', { timeout: 300_000 }, async () => {
  // The write's live heap peaks as close() starts (the schema and every column writer); the footer's column
  // chunks, once a graph of objects held until the end, are kept encoded (120 MiB of heap are enough now, 130 were before
  // the CSV readers were shared by type; 110 are not).
  const dir = mkdtempSync(join(tmpdir(), 'wide-duck-'));
  const duck = await Duck.create();
  try {
    wide(50_000, 'parquet', 160, dir);
    const file = sqlString(join(dir, 'out.parquet'));
    const [meta] = await duck.objects(`SELECT count(*) AS columns, count(DISTINCT row_group_id) AS groups FROM parquet_metadata(${file})`);
    assert.deepEqual(meta, { columns: '50000', groups: '1' });
    // 250 columns across the width, strings and integers (DuckDB takes minutes to bind all 50,000): the CSV row's cells.
    const picked = Array.from({ length: 250 }, (_, k) => k * 200 + (k % 3));
    const { rows } = await duck.rows(`SELECT ${picked.map((i) => `CAST(c${i} AS VARCHAR)`).join(', ')} FROM read_parquet(${file})`);
    assert.deepEqual(rows, [picked.map((i) => (i % 3 === 0 ? `s${i}` : String(i)))]);
  } finally {
    duck.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
