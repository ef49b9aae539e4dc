import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { CorruptFileError, InvalidArgumentError } from '../../src/errors.js';
import {
  T,
  compileStruct,
  decodeStruct,
  encodeStruct,
  readListHeader,
  readI32,
  readI64Number,
  readString,
  skipValue,
  writeFieldHeader,
  writeListHeader,
  camelCase,
} from '../../src/parquet/thrift/index.js';
import type { StructCodec, StructSpec } from '../../src/parquet/thrift/index.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

/** Decodes through decodeStruct (its error handling included): the value and where the struct ended. */
function decodeAt<T>(codec: StructCodec<T>, buf: Uint8Array): { value: T; pos: number } {
  const c = new ByteCursor(buf);
  const value = decodeStruct(codec, c);
  return { value, pos: c.pos };
}

/** Asserts decoding fails with a CorruptFileError (and nothing else). */
function corrupts(codec: StructCodec<unknown>, buf: Uint8Array, match?: RegExp): void {
  assert.throws(() => decodeStruct(codec, new ByteCursor(buf)), (e: unknown) => {
    assert.ok(e instanceof CorruptFileError, `expected CorruptFileError, got ${String(e)}`);
    if (match) assert.match(e.message, match);
    return true;
  });
}

function encode<T>(codec: StructCodec<T>, v: T): Uint8Array {
  const w = new ByteWriter();
  encodeStruct(codec.spec, v, w);
  return w.finish().slice();
}

const Inner = T.struct('Inner', [
  [1, 'a', T.i32, 'required'],
  [2, 'b_name', T.string, 'optional'],
]);

const Color = T.enum('Color', { RED: 0, GREEN: 1, BLUE: 5 });
const Unit = T.unitUnion('Unit', [
  [1, 'MILLIS'],
  [2, 'MICROS'],
]);
const Dec = T.struct('Dec', [
  [1, 'scale', T.i32, 'required'],
  [2, 'precision', T.i32, 'required'],
]);
const Empty = T.struct('Empty');
const Choice = T.union('Choice', [
  [1, 'PLAIN', Empty],
  [5, 'DECIMAL', Dec],
]);

const All = T.struct('All', [
  [1, 'flag', T.bool, 'optional'],
  [2, 'other_flag', T.bool, 'optional'],
  [3, 'tiny', T.i8, 'optional'],
  [4, 'small', T.i16, 'optional'],
  [5, 'num', T.i32, 'optional'],
  [6, 'big', T.i64, 'optional'],
  [7, 'huge', T.i64big, 'optional'],
  [8, 'real', T.double, 'optional'],
  [9, 'text', T.string, 'optional'],
  [10, 'blob', T.binary, 'optional'],
  [11, 'ints', T.list(T.i32), 'optional'],
  [12, 'names', T.set(T.string), 'optional'],
  [13, 'inner', Inner, 'optional'],
  [14, 'inners', T.list(Inner), 'optional'],
  [15, 'bools', T.list(T.bool), 'optional'],
  [16, 'lookup', T.map(T.string, T.list(T.i64)), 'optional'],
  [17, 'color', Color, 'optional'],
  [18, 'unit', Unit, 'optional'],
  [19, 'choice', Choice, 'optional'],
  [20, 'id', T.uuid, 'optional'],
  [40, 'far', T.i32, 'optional'],
  [41, 'nested', T.list(T.list(T.i32)), 'optional'],
]);
const AllCodec = compileStruct<Record<string, unknown>>(All);

test('camelCase of thrift names', () => {
  assert.equal(camelCase('num_values'), 'numValues');
  assert.equal(camelCase('isAdjustedToUTC'), 'isAdjustedToUTC');
  assert.equal(camelCase('is_max_value_exact'), 'isMaxValueExact');
  assert.equal(camelCase('repetition_level_histogram'), 'repetitionLevelHistogram');
});

test('field header short form (delta) and long form (zig-zag i16 id)', () => {
  // 0x55: delta 5, type 5 (i32) = field 5; value zigzag(1)=2; stop
  assert.deepEqual(decodeAt(AllCodec, bytes(0x55, 0x02, 0x00)).value, { num: 1 });
  // id 40 after 5 is a delta of 35: long form 0x05, zigzag(40)=80=0x50, value zigzag(-3)=5
  const buf = bytes(0x55, 0x02, 0x05, 0x50, 0x05, 0x00);
  assert.deepEqual(decodeAt(AllCodec, buf).value, { num: 1, far: -3 });
  assert.deepEqual(encode(AllCodec, { num: 1, far: -3 }), buf);
  // the long form is legal for small ids too
  assert.deepEqual(decodeAt(AllCodec, bytes(0x05, 0x0a, 0x02, 0x00)).value, { num: 1 });
});

