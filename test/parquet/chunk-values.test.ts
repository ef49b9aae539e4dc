import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteWriter } from '../../src/bytes/writer.js';
import { encodeDictionaryIndices } from '../../src/encodings/rle-encode.js';
import { CorruptFileError } from '../../src/errors.js';
import { ChunkValues } from '../../src/parquet/chunk-values.js';
import { buildSchema } from '../../src/schema/tree.js';

const leaf = buildSchema([
  { name: 'root', numChildren: 1 },
  { name: 'x', type: 'DOUBLE', repetitionType: 'OPTIONAL' },
]).leaves[0]!;

function indexPage(indices: number[]): Uint8Array {
  const w = new ByteWriter();
  encodeDictionaryIndices(w, indices, 4);
  return w.finish();
}

const plainPage = (values: number[]) => new Uint8Array(Float64Array.from(values).buffer);

test('pages of dictionary indices gather into one index vector, growing past a short size estimate', () => {
  const v = new ChunkValues(leaf);
  const first = indexPage([0, 1, 2]);
  v.add('RLE_DICTIONARY', first, 0, first.length, 3, 1, true, false);
  const second = indexPage([2, 2, 1, 0, 0]);
  v.add('PLAIN_DICTIONARY', second, 0, second.length, 5, 1, true, false);
  const out = v.finish(Float64Array.of(1.5, 2.5, 3.5));
  assert.equal(out.values, null);
  assert.deepEqual([...out.indices!], [0, 1, 2, 2, 2, 1, 0, 0]);
});

test('a chunk that falls back from its dictionary to PLAIN pages reads as dense values in page order', () => {
  const v = new ChunkValues(leaf);
  const first = indexPage([1, 0]);
  v.add('RLE_DICTIONARY', first, 0, first.length, 2, 100, true, false);
  const plain = plainPage([7, 8, 9]);
  v.add('PLAIN', plain, 0, plain.length, 2, 98, true, false); // a page may hold more bytes than its values need
  v.add('PLAIN', plain, 8, plain.length, 2, 96, true, false);
  const last = indexPage([0]);
  v.add('RLE_DICTIONARY', last, 0, last.length, 1, 94, true, false);
  const out = v.finish(Float64Array.of(-1, -2));
  assert.equal(out.indices, null);
  assert.deepEqual([...(out.values as Float64Array)], [-2, -1, 7, 8, 8, 9, -1]);
});

test('a PLAIN page too short for its values, and indices outside the dictionary, are corrupt', () => {
  const v = new ChunkValues(leaf);
  assert.throws(() => v.add('PLAIN', plainPage([1, 2]), 0, 16, 3, 3, false, false), CorruptFileError);
  const w = new ChunkValues(leaf);
  const page = indexPage([0, 3]);
  w.add('RLE_DICTIONARY', page, 0, page.length, 2, 2, true, false);
  assert.throws(() => w.finish(Float64Array.of(1, 2)), /dictionary index 3 is outside the 2-entry dictionary/);
  assert.throws(() => new ChunkValues(leaf).add('RLE_DICTIONARY', page, 0, page.length, 2, 2, false, false), /no dictionary page/);
});

test('a decompressed page holding the whole chunk is viewed in place, moved back to an alignment when the levels before it leave room, else copied', () => {
  const page = new Uint8Array(8 + 24);
  new Float64Array(page.buffer, 8, 3).set([1.5, -2, 3]);
  const whole = new ChunkValues(leaf);
  whole.add('PLAIN', page, 8, page.length, 3, 3, false, true);
  const viewed = whole.finish(null).values as Float64Array;
  assert.deepEqual([...viewed], [1.5, -2, 3]);
  assert.equal(viewed.buffer, page.buffer, 'owned and aligned: a view');

  for (const levels of [1, 4, 7, 13]) {
    const shifted = new Uint8Array(levels + 24);
    shifted.set(page.subarray(8), levels);
    const odd = new ChunkValues(leaf);
    odd.add('PLAIN', shifted, levels, shifted.length, 3, 3, false, true);
    const moved = odd.finish(null).values as Float64Array;
    assert.deepEqual([...moved], [1.5, -2, 3]);
    assert.equal(moved.buffer, shifted.buffer, `values after ${levels} level bytes: moved back in the page`);
  }

  const unaligned = new Uint8Array(new ArrayBuffer(3 + 24), 3);
  unaligned.set(page.subarray(8));
  const noRoom = new ChunkValues(leaf);
  noRoom.add('PLAIN', unaligned, 0, unaligned.length, 3, 3, false, true);
  const copied = noRoom.finish(null).values as Float64Array;
  assert.deepEqual([...copied], [1.5, -2, 3]);
  assert.notEqual(copied.buffer, unaligned.buffer, 'misaligned with nothing before the values: copied');

  const borrowed = new ChunkValues(leaf);
  borrowed.add('PLAIN', page, 8, page.length, 3, 3, false, false);
  assert.notEqual((borrowed.finish(null).values as Float64Array).buffer, page.buffer, 'not owned (the file bytes): copied');

  const firstOfTwo = new ChunkValues(leaf);
  firstOfTwo.add('PLAIN', page, 8, page.length, 3, 6, false, true);
  firstOfTwo.add('PLAIN', page, 8, page.length, 3, 3, false, true);
  assert.deepEqual([...(firstOfTwo.finish(null).values as Float64Array)], [1.5, -2, 3, 1.5, -2, 3]);
});
