/**
 * Coercion of JS values to physical values: every kind round-trips through
 * the reader's conversion (src/schema/convert.ts valueReader), in its default
 * and opt-in forms, and every wrong value fails with a message naming the
 * column, what it expects and what it got.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../src/errors.js';
import { defineSchema, field as f, type AnyField } from '../../src/schema/builder.js';
import { describeValue, float16Bits, leafCoercer, parseDecimalText, twosComplementBytes, utf8Encode, type PhysicalValue } from '../../src/schema/coerce.js';
import { parseTimestamp } from '../../src/schema/temporal-text.js';
import { bigEndianSigned } from '../../src/schema/convert.js';
import { ExactNumber } from '../../src/schema/exact-number.js';
import { float16, valueReader, type ValueOptions } from '../../src/schema/convert.js';
import { buildSchema, type LeafNode, type SchemaElementLike } from '../../src/schema/tree.js';
import type { Values } from '../../src/encodings/types.js';

function leafOf(fb: AnyField, name = 'col'): LeafNode {
  return defineSchema([[name, fb]]).schema.leaves[0]!;
}

/** A leaf straight from SchemaElements (for shapes the builder refuses but files hold). */
function rawLeaf(el: SchemaElementLike): LeafNode {
  return buildSchema([{ name: 'schema', numChildren: 1 }, { repetitionType: 'OPTIONAL', ...el }]).leaves[0]!;
}

/** What the reader gives for one stored physical value. */
function readBack(leaf: LeafNode, p: PhysicalValue, opts: ValueOptions = {}): unknown {
  let values: Values;
  switch (leaf.physicalType) {
    case 'BOOLEAN': assert.equal(typeof p, 'boolean'); values = Uint8Array.of(p ? 1 : 0); break;
    case 'INT32': assert.equal(typeof p, 'number'); values = Int32Array.of(p as number); assert.equal(values[0], p, 'fits int32'); break;
    case 'INT64': assert.equal(typeof p, 'bigint'); values = BigInt64Array.of(p as bigint); assert.equal(values[0], p, 'fits int64'); break;
    case 'FLOAT': assert.equal(typeof p, 'number'); values = Float32Array.of(p as number); break;
    case 'DOUBLE': assert.equal(typeof p, 'number'); values = Float64Array.of(p as number); break;
    default: {
      assert.ok(p instanceof Uint8Array, 'bytes');
      if (leaf.typeLength !== undefined) assert.equal(p.length, leaf.typeLength, 'fixed width');
      values = { data: p, offsets: Int32Array.of(0, p.length) };
    }
  }
  return valueReader(leaf.kind, values, opts)(0);
}

/** coerce(v), read back, gives `expected` (default: v itself). */
function roundTrip(fb: AnyField | LeafNode, v: unknown, opts: ValueOptions = {}, expected: unknown = v): void {
  const leaf = 'spec' in fb ? leafOf(fb) : fb;
  const got = readBack(leaf, leafCoercer(leaf)(v), opts);
  if (typeof expected === 'number' && Number.isNaN(expected)) assert.ok(Number.isNaN(got as number));
  else assert.deepEqual(got, expected, `${describeValue(v)} through ${leaf.physicalType}`);
}

/** coerce(v) throws InvalidArgumentError for the column, and its message matches every pattern. */
function rejects(fb: AnyField | LeafNode, v: unknown, ...patterns: RegExp[]): void {
  const leaf = 'spec' in fb ? leafOf(fb) : fb;
  const coerce = leafCoercer(leaf);
  assert.throws(() => coerce(v), (e: unknown) => {
    assert.ok(e instanceof InvalidArgumentError, `InvalidArgumentError, not ${String(e)}`);
    assert.equal(e.context.column, leaf.path.join('.'));
    assert.ok(e.message.includes(`(column ${leaf.path.join('.')})`), e.message);
    assert.ok(e.message.includes('expected '), e.message);
    assert.ok(e.message.includes('got '), e.message);
    for (const p of patterns) assert.match(e.message, p);
    return true;
  });
}

