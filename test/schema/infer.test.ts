/**
 * Schema inference from records and from CSV: the type rules, narrowing,
 * conflicts, overrides, and the CSV cell parsers agreeing with inference.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../src/errors.js';
import { defineSchema, field as f, fieldElements, type AnyField, type DefinedSchema } from '../../src/schema/builder.js';
import { leafCoercer } from '../../src/schema/coerce.js';
import { csvCellParser, inferSchemaFromCsv, inferSchemaFromRecords } from '../../src/schema/infer.js';
import { valueReader } from '../../src/schema/convert.js';
import type { SchemaElement } from '../../src/parquet/metadata/types.js';
import type { LeafNode } from '../../src/schema/tree.js';
import type { Values } from '../../src/encodings/types.js';

/** The schema must be exactly what declaring `fields` gives. */
function assertSchema(got: DefinedSchema, fields: Record<string, AnyField> | Array<[string, AnyField]>): void {
  assert.deepEqual(got.elements, defineSchema(fields).elements);
}

function bad(fn: () => unknown, ...patterns: RegExp[]): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof InvalidArgumentError, `InvalidArgumentError, not ${String(e)}`);
    for (const p of patterns) assert.match(e.message, p);
    return true;
  });
}

describe('inferSchemaFromRecords', () => {
  test('scalar types, all optional', () => {
    const got = inferSchemaFromRecords([
      { i: 1, big: 2n ** 60n, d: 1.5, s: 'x', b: true, bin: Uint8Array.of(1), buf: new ArrayBuffer(2), at: new Date(0), neg: -3 },
    ]);
    assertSchema(got, {
      i: f.int64(), big: f.int64(), d: f.double(), s: f.string(), b: f.boolean(), bin: f.binary(), buf: f.binary(),
      at: f.timestamp('MILLIS', { utc: true }), neg: f.int64(),
    });
    assert.ok(got.elements.slice(1).every((e: SchemaElement) => e.repetitionType === 'OPTIONAL'));
  });

  test('numbers: integers and others mix to DOUBLE, in either order; unsafe integers are DOUBLE', () => {
    assertSchema(inferSchemaFromRecords([{ a: 1, b: 1.5, c: 1n, e: 2 ** 53, n: NaN }, { a: 2.5, b: 2, c: 0.5 }]), {
      a: f.double(), b: f.double(), c: f.double(), e: f.double(), n: f.double(),
    });
    assertSchema(inferSchemaFromRecords([{ a: 1 }, { a: 2n }, { a: -0 }]), { a: f.int64() });
  });

  test('writeParquet takes overrides for the fields inference would get wrong or cannot type', async () => {
    const { writeParquet, openParquet } = await import('../../src/node/index.js');
    const { BufferSink } = await import('../../src/io/sink.js');
    const rows = [{ id: 1, mixed: '"a"', at: { zip: 12345 } }, { id: 2, mixed: 5, at: { zip: 501 } }];
    await assert.rejects(writeParquet(new BufferSink(), rows), /conflicting types.*give an override for "mixed"/);
    const sink = new BufferSink();
    await writeParquet(sink, rows, { overrides: { id: f.int32().required(), mixed: f.json(), 'at.zip': f.int32() } });
    const reader = await openParquet(sink.bytes());
    assert.deepEqual(reader.schema.leaves.map((l) => [l.path.join('.'), l.physicalType, l.repetition]), [
      ['id', 'INT32', 'REQUIRED'], ['mixed', 'BYTE_ARRAY', 'OPTIONAL'], ['at.zip', 'INT32', 'OPTIONAL'],
    ]);
    assert.deepEqual(await reader.readRows(), [{ id: 1, mixed: '"a"', at: { zip: 12345 } }, { id: 2, mixed: '5', at: { zip: 501 } }]);
  });

  test('bigints beyond INT64 make the field DOUBLE (as CSV text does), and such a column takes them, rounded', async () => {
    const rows = [{ a: 2n ** 63n - 1n, b: -(2n ** 63n), c: 1 }, { a: 2n, b: 3n, c: 12345678901234567890n }, { a: 3n, b: 4n, c: -(2n ** 70n) }];
    const schema = inferSchemaFromRecords(rows);
    assertSchema(schema, { a: f.int64(), b: f.int64(), c: f.double() });
    const { writeParquet, openParquet } = await import('../../src/node/index.js');
    const { BufferSink } = await import('../../src/io/sink.js');
    const sink = new BufferSink();
    await writeParquet(sink, rows);
    const back = await (await openParquet(sink.bytes())).readRows();
    assert.deepEqual(back.map((r) => r.c), [1, 12345678901234567000, -1180591620717411303424]);
    assert.deepEqual(back.map((r) => r.a), [2n ** 63n - 1n, 2n, 3n]);
  });

  test('null and undefined do not constrain; a field never seen with a value is an optional STRING', () => {
    assertSchema(inferSchemaFromRecords([{ a: null, b: undefined, c: null }, { a: 5, c: null }, {}]), { a: f.int64(), b: f.string(), c: f.string() });
  });

  test('fields in first-seen order across records', () => {
    const got = inferSchemaFromRecords([{ b: 1 }, { a: 'x', b: 2 }, { c: true, a: 'y' }]);
    assert.deepEqual(got.elements.slice(1).map((e) => e.name), ['b', 'a', 'c']);
  });

  test('structs: the union of their keys, nested', () => {
    const got = inferSchemaFromRecords([
      { address: { city: 'A', geo: { lat: 1.5 } } },
      { address: null },
      { address: { zip: 12345, geo: { lon: 2 } } },
    ]);
    assertSchema(got, { address: f.struct({ city: f.string(), geo: f.struct({ lat: f.double(), lon: f.int64() }), zip: f.int64() }) });
  });

  test('arrays: LISTs whose element type covers every element of every sample', () => {
    const got = inferSchemaFromRecords([
      { tags: ['a', null], nums: [1, 2], empty: [], nested: [[1], [2.5]], items: [{ x: 1 }] },
      { tags: [], nums: [3.5], empty: [null], nested: [[]], items: [{ y: 'z' }, null] },
    ]);
    assertSchema(got, {
      tags: f.list(f.string()), nums: f.list(f.double()), empty: f.list(f.string()),
      nested: f.list(f.list(f.double())), items: f.list(f.struct({ x: f.int64(), y: f.string() })),
    });
    // elements are optional too
    assert.equal(got.schema.leaves[0]!.element.repetitionType, 'OPTIONAL');
  });

  test('any field name, __proto__ included', () => {
    const records = [JSON.parse('{"__proto__": {"constructor": 1}, "1": "x", "a b": true}') as Record<string, unknown>];
    const got = inferSchemaFromRecords(records);
    assert.deepEqual(got.schema.leaves.map((l) => l.path.join('.')), ['1', '__proto__.constructor', 'a b']);
  });

  test('conflicting types name the path and both types', () => {
    bad(() => inferSchemaFromRecords([{ a: 'x' }, { a: { b: 1 } }]), /field "a" has conflicting types/, /string and object/, /override for "a"/);
    bad(() => inferSchemaFromRecords([{ a: { b: 1 } }, { a: { b: true } }]), /"a\.b"/, /integer and boolean/);
    bad(() => inferSchemaFromRecords([{ t: ['x'] }, { t: [[1]] }]), /"t\.element"/, /string and array/);
    bad(() => inferSchemaFromRecords([{ t: [1] }, { t: 1 }]), /"t"/, /array and integer/);
    bad(() => inferSchemaFromRecords([{ d: new Date(0) }, { d: '2024-01-01' }]), /Date and string/);
    bad(() => inferSchemaFromRecords([{ d: Uint8Array.of(1) }, { d: 1.5 }]), /Uint8Array and number/);
  });

  test('values with no Parquet type', () => {
    bad(() => inferSchemaFromRecords([{ m: new Map() }]), /field "m"/, /Map object/);
    bad(() => inferSchemaFromRecords([{ f: () => 1 }]), /field "f"/, /function/);
    bad(() => inferSchemaFromRecords([{ s: Symbol('x') }]), /field "s"/);
    bad(() => inferSchemaFromRecords([{ o: {} }]), /field "o" is only ever an empty object/);
  });

  test('records must be plain objects, and there must be fields', () => {
    bad(() => inferSchemaFromRecords([[1, 2] as unknown as Record<string, unknown>]), /record 0 is not a plain object/);
    bad(() => inferSchemaFromRecords([{ a: 1 }, null as unknown as Record<string, unknown>]), /record 1/);
    bad(() => inferSchemaFromRecords([]), /no fields/);
    bad(() => inferSchemaFromRecords([{}, {}]), /no fields/);
  });

  describe('overrides', () => {
    test('by top-level name: replaces the inferred field and silences its conflicts', () => {
      const got = inferSchemaFromRecords([{ id: 1, v: 'x', n: 1 }, { v: { a: 1 } }], {
        overrides: { id: f.int64().required(), v: f.json(), n: f.int32() },
      });
      assertSchema(got, { id: f.int64().required(), v: f.json(), n: f.int32() });
    });

    test('by dotted path, inside structs and list elements', () => {
      const got = inferSchemaFromRecords(
        [{ address: { city: 'A', zip: 12345 }, items: [{ price: 1.5, qty: 2 }], tags: ['a'] }],
        { overrides: { 'address.zip': f.string(), 'items.element.price': f.decimal(9, 2), 'tags.element': f.enum().required() } },
      );
      assertSchema(got, {
        address: f.struct({ city: f.string(), zip: f.string() }),
        items: f.list(f.struct({ price: f.decimal(9, 2), qty: f.int64() })),
        tags: f.list(f.enum().required()),
      });
    });

    test('fields the samples never show are added at the end of their struct', () => {
      const got = inferSchemaFromRecords([{ a: 1, s: { x: 1 } }], { overrides: { z: f.date(), 's.y': f.boolean() } });
      assertSchema(got, { a: f.int64(), s: f.struct({ x: f.int64(), y: f.boolean() }), z: f.date() });
      // an override alone makes a schema
      assertSchema(inferSchemaFromRecords([], { overrides: { only: f.string() } }), { only: f.string() });
    });

    test('overrides that cannot apply', () => {
      bad(() => inferSchemaFromRecords([{ a: 1 }], { overrides: { 'a.b': f.int32() } }), /override "a\.b" matches no field/);
      bad(() => inferSchemaFromRecords([{ a: 1 }], { overrides: { 'x.y': f.int32() } }), /override "x\.y" matches no field/);
      bad(() => inferSchemaFromRecords([{ a: { b: 1 } }], { overrides: { a: f.string(), 'a.b': f.int32() } }), /inside the overridden field "a"/);
      bad(() => inferSchemaFromRecords([{ a: 1 }], { overrides: { a: 'INT32' as unknown as AnyField } }), /not a field declaration/);
    });
  });

  test('limit stops sampling', () => {
    assertSchema(inferSchemaFromRecords([{ a: 1 }, { a: 'x' }], { limit: 1 }), { a: f.int64() });
    bad(() => inferSchemaFromRecords([{ a: 1 }], { limit: -1 }), /limit/);
  });

  test('iterables are read once, lazily', () => {
    function* gen() {
      yield { a: 1 };
      yield { b: 'x' };
    }
    assertSchema(inferSchemaFromRecords(gen()), { a: f.int64(), b: f.string() });
  });
});