test('bools live in the field header: 1 = true, 2 = false', () => {
  const buf = bytes(0x11, 0x12, 0x00); // id 1 true, id 2 (delta 1) false
  assert.deepEqual(decodeAt(AllCodec, buf).value, { flag: true, otherFlag: false });
  assert.deepEqual(encode(AllCodec, { flag: true, otherFlag: false }), buf);
});

test('i8, i16, negative i32 zig-zag, i64 as number and bigint, double', () => {
  // -150 -> zigzag 299 = 0xAB 0x02
  const v = {
    tiny: -2,
    small: -300,
    num: -150,
    big: 2 ** 53 - 1,
    huge: -(2n ** 63n),
    real: 1.5,
  };
  const buf = encode(AllCodec, v);
  assert.deepEqual(
    buf,
    bytes(
      0x33, 0xfe, // i8 -2 raw byte
      0x14, 0xd7, 0x04, // i16 -300 -> 599
      0x15, 0xab, 0x02, // i32 -150 -> 299
      0x16, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, // i64 2^53-1 -> 2^54-2
      0x16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, // -(2^63) -> 2^64-1
      0x17, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, // 1.5 little endian
      0x00,
    ),
  );
  assert.deepEqual(decodeAt(AllCodec, buf).value, v);
  // min i32
  assert.equal(readI32(new ByteCursor(bytes(0xff, 0xff, 0xff, 0xff, 0x0f))), -2147483648);
  assert.equal(readI32(new ByteCursor(bytes(0xfe, 0xff, 0xff, 0xff, 0x0f))), 2147483647);
});

test('an i64 beyond the safe range is corrupt where a number is expected', () => {
  // zigzag 2^54 -> value 2^53 (not safe)
  const w = new ByteWriter();
  w.zigzag64(2n ** 53n);
  assert.throws(() => readI64Number(new ByteCursor(w.finish())), CorruptFileError);
  corrupts(AllCodec, bytes(0x66, ...w.finish(), 0x00), /safe integer/);
  const w2 = new ByteWriter();
  w2.zigzag64(-(2n ** 53n) + 1n);
  assert.equal(readI64Number(new ByteCursor(w2.finish())), -(2 ** 53) + 1);
});

test('strings are UTF-8, invalid sequences replaced, BOM kept; binary is a copy', () => {
  const buf = bytes(0x98, 0x05, 0x68, 0xc3, 0xa9, 0xff, 0x21, 0x18, 0x02, 0x01, 0x02, 0x00);
  const { value } = decodeAt(AllCodec, buf);
  assert.equal(value.text, 'h\u00e9\ufffd!');
  const blob = value.blob as Uint8Array;
  assert.deepEqual(blob, bytes(1, 2));
  buf[9] = 99;
  assert.equal(blob[0], 1, 'binary does not alias the input');
  assert.equal(readString(new ByteCursor(bytes(3, 0xef, 0xbb, 0xbf))), '\ufeff');
  const long = 'x'.repeat(100) + '\u4e2d\u6587';
  assert.deepEqual(decodeAt(AllCodec, encode(AllCodec, { text: long })).value, { text: long });
});

test('lists: short header (size < 15) and long header (size varint)', () => {
  const short = encode(AllCodec, { ints: [1, -1, 2] });
  assert.deepEqual(short, bytes(0xb9, 0x35, 0x02, 0x01, 0x04, 0x00));
  const many = Array.from({ length: 20 }, (_, i) => i);
  const long = encode(AllCodec, { ints: many });
  assert.deepEqual(long.subarray(0, 3), bytes(0xb9, 0xf5, 20));
  assert.deepEqual(decodeAt(AllCodec, long).value, { ints: many });
  // 14 is the last short size, 15 the first long one
  assert.deepEqual(readListHeader(new ByteCursor(bytes(0xe5, ...new Array(14).fill(0)))), { elemType: 5, size: 14 });
  assert.deepEqual(readListHeader(new ByteCursor(bytes(0xf5, 15, ...new Array(15).fill(0)))), { elemType: 5, size: 15 });
  // a set reads like a list; empty lists
  assert.deepEqual(decodeAt(AllCodec, bytes(0xca, 0x28, 0x01, 0x61, 0x01, 0x62, 0x00)).value, { names: ['a', 'b'] });
  assert.deepEqual(decodeAt(AllCodec, bytes(0xb9, 0x05, 0x00)).value, { ints: [] });
  // an empty list may carry any element type (even 0)
  assert.deepEqual(decodeAt(AllCodec, bytes(0xb9, 0x00, 0x00)).value, { ints: [] });
});

