/**
 * The API reference builds: TypeDoc over typedoc.json's entry points, with
 * its validation (an undocumented export, a `{@link}` to nothing) as errors,
 * emitting nothing. api-docs.test.ts finds an undocumented export in a
 * second by parsing; this is what `npm run docs` runs, so the reference
 * cannot fall behind the source unseen. Without TypeScript's own error
 * check (--skipErrorChecking): `npm test` type-checks src/ first (`npm run
 * typecheck`, tsconfig.json, of which tsconfig.build.json's program is a
 * part), and the check was 11 of TypeDoc's 18 CPU s here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

// The repository itself, not the suite's compiled tree (whose .ts files are links beside their .js).
const REPO = dirname(realpathSync(resolve(import.meta.dirname, '..', '..', 'typedoc.json')));

test('TypeDoc builds the API reference from the source with no warning (npm run docs)', { timeout: 600_000 }, () => {
  const r = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--emit', 'none', '--skipErrorChecking'], { cwd: REPO, encoding: 'utf8', timeout: 590_000 });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});
