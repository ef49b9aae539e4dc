import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { CorruptFileError, InvalidArgumentError } from '../../src/errors.js';
import { encodeDeltaInt32 } from '../../src/encodings/delta-binary-packed.js';
import { decodeDeltaLengthByteArray, encodeDeltaLengthByteArray } from '../../src/encodings/delta-length-byte-array.js';
import { ascii, strings, texts } from './ascii-arrays.js';

function encode(s: string[]): number[] {
  const w = new ByteWriter();
  encodeDeltaLengthByteArray(w, strings(s));
  return [...w.finish()];
}

test('spec example: Hello, World, Foobar, ABCDEF', () => {
  // lengths 5,5,6,6: header 80 01 04 04, first 5 -> zig-zag 0A; deltas 0,1,0, min 0 -> 00;
  // relative 0,1,0 at 1 bit: widths 01 00 00 00; 32 bits of miniblock: 0x02 00 00 00
  const bytes = [0x80, 0x01, 0x04, 0x04, 0x0a, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, ...ascii('HelloWorldFoobarABCDEF')];
  assert.deepEqual(encode(['Hello', 'World', 'Foobar', 'ABCDEF']), bytes);
  const c = new ByteCursor(Uint8Array.from([...bytes, 0xee]));
  const v = decodeDeltaLengthByteArray(c, 4);
  assert.deepEqual(texts(v), ['Hello', 'World', 'Foobar', 'ABCDEF']);
  assert.deepEqual([...v.offsets], [0, 5, 10, 16, 22]);
  assert.equal(c.pos, bytes.length);
});

test('empty values, no values, and a view whose offsets start later', () => {
  assert.deepEqual(texts(decodeDeltaLengthByteArray(new ByteCursor(Uint8Array.from(encode(['', '', 'a', '']))), 4)), ['', '', 'a', '']);
  assert.deepEqual(texts(decodeDeltaLengthByteArray(new ByteCursor(Uint8Array.from(encode([]))), 0)), []);
  const w = new ByteWriter();
  encodeDeltaLengthByteArray(w, { data: Uint8Array.from(ascii('__abc')), offsets: Int32Array.of(2, 3, 5) });
  assert.deepEqual(texts(decodeDeltaLengthByteArray(new ByteCursor(w.finish()), 2)), ['a', 'bc']);
  assert.throws(() => encodeDeltaLengthByteArray(new ByteWriter(), { data: new Uint8Array(9), offsets: Int32Array.of(0, 5, 2) }), InvalidArgumentError);
});

test('round trips', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x00-\xff]/g, '?'))), (s) => {
      const bytes = Uint8Array.from(encode(s));
      const c = new ByteCursor(bytes);
      assert.deepEqual(texts(decodeDeltaLengthByteArray(c, s.length)), s);
      assert.equal(c.pos, bytes.length);
    }),
  );
});

test('negative lengths and lengths past the end are corrupt', () => {
  const lengths = (l: number[], tail: string) => {
    const w = new ByteWriter();
    encodeDeltaInt32(w, Int32Array.from(l));
    return new ByteCursor(Uint8Array.from([...w.finish(), ...ascii(tail)]));
  };
  assert.throws(() => decodeDeltaLengthByteArray(lengths([1, -1], 'ab'), 2), (e: unknown) => e instanceof CorruptFileError && /value 1 has negative length -1/.test(e.message));
  assert.throws(() => decodeDeltaLengthByteArray(lengths([2, 2], 'abc'), 2), (e: unknown) => e instanceof CorruptFileError && /add up past the 3 bytes/.test(e.message));
  assert.throws(() => decodeDeltaLengthByteArray(lengths([2 ** 31 - 1, 2 ** 31 - 1], 'abc'), 2), CorruptFileError);
  assert.throws(() => decodeDeltaLengthByteArray(lengths([1, 1], 'ab'), 3), CorruptFileError);
});
