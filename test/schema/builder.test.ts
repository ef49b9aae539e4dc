/**
 * The schema builder: what each declaration writes, checked against the
 * schemas real writers put in real files (DuckDB, parquet-java/parquet-mr,
 * Arrow C++, parquet-rs, Impala), plus structure, levels and validation.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { openParquet } from '../../src/node/index.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { defineSchema, field as f, fieldElements, maxDecimalPrecision, minDecimalBytes, type AnyField } from '../../src/schema/builder.js';
import { buildSchema, type SchemaElementLike } from '../../src/schema/tree.js';
import { resolveGroupKind, resolveLeafKind } from '../../src/schema/logical.js';
import type { PhysicalType } from '../../src/encodings/types.js';
import type { SchemaElement } from '../../src/parquet/metadata/types.js';

// From the repository's root, where the suite runs (the test itself runs from a compiled copy: scripts/compiled-tree.mjs).
const CORPUS = join('..', 'shared', 'corpus', 'parquet-testing', 'data');
const SAMPLE = join('examples', 'fixtures', 'sample.parquet');

async function fileSchema(path: string): Promise<SchemaElement[]> {
  const r = await openParquet(path);
  try {
    return r.file.metadata.schema;
  } finally {
    await r.close?.();
  }
}

function kindOf(el: SchemaElement): unknown {
  if (el.type === undefined) return resolveGroupKind(el.logicalType as SchemaElementLike['logicalType'], el.convertedType);
  return resolveLeafKind(el.type as PhysicalType, el.typeLength, el.logicalType as SchemaElementLike['logicalType'], el.convertedType, el.scale, el.precision);
}

interface CompareOptions {
  /** Element names a writer spells differently (old Arrow's list `item`). */
  renames?: Record<string, string>;
  /** Paths (dotted, from the root's child) whose converted type a writer sets where the spec says none. */
  convertedTypeDeviations?: string[];
}

/**
 * Checks that our elements (root excluded) match a real writer's: same
 * names, physical types, widths, repetitions, children, converted types and
 * decimal fields; the same logical type wherever the writer wrote one; and
 * the same resolved meaning everywhere (older writers write no logical types).
 */
function assertSameColumns(ours: SchemaElement[], theirs: SchemaElement[], opts: CompareOptions = {}): void {
  assert.equal(ours.length, theirs.length, 'element count');
  assert.equal(ours[0]!.numChildren, theirs[0]!.numChildren, 'root children');
  const stack: Array<[string, number]> = [];
  for (let i = 1; i < ours.length; i++) {
    const o = ours[i]!;
    const t = theirs[i]!;
    const parent = stack.length ? stack[stack.length - 1]![0] : '';
    const path = parent ? `${parent}.${o.name}` : o.name;
    const at = `element ${i} (${path})`;
    assert.equal(opts.renames?.[t.name] ?? t.name, o.name, `${at}: name`);
    assert.equal(o.type, t.type, `${at}: type`);
    assert.equal(o.typeLength, t.typeLength, `${at}: typeLength`);
    assert.equal(o.repetitionType, t.repetitionType, `${at}: repetition`);
    assert.equal(o.numChildren, t.numChildren, `${at}: numChildren`);
    if (opts.convertedTypeDeviations?.includes(path)) {
      assert.equal(o.convertedType, undefined, `${at}: we write no converted type here`);
      assert.notEqual(t.convertedType, undefined, `${at}: the deviation is still there`);
    } else {
      assert.equal(o.convertedType, t.convertedType, `${at}: convertedType`);
    }
    assert.equal(o.scale, t.scale, `${at}: scale`);
    assert.equal(o.precision, t.precision, `${at}: precision`);
    assert.equal(o.fieldId, t.fieldId, `${at}: fieldId`);
    if (t.logicalType !== undefined) assert.deepEqual(o.logicalType, t.logicalType, `${at}: logicalType`);
    if (!opts.convertedTypeDeviations?.includes(path)) assert.deepEqual(kindOf(o), kindOf(t), `${at}: resolved kind`);
    // Walk the tree to keep paths.
    if (o.numChildren) stack.push([path, o.numChildren]);
    else {
      while (stack.length && --stack[stack.length - 1]![1] === 0) stack.pop();
    }
  }
}

