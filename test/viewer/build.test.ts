/**
 * Building the viewer page while it is served: test files that build it
 * (test/cli/view.test.ts, test/browser/viewer.test.ts) run side by side
 * with others serving it, so a build swaps the new page in whole and the
 * served one is never missing meanwhile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const PAGE = join('viewer', 'dist', 'index.html');
const SCRIPT = join('viewer', 'dist', 'js', 'main.js');

test('the page is there throughout a rebuild', async () => {
  const first = spawnSync(process.execPath, ['scripts/build-viewer.mjs'], { encoding: 'utf8' });
  assert.equal(first.status, 0, first.stderr);
  const child = spawn(process.execPath, ['scripts/build-viewer.mjs'], { stdio: 'inherit' });
  let polls = 0;
  let missing = 0;
  let done = false;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => {
    done = true;
    resolve(code);
  }));
  while (!done) {
    polls++;
    if (!existsSync(PAGE) || !existsSync(SCRIPT)) missing++;
    await new Promise((r) => setTimeout(r, 2));
  }
  assert.equal(await exited, 0);
  assert.ok(polls > 10, `${polls} polls during the build`);
  assert.equal(missing, 0, `the page was missing at ${missing} of ${polls} polls`);
});