describe('inferSchemaFromCsv', () => {
  const header = ['bool', 'int', 'dbl', 'date', 'ts', 'str'];

  test('the narrowest type that fits every cell', () => {
    const got = inferSchemaFromCsv(header, [
      ['true', '1', '1', '2024-01-31', '2024-01-31T10:00:00', 'x'],
      ['FALSE', '-42', '2.5', '1999-12-31', '2024-01-31 10:00:00.123456', '1'],
      ['True', '+7', '1e-3', '0001-01-01', '2024-01-31', 'true'],
    ]);
    assertSchema(got, {
      bool: f.boolean(), int: f.int64(), dbl: f.double(), date: f.date(),
      ts: f.timestamp('MICROS', { utc: false }), str: f.string(),
    });
  });

  test('empty cells are nulls and do not constrain; all-empty columns are STRING', () => {
    const got = inferSchemaFromCsv(['a', 'b', 'c'], [['', '', '1'], ['1', '', ''], ['2']]);
    assertSchema(got, { a: f.int64(), b: f.string(), c: f.int64() });
  });

  test('numbers: leading zeros stay text, 64-bit overflow widens to DOUBLE, special values', () => {
    const col = (...cells: string[]) => inferSchemaFromCsv(['x'], cells.map((c) => [c])).elements[1]!;
    const el = (fb: AnyField) => fieldElements('x', fb)[0]!;
    assert.deepEqual(col('007', '12'), el(f.string()));
    assert.deepEqual(col('0', '-0', '10'), el(f.int64()));
    assert.deepEqual(col('00.5'), el(f.string()));
    assert.deepEqual(col('0.5', '.5', '5.', '-1.5E+10'), el(f.double()));
    assert.deepEqual(col('9223372036854775807', '-9223372036854775808'), el(f.int64()));
    assert.deepEqual(col('9223372036854775808'), el(f.double()));
    assert.deepEqual(col('NaN', 'inf', '-Infinity', '1'), el(f.double()));
    assert.deepEqual(col('1', '2', 'nan'), el(f.double()));
    assert.deepEqual(col(' 1'), el(f.string())); // cells are not trimmed
    assert.deepEqual(col('1,5'), el(f.string()));
    assert.deepEqual(col('0x10'), el(f.string()));
    assert.deepEqual(col('1', 'true'), el(f.string()));
    assert.deepEqual(col('yes', 'no'), el(f.string()));
  });

  test('dates and timestamps: calendar checks, zones, units', () => {
    const col = (...cells: string[]) => inferSchemaFromCsv(['x'], cells.map((c) => [c])).elements[1]!;
    const el = (fb: AnyField) => fieldElements('x', fb)[0]!;
    assert.deepEqual(col('2024-02-29'), el(f.date()));
    assert.deepEqual(col('2023-02-29'), el(f.string()));
    assert.deepEqual(col('2024-1-5'), el(f.string()));
    assert.deepEqual(col('2024-01-31', '2024-01-31T10:00:00'), el(f.timestamp('MICROS', { utc: false })));
    assert.deepEqual(col('2024-01-31T10:00:00Z', '2024-01-31T10:00:00+02:00', '2024-02-01'), el(f.timestamp('MICROS', { utc: true })));
    // a mix of zoned and zone-less times is no one kind of timestamp
    assert.deepEqual(col('2024-01-31T10:00:00Z', '2024-01-31T10:00:00'), el(f.string()));
    // digits finer than microseconds: NANOS, when every value fits
    assert.deepEqual(col('2024-01-31T10:00:00.123456789Z'), el(f.timestamp('NANOS', { utc: true })));
    assert.deepEqual(col('2024-01-31T10:00:00.123456000Z'), el(f.timestamp('MICROS', { utc: true })));
    assert.deepEqual(col('2024-01-31T10:00:00.123456789', '2300-01-01T00:00:00'), el(f.string()));
    assert.deepEqual(col('9999-12-31T23:59:59'), el(f.timestamp('MICROS', { utc: false })));
    assert.deepEqual(col('2024-01-31T25:00:00'), el(f.string()));
  });

  test('overrides by column name', () => {
    const got = inferSchemaFromCsv(['zip', 'price'], [['00501', '1.50']], { overrides: { zip: f.int32(), price: f.decimal(9, 2).required() } });
    assertSchema(got, { zip: f.int32(), price: f.decimal(9, 2).required() });
    bad(() => inferSchemaFromCsv(['a'], [], { overrides: { b: f.int32() } }), /override "b" matches no CSV column/);
  });

  test('bad headers and rows', () => {
    bad(() => inferSchemaFromCsv(['a', 'a'], []), /duplicate field name "a"/);
    bad(() => inferSchemaFromCsv(['a', ''], []), /non-empty string/);
    bad(() => inferSchemaFromCsv([], []), /no columns/);
    bad(() => inferSchemaFromCsv(['a'], [['1'], ['1', '2']]), /CSV row 2 has 2 cells but the header names 1 columns/);
  });

  test('limit stops sampling', () => {
    assertSchema(inferSchemaFromCsv(['a'], [['1'], ['x']], { limit: 1 }), { a: f.int64() });
  });
});