test('bool list elements are bytes: written 1/2, read 1 = true, 0 or 2 = false; element type 1 or 2', () => {
  const buf = encode(AllCodec, { bools: [true, false, true] });
  assert.deepEqual(buf, bytes(0xf9, 0x31, 1, 2, 1, 0x00));
  assert.deepEqual(decodeAt(AllCodec, buf).value, { bools: [true, false, true] });
  assert.deepEqual(decodeAt(AllCodec, bytes(0xf9, 0x32, 1, 0, 2, 0x00)).value, { bools: [true, false, false] });
});

test('nested struct, list of structs, map, uuid, nested lists', () => {
  const v = {
    inner: { a: 7, bName: 'x' },
    inners: [{ a: 1 }, { a: 2, bName: 'two' }],
    lookup: new Map([
      ['k', [1, 2]],
      ['empty', []],
    ]),
    id: Uint8Array.from({ length: 16 }, (_, i) => i),
    nested: [[1], [], [2, 3]],
  };
  const buf = encode(AllCodec, v);
  assert.deepEqual(decodeAt(AllCodec, buf).value, v);
  // hand-worked nested struct: field 13 (struct) { 1: i32 7 } stop, stop
  assert.deepEqual(decodeAt(AllCodec, bytes(0xdc, 0x15, 0x0e, 0x00, 0x00)).value, { inner: { a: 7 } });
  // empty map is one zero byte
  assert.deepEqual(decodeAt(AllCodec, bytes(0x0b, 0x20, 0x00, 0x00)).value, { lookup: new Map() });
});

test('enums read as names, unknown values as UNKNOWN_<n>, and write back', () => {
  assert.deepEqual(decodeAt(AllCodec, bytes(0x05, 0x22, 0x0a, 0x00)).value, { color: 'BLUE' });
  assert.deepEqual(decodeAt(AllCodec, bytes(0x05, 0x22, 0x06, 0x00)).value, { color: 'UNKNOWN_3' });
  assert.deepEqual(decodeAt(AllCodec, bytes(0x05, 0x22, 0xc8, 0x01, 0x00)).value, { color: 'UNKNOWN_100' });
  assert.deepEqual(decodeAt(AllCodec, bytes(0x05, 0x22, 0x01, 0x00)).value, { color: 'UNKNOWN_-1' });
  assert.deepEqual(encode(AllCodec, { color: 'UNKNOWN_3' }), bytes(0x05, 0x22, 0x06, 0x00));
  assert.throws(() => encode(AllCodec, { color: 'PURPLE' }), InvalidArgumentError);
});

