import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CorruptFileError, UnsupportedError } from '../../src/errors.js';
import { MAX_VARIANT_DEPTH, decodeVariant, parseVariantMetadata } from '../../src/parquet/variant/index.js';
import { rng } from '../writer/gen.js';

const CORPUS = '../shared/corpus/parquet-testing/variant/';
const utf8 = new TextEncoder();

// ---- a small encoder for hand-built vectors (VariantEncoding.md) ----

function le(v: number | bigint, size: number): number[] {
  let x = BigInt.asUintN(size * 8, BigInt(v));
  const out: number[] = [];
  for (let i = 0; i < size; i++, x >>= 8n) out.push(Number(x & 0xffn));
  return out;
}

function sizeFor(max: number): number {
  return max <= 0xff ? 1 : max <= 0xffff ? 2 : max <= 0xffffff ? 3 : 4;
}

function metadata(keys: string[], sorted = false): Uint8Array {
  const strs = keys.map((k) => utf8.encode(k));
  const total = strs.reduce((n, s) => n + s.length, 0);
  const os = sizeFor(Math.max(total, keys.length));
  const offsets: number[] = [];
  let at = 0;
  for (const s of strs) {
    offsets.push(...le(at, os));
    at += s.length;
  }
  offsets.push(...le(at, os));
  return Uint8Array.from([1 | (sorted ? 0x10 : 0) | ((os - 1) << 6), ...le(keys.length, os), ...offsets, ...strs.flatMap((s) => [...s])]);
}

const EMPTY_META = Uint8Array.of(0x01, 0x00, 0x00);

function prim(type: number, ...data: number[]): Uint8Array {
  return Uint8Array.of(type << 2, ...data);
}

function shortString(s: string): Uint8Array {
  const b = utf8.encode(s);
  return Uint8Array.of((b.length << 2) | 1, ...b);
}

interface Layout {
  large?: boolean;
  offsetSize?: number;
  idSize?: number;
}

function arr(elems: Uint8Array[], opt: Layout = {}): Uint8Array {
  const total = elems.reduce((n, e) => n + e.length, 0);
  const os = opt.offsetSize ?? sizeFor(total);
  const offsets: number[] = [];
  let at = 0;
  for (const e of elems) {
    offsets.push(...le(at, os));
    at += e.length;
  }
  offsets.push(...le(at, os));
  const header = 3 | (((opt.large ? 4 : 0) | (os - 1)) << 2);
  return Uint8Array.from([header, ...le(elems.length, opt.large ? 4 : 1), ...offsets, ...elems.flatMap((e) => [...e])]);
}

/** Fields as [field id, value], listed (ids and offsets) in the given order; values are laid out in `valueOrder` (default: same). */
function obj(fields: [number, Uint8Array][], opt: Layout & { valueOrder?: number[] } = {}): Uint8Array {
  const order = opt.valueOrder ?? fields.map((_, i) => i);
  const starts = new Array<number>(fields.length);
  let at = 0;
  for (const i of order) {
    starts[i] = at;
    at += fields[i]![1].length;
  }
  const os = opt.offsetSize ?? sizeFor(at);
  const is = opt.idSize ?? sizeFor(Math.max(0, ...fields.map((f) => f[0])));
  const header = 2 | (((opt.large ? 16 : 0) | ((is - 1) << 2) | (os - 1)) << 2);
  return Uint8Array.from([
    header, ...le(fields.length, opt.large ? 4 : 1),
    ...fields.flatMap(([id]) => le(id, is)),
    ...starts.flatMap((s) => le(s, os)), ...le(at, os),
    ...order.flatMap((i) => [...fields[i]![1]]),
  ]);
}

function nestedArrays(levels: number): Uint8Array {
  let v = arr([]);
  for (let i = 1; i < levels; i++) v = arr([v]);
  return v;
}

function corrupt(meta: Uint8Array, value: Uint8Array, re: RegExp): void {
  assert.throws(() => decodeVariant(meta, value), (e: unknown) => e instanceof CorruptFileError && re.test(e.message));
}

