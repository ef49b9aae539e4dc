/**
 * docs/cli-reference.md is what scripts/cli-reference.ts generates from the
 * command definitions today: a command or option added, changed or removed
 * without `npm run docs:cli` fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { REFERENCE, cliReference } from '../../scripts/cli-reference.js';

test('docs/cli-reference.md is up to date with the command definitions (npm run docs:cli)', async () => {
  const generated = await cliReference();
  assert.match(generated, /^## convert$/m, 'the generated reference has the convert command');
  assert.ok(readFileSync(REFERENCE, 'utf8') === generated, 'docs/cli-reference.md is stale: run npm run docs:cli');
});
