import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { CorruptFileError } from '../../src/errors.js';
import { nodeBrotli } from '../../src/node/codecs.js';
import { ascii, portableBrotli, randomBytes, repetitiveBytes } from './fixtures.js';

const corrupt = (e: unknown) => e instanceof CorruptFileError;
const both = [
  ['brotli-wasm', portableBrotli],
  ['node:zlib', nodeBrotli],
] as const;

test('BROTLI: wasm and zlib read each other', () => {
  const data = Uint8Array.from([...repetitiveBytes(30000), ...randomBytes(3000, 6)]);
  for (const quality of [0, 5, 11]) {
    assert.deepEqual(nodeBrotli.decompress(portableBrotli.compress(data, quality), data.length), data);
    assert.deepEqual(portableBrotli.decompress(nodeBrotli.compress(data, quality), data.length), data);
  }
  assert.throws(() => portableBrotli.compress(data, 12), /BROTLI compression level/);
});

test('BROTLI: the empty stream, trailing bytes, a truncated stream, more or less output than declared', () => {
  const empty = zlib.brotliCompressSync(new Uint8Array(0));
  const data = repetitiveBytes(100000);
  const full = zlib.brotliCompressSync(data);
  for (const [name, codec] of both) {
    assert.deepEqual(codec.decompress(empty, 0), new Uint8Array(0), name);
    assert.throws(() => codec.decompress(full.subarray(0, full.length - 3), data.length), corrupt, `${name} truncated`);
    assert.deepEqual(codec.decompress(Uint8Array.from([...full, 1, 2, 3]), data.length), data, `${name} trailing`);
    assert.throws(() => codec.decompress(full, data.length - 1), corrupt, `${name} longer`);
    assert.throws(() => codec.decompress(full, data.length + 1), corrupt, `${name} shorter`);
    assert.throws(() => codec.decompress(ascii('not brotli at all'), 100), corrupt, `${name} garbage`);
  }
});

test('BROTLI: a bomb stops at the declared size', () => {
  const bomb = zlib.brotliCompressSync(new Uint8Array(16 << 20), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
  assert.ok(bomb.length < 100);
  for (const [name, codec] of both) assert.throws(() => codec.decompress(bomb, 1000), corrupt, name);
});
