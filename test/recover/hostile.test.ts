/**
 * The salvage read on the shared hostile inputs and fuzz reproducers: each
 * ends in a report or a typed error, in bounded time and memory (each file
 * in a child process with a heap cap and a time limit).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { scriptArgs } from '../cli/bin.js';

const DIRS = [join('..', 'shared', 'fuzz', 'hostile'), join('..', 'shared', 'fuzz', 'repro')];

/** Runs hostile-check.ts over the files of DIRS ending in `ext`, in a child process with a 512 MB heap and a time limit. */
function checkAll(ext: string): void {
  const files = DIRS.flatMap((d) => readdirSync(d).filter((n) => n.endsWith(ext)).map((n) => join(d, n)));
  assert.ok(files.length > 10);
  const r = spawnSync(process.execPath, ['--max-old-space-size=512', ...scriptArgs('./hostile-check.ts', import.meta.url), ...files], { encoding: 'utf8', timeout: 580_000 });
  assert.equal(r.status, 0, `${r.stderr}\n${r.stdout.slice(-4000)}`);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, files.length);
  for (const l of lines) assert.match(l, /\t(report|ParquetryError)\t/, l);
}

it('check on every hostile Parquet input: a report or a typed error, within a 512 MB heap and a time limit', { timeout: 600_000 }, () => checkAll('.parquet'));

it('recover on every hostile Trevni input: a report or a typed error, within a 512 MB heap and a time limit', { timeout: 600_000 }, () => checkAll('.trv'));
