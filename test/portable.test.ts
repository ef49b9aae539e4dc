/** The core must run in browsers: only the Node adapters and the CLI may import node: modules. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const NODE_ONLY = new Set(['src/node', 'src/cli']);

function sources(dir: string): string[] {
  if (NODE_ONLY.has(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('no node: imports outside src/node and src/cli', () => {
  const files = sources('src');
  assert.ok(files.length > 20);
  const offenders = files.filter((f) => /from\s+['"](node:|fs['"]|path['"]|zlib['"]|crypto['"])/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(offenders, []);
});
