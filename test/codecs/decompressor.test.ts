/**
 * A read loads a codec's decompressor alone where that is a module of its
 * own (SNAPPY: the compressor stays unloaded), and a write then loads
 * the whole codec. One process, so the order of the steps is the test's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../src/errors.js';
import { getCodec, loadCodec, loadDecompressor } from '../../src/codecs/registry.js';
import { loadSnappy } from '../../src/codecs/snappy.js';

const text = new TextEncoder().encode('snappy snappy snappy snappy, a block that compresses');
const block = (await loadSnappy()).compress(text);

test('a decompressor alone decompresses, refuses to compress, and gives way to the whole codec once loaded', async () => {
  const reading = await loadDecompressor('SNAPPY');
  assert.deepEqual(reading.decompress(block, text.length), text);
  assert.equal(getCodec('SNAPPY'), reading);
  assert.throws(() => getCodec('SNAPPY').compress(text), InvalidArgumentError);
  const writing = await loadCodec('SNAPPY');
  assert.notEqual(writing, reading);
  assert.equal(getCodec('SNAPPY'), writing);
  assert.deepEqual(writing.decompress(writing.compress(text), text.length), text);
  assert.equal(await loadDecompressor('SNAPPY'), writing);
});

test('a codec whose decompressor is not apart loads whole for a read', async () => {
  const gzip = await loadDecompressor('GZIP');
  assert.equal(gzip, await loadCodec('GZIP'));
  assert.deepEqual(gzip.decompress(gzip.compress(text), text.length), text);
});