// ---- the parquet-testing corpus ----

function corpus(name: string): unknown {
  return decodeVariant(readFileSync(`${CORPUS}${name}.metadata`), readFileSync(`${CORPUS}${name}.value`));
}

test('corpus primitives', () => {
  // Expected values checked by hand against data_dictionary.json and the bytes: e.g. date 0x4ee2 = 20194
  // days = 2025-04-16; the timestamp is "2025-04-16 12:34:56.78-04:00", i.e. 16:34:56.78 UTC.
  assert.equal(corpus('primitive_null'), null);
  assert.equal(corpus('primitive_boolean_true'), true);
  assert.equal(corpus('primitive_boolean_false'), false);
  assert.equal(corpus('primitive_int8'), 42);
  assert.equal(corpus('primitive_int16'), 1234);
  assert.equal(corpus('primitive_int32'), 123456);
  // Beyond 2^53: stays exact as a bigint (the JSON dictionary's number has lost the last digits).
  assert.equal(corpus('primitive_int64'), 1234567890123456789n);
  assert.equal(corpus('primitive_double'), 1234567890.1234);
  // A float widened exactly: the dictionary shows it rounded, 1234567940.0.
  assert.equal(corpus('primitive_float'), 1234567936);
  assert.equal(corpus('primitive_float'), Math.fround(1234567890));
  assert.equal(corpus('primitive_decimal4'), '12.34');
  assert.equal(corpus('primitive_decimal8'), '12345678.90');
  assert.equal(corpus('primitive_decimal16'), '12345678912345678.90');
  assert.equal(corpus('primitive_date'), '2025-04-16');
  assert.equal(corpus('primitive_timestamp'), '2025-04-16T16:34:56.780000Z');
  assert.equal(corpus('primitive_timestampntz'), '2025-04-16T12:34:56.780000');
  assert.equal(corpus('primitive_timestamp_nanos'), '2024-11-07T12:33:54.123456789Z');
  assert.equal(corpus('primitive_timestampntz_nanos'), '2024-11-07T12:33:54.123456789');
  assert.equal(corpus('primitive_time'), '12:33:54.123456');
  assert.equal(corpus('primitive_uuid'), 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56');
  // base64 "AxM33q2+78r+"
  assert.deepEqual(corpus('primitive_binary'), Uint8Array.of(0x03, 0x13, 0x37, 0xde, 0xad, 0xbe, 0xef, 0xca, 0xfe));
  assert.equal(Object.getPrototypeOf(corpus('primitive_binary')), Uint8Array.prototype);
});

test('corpus strings', () => {
  assert.equal(corpus('short_string'), 'Less than 64 bytes (\u2764\ufe0f with utf8)');
  assert.equal(
    corpus('primitive_string'),
    'This string is longer than 64 bytes and therefore does not fit in a short_string and it also includes several non ascii characters such as \u{1f422}, \u{1f496}, \u2665\ufe0f, \u{1f3a3} and \u{1f926}!!',
  );
  // Not in data_dictionary.json; the text was read from the bytes.
  assert.equal(
    corpus('long_string'),
    'This string is for sure and certainly longer than 64 bytes and it also includes several non ascii characters such as \u{1f422}, \u{1f496}, \u2665\ufe0f, \u{1f3a3} and \u{1f926}!!',
  );
});

test('corpus objects and arrays', () => {
  assert.deepEqual(corpus('object_empty'), {});
  assert.deepEqual(corpus('array_empty'), []);
  assert.deepEqual(corpus('array_primitive'), [2, 1, 5, 9]);
  const prim = corpus('object_primitive') as Record<string, unknown>;
  // Spark wrote 1.23456789 as a decimal (scale 8), so it reads as exact decimal text.
  assert.deepEqual(prim, {
    boolean_false_field: false,
    boolean_true_field: true,
    double_field: '1.23456789',
    int_field: 1,
    null_field: null,
    string_field: 'Apache Parquet',
    timestamp_field: '2025-04-16T12:34:56.78',
  });
  assert.deepEqual(Object.keys(prim), ['boolean_false_field', 'boolean_true_field', 'double_field', 'int_field', 'null_field', 'string_field', 'timestamp_field']);
  const nested = corpus('object_nested') as Record<string, Record<string, unknown>>;
  assert.deepEqual(nested, {
    id: 1,
    observation: { location: 'In the Volcano', time: '12:34:56', value: { humidity: 456, temperature: 123 } },
    species: { name: 'lava monster', population: 6789 },
  });
  assert.deepEqual(Object.keys(nested), ['id', 'observation', 'species']);
  assert.deepEqual(Object.keys(nested.observation!), ['location', 'time', 'value']);
  assert.deepEqual(corpus('array_nested'), [
    { id: 1, thing: { names: ['Contrarian', 'Spider'] } },
    null,
    { id: 2, names: ['Apple', 'Ray', null], type: 'if' },
  ]);
});

// ---- hand-built primitives ----

test('every primitive type', () => {
  const cases: [Uint8Array, unknown][] = [
    [prim(0), null],
    [prim(1), true],
    [prim(2), false],
    [prim(3, 0xfe), -2],
    [prim(4, 0x00, 0x80), -32768],
    [prim(5, 0xff, 0xff, 0xff, 0x7f), 2147483647],
    [prim(6, ...le(2n ** 53n - 1n, 8)), 9007199254740991],
    [prim(6, ...le(-(2n ** 53n - 1n), 8)), -9007199254740991],
    [prim(6, ...le(2n ** 53n, 8)), 9007199254740992n],
    [prim(6, ...le(-(2n ** 63n), 8)), -9223372036854775808n],
    [prim(7, 0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f), 0.1],
    [prim(8, 2, ...le(-1230, 4)), '-12.30'],
    [prim(8, 2, ...le(5, 4)), '0.05'],
    [prim(8, 2, ...le(-5, 4)), '-0.05'],
    [prim(8, 0, ...le(7, 4)), '7'],
    [prim(9, 18, ...le(1, 8)), '0.000000000000000001'],
    [prim(9, 3, ...le(-(2n ** 63n), 8)), '-9223372036854775.808'],
    [prim(10, 0, ...le(-1, 16)), '-1'],
    [prim(10, 38, ...le(10n ** 38n - 1n, 16)), '0.99999999999999999999999999999999999999'],
    [prim(10, 2, ...le(-(2n ** 100n), 16)), '-12676506002282294014967032053.76'],
    [prim(11, ...le(-1, 4)), '1969-12-31'],
    [prim(11, ...le(0, 4)), '1970-01-01'],
    [prim(12, ...le(0, 8)), '1970-01-01T00:00:00.000000Z'],
    [prim(12, ...le(-1, 8)), '1969-12-31T23:59:59.999999Z'],
    [prim(13, ...le(1729794114937n, 8)), '1970-01-21T00:29:54.114937'],
    [prim(14, 0x00, 0x00, 0xc0, 0x3f), 1.5],
    [prim(14, 0xcd, 0xcc, 0xcc, 0x3d), Math.fround(0.1)],
    [prim(15, ...le(3, 4), 1, 2, 255), Uint8Array.of(1, 2, 255)],
    [prim(15, ...le(0, 4)), new Uint8Array(0)],
    [prim(16, ...le(5, 4), ...utf8.encode('h\u00e9!!')), 'h\u00e9!!'],
    [prim(16, ...le(3, 4), 0xef, 0xbb, 0xbf), '\ufeff'],
    [prim(17, ...le(0, 8)), '00:00:00.000000'],
    [prim(17, ...le(86_399_999_999n, 8)), '23:59:59.999999'],
    [prim(18, ...le(1, 8)), '1970-01-01T00:00:00.000000001Z'],
    [prim(19, ...le(-1, 8)), '1969-12-31T23:59:59.999999999'],
    [prim(20, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff), '00112233-4455-6677-8899-aabbccddeeff'],
    [shortString(''), ''],
    [shortString('x'.repeat(63)), 'x'.repeat(63)],
  ];
  for (const [bytes, want] of cases) assert.deepEqual(decodeVariant(EMPTY_META, bytes), want, `value ${Buffer.from(bytes).toString('hex')}`);
  assert.ok(Object.is(decodeVariant(EMPTY_META, prim(7, 0, 0, 0, 0, 0, 0, 0, 0x80)), -0));
  assert.ok(Number.isNaN(decodeVariant(EMPTY_META, prim(14, 0, 0, 0xc0, 0x7f))));
});

test('binary values are copies, not views of the input', () => {
  const value = prim(15, ...le(2, 4), 7, 8);
  const out = decodeVariant(EMPTY_META, Buffer.from(value)) as Uint8Array;
  assert.equal(Object.getPrototypeOf(out), Uint8Array.prototype);
  value[5] = 0;
  assert.deepEqual(out, Uint8Array.of(7, 8));
});

test('truncated primitives and bad scalar data are CorruptFileError', () => {
  for (const type of [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19, 20]) {
    corrupt(EMPTY_META, prim(type), /needs/);
  }
  corrupt(EMPTY_META, prim(8, 2, 1, 2, 3), /decimal4.*needs/);
  corrupt(EMPTY_META, prim(15, 5, 0, 0), /binary length/);
  corrupt(EMPTY_META, prim(15, ...le(5, 4), 1, 2), /binary.*needs 5 bytes but only 2/);
  corrupt(EMPTY_META, prim(16, ...le(0xffffffff, 4), 1), /string.*needs/);
  corrupt(EMPTY_META, Uint8Array.of((10 << 2) | 1, 0x61), /short string/);
  corrupt(EMPTY_META, new Uint8Array(0), /value header/);
  corrupt(EMPTY_META, prim(8, 39, 0, 0, 0, 0), /scale 39/);
  corrupt(EMPTY_META, prim(16, ...le(2, 4), 0xc3, 0x28), /not valid UTF-8/);
  corrupt(EMPTY_META, Uint8Array.of((1 << 2) | 1, 0xff), /not valid UTF-8/);
  corrupt(EMPTY_META, prim(17, ...le(86_400_000_000n, 8)), /outside/);
  corrupt(EMPTY_META, prim(17, ...le(-1, 8)), /outside/);
});

test('a primitive type this version does not know is UnsupportedError, not corruption', () => {
  // VariantEncoding.md: "new types may be added to the specification without incrementing the version ID".
  assert.throws(() => decodeVariant(EMPTY_META, prim(21)), (e: unknown) => e instanceof UnsupportedError && /primitive type 21/.test(e.message));
  assert.throws(() => decodeVariant(EMPTY_META, prim(63)), UnsupportedError);
});

test('bytes after the value are ignored', () => {
  assert.equal(decodeVariant(EMPTY_META, Uint8Array.of(0x0c, 5, 0xff, 0xff)), 5);
});

// ---- metadata ----

test('metadata header, sizes and offsets', () => {
  const m = parseVariantMetadata(metadata(['b', 'a', 'ccc']));
  assert.equal(m.size, 3);
  assert.equal(m.sorted, false);
  assert.deepEqual([m.name(0), m.name(1), m.name(2)], ['b', 'a', 'ccc']);
  assert.equal(m.byteLength, 1 + 1 + 4 + 5);
  // 2-byte offsets, and trailing bytes that are not metadata.
  const wide = Uint8Array.of(0x51, 2, 0, 0, 0, 1, 0, 3, 0, 0x61, 0x62, 0x63, 0xee, 0xee);
  const w = parseVariantMetadata(wide);
  assert.deepEqual([w.name(0), w.name(1), w.sorted, w.byteLength], ['a', 'bc', true, 12]);
  // 4-byte offsets with an empty dictionary.
  assert.equal(parseVariantMetadata(Uint8Array.of(0xc1, 0, 0, 0, 0, 0, 0, 0, 0)).size, 0);
});

test('bad metadata is CorruptFileError (a newer version is UnsupportedError)', () => {
  const v = prim(0);
  corrupt(new Uint8Array(0), v, /metadata is empty/);
  corrupt(Uint8Array.of(0x00, 0, 0), v, /version 0/);
  assert.throws(() => decodeVariant(Uint8Array.of(0x02, 0, 0), v), UnsupportedError);
  corrupt(Uint8Array.of(0x41, 0), v, /ends inside its dictionary size/);
  corrupt(Uint8Array.of(0x01, 200, 0, 1), v, /cannot hold their offsets/);
  corrupt(Uint8Array.of(0xc1, 0xff, 0xff, 0xff, 0xff), v, /cannot hold their offsets/);
  corrupt(Uint8Array.of(0x01, 1, 1, 1, 0x61), v, /first string offset is 1/);
  corrupt(Uint8Array.of(0x01, 2, 0, 2, 1, 0x61, 0x62), v, /below the one before/);
  corrupt(Uint8Array.of(0x01, 1, 0, 5, 0x61), v, /past the 5 bytes/);
  // Marked sorted: kept only when the strings are unique and in byte order (the flag that lies: see below).
  for (const keys of [['b', 'a'], ['a', 'a'], ['ab', 'a']]) assert.equal(parseVariantMetadata(metadata(keys, true)).sorted, false, keys.join());
  assert.equal(parseVariantMetadata(metadata(['a', 'ab', 'b', '\u00e9', '\u{1f600}'], true)).sorted, true);
  // A key that is not UTF-8 fails when an object uses it.
  const badKey = Uint8Array.of(0x01, 1, 0, 1, 0xff);
  corrupt(badKey, obj([[0, prim(0)]]), /dictionary string 0 is not valid UTF-8/);
});

// ---- objects and arrays ----

test('objects: keys sorted by UTF-8 bytes whatever the dictionary order', () => {
  // UTF-16 order would put U+1F600 (a surrogate pair) before U+FF01; UTF-8 order puts it after.
  const keys = ['z', '\u{1f600}', '\uff01', '\u00e9', 'a'];
  const m = metadata(keys);
  const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  const sortedKeys = [...keys].sort(byBytes);
  assert.deepEqual(sortedKeys, ['a', 'z', '\u00e9', '\uff01', '\u{1f600}']);
  // Fields listed in dictionary order (not the spec's order): still read, keys come out in byte order.
  const v = obj(keys.map((_, i) => [i, shortString(String(i))]));
  const out = decodeVariant(m, v) as Record<string, unknown>;
  assert.deepEqual(Object.keys(out), sortedKeys);
  assert.deepEqual(out, { z: '0', '\u{1f600}': '1', '\uff01': '2', '\u00e9': '3', a: '4' });
  // A sorted dictionary: ids in order, values laid out in reverse (offsets not monotonic).
  const sm = metadata(sortedKeys, true);
  const sv = obj(sortedKeys.map((_, i) => [i, prim(3, i)]), { valueOrder: [4, 3, 2, 1, 0] });
  const sout = decodeVariant(sm, sv) as Record<string, unknown>;
  assert.deepEqual(Object.keys(sout), sortedKeys);
  assert.deepEqual(Object.values(sout), [0, 1, 2, 3, 4]);
});

test('metadata flagged sorted whose strings are not (as DuckDB 1.5.2 wrote): the flag is ignored, never trusted', () => {
  const m = metadata(['zeta', 'alpha', 'mid'], true);
  // Fields in key order (alpha, mid, zeta), and in dictionary order: the same object either way.
  const want = { alpha: 'a', mid: 'm', zeta: 'z' };
  for (const ids of [[1, 2, 0], [0, 1, 2], [2, 0, 1]]) {
    const out = decodeVariant(m, obj(ids.map((id) => [id, shortString(['z', 'a', 'm'][id]!)]))) as Record<string, unknown>;
    assert.deepEqual(out, want, ids.join());
    assert.deepEqual(Object.keys(out), ['alpha', 'mid', 'zeta']);
  }
  // Duplicate strings under a lying flag still make an object with the key twice corrupt.
  corrupt(metadata(['a', 'a'], true), obj([[0, prim(3, 1)], [1, prim(3, 2)]]), /has the key "a" twice/);
});

test('objects: __proto__ is an own key, never the prototype', () => {
  const m = metadata(['__proto__', 'x']);
  const out = decodeVariant(m, obj([[0, obj([[1, prim(3, 1)]])], [1, prim(3, 2)]])) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.ok(Object.hasOwn(out, '__proto__'));
  assert.deepEqual(Object.keys(out), ['__proto__', 'x']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { x: 1 });
  assert.equal(JSON.stringify(out), '{"__proto__":{"x":1},"x":2}');
});

test('objects and arrays: every header size', () => {
  const m = metadata(['a', 'b']);
  for (const offsetSize of [1, 2, 3, 4]) {
    for (const idSize of [1, 2, 3, 4]) {
      for (const large of [false, true]) {
        const v = obj([[0, prim(3, 1)], [1, arr([prim(3, 2), shortString('s')], { offsetSize, large })]], { offsetSize, idSize, large });
        assert.deepEqual(decodeVariant(m, v), { a: 1, b: [2, 's'] }, `offsets ${offsetSize}, ids ${idSize}, large ${large}`);
      }
    }
  }
  const many = Array.from({ length: 300 }, (_, i) => prim(4, ...le(i, 2)));
  assert.deepEqual(decodeVariant(m, arr(many, { large: true })), Array.from({ length: 300 }, (_, i) => i));
  assert.deepEqual(decodeVariant(m, obj([], { large: true })), {});
  assert.deepEqual(decodeVariant(m, arr([], { large: true, offsetSize: 4 })), []);
});

test('nesting: 128 levels decode, 129 are rejected', () => {
  assert.equal(MAX_VARIANT_DEPTH, 128);
  let v: unknown = decodeVariant(EMPTY_META, nestedArrays(128));
  let depth = 0;
  while (Array.isArray(v)) {
    depth++;
    v = v[0];
  }
  assert.equal(depth, 128);
  corrupt(EMPTY_META, nestedArrays(129), /nests deeper than 128/);
  corrupt(EMPTY_META, nestedArrays(400), /nests deeper than 128/);
  const m = metadata(['k']);
  let o = obj([]);
  for (let i = 1; i < 128; i++) o = obj([[0, o]]);
  decodeVariant(m, o);
  corrupt(m, obj([[0, o]]), /nests deeper than 128/);
});

test('bad objects and arrays are CorruptFileError', () => {
  const m = metadata(['a', 'b']);
  // Field id beyond the dictionary.
  corrupt(m, obj([[2, prim(0)]]), /field id 2, outside the dictionary of 2/);
  // The same key twice: by id, and by two dictionary entries with equal text.
  corrupt(m, obj([[0, prim(0)], [0, prim(1)]]), /key "a" twice/);
  corrupt(metadata(['a', 'a']), obj([[0, prim(0)], [1, prim(1)]]), /key "a" twice/);
  corrupt(metadata(['a', 'b'], true), obj([[1, prim(0)], [1, prim(1)]]), /key "b" twice/);
  // Element count larger than the bytes can hold (checked before any allocation).
  corrupt(m, Uint8Array.of(0x13, 0xff, 0xff, 0xff, 0xff, 0, 0), /array of 4294967295 elements/);
  corrupt(m, Uint8Array.of(0x42, 0xff, 0xff, 0xff, 0xff), /object of 4294967295 elements/);
  corrupt(m, Uint8Array.of(0x03), /array size/);
  corrupt(m, Uint8Array.of(0x03, 2, 0, 1), /array of 2 elements/);
  // Last offset past the end of the bytes.
  corrupt(m, Uint8Array.of(0x03, 1, 0, 9, 0x00), /values of array/);
  // A value offset at or beyond the last offset.
  corrupt(m, Uint8Array.of(0x03, 2, 0, 1, 1, 0x00), /value 1 starts at 1, not before the end/);
  corrupt(m, Uint8Array.of(0x02, 1, 0, 5, 1, 0x00), /value 0 starts at 5/);
  // Two elements starting at the same byte (would let nested values be decoded over and over).
  corrupt(m, Uint8Array.of(0x03, 2, 0, 0, 1, 0x00), /starts at the same offset/);
  // A nested value cannot run into its sibling's bytes: this int32 has 2 of its 4 bytes, and the int16 after it 3.
  corrupt(m, arr([prim(5, 1, 0), prim(4, 7, 0)]), /int32.*needs 4 bytes but only 2/);
  // Array element truncated by its slot.
  corrupt(m, Uint8Array.of(0x03, 1, 0, 1, 0x0c, 7), /int8.*needs 1 bytes but only 0/);
});

test('shared offsets cannot blow up: a self-similar array is rejected at once', () => {
  // 255 elements all pointing at one nested array of 255 elements, nested deeply: exponential work if allowed.
  let v = arr([prim(0)]);
  for (let level = 0; level < 20; level++) {
    v = Uint8Array.from([0x03 | (3 << 2), 255, ...Array.from({ length: 255 }, () => le(0, 4)).flat(), ...le(v.length, 4), ...v]);
  }
  const started = performance.now();
  corrupt(EMPTY_META, v, /same offset/);
  assert.ok(performance.now() - started < 1000);
});

// ---- fuzz ----

function mutate(src: Uint8Array, r: () => number): Uint8Array {
  const b = [...src];
  const edits = 1 + Math.floor(r() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(r() * (b.length + 1));
    switch (Math.floor(r() * 6)) {
      case 0: if (at < b.length) b[at] = Math.floor(r() * 256); break;
      case 1: if (at < b.length) b[at] = b[at]! ^ (1 << Math.floor(r() * 8)); break;
      case 2: b.splice(at, 1 + Math.floor(r() * 4)); break;
      case 3: b.splice(at, 0, ...Array.from({ length: 1 + Math.floor(r() * 4) }, () => Math.floor(r() * 256))); break;
      case 4: b.length = Math.min(b.length, at); break;
      default: if (at < b.length) b[at] = [0, 1, 0xff, 0x7f, 0x80][Math.floor(r() * 5)]!; break;
    }
  }
  return Uint8Array.from(b);
}

test('fuzz: mutated variants give a value or a typed error, never another exception', () => {
  const names = ['array_nested', 'object_nested', 'object_primitive', 'array_primitive', 'primitive_decimal16', 'primitive_string', 'short_string', 'primitive_uuid'];
  const seeds = names.map((n) => [readFileSync(`${CORPUS}${n}.metadata`), readFileSync(`${CORPUS}${n}.value`)] as const);
  const k = ['a', 'b', '__proto__'];
  seeds.push([Buffer.from(metadata(k, true)), Buffer.from(obj([[0, arr([prim(6, ...le(1, 8)), shortString('x')])], [1, nestedArrays(5)]]))]);
  const r = rng(20250417);
  let values = 0;
  let errors = 0;
  for (let i = 0; i < 20000; i++) {
    const [m, v] = seeds[i % seeds.length]!;
    const which = r();
    const meta = which < 0.3 ? mutate(m, r) : m;
    const value = which >= 0.2 ? mutate(v, r) : v;
    try {
      decodeVariant(meta, value);
      values++;
    } catch (e) {
      if (!(e instanceof CorruptFileError || e instanceof UnsupportedError)) {
        assert.fail(`case ${i}: ${String(e)} for metadata ${Buffer.from(meta).toString('hex')} value ${Buffer.from(value).toString('hex')}`);
      }
      errors++;
    }
  }
  assert.ok(values > 1000 && errors > 1000, `${values} values, ${errors} errors`);
});