test('unions: member with fields, empty member, unit union, unknown member, empty union', () => {
  const dec = { choice: { type: 'DECIMAL', scale: 2, precision: 9 } };
  assert.deepEqual(decodeAt(AllCodec, encode(AllCodec, dec)).value, dec);
  assert.deepEqual(decodeAt(AllCodec, encode(AllCodec, { choice: { type: 'PLAIN' } })).value, { choice: { type: 'PLAIN' } });
  assert.deepEqual(decodeAt(AllCodec, encode(AllCodec, { unit: 'MICROS' })).value, { unit: 'MICROS' });
  // field 19 union { field 9: struct {} }
  const unknown = bytes(0x0c, 0x26, 0x9c, 0x00, 0x00, 0x00);
  assert.deepEqual(decodeAt(AllCodec, unknown).value, { choice: { type: 'UNKNOWN_FIELD_9' } });
  assert.deepEqual(decodeAt(AllCodec, encode(AllCodec, { choice: { type: 'UNKNOWN_FIELD_9' } })).value, {
    choice: { type: 'UNKNOWN_FIELD_9' },
  });
  // an unknown member that is not even a struct
  assert.deepEqual(decodeAt(AllCodec, bytes(0x0c, 0x26, 0x35, 0x02, 0x00, 0x00)).value, { choice: { type: 'UNKNOWN_FIELD_3' } });
  // an empty union
  assert.deepEqual(decodeAt(AllCodec, bytes(0x0c, 0x26, 0x00, 0x00)).value, { choice: { type: 'UNKNOWN_FIELD_0' } });
  assert.deepEqual(encode(AllCodec, { choice: { type: 'UNKNOWN_FIELD_0' } }), bytes(0x0c, 0x26, 0x00, 0x00));
  assert.deepEqual(decodeAt(AllCodec, bytes(0x0c, 0x24, 0x00, 0x00)).value, { unit: 'UNKNOWN_FIELD_0' });
  // a unit union member holding data is still that member
  assert.deepEqual(decodeAt(AllCodec, bytes(0x0c, 0x24, 0x1c, 0x15, 0x02, 0x00, 0x00, 0x00)).value, { unit: 'MILLIS' });
  // two members set: the first wins
  assert.deepEqual(decodeAt(AllCodec, bytes(0x0c, 0x26, 0x1c, 0x00, 0x4c, 0x15, 0x02, 0x15, 0x02, 0x00, 0x00, 0x00)).value, {
    choice: { type: 'PLAIN' },
  });
});

// The same struct as Small, plus an extra field of every type, interleaved.
const Big = T.struct('Big', [
  [1, 'a', T.i32, 'required'],
  [2, 'x_bool_t', T.bool],
  [3, 'x_bool_f', T.bool],
  [4, 'x_i8', T.i8],
  [5, 'x_i16', T.i16],
  [6, 'x_i32', T.i32],
  [7, 'x_i64', T.i64big],
  [8, 'x_double', T.double],
  [9, 'x_binary', T.binary],
  [10, 'x_list', T.list(T.i64)],
  [11, 'x_set', T.set(T.string)],
  [12, 'x_map', T.map(T.i32, T.list(T.bool))],
  [13, 'x_struct', T.struct('X', [[1, 'deep', T.struct('Y', [[3, 'deeper', T.list(Inner)], [4, 'd', T.double]])], [2, 's', T.string]])],
  [14, 'x_structs', T.list(Inner)],
  [15, 'x_uuid', T.uuid],
  [16, 'x_bools', T.list(T.bool)],
  [17, 'x_doubles', T.list(T.double)],
  [18, 'x_lists', T.list(T.list(T.string))],
  [19, 'b', T.string, 'required'],
  [300, 'x_far', T.struct('Far', [[1000, 'z', T.i32]])],
  [301, 'c', T.list(T.i32), 'required'],
]);
const Small = T.struct('Small', [
  [1, 'a', T.i32, 'required'],
  [19, 'b', T.string, 'required'],
  [301, 'c', T.list(T.i32), 'required'],
]);

test('unknown fields of every type, at any depth, are skipped', () => {
  const big = {
    a: 1,
    xBoolT: true,
    xBoolF: false,
    xI8: -1,
    xI16: 1000,
    xI32: -100000,
    xI64: 2n ** 62n,
    xDouble: Math.PI,
    xBinary: bytes(1, 2, 3),
    xList: [1, 2, 3],
    xSet: ['p', 'q'],
    xMap: new Map([[1, [true, false]]]),
    xStruct: { deep: { deeper: [{ a: 1, bName: 'n' }], d: 2 }, s: 'str' },
    xStructs: Array.from({ length: 20 }, (_, i) => ({ a: i })),
    xUuid: new Uint8Array(16).fill(7),
    xBools: [true, false],
    xDoubles: [1, 2],
    xLists: [['a'], []],
    b: 'bee',
    xFar: { z: 5 },
    c: [9],
  };
  const BigCodec = compileStruct<Record<string, unknown>>(Big);
  const buf = encode(BigCodec, big);
  assert.deepEqual(decodeAt(BigCodec, buf).value, big);
  const { value, pos } = decodeAt(compileStruct(Small), buf);
  assert.deepEqual(value, { a: 1, b: 'bee', c: [9] });
  assert.equal(pos, buf.length);
  // and skipValue alone walks the whole struct
  const c = new ByteCursor(buf);
  skipValue(c, 12, 0);
  assert.equal(c.pos, buf.length);
});

