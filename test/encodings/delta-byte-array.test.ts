import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { CorruptFileError, InvalidArgumentError } from '../../src/errors.js';
import { encodeDeltaInt32 } from '../../src/encodings/delta-binary-packed.js';
import { decodeDeltaByteArray, encodeDeltaByteArray } from '../../src/encodings/delta-byte-array.js';
import { encodeDeltaLengthByteArray } from '../../src/encodings/delta-length-byte-array.js';
import { ascii, strings, texts } from './ascii-arrays.js';

function encode(s: string[]): number[] {
  const w = new ByteWriter();
  encodeDeltaByteArray(w, strings(s));
  return [...w.finish()];
}

/** Hand-built streams: prefix lengths, then suffixes. */
function stream(prefixes: number[], suffixes: string[]): ByteCursor {
  const w = new ByteWriter();
  encodeDeltaInt32(w, Int32Array.from(prefixes));
  encodeDeltaLengthByteArray(w, strings(suffixes));
  return new ByteCursor(w.finish().slice());
}

test('spec example: axis, axle, babble, babyhood', () => {
  // prefix lengths 0,2,0,3: header 80 01 04 04 00; deltas 2,-2,3, min -2 -> 03; relative 4,0,5 at 3 bits:
  // widths 03 00 00 00; miniblock 12 bytes: 4 | 0 << 3 | 5 << 6 = 0x144 -> 44 01, then zeros
  const prefixes = [0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00, 0x44, 0x01, ...new Array(10).fill(0)];
  // suffix lengths 4,2,6,5: header 80 01 04 04 08; deltas -2,4,-1, min -2 -> 03; relative 0,6,1 at 3 bits:
  // 0 | 6 << 3 | 1 << 6 = 0x70, then zeros
  const lengths = [0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0x00, 0x00, 0x00, 0x70, ...new Array(11).fill(0)];
  const bytes = [...prefixes, ...lengths, ...ascii('axislebabbleyhood')];
  const values = ['axis', 'axle', 'babble', 'babyhood'];
  assert.deepEqual(encode(values), bytes);
  const c = new ByteCursor(Uint8Array.from([...bytes, 0xee]));
  const v = decodeDeltaByteArray(c, 4);
  assert.deepEqual(texts(v), values);
  assert.deepEqual([...v.offsets], [0, 4, 8, 14, 22]);
  assert.equal(c.pos, bytes.length);
});

test('FIXED_LEN_BYTE_ARRAY: every value must have the type length', () => {
  const values = ['abcd', 'abce', 'zzzz', 'zzzz'];
  assert.deepEqual(texts(decodeDeltaByteArray(new ByteCursor(Uint8Array.from(encode(values))), 4, 4)), values);
  assert.throws(
    () => decodeDeltaByteArray(new ByteCursor(Uint8Array.from(encode(['abcd', 'abc']))), 2, 4),
    (e: unknown) => e instanceof CorruptFileError && /value 1 has 3 bytes where the type has 4/.test(e.message),
  );
});

test('long shared prefixes, empty values, no values', () => {
  const long = 'p'.repeat(100);
  const values = [long + 'a', long + 'b', long, '', 'x', long + long];
  assert.deepEqual(texts(decodeDeltaByteArray(new ByteCursor(Uint8Array.from(encode(values))), values.length)), values);
  assert.deepEqual(texts(decodeDeltaByteArray(new ByteCursor(Uint8Array.from(encode([]))), 0)), []);
  assert.throws(() => encodeDeltaByteArray(new ByteWriter(), { data: new Uint8Array(9), offsets: Int32Array.of(0, 5, 2) }), InvalidArgumentError);
});

test('round trips', () => {
  const word = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'b', 'c') });
  fc.assert(
    fc.property(fc.array(word, { maxLength: 300 }), (s) => {
      s.sort();
      const bytes = Uint8Array.from(encode(s));
      const c = new ByteCursor(bytes);
      assert.deepEqual(texts(decodeDeltaByteArray(c, s.length)), s);
      assert.equal(c.pos, bytes.length);
    }),
  );
});

test('a prefix longer than the value before it is corrupt', () => {
  assert.deepEqual(texts(decodeDeltaByteArray(stream([0, 2], ['abc', 'z']), 2)), ['abc', 'abz']);
  const bad = (e: unknown) => e instanceof CorruptFileError && /shares/.test(e.message);
  assert.throws(() => decodeDeltaByteArray(stream([1, 0], ['abc', 'z']), 2), bad);
  assert.throws(() => decodeDeltaByteArray(stream([0, 4], ['abc', 'z']), 2), bad);
  assert.throws(() => decodeDeltaByteArray(stream([0, -1], ['abc', 'z']), 2), bad);
  assert.throws(() => decodeDeltaByteArray(stream([0, 0], ['abc']), 2), CorruptFileError);
});
