/**
 * The worker pool under both conversions (src/node/worker-pool.ts): a job a
 * worker fails rejects with the worker's error, a thread that ends with jobs
 * unanswered rejects them with an IOError, and an idle pool never keeps the
 * process alive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { IOError } from '../../src/errors.js';
import { startPool } from '../../src/node/worker-pool.js';
import type { TextPieceSetup } from '../../src/convert/text-columns.js';

const form = { format: 'csv' as const, delimiter: ',' };

test('a job the worker fails rejects with its error, on every thread, and the pool still closes', { timeout: 60_000 }, async () => {
  const pool = startPool('text-worker', 2);
  // A setup the worker cannot begin with: no leaf to write.
  const setup: TextPieceSetup = { schema: [{ name: 'root', numChildren: 0 }], leaves: [], form };
  pool.setup(setup);
  const jobs = [1, 2, 3].map((i) => pool.run({ rowGroup: 0, rows: i, from: 0, to: i, chunks: [] }));
  const answers = await Promise.allSettled(jobs);
  for (const a of answers) assert.match(a.status === 'rejected' ? String((a.reason as Error).message) : 'answered', /a text piece of a file its rows are read as objects for/);
  await pool.close();
});

test('a thread ended with a job unanswered rejects it with an IOError', { timeout: 60_000 }, async () => {
  const pool = startPool('csv-worker', 1);
  // No setup comes: the job waits for it, and the thread is ended under it.
  const job = pool.run({ read: {} });
  await pool.close();
  await assert.rejects(job, (e) => e instanceof IOError && /exited/.test(e.message));
});

test('an idle pool left open does not keep the process alive', { timeout: 60_000 }, () => {
  const here = fileURLToPath(new URL('../../src/node/worker-pool.js', import.meta.url));
  const script = `const { startPool } = await import(${JSON.stringify(here)}); startPool('csv-worker', 2); startPool('text-worker', 1).setup({});`;
  const run = spawnSync(process.execPath, [...process.execArgv, '--input-type=module', '-e', script], { timeout: 30_000, encoding: 'utf8' });
  assert.equal(run.error, undefined, 'the process ended by itself');
  assert.equal(run.status, 0, run.stderr);
});