describe('declarations match what real writers write', () => {
  test('DuckDB: examples/fixtures/sample.parquet', async () => {
    const theirs = await fileSchema(SAMPLE);
    const { elements } = defineSchema({
      id: f.integer(64),
      fruit: f.string(),
      price: f.double(),
      discount: f.decimal(9, 2),
      in_stock: f.boolean(),
      updated_at: f.timestamp('MICROS', { utc: false }),
      day: f.date(),
      nullable_qty: f.integer(64),
      tags: f.list(f.integer(64)),
      address: f.struct({ city: f.string(), zip: f.integer(64) }),
      attrs: f.map(f.string(), f.integer(64)),
    });
    // DuckDB sets TIMESTAMP_MICROS on a local timestamp; the legacy type means UTC-adjusted, so we do not.
    assertSameColumns(elements, theirs, { convertedTypeDeviations: ['updated_at'] });
  });

  describe('DuckDB: every type it writes', () => {
    let dir = '';
    let theirs: SchemaElement[] = [];
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'parquetry-builder-'));
      const instance = await DuckDBInstance.create(':memory:');
      const duck = await instance.connect();
      try {
        await duck.run(`SET TimeZone = 'UTC'`);
        const path = join(dir, 'types.parquet');
        await duck.run(`COPY (SELECT
          true::BOOLEAN b, 1::TINYINT i8, 1::SMALLINT i16, 1::INTEGER i32, 1::BIGINT i64,
          1::UTINYINT u8, 1::USMALLINT u16, 1::UINTEGER u32, 1::UBIGINT u64,
          1::FLOAT fl, 1::DOUBLE d, 'a'::VARCHAR s, 'a'::BLOB bl,
          1.5::DECIMAL(4,2) d4, 1.5::DECIMAL(18,3) d18, 1.5::DECIMAL(38,10) d38, 1.5::DECIMAL(10,0) d10,
          DATE '2024-01-01' dt, TIME '10:00:00' t, TIMETZ '10:00:00+00' ttz,
          TIMESTAMP '2024-01-01' ts, TIMESTAMPTZ '2024-01-01' tstz, TIMESTAMP_MS '2024-01-01' tsms, TIMESTAMP_NS '2024-01-01' tsns,
          gen_random_uuid() u, INTERVAL 1 DAY iv, '{}'::JSON j,
          [1, 2] l, [[1]] ll, {'a': 1, 'b': 'x'} st, MAP {'k': [1]} m, [{'a': 1}] ls
        ) TO '${path}' (FORMAT PARQUET)`);
        theirs = await fileSchema(path);
      } finally {
        duck.closeSync();
        instance.closeSync();
      }
    });
    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('same types and annotations', () => {
      const { elements } = defineSchema({
        b: f.boolean(), i8: f.int8(), i16: f.int16(), i32: f.integer(32), i64: f.integer(64),
        u8: f.uint8(), u16: f.uint16(), u32: f.uint32(), u64: f.uint64(),
        fl: f.float(), d: f.double(), s: f.string(), bl: f.binary(),
        d4: f.decimal(4, 2), d18: f.decimal(18, 3), d38: f.decimal(38, 10), d10: f.decimal(10, 0),
        dt: f.date(), t: f.time('MICROS', { utc: false }), ttz: f.time('MICROS', { utc: true }),
        ts: f.timestamp('MICROS', { utc: false }), tstz: f.timestamp('MICROS', { utc: true }),
        tsms: f.timestamp('MILLIS', { utc: false }), tsns: f.timestamp('NANOS', { utc: false }),
        u: f.uuid(), iv: f.interval(), j: f.json(),
        l: f.list(f.integer(32)), ll: f.list(f.list(f.integer(32))), st: f.struct({ a: f.integer(32), b: f.string() }),
        m: f.map(f.string(), f.list(f.integer(32))), ls: f.list(f.struct({ a: f.integer(32) })),
      });
      // DuckDB writes the legacy (UTC-only) converted types on local times and timestamps too.
      assertSameColumns(elements, theirs, { convertedTypeDeviations: ['t', 'ts', 'tsms'] });
    });
  });

  test('Arrow C++: map, float16, string, plain int64', async () => {
    assertSameColumns(defineSchema({ arr: f.map(f.string(), f.int32()) }).elements, await fileSchema(join(CORPUS, 'large_string_map.brotli.parquet')));
    assertSameColumns(defineSchema({ x: f.float16() }).elements, await fileSchema(join(CORPUS, 'float16_nonzeros_and_nans.parquet')));
    assertSameColumns(defineSchema({ a: f.int64(), b: f.string() }).elements, await fileSchema(join(CORPUS, 'sort_columns.parquet')));
    const unknown = await fileSchema(join(CORPUS, 'unknown-logical-type.parquet'));
    assert.deepEqual(fieldElements('column with known type', f.string()), [unknown[1]]);
  });

  test('Arrow C++ (parquet-cpp 1.5): lists, with its old element name "item"', async () => {
    const { elements } = defineSchema({ int64_list: f.list(f.int64()), utf8_list: f.list(f.string()) });
    assertSameColumns(elements, await fileSchema(join(CORPUS, 'list_columns.parquet')), { renames: { item: 'element' } });
  });

  test('parquet-rs: the null type', async () => {
    const { elements } = defineSchema({ emptylist: f.list(f.null()) });
    assertSameColumns(elements, await fileSchema(join(CORPUS, 'null_list.parquet')), { renames: { item: 'element' } });
  });

  test('parquet-mr (Spark): decimals in every storage', async () => {
    assertSameColumns(defineSchema({ value: f.decimal(4, 2) }).elements, await fileSchema(join(CORPUS, 'int32_decimal.parquet')));
    assertSameColumns(defineSchema({ value: f.decimal(10, 2) }).elements, await fileSchema(join(CORPUS, 'int64_decimal.parquet')));
    assertSameColumns(defineSchema({ value: f.decimal(25, 2) }).elements, await fileSchema(join(CORPUS, 'fixed_length_decimal.parquet')));
    assertSameColumns(
      defineSchema({ value: f.decimal(13, 2, { storage: 'FIXED_LEN_BYTE_ARRAY' }) }).elements,
      await fileSchema(join(CORPUS, 'fixed_length_decimal_legacy.parquet')),
    );
    // HVR: BYTE_ARRAY storage and a field id.
    assertSameColumns(
      defineSchema({ value: f.decimal(4, 2, { storage: 'BYTE_ARRAY' }).fieldId(6) }).elements,
      await fileSchema(join(CORPUS, 'byte_array_decimal.parquet')),
    );
  });

  test('parquet-mr (Spark): nested lists and maps, required fields', async () => {
    assertSameColumns(
      defineSchema({ a: f.list(f.list(f.list(f.string()))), b: f.int32().required() }).elements,
      await fileSchema(join(CORPUS, 'nested_lists.snappy.parquet')),
    );
    assertSameColumns(
      defineSchema({
        a: f.map(f.string(), f.map(f.int32(), f.boolean().required())),
        b: f.int32().required(),
        c: f.double().required(),
      }).elements,
      await fileSchema(join(CORPUS, 'nested_maps.snappy.parquet')),
    );
    assertSameColumns(defineSchema({ b_struct: f.struct({ b_c_int: f.int32() }) }).elements, await fileSchema(join(CORPUS, 'nulls.snappy.parquet')));
    assertSameColumns(defineSchema({ a: f.int96() }).elements, await fileSchema(join(CORPUS, 'int96_from_spark.parquet')));
    assertSameColumns(defineSchema({ flba_field: f.fixed(4) }).elements, await fileSchema(join(CORPUS, 'fixed_length_byte_array.parquet')));
  });

  test('Impala: plain physical types', async () => {
    const { elements } = defineSchema({
      id: f.int32(), bool_col: f.boolean(), tinyint_col: f.int32(), smallint_col: f.int32(), int_col: f.int32(),
      bigint_col: f.int64(), float_col: f.float(), double_col: f.double(), date_string_col: f.binary(),
      string_col: f.binary(), timestamp_col: f.int96(),
    });
    assertSameColumns(elements, await fileSchema(join(CORPUS, 'alltypes_plain.parquet')));
  });

  test('parquet-rs: required structs of annotated integers', async () => {
    const theirs = await fileSchema(join(CORPUS, 'nested_structs.rust.parquet'));
    const stats = (t: () => AnyField) =>
      f.struct({ min: t().required(), max: t().required(), mean: t().required(), count: f.uint64().required(), sum: t().required(), variance: t().required() }).required();
    // The first struct of the file: INT_64 statistics with a UINT_64 count.
    const { elements } = defineSchema({ roll_num: stats(() => f.integer(64)) });
    assertSameColumns(elements, [{ ...theirs[0]!, numChildren: 1 }, ...theirs.slice(1, elements.length)]);
  });
});

