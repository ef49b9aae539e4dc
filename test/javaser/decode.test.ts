/**
 * The decoder's compact tree read back against the values the encoder was
 * given: primitive arrays of every type as typed arrays (big-endian on the
 * wire), longs as numbers exactly when they are safe integers, fields in
 * declared order (a subclass's after its superclass's, found by name).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJavaStream, fieldValue, type ClassDesc, type JavaArray, type JavaObject, type PrimitiveItems } from '../../src/javaser/decode.js';
import { encodeJavaStream, type EncodableValue } from '../../src/javaser/encode.js';

const arrayClass = (code: string): ClassDesc => ({ t: 'class', name: `[${code}`, suid: 1n, flags: 2, fields: [], superDesc: null });

test('primitive arrays decode to typed arrays of the values written', () => {
  const cases: [string, EncodableValue[], PrimitiveItems][] = [
    ['B', [-128, -1, 0, 1, 127], Int8Array.of(-128, -1, 0, 1, 127)],
    ['Z', [true, false, true], Uint8Array.of(1, 0, 1)],
    ['C', [0, 0x41, 0xffff], Uint16Array.of(0, 0x41, 0xffff)],
    ['S', [-32768, -1, 32767], Int16Array.of(-32768, -1, 32767)],
    ['I', [-(2 ** 31), -1, 2 ** 31 - 1], Int32Array.of(-(2 ** 31), -1, 2 ** 31 - 1)],
    ['J', [-(2n ** 63n), -1n, 2n ** 63n - 1n], BigInt64Array.of(-(2n ** 63n), -1n, 2n ** 63n - 1n)],
    ['F', [-1.5, 0, 3.25, Infinity], Float32Array.of(-1.5, 0, 3.25, Infinity)],
    ['D', [-0.1, 0, Math.PI, -Infinity], Float64Array.of(-0.1, 0, Math.PI, -Infinity)],
  ];
  for (const [code, values, expected] of cases) {
    const cls = arrayClass(code);
    const decoded = decodeJavaStream(encodeJavaStream({ t: 'array', cls, items: values }), { classes: new Set([cls.name]) }) as JavaArray;
    assert.deepEqual(decoded.items, expected, code);
    assert.equal(decoded.expansion, 1 + values.length, code);
  }
});

test('a long is a number when it is a safe integer, else a bigint; fields are found by name through the superclass', () => {
  const base: ClassDesc = { t: 'class', name: 'Base', suid: 1n, flags: 2, fields: [{ code: 'J', name: 'x' }, { code: 'I', name: 'y' }], superDesc: null };
  const sub: ClassDesc = { t: 'class', name: 'Sub', suid: 1n, flags: 2, fields: [{ code: 'J', name: 'x' }, { code: 'J', name: 'z' }], superDesc: base };
  const longs = [2n ** 53n - 1n, -(2n ** 53n) + 1n, 2n ** 53n, -(2n ** 63n)];
  for (const x of longs) {
    const bytes = encodeJavaStream({ t: 'object', cls: sub, fields: new Map<string, EncodableValue>([['x', x], ['y', 7], ['z', x / 3n]]), annotation: [] });
    const o = decodeJavaStream(bytes, { classes: new Set(['Base', 'Sub']) }) as JavaObject;
    const exact = (v: bigint) => (v >= -(2n ** 53n) + 1n && v <= 2n ** 53n - 1n ? Number(v) : v);
    // Both classes' x hold the one value the encoder was given by name; by name, the subclass's is found.
    assert.deepEqual(o.values, [exact(x), 7, exact(x), exact(x / 3n)]);
    assert.equal(fieldValue(o, 'x'), exact(x));
    assert.equal(fieldValue(o, 'y'), 7);
    assert.equal(fieldValue(o, 'missing'), undefined);
    assert.deepEqual(encodeJavaStream(o), bytes, 'a decoded object is written back as it was read');
  }
});
