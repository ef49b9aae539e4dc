import { CorruptFileError } from '../../src/errors.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from '../../src/checksum/crc32.js';
import { getCodec, loadCodec } from '../../src/codecs/index.js';
import { nodeBrotli, nodeGzip, registerNodeCodecs } from '../../src/node/codecs.js';
import { ascii, nodeZstd, portableZstd, randomBytes } from './fixtures.js';

test('the portable BROTLI codec loads in Node too (its wasm is embedded) and agrees with zlib', async () => {
  const portable = await loadCodec('BROTLI');
  assert.notEqual(portable, nodeBrotli);
  const data = randomBytes(10000, 5);
  assert.deepEqual(nodeBrotli.decompress(portable.compress(data), data.length), data);
  assert.deepEqual(portable.decompress(nodeBrotli.compress(data), data.length), data);
});

test('without WebAssembly, wasm codecs and bloom filters fail at once with an UnsupportedError saying what to do, and SNAPPY works', () => {
  // node --jitless has no WebAssembly, as a page whose Content-Security-Policy refuses it (test/browser/ covers that).
  const script = `
    const { loadCodec } = await import('./src/codecs/registry.ts');
    const { loadBloomHasher } = await import('./src/parquet/bloom/hash.ts');
    const out = [];
    for (const load of [() => loadCodec('ZSTD'), () => loadCodec('BROTLI'), loadBloomHasher]) {
      out.push(await load().then(() => 'loaded', (e) => e.name + ': ' + e.message));
    }
    const snappy = await loadCodec('SNAPPY');
    const text = new TextEncoder().encode('no wasm '.repeat(100));
    out.push(new TextDecoder().decode(snappy.decompress(snappy.compress(text), text.length)) === 'no wasm '.repeat(100));
    console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--jitless', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const [zstd, brotli, bloom, snappy] = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as [string, string, string, boolean];
  assert.equal(snappy, true);
  for (const [codec, message] of [['ZSTD', zstd], ['BROTLI', brotli]] as const) {
    assert.match(message!, new RegExp(`^UnsupportedError: ${codec} needs WebAssembly.*'wasm-unsafe-eval'.*registerCodec\\('${codec}'`));
  }
  assert.match(bloom!, /^UnsupportedError: bloom filters need WebAssembly.*'wasm-unsafe-eval'/);
});

test('registerNodeCodecs installs the native codecs and CRC-32', async () => {
  registerNodeCodecs();
  registerNodeCodecs();
  assert.equal(getCodec('GZIP'), nodeGzip);
  assert.equal(await loadCodec('BROTLI'), nodeBrotli);
  const zstd = await loadCodec('ZSTD');
  const data = randomBytes(10000, 4);
  // zstd-napi when its native build loaded; else the portable wasm codec.
  assert.equal(zstd === portableZstd, !nodeZstd);
  assert.deepEqual(zstd.decompress(zstd.compress(data), data.length), data);
  assert.equal(crc32(ascii('123456789')), 0xcbf43926);
  assert.equal(crc32(data, 7), crc32(data.subarray(5000), crc32(data.subarray(0, 5000), 7)));
});

test('without zstd-napi\'s native binding, ZSTD falls back to the wasm codec, both directions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-'));
  const blocker = join(dir, 'block-zstd.cjs');
  writeFileSync(
    blocker,
    `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request.startsWith('zstd-napi')) throw new Error('binding missing');
  return load.call(this, request, ...rest);
};`,
  );
  const script = `
    const { registerNodeCodecs } = await import(${JSON.stringify(new URL('../../src/node/codecs.ts', import.meta.url).href)});
    const { loadCodec } = await import(${JSON.stringify(new URL('../../src/codecs/index.ts', import.meta.url).href)});
    const portable = await (await import(${JSON.stringify(new URL('../../src/codecs/zstd.ts', import.meta.url).href)})).zstd;
    registerNodeCodecs();
    const zstd = await loadCodec('ZSTD');
    const frame = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x05, 0x2b, 0x00, 0x00, 0x78]);
    const data = new TextEncoder().encode('round trip '.repeat(100));
    const back = zstd.decompress(zstd.compress(data, 9), data.length);
    console.log(new TextDecoder().decode(zstd.decompress(frame, 5)), zstd === portable, new TextDecoder().decode(back) === 'round trip '.repeat(100));`;
  const r = spawnSync(process.execPath, ['--require', blocker, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'xxxxx true true');
});

test('native snappy: round trip, cross-checked with the portable codec, and typed errors on bad input', async () => {
  const { createNodeSnappy } = await import('../../src/node/snappy.js');
  const portable = await (await import('../../src/codecs/snappy.js')).loadSnappy();
  const native = createNodeSnappy();
  assert.ok(native, 'the snappy package has a binary for this platform');
  const data = new TextEncoder().encode('abcabcabc-'.repeat(5000) + 'tail');
  assert.deepEqual(native.decompress(portable.compress(data), data.length), data);
  assert.deepEqual(portable.decompress(native.compress(data), data.length), data);
  const c = native.compress(data);
  assert.throws(() => native.decompress(c, data.length + 1), (e: unknown) => e instanceof CorruptFileError);
  // A preamble claiming 4 GiB must be refused before anything is allocated.
  assert.throws(() => native.decompress(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f, 0, 1, 2), 10), (e: unknown) => e instanceof CorruptFileError);
  const garbage = Uint8Array.of(10, 0xfe, 0xff, 0xff, 0xff, 1, 2);
  assert.throws(() => native.decompress(garbage, 10), (e: unknown) => e instanceof CorruptFileError);
});