test('a known field with the wrong wire type is skipped; if required it is then missing', () => {
  // field 5 ("num", i32) sent as a string
  assert.deepEqual(decodeAt(AllCodec, bytes(0x58, 0x01, 0x41, 0x00)).value, {});
  // field 11 (list<i32>) sent as a list<string>: skipped whole
  assert.deepEqual(decodeAt(AllCodec, bytes(0xb9, 0x28, 0x01, 0x41, 0x01, 0x42, 0x05, 0x0a, 0x02, 0x00)).value, { num: 1 });
  const InnerCodec = compileStruct(Inner);
  corrupts(InnerCodec, bytes(0x18, 0x01, 0x41, 0x00), /Inner: required field a \(id 1\) is BINARY where I32 is expected/);
  corrupts(InnerCodec, bytes(0x00), /Inner: required field a \(id 1\) is missing/);
});

test('a required field of the wrong wire type or element types is named with what came instead and where', () => {
  const Req = T.struct('Req', [
    [1, 'xs', T.list(T.i32), 'required'],
    [2, 'm', T.map(T.string, T.list(T.i64)), 'required'],
    [3, 'flag', T.bool, 'required'],
  ]);
  const codec = compileStruct(Req);
  const at = (offset: number, message: RegExp) => (e: unknown) => e instanceof CorruptFileError && e.context.offset === offset && message.test(e.message);
  const fails = (buf: Uint8Array, check: (e: unknown) => boolean) => assert.throws(() => decodeStruct(codec, new ByteCursor(buf)), check);
  const map = [0x1b, 0x01, 0x89, 0x01, 0x6b, 0x16, 0x00, 0x11]; // field 2: {"k": [0]}, then field 3 = true
  // field 1 as a list of two i16 (header at offset 1)
  fails(bytes(0x19, 0x24, 0x02, 0x04, ...map, 0x00), at(1, /Req: required field xs \(id 1\) is LIST<I16> where LIST<I32> is expected/));
  // field 1 as an i32 (value at offset 1)
  fails(bytes(0x15, 0x02, ...map, 0x00), at(1, /Req: required field xs \(id 1\) is I32 where LIST<I32> is expected/));
  // field 2 as a map of string to i32: its value at offset 4
  fails(bytes(0x19, 0x15, 0x02, 0x1b, 0x01, 0x85, 0x01, 0x6b, 0x02, 0x11, 0x00), at(4, /Req: required field m \(id 2\) is MAP<BINARY,I32> where MAP<BINARY,LIST<I64>> is expected/));
  // field 3 as a byte
  fails(bytes(0x19, 0x15, 0x02, ...map.slice(0, -1), 0x13, 0x01, 0x00), at(11, /Req: required field flag \(id 3\) is I8 where BOOL is expected/));
  // a wrong one first, then the right one: the field is there
  assert.deepEqual(decodeAt(codec, bytes(0x15, 0x02, 0x09, 0x02, 0x15, 0x02, ...map, 0x00)).value, { xs: [1], m: new Map([['k', [0]]]), flag: true });
});

test('nesting deeper than the limit is corrupt, never a stack overflow', () => {
  // 100 nested unknown structs: field 99 (long form) of type struct, repeatedly
  const w = new ByteWriter();
  for (let i = 0; i < 100; i++) writeFieldHeader(w, 12, 99, 0);
  for (let i = 0; i <= 100; i++) w.u8(0);
  corrupts(AllCodec, w.finish(), /nesting deeper/);
  // 10000 nested list<list<...>> headers
  const deep = new Uint8Array(10002);
  deep[0] = 0xb9;
  deep.fill(0x19, 1); // list of 1 list element
  corrupts(AllCodec, deep, /nesting deeper|end of data/);
  // within the limit is fine
  const ok = new ByteWriter();
  for (let i = 0; i < 30; i++) writeFieldHeader(ok, 12, 99, 0);
  for (let i = 0; i <= 30; i++) ok.u8(0);
  assert.deepEqual(decodeAt(AllCodec, ok.finish()).value, {});
});

