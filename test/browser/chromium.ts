/**
 * Where Debian's Chromium is, for the browser tests. Without it a local run
 * skips them with the reason; CI (CI=true, where .ci/run installs Chromium)
 * fails instead, so a broken install step cannot pass as skipped tests.
 */
import { spawnSync } from 'node:child_process';

function find(): string | undefined {
  const which = spawnSync('which', ['chromium'], { encoding: 'utf8' });
  const path = which.stdout?.trim();
  return which.status === 0 && path ? path : undefined;
}

const MISSING = 'no chromium on PATH: the browser tests need Debian Chromium (apt-get install -y chromium; .ci/run installs it)';

/** Chromium's path, or undefined where the tests are to be skipped. */
export const chromiumPath = find();
if (!chromiumPath && process.env.CI) throw new Error(`${MISSING}, and CI must run them`);

/** The `skip` option of every browser test: false, or why it is skipped. */
export const skipWithoutChromium: false | string = chromiumPath ? false : MISSING;
