import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidArgumentError, UnsupportedError } from '../../src/errors.js';
import { CODEC_NAMES, type Codec, type CodecName, getCodec, loadCodec, registerCodec } from '../../src/codecs/index.js';
import { ascii } from './fixtures.js';

const data = ascii('registry round trip, registry round trip');

test('getCodec refuses a codec that is not loaded yet', () => {
  assert.throws(() => getCodec('LZ4_RAW'), InvalidArgumentError);
});

test('loadCodec loads each portable codec once; getCodec is then synchronous', async () => {
  for (const name of CODEC_NAMES.filter((n) => n !== 'LZO')) {
    const [a, b] = await Promise.all([loadCodec(name), loadCodec(name)]);
    assert.equal(a, b, name);
    assert.equal(getCodec(name), a, name);
    assert.deepEqual(a.decompress(a.compress(data), data.length), data, name);
  }
});

test('LZO is unsupported, by name', async () => {
  await assert.rejects(loadCodec('LZO'), (e: unknown) => e instanceof UnsupportedError && /LZO compression is not supported/.test(e.message));
  assert.throws(() => getCodec('LZO'), UnsupportedError);
});

test('unknown names are InvalidArgumentError, prototype keys included', async () => {
  for (const name of ['BZIP2', '__proto__', 'constructor', 'snappy']) {
    await assert.rejects(loadCodec(name as CodecName), InvalidArgumentError);
    assert.throws(() => getCodec(name as CodecName), InvalidArgumentError);
    assert.throws(() => registerCodec(name as CodecName, getCodec('UNCOMPRESSED')), InvalidArgumentError);
  }
});

test('registerCodec replaces the implementation for later getCodec and loadCodec calls', async () => {
  const original = await loadCodec('SNAPPY');
  const stub: Codec = { decompress: () => ascii('stub'), compress: () => ascii('stub') };
  registerCodec('SNAPPY', stub);
  try {
    assert.equal(getCodec('SNAPPY'), stub);
    assert.equal(await loadCodec('SNAPPY'), stub);
  } finally {
    registerCodec('SNAPPY', original);
  }
});