describe('what each declaration writes', () => {
  test('every leaf type', () => {
    const el = (fb: AnyField) => fieldElements('x', fb)[0]!;
    const { repetitionType: _r, name: _n, ...rest } = el(f.string());
    assert.deepEqual(rest, { type: 'BYTE_ARRAY', convertedType: 'UTF8', logicalType: { type: 'STRING' } });
    assert.deepEqual(el(f.boolean()), { name: 'x', repetitionType: 'OPTIONAL', type: 'BOOLEAN' });
    assert.deepEqual(el(f.int32()), { name: 'x', repetitionType: 'OPTIONAL', type: 'INT32' });
    assert.deepEqual(el(f.int64()), { name: 'x', repetitionType: 'OPTIONAL', type: 'INT64' });
    assert.deepEqual(el(f.float()).type, 'FLOAT');
    assert.deepEqual(el(f.double()).type, 'DOUBLE');
    assert.deepEqual(el(f.int96()).type, 'INT96');
    assert.deepEqual(el(f.binary()), { name: 'x', repetitionType: 'OPTIONAL', type: 'BYTE_ARRAY' });
    assert.deepEqual(el(f.fixed(7)), { name: 'x', repetitionType: 'OPTIONAL', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 7 });
    assert.deepEqual(el(f.enum()), { name: 'x', repetitionType: 'OPTIONAL', type: 'BYTE_ARRAY', convertedType: 'ENUM', logicalType: { type: 'ENUM' } });
    assert.deepEqual(el(f.json()), { name: 'x', repetitionType: 'OPTIONAL', type: 'BYTE_ARRAY', convertedType: 'JSON', logicalType: { type: 'JSON' } });
    assert.deepEqual(el(f.bson()), { name: 'x', repetitionType: 'OPTIONAL', type: 'BYTE_ARRAY', convertedType: 'BSON', logicalType: { type: 'BSON' } });
    assert.deepEqual(el(f.uuid()), { name: 'x', repetitionType: 'OPTIONAL', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logicalType: { type: 'UUID' } });
    assert.deepEqual(el(f.float16()), { name: 'x', repetitionType: 'OPTIONAL', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 2, logicalType: { type: 'FLOAT16' } });
    assert.deepEqual(el(f.interval()), { name: 'x', repetitionType: 'OPTIONAL', type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 12, convertedType: 'INTERVAL' });
    assert.deepEqual(el(f.date()), { name: 'x', repetitionType: 'OPTIONAL', type: 'INT32', convertedType: 'DATE', logicalType: { type: 'DATE' } });
    assert.deepEqual(el(f.null()), { name: 'x', repetitionType: 'OPTIONAL', type: 'INT32', logicalType: { type: 'UNKNOWN' } });
    assert.deepEqual(el(f.geometry()), { name: 'x', repetitionType: 'OPTIONAL', type: 'BYTE_ARRAY', logicalType: { type: 'GEOMETRY' } });
    assert.deepEqual(el(f.geometry('OGC:CRS83')).logicalType, { type: 'GEOMETRY', crs: 'OGC:CRS83' });
    assert.deepEqual(el(f.geography()).logicalType, { type: 'GEOGRAPHY' });
    assert.deepEqual(el(f.geography(undefined, 'KARNEY')).logicalType, { type: 'GEOGRAPHY', algorithm: 'KARNEY' });
  });

  test('integers: INTEGER logical type and INT_n / UINT_n at every width', () => {
    const cases: Array<[AnyField, string, number, boolean, string]> = [
      [f.int8(), 'INT32', 8, true, 'INT_8'], [f.int16(), 'INT32', 16, true, 'INT_16'],
      [f.integer(32), 'INT32', 32, true, 'INT_32'], [f.integer(64), 'INT64', 64, true, 'INT_64'],
      [f.uint8(), 'INT32', 8, false, 'UINT_8'], [f.uint16(), 'INT32', 16, false, 'UINT_16'],
      [f.uint32(), 'INT32', 32, false, 'UINT_32'], [f.uint64(), 'INT64', 64, false, 'UINT_64'],
      [f.integer(8, false), 'INT32', 8, false, 'UINT_8'],
    ];
    for (const [fb, type, bitWidth, isSigned, convertedType] of cases) {
      assert.deepEqual(fieldElements('x', fb)[0], { name: 'x', repetitionType: 'OPTIONAL', type, convertedType, logicalType: { type: 'INTEGER', bitWidth, isSigned } });
    }
  });

  test('times and timestamps: converted type only for UTC-adjusted MILLIS and MICROS', () => {
    const conv = (fb: AnyField) => fieldElements('x', fb)[0]!.convertedType;
    assert.equal(conv(f.time('MILLIS')), 'TIME_MILLIS');
    assert.equal(conv(f.time('MICROS')), 'TIME_MICROS');
    assert.equal(conv(f.time('NANOS')), undefined);
    assert.equal(conv(f.time('MILLIS', { utc: false })), undefined);
    assert.equal(conv(f.timestamp('MILLIS')), 'TIMESTAMP_MILLIS');
    assert.equal(conv(f.timestamp('MICROS')), 'TIMESTAMP_MICROS');
    assert.equal(conv(f.timestamp('NANOS')), undefined);
    assert.equal(conv(f.timestamp('MICROS', { utc: false })), undefined);
    assert.equal(fieldElements('x', f.time('MILLIS'))[0]!.type, 'INT32');
    assert.equal(fieldElements('x', f.time('MICROS'))[0]!.type, 'INT64');
    assert.equal(fieldElements('x', f.time('NANOS'))[0]!.type, 'INT64');
    assert.deepEqual(fieldElements('x', f.timestamp())[0]!.logicalType, { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' });
    assert.deepEqual(fieldElements('x', f.time('NANOS', { utc: false }))[0]!.logicalType, { type: 'TIME', isAdjustedToUTC: false, unit: 'NANOS' });
  });

  test('decimals: storage by precision, minimal FIXED_LEN_BYTE_ARRAY widths, forced storage', () => {
    const el = (fb: AnyField) => fieldElements('x', fb)[0]!;
    assert.equal(el(f.decimal(1)).type, 'INT32');
    assert.equal(el(f.decimal(9, 9)).type, 'INT32');
    assert.equal(el(f.decimal(10, 2)).type, 'INT64');
    assert.equal(el(f.decimal(18, 2)).type, 'INT64');
    assert.deepEqual([el(f.decimal(19)).type, el(f.decimal(19)).typeLength], ['FIXED_LEN_BYTE_ARRAY', 9]);
    assert.equal(el(f.decimal(38, 10)).typeLength, 16);
    assert.equal(el(f.decimal(76)).typeLength, 32);
    assert.equal(el(f.decimal(9, 2, { storage: 'INT64' })).type, 'INT64');
    assert.deepEqual([el(f.decimal(9, 2, { storage: 'FIXED_LEN_BYTE_ARRAY' })).typeLength], [4]);
    assert.deepEqual([el(f.decimal(9, 2, { storage: 'FIXED_LEN_BYTE_ARRAY', byteLength: 16 })).typeLength], [16]);
    const ba = el(f.decimal(40, 5, { storage: 'BYTE_ARRAY' }));
    assert.deepEqual(ba, { name: 'x', repetitionType: 'OPTIONAL', type: 'BYTE_ARRAY', convertedType: 'DECIMAL', scale: 5, precision: 40, logicalType: { type: 'DECIMAL', scale: 5, precision: 40 } });
    // The width table parquet-java and Arrow use.
    const widths = [1, 3, 5, 7, 9, 10, 12, 14, 16, 18].map((p) => minDecimalBytes(p));
    assert.deepEqual(widths, [1, 2, 3, 4, 4, 5, 6, 6, 7, 8]);
    assert.deepEqual([1, 2, 4, 8, 16].map(maxDecimalPrecision), [2, 4, 9, 18, 38]);
  });

  test('nested lists, maps and structs: the standard forms and their levels', () => {
    const { elements, schema } = defineSchema({
      id: f.int64().required(),
      ll: f.list(f.list(f.int32().required())),
      ml: f.map(f.string(), f.list(f.string())),
      ls: f.list(f.struct({ a: f.int32(), b: f.map(f.int32(), f.string().required()) }).required()),
    });
    assert.deepEqual(elements.map((e) => [e.name, e.repetitionType ?? '-', e.numChildren ?? 0, e.convertedType ?? '']), [
      ['schema', '-', 4, ''],
      ['id', 'REQUIRED', 0, ''],
      ['ll', 'OPTIONAL', 1, 'LIST'], ['list', 'REPEATED', 1, ''], ['element', 'OPTIONAL', 1, 'LIST'], ['list', 'REPEATED', 1, ''], ['element', 'REQUIRED', 0, ''],
      ['ml', 'OPTIONAL', 1, 'MAP'], ['key_value', 'REPEATED', 2, ''], ['key', 'REQUIRED', 0, 'UTF8'], ['value', 'OPTIONAL', 1, 'LIST'], ['list', 'REPEATED', 1, ''], ['element', 'OPTIONAL', 0, 'UTF8'],
      ['ls', 'OPTIONAL', 1, 'LIST'], ['list', 'REPEATED', 1, ''], ['element', 'REQUIRED', 2, ''], ['a', 'OPTIONAL', 0, ''],
      ['b', 'OPTIONAL', 1, 'MAP'], ['key_value', 'REPEATED', 2, ''], ['key', 'REQUIRED', 0, ''], ['value', 'REQUIRED', 0, 'UTF8'],
    ]);
    assert.deepEqual(
      schema.leaves.map((l) => [l.path.join('.'), l.defLevel, l.repLevel]),
      [
        ['id', 0, 0],
        ['ll.list.element.list.element', 4, 2],
        ['ml.key_value.key', 2, 1], ['ml.key_value.value.list.element', 5, 2],
        ['ls.list.element.a', 3, 1], ['ls.list.element.b.key_value.key', 4, 2], ['ls.list.element.b.key_value.value', 4, 2],
      ],
    );
    assert.equal(schema.root.children[1]!.isLeaf ? '' : schema.root.children[1]!.kind, 'list');
    assert.equal(schema.root.children[2]!.isLeaf ? '' : schema.root.children[2]!.kind, 'map');
    assert.equal(schema.root.name, 'schema');
    assert.equal(defineSchema({ a: f.int32() }, { name: 'spark_schema' }).elements[0]!.name, 'spark_schema');
  });

  test('a map key is always required; the value keeps its repetition', () => {
    const [, , key, value] = fieldElements('m', f.map(f.string().optional(), f.int32().required()));
    assert.equal(key!.repetitionType, 'REQUIRED');
    assert.equal(value!.repetitionType, 'REQUIRED');
  });

  test('field ids on any node', () => {
    const els = fieldElements('l', f.list(f.int32().fieldId(2)).fieldId(1));
    assert.deepEqual(els.map((e) => e.fieldId), [1, undefined, 2]);
    assert.equal(fieldElements('x', f.int32().fieldId(0))[0]!.fieldId, 0);
  });

  test('builders are immutable and reusable', () => {
    const money = f.decimal(9, 2);
    const req = money.required();
    assert.equal(money.repetition, 'OPTIONAL');
    assert.equal(req.repetition, 'REQUIRED');
    assert.equal(req.optional().repetition, 'OPTIONAL');
    assert.equal(req.fieldId(3).repetition, 'REQUIRED');
    assert.equal(money.id, undefined);
    const { elements } = defineSchema({ a: money, b: req, c: money });
    assert.deepEqual(elements.slice(1).map((e) => e.repetitionType), ['OPTIONAL', 'REQUIRED', 'OPTIONAL']);
  });

  test('[name, field] pairs keep any order and any name, __proto__ included', () => {
    const { elements, schema } = defineSchema([['b', f.int32()], ['1', f.string()], ['__proto__', f.struct([['constructor', f.int32()]])]]);
    assert.deepEqual(elements.map((e) => e.name), ['schema', 'b', '1', '__proto__', 'constructor']);
    assert.deepEqual(schema.leaves.map((l) => l.path.join('.')), ['b', '1', '__proto__.constructor']);
    // With an object, JavaScript puts integer-like keys first.
    assert.deepEqual(defineSchema({ b: f.int32(), 1: f.string() }).elements.map((e) => e.name), ['schema', '1', 'b']);
  });

  test('the elements build the same tree the reader builds from a footer', () => {
    const { elements, schema } = defineSchema({ a: f.list(f.struct({ x: f.decimal(20, 4), y: f.timestamp('NANOS') })) });
    assert.deepEqual(buildSchema(elements), schema);
    assert.deepEqual(schema.leaves.map((l) => l.kind), [
      { kind: 'decimal', precision: 20, scale: 4 },
      { kind: 'timestamp', unit: 'NANOS', utc: true },
    ]);
  });

  test('record types follow the declarations (checked by the type checker)', () => {
    const s = defineSchema({ id: f.int64().required(), name: f.string(), tags: f.list(f.string()), at: f.timestamp().required() });
    type Row = NonNullable<typeof s.__row>;
    const ok: Row = { id: 1n, at: new Date(0) };
    const full: Row = { id: 1, name: null, tags: ['a', null], at: '2024-01-01T00:00:00Z' };
    // @ts-expect-error id is required
    const missing: Row = { at: 0n };
    // @ts-expect-error name is a string
    const wrong: Row = { id: 1n, at: 0n, name: 5 };
    assert.ok(ok && full && missing && wrong);
  });
});

describe('invalid declarations', () => {
  const bad = (fn: () => unknown, message: RegExp) => assert.throws(fn, (e: unknown) => e instanceof InvalidArgumentError && message.test(e.message));

  test('names', () => {
    bad(() => defineSchema({ '': f.int32() }), /non-empty string/);
    bad(() => defineSchema([['a', f.int32()], ['a', f.string()]]), /duplicate field name "a"/);
    bad(() => f.struct([['x', f.int32()], ['x', f.int32()]]), /duplicate field name "x"/);
    bad(() => f.struct({ '': f.int32() }), /non-empty string/);
    bad(() => defineSchema([[1 as unknown as string, f.int32()]]), /non-empty string/);
    bad(() => defineSchema({ a: f.int32() }, { name: '' }), /root name/);
    bad(() => fieldElements('', f.int32()), /non-empty/);
  });

  test('groups without fields', () => {
    bad(() => f.struct({}), /no fields/);
    bad(() => f.struct([]), /no fields/);
    bad(() => defineSchema({}), /no fields/);
  });

  test('things that are not declarations', () => {
    bad(() => defineSchema({ a: 'INT32' as unknown as AnyField }), /not a field declaration/);
    bad(() => f.list({} as AnyField), /not a field declaration/);
    bad(() => f.map(f.string(), 5 as unknown as AnyField), /field declarations/);
    bad(() => defineSchema([['a'] as unknown as [string, AnyField]]), /pairs/);
  });

  test('decimal precision, scale and storage', () => {
    bad(() => f.decimal(0), /precision must be an integer from 1/);
    bad(() => f.decimal(1.5), /precision must be an integer/);
    bad(() => f.decimal(1001), /precision must be an integer from 1 to 1000/);
    bad(() => f.decimal(10, 11), /scale must be an integer from 0 to the precision \(10\)/);
    bad(() => f.decimal(10, -1), /scale/);
    bad(() => f.decimal(10, 0.5), /scale/);
    bad(() => f.decimal(10, 2, { storage: 'INT32' }), /precision 10 does not fit INT32 storage \(at most 9 digits\)/);
    bad(() => f.decimal(19, 2, { storage: 'INT64' }), /precision 19 does not fit INT64/);
    bad(() => f.decimal(20, 2, { storage: 'FIXED_LEN_BYTE_ARRAY', byteLength: 8 }), /does not fit 8 bytes \(at most 18 digits; needs 9 bytes\)/);
    bad(() => f.decimal(5, 2, { storage: 'FIXED_LEN_BYTE_ARRAY', byteLength: 0 }), /byteLength must be a positive integer/);
    bad(() => f.decimal(5, 2, { byteLength: 4 }), /FIXED_LEN_BYTE_ARRAY storage only, not INT32/);
    bad(() => f.decimal(5, 2, { storage: 'DOUBLE' as 'INT32' }), /storage must be/);
  });

  test('widths, units and ids', () => {
    bad(() => f.fixed(0), /byteLength must be a positive/);
    bad(() => f.fixed(2.5), /byteLength/);
    bad(() => f.fixed(2 ** 31), /byteLength/);
    bad(() => f.integer(12 as 8), /bitWidth must be 8, 16, 32 or 64/);
    bad(() => f.time('SECONDS' as 'MILLIS'), /time unit must be/);
    bad(() => f.timestamp('micros' as 'MICROS'), /timestamp unit must be/);
    bad(() => f.int32().fieldId(-1), /field id/);
    bad(() => f.int32().fieldId(1.5), /field id/);
    bad(() => f.int32().fieldId(2 ** 31), /field id/);
  });

  test('a required null type', () => {
    bad(() => f.null().required(), /cannot be required/);
    bad(() => f.map(f.null(), f.int32()), /cannot be required/);
  });

  test('nesting past the depth limit', () => {
    let fb: AnyField = f.int32();
    for (let i = 0; i < 120; i++) fb = f.list(fb);
    bad(() => defineSchema({ deep: fb }), /deeper than 200/);
    let ok: AnyField = f.int32();
    for (let i = 0; i < 50; i++) ok = f.list(ok);
    assert.equal(defineSchema({ deep: ok }).schema.leaves[0]!.repLevel, 50);
  });
});
