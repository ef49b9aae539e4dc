/** The wasm embedded in src/codecs/wasm/ is what the installed packages ship (scripts/embed-wasm.mjs). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

test('src/codecs/wasm/ matches the installed @bokuweb/zstd-wasm and brotli-wasm', () => {
  const check = spawnSync(process.execPath, ['scripts/embed-wasm.mjs', '--check'], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
});
