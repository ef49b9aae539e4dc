/**
 * The CLI's default threads for a conversion (src/node/convert-threads.ts):
 * two only for a large CSV or TSV file to Parquet while a second core is
 * idle, read from the machine the choice is given.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSV_TWO_THREADS_FROM, cgroupQuota, defaultConvertThreads, spareCore, type MachineLoad } from '../../src/node/convert-threads.js';

const machine = (cores: number, runnable: number[] | undefined, load = 0): MachineLoad => ({ cores: () => cores, runnable: async () => runnable, load: () => load });

test('a spare core: fewer runnable tasks than cores at one reading at least, else by the load average', () => {
  assert.equal(spareCore(2, [1, 1, 1], 5), true, 'the instant readings win over the minute');
  assert.equal(spareCore(2, [2, 1, 3], 0), true, 'one reading caught this process alone');
  assert.equal(spareCore(2, [2, 2, 3], 0), false, 'another task held the other core at every reading');
  assert.equal(spareCore(4, [3, 3, 3], 0), true);
  assert.equal(spareCore(1, [1, 1, 1], 0), false, 'one core has none to spare');
  assert.equal(spareCore(2, undefined, 0.9), true);
  assert.equal(spareCore(2, undefined, 1.2), false);
});

test('two threads only for a CSV or TSV file of CSV_TWO_THREADS_FROM bytes or more to Parquet, with a core spare', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-threads-'));
  try {
    const big = join(dir, 'big.csv');
    writeFileSync(big, 'a\n1\n');
    truncateSync(big, CSV_TWO_THREADS_FROM); // sparse: only its size is read
    const small = join(dir, 'small.csv');
    writeFileSync(small, 'a\n1\n');
    const idle = machine(2, [1, 1, 1]);
    const busy = machine(2, [3, 2, 4]);
    assert.equal(await defaultConvertThreads({ from: 'csv', to: 'parquet', path: big }, idle), 2);
    assert.equal(await defaultConvertThreads({ from: 'tsv', to: 'parquet', path: big }, idle), 2);
    assert.equal(await defaultConvertThreads({ from: 'csv', to: 'parquet', path: big }, busy), 1);
    assert.equal(await defaultConvertThreads({ from: 'csv', to: 'parquet', path: small }, idle), 1);
    assert.equal(await defaultConvertThreads({ from: 'jsonl', to: 'parquet', path: big }, idle), 1);
    assert.equal(await defaultConvertThreads({ from: 'csv', to: 'trevni', path: big }, idle), 1);
    assert.equal(await defaultConvertThreads({ from: 'parquet', to: 'csv', path: big }, idle), 1);
    assert.equal(await defaultConvertThreads({ from: 'csv', to: 'parquet', path: '-' }, idle), 1);
    assert.equal(await defaultConvertThreads({ from: 'csv', to: 'parquet', path: join(dir, 'absent.csv') }, idle), 1);
    assert.equal(await defaultConvertThreads({ from: 'csv', to: 'parquet', path: dir }, idle), 1, 'a directory');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a container's CPU quota, from cgroup v2's cpu.max or v1's CFS quota and period", () => {
  const files = (f: Record<string, string>) => (path: string) => f[path];
  assert.equal(cgroupQuota(files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' })), 1.5);
  assert.equal(cgroupQuota(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' })), undefined);
  assert.equal(cgroupQuota(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '200000\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' })), 2);
  assert.equal(cgroupQuota(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' })), undefined);
  assert.equal(cgroupQuota(files({})), undefined, 'not Linux, or no cgroup');
});