describe('round trips through the reader', () => {
  test('BOOLEAN', () => {
    roundTrip(f.boolean(), true);
    roundTrip(f.boolean(), false);
  });

  test('INT32 and the 8/16/32-bit integers, signed and unsigned', () => {
    for (const v of [0, 1, -1, 2147483647, -2147483648]) roundTrip(f.int32(), v);
    for (const v of [-128, 127, 0]) roundTrip(f.int8(), v);
    for (const v of [-32768, 32767]) roundTrip(f.int16(), v);
    for (const v of [0, 255]) roundTrip(f.uint8(), v);
    for (const v of [0, 65535]) roundTrip(f.uint16(), v);
    for (const v of [0, 2147483648, 4294967295]) roundTrip(f.uint32(), v);
    // bigints are taken too
    roundTrip(f.int32(), -5n, {}, -5);
    roundTrip(f.uint32(), 4294967295n, {}, 4294967295);
    // the stored value of a UINT_32 above 2^31-1 is its bit pattern
    assert.equal(leafCoercer(leafOf(f.uint32()))(4294967295), -1);
    // -0 is 0
    assert.ok(Object.is(leafCoercer(leafOf(f.int32()))(-0), 0));
  });

  test('INT64, INT(64) and UINT_64, from bigint or safe-integer number', () => {
    for (const v of [0n, -(2n ** 63n), 2n ** 63n - 1n, 42n]) roundTrip(f.int64(), v);
    roundTrip(f.int64(), 2 ** 53 - 1, {}, 2n ** 53n - 1n);
    roundTrip(f.int64(), -(2 ** 53 - 1), { int64: 'number' }, -(2 ** 53 - 1));
    roundTrip(f.integer(64), -7n);
    for (const v of [0n, 2n ** 63n, 2n ** 64n - 1n]) roundTrip(f.uint64(), v);
    roundTrip(f.uint64(), 5, { int64: 'number' }, 5);
    assert.equal(leafCoercer(leafOf(f.uint64()))(2n ** 64n - 1n), -1n);
  });

  test('FLOAT and DOUBLE', () => {
    for (const v of [0, 1.5, -2.25, Infinity, -Infinity, NaN, 3.4028234663852886e38]) roundTrip(f.float(), v);
    for (const v of [0.1, -1e-300, Number.MAX_VALUE, Number.MIN_VALUE, NaN]) roundTrip(f.double(), v);
    assert.ok(Object.is(readBack(leafOf(f.double()), leafCoercer(leafOf(f.double()))(-0)), -0));
  });

  test('FLOAT16: exact values, rounding to nearest even, subnormals, NaN, ±Infinity, -0', () => {
    for (const v of [0, 1, -2, 0.5, 65504, -65504, 2 ** -14, 2 ** -24, -(2 ** -24), 1023 * 2 ** -24, 0.333251953125, Infinity, -Infinity, NaN]) {
      roundTrip(f.float16(), v);
    }
    assert.ok(Object.is(readBack(leafOf(f.float16()), leafCoercer(leafOf(f.float16()))(-0)), -0));
    // rounding: to the nearest half, ties to even
    roundTrip(f.float16(), 1 / 3, {}, 0.333251953125);
    roundTrip(f.float16(), 1 + 2 ** -11, {}, 1); // tie between 1 and 1+2^-10: even is 1
    roundTrip(f.float16(), 1 + 3 * 2 ** -11, {}, 1 + 2 ** -9); // tie: even is 1+2^-9
    roundTrip(f.float16(), 65519.99, {}, 65504);
    roundTrip(f.float16(), 65520, {}, Infinity); // halfway to 2^16 rounds to even: overflow
    roundTrip(f.float16(), 1e10, {}, Infinity);
    roundTrip(f.float16(), -1e10, {}, -Infinity);
    roundTrip(f.float16(), 2 ** -25, {}, 0); // tie between 0 and the smallest subnormal
    roundTrip(f.float16(), 3 * 2 ** -25, {}, 2 ** -23);
    roundTrip(f.float16(), 2 ** -26, {}, 0);
    roundTrip(f.float16(), 2 ** -14 - 2 ** -25, {}, 2 ** -14); // the largest subnormal rounds up into the normals
    // every half value survives the trip
    for (let bits = 0; bits < 0x10000; bits++) {
      const v = float16(bits & 0xff, bits >> 8);
      if (Number.isNaN(v)) continue;
      assert.equal(float16Bits(v), bits, `bits ${bits.toString(16)}`);
    }
    assert.equal(float16Bits(NaN), 0x7e00);
    // little-endian bytes
    assert.deepEqual(leafCoercer(leafOf(f.float16()))(1), Uint8Array.of(0x00, 0x3c));
  });

  test('STRING, ENUM and JSON', () => {
    for (const v of ['', 'plain ascii', 'héllo wörld', '🌍 emoji', 'x'.repeat(1000), 'ü'.repeat(100), 'lone \ud800 surrogate'.slice(0, 5)]) {
      roundTrip(f.string(), v);
      roundTrip(f.enum(), v);
    }
    roundTrip(f.string(), new TextEncoder().encode('bytes already'), {}, 'bytes already');
    // JSON text is written as it is; other values are stringified
    roundTrip(f.json(), '{"a": 1}');
    roundTrip(f.json(), '"just a string"');
    roundTrip(f.json(), { a: [1, 'x', null], b: true }, {}, '{"a":[1,"x",null],"b":true}');
    roundTrip(f.json(), [1, 2], {}, '[1,2]');
    roundTrip(f.json(), 42, {}, '42');
    roundTrip(f.json(), false, {}, 'false');
    // a lone surrogate becomes U+FFFD, as TextEncoder makes it
    roundTrip(f.string(), 'a\ud800b', {}, 'a\ufffdb');
  });

  test('BYTE_ARRAY, BSON, GEOMETRY and FIXED_LEN_BYTE_ARRAY', () => {
    const bytes = Uint8Array.of(0, 1, 255, 128);
    roundTrip(f.binary(), bytes);
    roundTrip(f.binary(), new Uint8Array(0));
    roundTrip(f.binary(), bytes.buffer, {}, bytes);
    roundTrip(f.binary(), new DataView(bytes.buffer, 1, 2), {}, Uint8Array.of(1, 255));
    roundTrip(f.bson(), bytes);
    roundTrip(f.geometry(), bytes);
    roundTrip(f.geography(), bytes);
    roundTrip(f.fixed(4), bytes);
    // not copied
    assert.equal(leafCoercer(leafOf(f.binary()))(bytes), bytes);
  });

  test('UUID from text (any case) or 16 bytes', () => {
    roundTrip(f.uuid(), '123e4567-e89b-12d3-a456-426614174000');
    roundTrip(f.uuid(), '00000000-0000-0000-0000-000000000000');
    roundTrip(f.uuid(), 'FFFFFFFF-ABCD-EF01-2345-6789ABCDEF01', {}, 'ffffffff-abcd-ef01-2345-6789abcdef01');
    const b = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    roundTrip(f.uuid(), b, {}, '00112233-4455-6677-8899-aabbccddeeff');
  });

  describe('DECIMAL in every storage', () => {
    const storages: Array<[string, (p: number, s: number) => AnyField]> = [
      ['auto', (p, s) => f.decimal(p, s)],
      ['INT64', (p, s) => f.decimal(p, s, { storage: 'INT64' })],
      ['FIXED_LEN_BYTE_ARRAY', (p, s) => f.decimal(p, s, { storage: 'FIXED_LEN_BYTE_ARRAY' })],
      ['FIXED_LEN_BYTE_ARRAY wide', (p, s) => f.decimal(p, s, { storage: 'FIXED_LEN_BYTE_ARRAY', byteLength: 16 })],
      ['BYTE_ARRAY', (p, s) => f.decimal(p, s, { storage: 'BYTE_ARRAY' })],
    ];
    for (const [name, make] of storages) {
      test(name, () => {
        for (const v of ['0.00', '-12.30', '12.30', '9999999.99', '-9999999.99', '0.01', '-0.01', '1.00', '-128.00', '127.00', '-1.28', '2.56']) roundTrip(make(9, 2), v);
        for (const v of ['0', '1', '-1', '999999999']) roundTrip(make(9, 0), v);
        if (name !== 'auto') for (const v of ['0.000000001', '-0.999999999']) roundTrip(make(9, 9), v);
        // inputs in other forms
        roundTrip(make(9, 2), '+5', {}, '5.00');
        roundTrip(make(9, 2), '.5', {}, '0.50');
        roundTrip(make(9, 2), '5.', {}, '5.00');
        roundTrip(make(9, 2), '-0', {}, '0.00');
        roundTrip(make(9, 2), '007.10', {}, '7.10');
        roundTrip(make(9, 2), '1.2300000', {}, '1.23'); // extra zeros lose nothing
        roundTrip(make(9, 2), 0.1, {}, '0.10');
        roundTrip(make(9, 2), -12.3, {}, '-12.30');
        roundTrip(make(9, 2), 1e-2, {}, '0.01');
        roundTrip(make(9, 2), 42, {}, '42.00');
        roundTrip(make(9, 2), -0, {}, '0.00');
        roundTrip(make(9, 2), 42n, {}, '42.00');
        roundTrip(make(9, 2), -3n, {}, '-3.00');
        roundTrip(make(9, 2), '-12.30', { decimal: 'number' }, -12.3);
        roundTrip(make(9, 2), -12.3, { decimal: 'number' }, -12.3);
      });
    }

    test('wide precisions: INT64 and 16/32-byte storage', () => {
      roundTrip(f.decimal(18, 3), '999999999999999.999');
      roundTrip(f.decimal(18, 3), '-999999999999999.999');
      roundTrip(f.decimal(18, 0), 2 ** 53, {}, '9007199254740992');
      roundTrip(f.decimal(18, 10), 1e-10, {}, '0.0000000001');
      roundTrip(f.decimal(18, 2), 123456789012.5, {}, '123456789012.50');
      const d38 = f.decimal(38, 10);
      for (const v of ['9999999999999999999999999999.9999999999', '-9999999999999999999999999999.9999999999', '0.0000000000', '-0.0000000001', '1.0000000000']) roundTrip(d38, v);
      roundTrip(d38, 1e20, {}, '100000000000000000000.0000000000');
      roundTrip(d38, 1.5e-7, {}, '0.0000001500');
      roundTrip(d38, 12345678901234567890n, {}, '12345678901234567890.0000000000');
      roundTrip(f.decimal(76, 0), '-' + '9'.repeat(76));
      roundTrip(f.decimal(40, 5, { storage: 'BYTE_ARRAY' }), '-' + '9'.repeat(35) + '.12345');
    });

    test('ExactNumber (a JSON number no double holds): exact in DECIMAL and integer columns, nearest in floats, refused where it cannot be exact', () => {
      const x = (t: string) => new ExactNumber(t);
      const d38 = f.decimal(38, 10);
      roundTrip(d38, x('1123456789012345678.0000000001'), {}, '1123456789012345678.0000000001');
      roundTrip(d38, x('-1123456789012345678.00000000010000'), {}, '-1123456789012345678.0000000001');
      roundTrip(d38, x('1.1234567890123456789e18'), {}, '1123456789012345678.9000000000');
      roundTrip(d38, x('12345678901234567891e-10'), {}, '1234567890.1234567891');
      roundTrip(d38, x('0e999999999'), {}, '0.0000000000');
      roundTrip(f.decimal(20, 0, { storage: 'BYTE_ARRAY' }), x('1.2345678901234567891e19'), {}, '12345678901234567891');
      rejects(d38, x('1.00000000000000000001'), /got 1\.00000000000000000001 \(number\)/, /more than 10 fractional digits/);
      rejects(d38, x('1e-999999999'), /more than 10 fractional digits/);
      rejects(d38, x('123456789012345678901234567890.5'), /more than 38 digits/);
      rejects(d38, x('1e999999999'), /more than 38 digits/);
      rejects(f.decimal(9, 2), x('1234567.1234567890123456'), /more than 2 fractional digits/);
      rejects(f.decimal(9, 2), x('12345678.10000000000000000'), /more than 9 digits/);
      // integers
      roundTrip(f.int64(), x('9007199254740993.0'), {}, 9007199254740993n);
      roundTrip(f.int64(), x('9.223372036854775807e18'), {}, 9223372036854775807n);
      roundTrip(f.uint64(), x('18446744073709551615.000'), {}, 18446744073709551615n);
      roundTrip(f.int32(), x('2147483647.00000000000000000000'), {}, 2147483647);
      rejects(f.int64(), x('12345678901234567.5'), /not an integer/);
      rejects(f.int32(), x('1.00000000000000000001'), /not an integer/);
      rejects(f.int64(), x('9.3e18'), /out of range/);
      rejects(f.int32(), x('1e999999999'), /out of range/);
      // floats round to nearest; dates do not take numbers that are not integers
      roundTrip(f.double(), x('1123456789012345678.0000000001'), {}, 1123456789012345678.0000000001);
      roundTrip(f.float(), x('0.10000000000000000000001'), {}, Math.fround(0.1));
      rejects(f.date(), x('1.00000000000000000001'));
    });

    test('FIXED_LEN_BYTE_ARRAY bytes: big-endian two\'s complement of the declared width', () => {
      const c = leafCoercer(leafOf(f.decimal(9, 2, { storage: 'FIXED_LEN_BYTE_ARRAY' })));
      assert.deepEqual(c('-0.01'), Uint8Array.of(0xff, 0xff, 0xff, 0xff));
      assert.deepEqual(c('2.56'), Uint8Array.of(0, 0, 1, 0));
      const b = leafCoercer(leafOf(f.decimal(20, 0, { storage: 'BYTE_ARRAY' })));
      // minimal widths for BYTE_ARRAY
      assert.deepEqual(b('0'), Uint8Array.of(0));
      assert.deepEqual(b('127'), Uint8Array.of(0x7f));
      assert.deepEqual(b('128'), Uint8Array.of(0, 0x80));
      assert.deepEqual(b('-128'), Uint8Array.of(0x80));
      assert.deepEqual(b('-129'), Uint8Array.of(0xff, 0x7f));
      assert.deepEqual(b('-1'), Uint8Array.of(0xff));
      assert.deepEqual(b('65535'), Uint8Array.of(0, 0xff, 0xff));
      // INT32/INT64 give the unscaled integer
      assert.equal(leafCoercer(leafOf(f.decimal(9, 2)))('-12.30'), -1230);
      assert.equal(leafCoercer(leafOf(f.decimal(18, 2)))('-12.30'), -1230n);
    });

    test('parseDecimalText', () => {
      assert.equal(parseDecimalText('12.3', 2), 1230);
      assert.equal(parseDecimalText('-0.00', 2), 0);
      assert.equal(parseDecimalText('1234567890123456', 0), 1234567890123456n);
      assert.equal(parseDecimalText('1.239', 2), 'scale');
      assert.equal(parseDecimalText('1.2.3', 2), 'syntax');
      assert.equal(parseDecimalText('', 2), 'syntax');
      assert.equal(parseDecimalText('-.', 2), 'syntax');
      assert.equal(parseDecimalText('1e3', 2), 'syntax');
      assert.equal(parseDecimalText(' 1', 2), 'syntax');
    });
  });

  test('DATE from days, Date or text', () => {
    for (const v of [0, -1, 19753, 2932896, -719528]) roundTrip(f.date(), v);
    roundTrip(f.date(), '2024-01-31', {}, 19753);
    for (const v of ['2024-01-31', '1970-01-01', '1969-12-31', '2000-02-29', '0001-01-01', '0000-03-01', '9999-12-31', '+010000-01-01', '-000001-12-31', '-100000-01-01']) {
      roundTrip(f.date(), v, { temporal: 'iso' });
    }
    roundTrip(f.date(), new Date('2024-01-31T00:00:00Z'), { temporal: 'date' });
    roundTrip(f.date(), new Date('1900-03-01T00:00:00Z'), { temporal: 'date' });
  });

  test('TIME in each unit from numbers, bigints or text', () => {
    for (const v of [0, 1, 43_200_000, 86_399_999, 86_400_000]) roundTrip(f.time('MILLIS'), v);
    roundTrip(f.time('MILLIS'), 5n, {}, 5);
    roundTrip(f.time('MILLIS'), '12:34:56.789', { temporal: 'iso' });
    roundTrip(f.time('MILLIS'), '12:34:56', {}, 45_296_000);
    roundTrip(f.time('MILLIS'), '12:34:56.7', {}, 45_296_700);
    roundTrip(f.time('MILLIS'), '12:34:56.789000000', {}, 45_296_789);
    roundTrip(f.time('MILLIS', { utc: false }), '00:00:00.000', { temporal: 'iso' });
    for (const v of [0n, 86_400_000_000n, 123n]) roundTrip(f.time('MICROS'), v);
    roundTrip(f.time('MICROS'), 123, {}, 123n);
    roundTrip(f.time('MICROS'), 123n, { int64: 'number' }, 123);
    roundTrip(f.time('MICROS'), '23:59:59.999999', { temporal: 'iso' });
    roundTrip(f.time('NANOS'), '12:34:56.123456789', { temporal: 'iso' });
    roundTrip(f.time('NANOS'), '24:00:00', {}, 86_400_000_000_000n);
    roundTrip(f.time('NANOS'), 86_400_000_000_000n);
  });

  describe('TIMESTAMP in each unit, UTC-adjusted or local', () => {
    for (const unit of ['MILLIS', 'MICROS', 'NANOS'] as const) {
      for (const utc of [true, false]) {
        test(`${unit} ${utc ? 'UTC' : 'local'}`, () => {
          const fb = f.timestamp(unit, { utc });
          for (const v of [0n, -1n, 1_706_695_200_123n, -(2n ** 63n), 2n ** 63n - 1n]) roundTrip(fb, v);
          roundTrip(fb, 1_706_695_200, {}, 1_706_695_200n);
          roundTrip(fb, -5n, { int64: 'number' }, -5);
          const digits = { MILLIS: 3, MICROS: 6, NANOS: 9 }[unit];
          const z = utc ? 'Z' : '';
          for (const text of ['2024-01-31T10:00:00', '1970-01-01T00:00:00', '1969-12-31T23:59:59', '2262-04-11T23:47:16', '1677-09-21T00:12:44']) {
            const canonical = `${text}.${'1234567891'.slice(0, digits)}${z}`;
            roundTrip(fb, canonical, { temporal: 'iso' });
          }
          // Dates (whole milliseconds)
          const d = new Date('2024-01-31T10:00:00.123Z');
          roundTrip(fb, d, { temporal: 'date' });
          roundTrip(fb, new Date('1969-12-31T23:59:59.999Z'), { temporal: 'date' });
        });
      }
    }

    test('text forms: zones, separators, bare dates, extended years', () => {
      const fb = f.timestamp('MICROS');
      const iso = (v: unknown) => readBack(leafOf(fb), leafCoercer(leafOf(fb))(v), { temporal: 'iso' });
      assert.equal(iso('2024-01-31T10:00:00Z'), '2024-01-31T10:00:00.000000Z');
      assert.equal(iso('2024-01-31t10:00:00z'), '2024-01-31T10:00:00.000000Z');
      assert.equal(iso('2024-01-31 10:00:00'), '2024-01-31T10:00:00.000000Z');
      assert.equal(iso('2024-01-31T10:00:00+02:00'), '2024-01-31T08:00:00.000000Z');
      assert.equal(iso('2024-01-31T10:00:00-0130'), '2024-01-31T11:30:00.000000Z');
      assert.equal(iso('2024-01-31T01:00:00+05'), '2024-01-30T20:00:00.000000Z');
      assert.equal(iso('2024-01-31'), '2024-01-31T00:00:00.000000Z');
      assert.equal(iso('2024-01-31T10:30Z'), '2024-01-31T10:30:00.000000Z');
      assert.equal(iso('2024-01-31 10:30+01:00'), '2024-01-31T09:30:00.000000Z');
      assert.equal(iso('2024-01-31T10:00:00.5'), '2024-01-31T10:00:00.500000Z');
      assert.equal(iso('2024-01-31T10:00:00.123456000'), '2024-01-31T10:00:00.123456Z');
      assert.equal(iso('+012345-01-01T00:00:00Z'), '+012345-01-01T00:00:00.000000Z');
      assert.throws(() => iso('+12345-01-01T00:00:00Z'), /ISO 8601/); // expanded years have six digits
      assert.equal(iso('-000001-01-01T00:00:00Z'), '-000001-01-01T00:00:00.000000Z');
      assert.equal(iso(new Date(Date.UTC(-1, 0, 1))), '-000001-01-01T00:00:00.000000Z');
      // nanoseconds from a string with 9 digits
      const ns = leafOf(f.timestamp('NANOS'));
      assert.equal(leafCoercer(ns)('2024-01-31T10:00:00.123456789Z'), 1_706_695_200_123_456_789n);
      assert.deepEqual(parseTimestamp('2024-01-31T10:00:00+01:00'), { nanos: 1_706_691_600_000_000_000n, zoned: true, hasTime: true });
      assert.deepEqual(parseTimestamp('2024-01-31'), { nanos: 1_706_659_200_000_000_000n, zoned: false, hasTime: false });
    });
  });

  test('INT96 from nanoseconds, Dates or text (Spark arithmetic, far dates included)', () => {
    for (const v of [0n, -1n, 1n, 1_706_695_200_123_456_789n, -(2n ** 63n), 2n ** 63n - 1n]) roundTrip(f.int96(), v);
    // beyond int64 nanoseconds (year 2262+): Spark writes and reads these
    for (const v of [9_000_000_000_000_000_000_000n, -9_000_000_000_000_000_000_000n, 9_223_372_036_854_775_807_999n]) roundTrip(f.int96(), v);
    roundTrip(f.int96(), new Date('2024-01-31T10:00:00.123Z'), { temporal: 'date' });
    roundTrip(f.int96(), '2024-01-31T10:00:00.123456789Z', { temporal: 'iso' });
    roundTrip(f.int96(), 1000, { int64: 'number' }, 1000);
    // layout: nanoseconds of the day, then the Julian day, little-endian
    const b = leafCoercer(leafOf(f.int96()))(86_400_000_000_001n) as Uint8Array;
    assert.deepEqual(Array.from(b), [1, 0, 0, 0, 0, 0, 0, 0, ...[2440589 & 0xff, (2440589 >> 8) & 0xff, 2440589 >> 16, 0]]);
  });

  test('INTERVAL', () => {
    roundTrip(f.interval(), { months: 1, days: 2, millis: 3 });
    roundTrip(f.interval(), { months: 0, days: 0, millis: 0 });
    roundTrip(f.interval(), { months: 4294967295, days: 4294967295, millis: 4294967295 });
  });

  test('leaves of files: unannotated FIXED strings, legacy converted types', () => {
    roundTrip(rawLeaf({ name: 's', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 3, convertedType: 'UTF8' }), 'abc');
    roundTrip(rawLeaf({ name: 't', type: 'INT64', convertedType: 'TIMESTAMP_MILLIS' }), '2024-01-31T10:00:00.123Z', { temporal: 'iso' });
    roundTrip(rawLeaf({ name: 'd', type: 'INT32', convertedType: 'DECIMAL', precision: 5, scale: 1 }), '-1234.5');
    roundTrip(rawLeaf({ name: 'j', type: 'BYTE_ARRAY', convertedType: 'JSON' }), { a: 1 }, {}, '{"a":1}');
  });
});