test('a list claiming 2^31 elements in a few bytes is corrupt without a big allocation', () => {
  // field 11 list<i32>, long size form: 2^31 - 1 and 2^31 elements
  corrupts(AllCodec, bytes(0xb9, 0xf5, 0xff, 0xff, 0xff, 0xff, 0x07, 1, 2, 3), /needs at least 2147483647 bytes/);
  corrupts(AllCodec, bytes(0xb9, 0xf5, 0x80, 0x80, 0x80, 0x80, 0x08, 1, 2, 3), /negative/);
  // doubles need 8 bytes each: 3 doubles in 16 bytes is too few (unknown field 99)
  corrupts(AllCodec, bytes(0x09, 0xc6, 0x01, 0x37, ...new Array(16).fill(0)), /needs at least 24 bytes/);
  // unknown field: the skip path checks too
  corrupts(AllCodec, bytes(0x09, 0x7e, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0, 0), /needs at least/);
  // list of structs: one byte (a stop) each at least
  corrupts(AllCodec, bytes(0xe9, 0xfc, 0x80, 0x01, 0, 0, 0), /needs at least 128 bytes/);
  // a map: at least key + value bytes per entry
  corrupts(AllCodec, bytes(0x0b, 0x20, 0x80, 0x08, 0x89, 0, 0), /map of 1024 entries/);
  // strings: length against bytes left
  corrupts(AllCodec, bytes(0x98, 0xff, 0xff, 0xff, 0xff, 0x07, 0x41), /binary of 2147483647 bytes/);
  // a varint too long for 32 bits
  corrupts(AllCodec, bytes(0x55, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x00), /32 bits/);
  // bad element type, bad field type
  corrupts(AllCodec, bytes(0xb9, 0x1e, 0x00, 0x00), /not a valid type/);
  corrupts(AllCodec, bytes(0x5e, 0x00), /unknown compact type 14/);
});

test('writer: headers, list sizes, and refusing values that do not fit', () => {
  const w = new ByteWriter();
  writeFieldHeader(w, 5, 1, 0);
  writeFieldHeader(w, 5, 16, 1); // delta 15: still short
  writeFieldHeader(w, 5, 17, 0); // delta 17: long
  writeFieldHeader(w, 5, 3, 17); // backwards: long
  writeListHeader(w, 8, 14);
  writeListHeader(w, 8, 15);
  writeListHeader(w, 8, 300);
  assert.deepEqual(w.finish(), bytes(0x15, 0xf5, 0x05, 0x22, 0x05, 0x06, 0xe8, 0xf8, 0x0f, 0xf8, 0xac, 0x02));
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ num: 2 ** 31 }, /All\.num \(i32\)/],
    [{ num: 1.5 }, /i32/],
    [{ tiny: 200 }, /i8/],
    [{ small: 40000 }, /i16/],
    [{ big: 2 ** 60 }, /i64/],
    [{ huge: 2n ** 64n }, /i64/],
    [{ text: 5 }, /string/],
    [{ blob: 'x' }, /binary/],
    [{ ints: 'x' }, /list/],
    [{ ints: [1, 'x'] }, /All\.ints\[\]/],
    [{ inner: { bName: 'no a' } }, /Inner\.a is required/],
    [{ flag: 'yes' }, /bool/],
    [{ unit: 'SECONDS' }, /no member/],
    [{ choice: { type: 'NOPE' } }, /no member/],
    [{ id: new Uint8Array(3) }, /uuid/],
  ];
  for (const [v, re] of bad) {
    assert.throws(
      () => encode(AllCodec, v),
      (e: unknown) => e instanceof InvalidArgumentError && re.test(e.message),
      JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x)),
    );
  }
  // i64 numbers on both sides of the fast path
  for (const n of [0, 1, -1, 0x3fffffff, 0x40000000, -0x40000000, -(2 ** 53) + 1, 2 ** 40]) {
    assert.deepEqual(decodeAt(AllCodec, encode(AllCodec, { big: n })).value, { big: n });
  }
});

test('struct tables are checked when built', () => {
  assert.throws(() => T.struct('Dup', [[1, 'a', T.i32], [1, 'b', T.i32]]), /duplicate field id 1/);
  const s: StructSpec = T.struct('Ordered', [[2, 'b', T.i32], [1, 'a', T.i32]]);
  assert.deepEqual(s.fields.map((f) => f.id), [1, 2]);
});