describe('csvCellParser', () => {
  /** Cell text → parser → coercer → reader, as the converter will run it. */
  function through(leaf: LeafNode, cell: string, iso = false): unknown {
    const v = csvCellParser(leaf)(cell);
    if (v === null) return null;
    const p = leafCoercer(leaf)(v);
    let values: Values;
    switch (leaf.physicalType) {
      case 'BOOLEAN': values = Uint8Array.of(p ? 1 : 0); break;
      case 'INT32': values = Int32Array.of(p as number); break;
      case 'INT64': values = BigInt64Array.of(p as bigint); break;
      case 'DOUBLE': values = Float64Array.of(p as number); break;
      case 'FLOAT': values = Float32Array.of(p as number); break;
      default: values = { data: p as Uint8Array, offsets: Int32Array.of(0, (p as Uint8Array).length) };
    }
    return valueReader(leaf.kind, values, iso ? { temporal: 'iso' } : {})(0);
  }

  test('inferred columns parse the cells they were inferred from', () => {
    const rows = [
      ['true', '-42', '2.5', '2024-01-31', '2024-01-31T10:00:00.123456', 'x', '2024-01-31T10:00:00.123456789Z'],
      ['FALSE', '9223372036854775807', 'NaN', '1999-12-31', '2024-01-31', '', '2024-01-31T10:00:00+01:00'],
    ];
    const { schema } = inferSchemaFromCsv(['b', 'i', 'd', 'day', 'ts', 's', 'tz'], rows);
    const [b, i, d, day, ts, s, tz] = schema.leaves as [LeafNode, LeafNode, LeafNode, LeafNode, LeafNode, LeafNode, LeafNode];
    assert.equal(through(b, 'true'), true);
    assert.equal(through(b, 'FALSE'), false);
    assert.equal(through(i, '-42'), -42n);
    assert.equal(through(i, '9223372036854775807'), 9223372036854775807n);
    assert.equal(through(d, '2.5'), 2.5);
    assert.ok(Number.isNaN(through(d, 'NaN')));
    assert.equal(through(d, '-inf'), -Infinity);
    assert.equal(through(day, '1999-12-31', true), '1999-12-31');
    assert.equal(through(ts, '2024-01-31T10:00:00.123456', true), '2024-01-31T10:00:00.123456');
    assert.equal(through(ts, '2024-01-31', true), '2024-01-31T00:00:00.000000');
    assert.equal(through(s, 'x'), 'x');
    assert.equal(through(tz, '2024-01-31T10:00:00.123456789Z', true), '2024-01-31T10:00:00.123456789Z');
    assert.equal(through(tz, '2024-01-31T10:00:00+01:00', true), '2024-01-31T09:00:00.000000000Z');
    // empty cells are nulls everywhere
    for (const leaf of schema.leaves) assert.equal(csvCellParser(leaf)(''), null);
  });

  test('declared columns: integers of every width, decimals, times, UUIDs, bytes', () => {
    const { schema } = defineSchema({
      i8: f.int8(), zip: f.int32(), dec: f.decimal(9, 2), t: f.time('MICROS'), u: f.uuid(), raw: f.binary(), j: f.json(), fl: f.float(),
    });
    const [i8, zip, dec, t, u, raw, j, fl] = schema.leaves as LeafNode[];
    assert.equal(through(i8!, '-128'), -128);
    assert.equal(through(zip!, '00501'), 501); // leading zeros are fine in a declared integer column
    assert.equal(through(dec!, '-12.3'), '-12.30');
    assert.equal(through(t!, '10:00:00.5', true), '10:00:00.500000');
    assert.equal(through(u!, '123e4567-e89b-12d3-a456-426614174000'), '123e4567-e89b-12d3-a456-426614174000');
    assert.deepEqual(through(raw!, 'héllo'), new TextEncoder().encode('héllo'));
    assert.equal(through(j!, '{"a":1}'), '{"a":1}');
    assert.equal(through(fl!, '1.5'), 1.5);
    // a field declaration works as well as a leaf
    assert.equal(csvCellParser(f.int64())('12'), 12n);
  });

  test('cells that do not parse, and columns CSV cannot fill', () => {
    const { schema } = defineSchema({ b: f.boolean(), i: f.int64(), d: f.double() });
    const [b, i, d] = schema.leaves as LeafNode[];
    bad(() => csvCellParser(b!)('yes'), /cannot read CSV cell "yes" as a boolean/, /\(column b\)/);
    bad(() => csvCellParser(i!)('1.5'), /as an integer/, /\(column i\)/);
    bad(() => csvCellParser(d!)('1,5'), /as a number/);
    bad(() => csvCellParser(d!)('x'.repeat(100)), /"x{59}…"/);
    // too big for the column: the coercer says so
    bad(() => leafCoercer(i!)(csvCellParser(i!)('9223372036854775808')), /out of range/);
    bad(() => csvCellParser(f.interval()), /no form for INTERVAL/);
    bad(() => csvCellParser(f.null()), /no form for the null type/);
    bad(() => csvCellParser(f.list(f.int32())), /cannot hold a list/);
    bad(() => csvCellParser(f.struct({ a: f.int32() })), /cannot hold a struct/);
  });
});