describe('helpers against references', () => {
  /** A deterministic generator (xorshift), so failures reproduce. */
  function rng(seed: number): () => number {
    let x = seed >>> 0 || 1;
    return () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) / 2 ** 32;
    };
  }

  test('utf8Encode gives what TextEncoder gives', () => {
    const enc = new TextEncoder();
    const units = [0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xfffd, 0xffff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0x20ac, 0];
    const r = rng(7);
    for (let n = 0; n < 3000; n++) {
      const len = Math.floor(r() * 80);
      let s = '';
      for (let i = 0; i < len; i++) s += String.fromCharCode(r() < 0.5 ? units[Math.floor(r() * units.length)]! : Math.floor(r() * 0x10000));
      assert.deepEqual(utf8Encode(s), enc.encode(s), JSON.stringify(s));
    }
    assert.deepEqual(utf8Encode('\ud83c\udf0d'), enc.encode('🌍'));
  });

  test('twosComplementBytes reads back with the reader\'s bigEndianSigned, numbers and bigints alike', () => {
    const r = rng(11);
    const values: bigint[] = [0n, 1n, -1n, 127n, 128n, -128n, -129n, 255n, 256n, 2n ** 53n - 1n, -(2n ** 53n), 2n ** 127n - 1n, -(2n ** 127n)];
    for (let i = 0; i < 2000; i++) {
      const bits = Math.floor(r() * 120);
      let v = 0n;
      for (let b = 0; b < bits; b += 16) v = (v << 16n) | BigInt(Math.floor(r() * 65536));
      values.push(r() < 0.5 ? -v : v);
    }
    for (const v of values) {
      const min = twosComplementBytes(v, -1);
      assert.equal(bigEndianSigned(min, 0, min.length), v);
      // minimal: one byte fewer would not hold it
      if (min.length > 1) assert.notEqual(bigEndianSigned(min, 1, min.length), v);
      const wide = twosComplementBytes(v, 17);
      assert.equal(bigEndianSigned(wide, 0, 17), v);
      if (v >= -(2n ** 53n) + 1n && v <= 2n ** 53n - 1n) {
        assert.deepEqual(twosComplementBytes(Number(v), -1), min, String(v));
        assert.deepEqual(twosComplementBytes(Number(v), 17), wide, String(v));
      }
    }
  });

  test('decimals from numbers: the fast path agrees with the shortest decimal text', () => {
    const r = rng(3);
    for (let i = 0; i < 20000; i++) {
      const scale = Math.floor(r() * 12);
      const mag = 10 ** Math.floor(r() * 16);
      const v = (r() - 0.5) * mag;
      const rounded = r() < 0.5 ? Math.round(v * 10 ** scale) / 10 ** scale : v;
      const coerce = leafCoercer(leafOf(f.decimal(38, scale)));
      let got: string | undefined;
      try {
        got = readBack(leafOf(f.decimal(38, scale)), coerce(rounded)) as string;
      } catch (e) {
        assert.ok(e instanceof InvalidArgumentError);
      }
      // reference: the shortest round-trip text, parsed exactly
      const text = String(rounded);
      if (text.includes('e')) continue;
      if (typeof parseDecimalText(text, scale) === 'string') assert.equal(got, undefined, `${text} at scale ${scale}`);
      else assert.equal(got, readBack(leafOf(f.decimal(38, scale)), coerce(text)), `${text} at scale ${scale}`);
    }
  });
});

describe('wrong values fail, saying where, what was expected and what was given', () => {
  test('BOOLEAN', () => {
    rejects(f.boolean(), 1, /expected a boolean; got 1 \(number\)/);
    rejects(f.boolean(), 'true', /got "true" \(string\)/);
  });

  test('integers: type, fraction and range', () => {
    rejects(f.int32(), 1.5, /an INT32 integer from -2147483648 to 2147483647/, /got 1\.5 \(number\)$|got 1\.5 \(number\) \(column/);
    rejects(f.int32(), 2147483648, /out of range/);
    rejects(f.int32(), NaN, /got NaN/);
    rejects(f.int32(), '1', /got "1" \(string\)/);
    rejects(f.int8(), 128, /an INT_8 integer from -128 to 127/, /out of range/);
    rejects(f.int8(), -129n, /got -129n \(bigint\): out of range/);
    rejects(f.int16(), 32768, /INT_16/);
    rejects(f.uint8(), -1, /a UINT_8 integer from 0 to 255/);
    rejects(f.uint16(), 65536, /UINT_16/);
    rejects(f.uint32(), 2 ** 32, /UINT_32 integer from 0 to 4294967295/);
    rejects(f.uint32(), -1n, /out of range/);
    rejects(f.int64(), 2n ** 63n, /out of range/);
    rejects(f.int64(), -(2n ** 63n) - 1n, /out of range/);
    rejects(f.int64(), 2 ** 53, /a safe integer number; got 9007199254740992 \(number\)/);
    rejects(f.int64(), 1.5, /INT64/);
    rejects(f.int64(), null, /got null/);
    rejects(f.integer(64), '1', /INT_64/);
    rejects(f.uint64(), -1n, /UINT_64/, /out of range/);
    rejects(f.uint64(), 2n ** 64n, /out of range/);
    rejects(f.uint64(), -1, /out of range/);
  });

  test('floats', () => {
    rejects(f.double(), '1.5', /a number or bigint \(DOUBLE\); got "1\.5" \(string\)/);
    rejects(f.float(), true, /FLOAT/);
    // A bigint rounds to the nearest value of the column's type, as a number does.
    roundTrip(f.double(), 2n ** 64n + 1n, {}, 2 ** 64);
    roundTrip(f.float(), -(2n ** 40n) - 1n, {}, -(2 ** 40));
    rejects(f.float16(), '1', /FLOAT16/);
  });

  test('strings and JSON', () => {
    rejects(f.string(), 5, /expected a string/, /got 5 \(number\)/);
    rejects(f.string(), ['a'], /got an array of 1 items/);
    rejects(f.enum(), new Date(0), /got Date 1970-01-01T00:00:00.000Z/);
    rejects(f.json(), undefined, /JSON/, /got undefined/);
    rejects(f.json(), () => 1, /got a function/);
    rejects(f.json(), { n: 1n }, /JSON\.stringify failed/, /got \{"n":"1n"\} \(object\)/);
    rejects(rawLeaf({ name: 's', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 3, convertedType: 'UTF8' }), 'abcd', /exactly 3 UTF-8 bytes/, /wrong length/);
  });

  test('bytes', () => {
    rejects(f.binary(), 'abc', /bytes \(Uint8Array or ArrayBuffer\)/);
    rejects(f.bson(), [1, 2], /BSON bytes/);
    rejects(f.geometry(), {}, /GEOMETRY as WKB bytes, hex WKB, WKT text or a GeoJSON geometry/, /got \{\} \(object\): GeoJSON: geometry.type must be one of Point/);
    rejects(f.geography(), 'POINT (1', /GEOGRAPHY as WKB bytes/, /WKT: expected a number at line 1, column 9, found the end of the text/);
    rejects(f.fixed(4), new Uint8Array(3), /exactly 4 bytes/, /got Uint8Array of 3 bytes: wrong length/);
    rejects(f.fixed(4), new ArrayBuffer(5), /got ArrayBuffer of 5 bytes/);
  });

  test('UUID', () => {
    rejects(f.uuid(), '123e4567e89b12d3a456426614174000', /a UUID/);
    rejects(f.uuid(), '123e4567-e89b-12d3-a456-42661417400g', /a UUID/);
    rejects(f.uuid(), '123e4567-e89b-12d3-a456_426614174000', /a UUID/);
    rejects(f.uuid(), '123e4567-e89b-12d3-a456-4266141740é0', /a UUID/);
    rejects(f.uuid(), new Uint8Array(15), /wrong length/);
    rejects(f.uuid(), 5, /a UUID/);
  });

  test('DECIMAL: syntax, scale (never rounded), precision, storage', () => {
    const d = f.decimal(9, 2);
    rejects(d, '1.234', /DECIMAL\(9, 2\)/, /got "1\.234" \(string\): more than 2 fractional digits \(values are not rounded\)/);
    rejects(d, 1.005, /more than 2 fractional digits/);
    rejects(d, 0.1 + 0.2, /more than 2 fractional digits/);
    rejects(d, '10000000.00', /more than 9 digits/);
    rejects(d, 10000000, /more than 9 digits/);
    rejects(d, 10000000n, /more than 9 digits/);
    rejects(d, '-10000000', /more than 9 digits/);
    for (const v of ['', '-', '.', '1e', 'e3', '1e3.5', '1e+', 'abc', '1,5', ' 1', '1 ', '--1', '0x10', 'NaN']) rejects(d, v, /exact decimal text/);
    // Text with an exponent, as DuckDB casts it to DECIMAL: exactly, never rounded.
    roundTrip(d, '1e3', {}, '1000.00');
    roundTrip(d, '-1.5E-1', {}, '-0.15');
    roundTrip(d, '+2.e+1', {}, '20.00');
    rejects(d, '1e-3', /more than 2 fractional digits \(values are not rounded\)/);
    rejects(d, '1e7', /more than 9 digits/);
    rejects(d, NaN, /got NaN/);
    rejects(d, Infinity, /got Infinity/);
    rejects(d, true, /got true \(boolean\)/);
    rejects(f.decimal(38, 10), '1' + '0'.repeat(28), /more than 38 digits/);
    rejects(f.decimal(38, 10), 1e30, /more than 38 digits/);
    rejects(f.decimal(40, 0, { storage: 'BYTE_ARRAY' }), '9'.repeat(41), /more than 40 digits/);
    // A file's FIXED_LEN_BYTE_ARRAY too narrow for its precision: the storage limit applies.
    const narrow = rawLeaf({ name: 'n', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 1, convertedType: 'DECIMAL', precision: 5, scale: 0 });
    roundTrip(narrow, '-128');
    rejects(narrow, '128', /does not fit FIXED_LEN_BYTE_ARRAY\(1\) storage/);
    const int32 = rawLeaf({ name: 'n', type: 'INT32', convertedType: 'DECIMAL', precision: 12, scale: 0 });
    rejects(int32, '2147483648', /does not fit INT32 storage/);
    // An impossible scale is refused when the schema is built, before any coercer exists.
    assert.throws(() => leafCoercer(rawLeaf({ name: 'n', type: 'BYTE_ARRAY', convertedType: 'DECIMAL', precision: 5, scale: 5000 })), /not a valid decimal type/);
  });

  test('DATE', () => {
    rejects(f.date(), 1.5, /a DATE/, /got 1\.5/);
    rejects(f.date(), 2 ** 31, /out of range/);
    for (const v of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-00-10', '2024-1-01', '24-01-01', '2024-01-01T00:00:00', '2024/01/01', '']) rejects(f.date(), v, /a DATE/);
    rejects(f.date(), new Date('2024-01-31T10:00:00Z'), /not a whole day/);
    rejects(f.date(), new Date(NaN), /got Date Invalid Date/);
    rejects(f.date(), 5n, /got 5n \(bigint\)/);
  });

  test('TIME', () => {
    rejects(f.time('MILLIS'), -1, /out of range/);
    rejects(f.time('MILLIS'), 86_400_001, /out of range/);
    rejects(f.time('MILLIS'), 1.5, /TIME\(MILLIS\)/);
    rejects(f.time('MILLIS'), '12:34:56.7891', /finer than millis/);
    rejects(f.time('MICROS'), '12:34:56.1234567', /finer than micros/);
    rejects(f.time('NANOS'), '12:34:56.1234567891', /TIME\(NANOS\)/);
    for (const v of ['25:00:00', '24:00:01', '12:60:00', '12:00:60', '12:00', '1:00:00', '12:00:00.', '12:00:00Z', 'noon']) rejects(f.time('MICROS'), v, /TIME\(MICROS\)/);
    rejects(f.time('MICROS'), 86_400_000_001n, /out of range/);
    rejects(f.time('MICROS'), new Date(0), /got Date/);
  });

  test('TIMESTAMP', () => {
    const ts = f.timestamp('MILLIS');
    rejects(ts, 2n ** 63n, /TIMESTAMP\(MILLIS\)/, /out of range/);
    rejects(ts, 1.5, /got 1\.5 \(number\)/);
    rejects(ts, '2024-01-31T10:00:00.1234Z', /finer than millis/);
    // Seconds may be left out ('2024-01-31T10:00Z', as ISO 8601 and DuckDB read it), not the minutes.
    for (const v of ['2024-01-31T25:00:00Z', '2024-02-30T00:00:00Z', '2024-01-31T10Z', '2024-01-31T10:60Z', '2024-01-31T10:00:Z', '2024-01-31T10:00:00+2400', '2024-01-31T10:00:00+01:0', '2024-01-31T10:00:00 Z', '2024-01-31X10:00:00', 'yesterday', '']) {
      rejects(ts, v, /ISO 8601/);
    }
    rejects(ts, new Date(NaN), /Invalid Date/);
    rejects(ts, { seconds: 1 }, /got \{"seconds":1\} \(object\)/);
    rejects(f.timestamp('NANOS'), new Date('2300-01-01T00:00:00Z'), /out of the range of TIMESTAMP\(NANOS\)/);
    rejects(f.timestamp('NANOS'), '1600-01-01T00:00:00Z', /out of the range/);
  });

  test('INT96', () => {
    rejects(f.int96(), 'soon', /INT96/);
    rejects(f.int96(), 1.5, /INT96/);
    rejects(f.int96(), 2n ** 80n, /out of range/);
    rejects(f.int96(), new Date(NaN), /Invalid Date/);
  });

  test('INTERVAL', () => {
    rejects(f.interval(), { months: -1, days: 0, millis: 0 }, /INTERVAL/);
    rejects(f.interval(), { months: 1, days: 2 }, /INTERVAL/);
    rejects(f.interval(), { months: 1, days: 2, millis: 2 ** 32 }, /INTERVAL/);
    rejects(f.interval(), 'P1D', /INTERVAL/);
    rejects(f.interval(), null, /got null/);
  });

  test('the null type takes nothing', () => {
    rejects(f.null(), 0, /only nulls/);
  });

  test('messages name the full path and clip long values', () => {
    const { schema } = defineSchema({ a: f.list(f.struct({ b: f.int32() })) });
    rejects(schema.leaves[0]!, 'x'.repeat(500), /got "x{50,}…" \(string\)/);
    assert.throws(() => leafCoercer(schema.leaves[0]!)('y'), /\(column a\.list\.element\.b\)$/);
    assert.equal(describeValue('a'.repeat(100)).length < 80, true);
    assert.equal(describeValue(12345678901234567890123456789012345678901234567890123456789012345678901234567890n).length < 80, true);
    assert.equal(describeValue(new Map()), 'a Map instance');
    assert.equal(describeValue(Object.create(null)), '{} (object)');
    assert.equal(describeValue(Symbol('s')), 'Symbol(s) (symbol)');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(describeValue(cyclic), '{…} (object)');
  });
});
