import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CorruptFileError } from '../../src/errors.js';
import { assembleVariant } from '../../src/parquet/variant/index.js';
import type { LogicalTypeLike } from '../../src/schema/logical.js';
import { buildSchema, type GroupNode, type SchemaElementLike } from '../../src/schema/tree.js';

// ---- schema declarations ----

interface Decl {
  name: string;
  rep?: 'REQUIRED' | 'OPTIONAL' | 'REPEATED';
  type?: string;
  typeLength?: number;
  lt?: LogicalTypeLike;
  children?: Decl[];
}

function flatten(d: Decl, out: SchemaElementLike[]): void {
  out.push({
    name: d.name, type: d.type, typeLength: d.typeLength, repetitionType: d.rep ?? 'REQUIRED',
    numChildren: d.children?.length, logicalType: d.lt,
  });
  for (const c of d.children ?? []) flatten(c, out);
}

/** The VARIANT group `v` with the given fields (metadata is added unless `withMetadata` is false). */
function variant(fields: Decl[], withMetadata = true): GroupNode {
  const children = withMetadata ? [{ name: 'metadata', type: 'BYTE_ARRAY' }, ...fields] : fields;
  const els: SchemaElementLike[] = [{ name: 'schema', numChildren: 1 }];
  flatten({ name: 'v', rep: 'OPTIONAL', lt: { type: 'VARIANT' }, children }, els);
  return buildSchema(els).root.children[0] as GroupNode;
}

const value: Decl = { name: 'value', rep: 'OPTIONAL', type: 'BYTE_ARRAY' };
const requiredValue: Decl = { name: 'value', type: 'BYTE_ARRAY' };

function typed(type: string, lt?: LogicalTypeLike, typeLength?: number): Decl {
  return { name: 'typed_value', rep: 'OPTIONAL', type, lt, typeLength };
}

function typedGroup(children: Decl[], lt?: LogicalTypeLike): Decl {
  return { name: 'typed_value', rep: 'OPTIONAL', lt, children };
}

/** A shredded object field: a required group of value and typed_value. */
function field(name: string, typedValue?: Decl, rep: 'REQUIRED' | 'OPTIONAL' = 'REQUIRED'): Decl {
  return { name, rep, children: typedValue ? [value, typedValue] : [value] };
}

/** A 3-level LIST typed_value whose elements are value/typed_value groups. */
function typedList(elementTyped?: Decl): Decl {
  const element: Decl = { name: 'element', children: elementTyped ? [value, elementTyped] : [value] };
  return typedGroup([{ name: 'list', rep: 'REPEATED', children: [element] }], { type: 'LIST' });
}

const STRING = { type: 'STRING' };

// ---- encoded values ----

const utf8 = new TextEncoder();
const EMPTY_META = Uint8Array.of(0x01, 0x00, 0x00);
const NULL = Uint8Array.of(0x00);

function str(s: string): Uint8Array {
  const b = utf8.encode(s);
  return Uint8Array.of((b.length << 2) | 1, ...b);
}

/** Sorted metadata for short keys (1-byte offsets). */
function meta(keys: string[]): Uint8Array {
  const bytes = keys.map((k) => [...utf8.encode(k)]);
  const offsets = [0];
  for (const b of bytes) offsets.push(offsets[offsets.length - 1]! + b.length);
  return Uint8Array.from([0x11, keys.length, ...offsets, ...bytes.flat()]);
}

/** An object value with 1-byte ids and offsets; `fields` must be given in key order. */
function objValue(fields: [number, Uint8Array][]): Uint8Array {
  const offsets = [0];
  for (const [, v] of fields) offsets.push(offsets[offsets.length - 1]! + v.length);
  return Uint8Array.from([0x02, fields.length, ...fields.map(([id]) => id), ...offsets, ...fields.flatMap(([, v]) => [...v])]);
}

function rejects(parts: Record<string, unknown>, node: GroupNode, re: RegExp): void {
  assert.throws(() => assembleVariant(parts, node), (e: unknown) => e instanceof CorruptFileError && re.test(e.message) && e.context.column === 'v');
}

// ---- tests ----

test('unshredded variants decode their value', () => {
  const node = variant([requiredValue]);
  assert.equal(assembleVariant({ metadata: EMPTY_META, value: Uint8Array.of(0x0c, 34) }, node), 34);
  const m = meta(['a', 'b']);
  assert.deepEqual(assembleVariant({ metadata: m, value: objValue([[0, str('x')], [1, Uint8Array.of(0x03, 0x01, 0x00, 0x01, 0x00)]]) }, node), { a: 'x', b: [null] });
  rejects({ metadata: null, value: NULL }, node, /metadata is not binary/);
  rejects({ metadata: Uint8Array.of(0x01, 5), value: NULL }, node, /cannot hold their offsets/);
});

test('shredded primitive: the spec example 34, null, "n/a", 100', () => {
  const node = variant([value, typed('INT64')]);
  const rows: [Record<string, unknown>, unknown][] = [
    [{ metadata: EMPTY_META, value: null, typed_value: 34n }, 34],
    [{ metadata: EMPTY_META, value: NULL, typed_value: null }, null],
    [{ metadata: EMPTY_META, value: Uint8Array.of(0x0d, 0x6e, 0x2f, 0x61), typed_value: null }, 'n/a'],
    [{ metadata: EMPTY_META, value: null, typed_value: 100n }, 100],
    // Missing where a value is required reads as variant null.
    [{ metadata: EMPTY_META, value: null, typed_value: null }, null],
    [{ metadata: EMPTY_META, value: null, typed_value: 2n ** 60n }, 2n ** 60n],
  ];
  for (const [parts, want] of rows) assert.deepEqual(assembleVariant(parts, node), want);
  // Both set for a primitive: invalid (VariantShredding.md, parquet-testing case 42).
  rejects({ metadata: EMPTY_META, value: str('str'), typed_value: 34n }, node, /both value and typed_value/);
});

test('every shreddable leaf type converts to the variant form', () => {
  const cases: [Decl, unknown, unknown][] = [
    [typed('BOOLEAN'), false, false],
    [typed('INT32', { type: 'INTEGER', bitWidth: 8, isSigned: true }), -34, -34],
    [typed('INT32', { type: 'INTEGER', bitWidth: 16, isSigned: true }), 1234, 1234],
    [typed('INT32'), -12345, -12345],
    [typed('INT64'), -9876543210n, -9876543210],
    [typed('INT64'), -(2n ** 63n), -(2n ** 63n)],
    [typed('FLOAT'), Math.fround(10.11), Math.fround(10.11)],
    [typed('DOUBLE'), -0, -0],
    [typed('INT32', { type: 'DECIMAL', precision: 9, scale: 4 }), '-12345.6789', '-12345.6789'],
    [typed('INT64', { type: 'DECIMAL', precision: 18, scale: 9 }), '123456789.987654321', '123456789.987654321'],
    [typed('FIXED_LEN_BYTE_ARRAY', { type: 'DECIMAL', precision: 38, scale: 9 }, 16), '9876543210.123456789', '9876543210.123456789'],
    [typed('BYTE_ARRAY', { type: 'DECIMAL', precision: 20, scale: 0 }), '7', '7'],
    // 20034 days after 1970-01-01 is 2024-11-07; -4438 days before is 1957-11-07.
    [typed('INT32', { type: 'DATE' }), 20034, '2024-11-07'],
    [typed('INT32', { type: 'DATE' }), -4438, '1957-11-07'],
    // 12:33:54.123456 = 45234.123456 s.
    [typed('INT64', { type: 'TIME', unit: 'MICROS', isAdjustedToUTC: false }), 45234123456n, '12:33:54.123456'],
    [typed('INT64', { type: 'TIMESTAMP', unit: 'MICROS', isAdjustedToUTC: true }), 1730982834123456n, '2024-11-07T12:33:54.123456Z'],
    [typed('INT64', { type: 'TIMESTAMP', unit: 'MICROS', isAdjustedToUTC: false }), -383397965876544n, '1957-11-07T12:33:54.123456'],
    [typed('INT64', { type: 'TIMESTAMP', unit: 'NANOS', isAdjustedToUTC: true }), 1730982834123456789n, '2024-11-07T12:33:54.123456789Z'],
    [typed('INT64', { type: 'TIMESTAMP', unit: 'NANOS', isAdjustedToUTC: false }), -383397965876543211n, '1957-11-07T12:33:54.123456789'],
    [typed('BYTE_ARRAY', STRING), 'iceberg', 'iceberg'],
    [typed('BYTE_ARRAY'), Uint8Array.of(10, 11, 12, 13), Uint8Array.of(10, 11, 12, 13)],
    [typed('FIXED_LEN_BYTE_ARRAY', { type: 'UUID' }, 16), 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56', 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56'],
  ];
  for (const [decl, input, want] of cases) {
    const node = variant([value, decl]);
    assert.deepEqual(assembleVariant({ metadata: EMPTY_META, value: null, typed_value: input }, node), want, `${decl.type} ${JSON.stringify(decl.lt)}`);
  }
  rejects(
    { metadata: EMPTY_META, value: null, typed_value: 86_400_000_000n },
    variant([value, typed('INT64', { type: 'TIME', unit: 'MICROS', isAdjustedToUTC: false })]),
    /outside/,
  );
});

test('typed_value types outside the shredding table are rejected for the whole column', () => {
  const bad: [Decl, RegExp][] = [
    [typed('INT32', { type: 'INTEGER', bitWidth: 32, isSigned: false }), /INT32 \(INTEGER\)/],
    [typed('FIXED_LEN_BYTE_ARRAY', undefined, 4), /FIXED_LEN_BYTE_ARRAY at v.typed_value/],
    [typed('FIXED_LEN_BYTE_ARRAY', STRING, 4), /FIXED_LEN_BYTE_ARRAY \(STRING\)/],
    [typed('INT96'), /INT96/],
    [typed('INT64', { type: 'TIMESTAMP', unit: 'MILLIS', isAdjustedToUTC: true }), /TIMESTAMP/],
    [typed('INT32', { type: 'TIME', unit: 'MILLIS', isAdjustedToUTC: false }), /TIME/],
    [typed('INT64', { type: 'TIME', unit: 'MICROS', isAdjustedToUTC: true }), /TIME/],
    [typed('FIXED_LEN_BYTE_ARRAY', { type: 'FLOAT16' }, 2), /FLOAT16/],
    [typed('FIXED_LEN_BYTE_ARRAY', { type: 'INTERVAL' }, 12), /unsupported shredded value type/],
    [typedGroup([{ name: 'key_value', rep: 'REPEATED', children: [{ name: 'key', type: 'BYTE_ARRAY' }] }], { type: 'MAP' }), /map group/],
  ];
  for (const [decl, re] of bad) {
    // Even a row that uses only `value` fails: the schema itself is invalid (parquet-testing cases 127 and 137).
    rejects({ metadata: EMPTY_META, value: NULL, typed_value: null }, variant([value, decl]), re);
  }
});

test('schema shape errors', () => {
  rejects({ value: NULL }, variant([requiredValue], false), /no binary metadata/);
  rejects({ metadata: EMPTY_META }, variant([]), /neither value nor typed_value/);
  rejects({ metadata: EMPTY_META, value: NULL }, variant([value, { name: 'extra', type: 'INT32' }]), /unexpected field v.extra/);
  rejects({ metadata: EMPTY_META, value: NULL }, variant([{ name: 'value', type: 'INT32' }]), /unexpected field v.value/);
  rejects({ metadata: EMPTY_META, value: NULL }, variant([value, typedGroup([{ name: 'a', type: 'INT32' }])]), /field v.typed_value.a must be a group/);
  rejects({ metadata: EMPTY_META, value: NULL }, variant([value, typedGroup([field('a', { name: 'other', type: 'INT32' })])]), /unexpected field v.typed_value.a.other/);
  rejects(
    { metadata: EMPTY_META, value: NULL },
    variant([value, typedGroup([{ name: 'list', rep: 'REPEATED', type: 'BYTE_ARRAY' }], { type: 'LIST' })]),
    /not a list of element groups/,
  );
  rejects(
    { metadata: EMPTY_META, value: NULL },
    variant([value, typedGroup([{ name: 'list', rep: 'REPEATED', children: [{ name: 'element', type: 'BYTE_ARRAY' }] }], { type: 'LIST' })]),
    /element v.typed_value.list.element must be a group/,
  );
});

/** The spec's `event` example: event_type (string) and event_ts (timestamp micros, UTC) shredded. */
const eventNode = variant([
  value,
  typedGroup([
    field('event_type', typed('BYTE_ARRAY', STRING)),
    field('event_ts', typed('INT64', { type: 'TIMESTAMP', unit: 'MICROS', isAdjustedToUTC: true })),
  ]),
]);
const EVENT_KEYS = ['click', 'email', 'error_msg', 'event_ts', 'event_type'];
const EVENT_META = meta(EVENT_KEYS);
const [CLICK, EMAIL, ERROR_MSG, EVENT_TYPE] = [0, 1, 2, 4];

function event(value: Uint8Array | null, typedValue: null | Record<string, [Uint8Array | null, unknown]>): Record<string, unknown> {
  const tv = typedValue && Object.fromEntries(Object.entries(typedValue).map(([k, [v, t]]) => [k, { value: v, typed_value: t }]));
  return { metadata: EVENT_META, value, typed_value: tv };
}

test('shredded object: every row of the spec table', () => {
  const missing: [null, null] = [null, null];
  // 1729794114937 us = 20 days + 1794.114937 s: 1970-01-21T00:29:54.114937Z.
  const ts = (us: bigint): [null, bigint] => [null, us];
  const rows: [Record<string, unknown>, unknown][] = [
    [event(null, { event_type: [null, 'noop'], event_ts: ts(1729794114937n) }), { event_ts: '1970-01-21T00:29:54.114937Z', event_type: 'noop' }],
    [
      event(objValue([[EMAIL, str('user@example.com')]]), { event_type: [null, 'login'], event_ts: ts(1729794146402n) }),
      { email: 'user@example.com', event_ts: '1970-01-21T00:29:54.146402Z', event_type: 'login' },
    ],
    [event(objValue([[ERROR_MSG, str('malformed: ...')]]), { event_type: missing, event_ts: missing }), { error_msg: 'malformed: ...' }],
    [event(str('malformed: not an object'), null), 'malformed: not an object'],
    [event(objValue([[CLICK, str('_button')]]), { event_type: missing, event_ts: ts(1729794240241n) }), { click: '_button', event_ts: '1970-01-21T00:29:54.240241Z' }],
    [event(null, { event_type: [NULL, null], event_ts: ts(1729794954163n) }), { event_ts: '1970-01-21T00:29:54.954163Z', event_type: null }],
    [event(null, { event_type: [null, 'noop'], event_ts: [str('2024-10-24'), null] }), { event_ts: '2024-10-24', event_type: 'noop' }],
    [event(null, { event_type: missing, event_ts: missing }), {}],
    [event(NULL, null), null],
    [event(null, null), null],
  ];
  for (const [parts, want] of rows) {
    const got = assembleVariant(parts, eventNode);
    assert.deepEqual(got, want);
    if (want && typeof want === 'object') assert.deepEqual(Object.keys(got as object), Object.keys(want));
  }
});

test('shredded object: invalid rows', () => {
  // typed_value present but value is not an object (parquet-testing cases 87 and 128).
  rejects(event(str('a'), { event_type: [null, null], event_ts: [null, null] }), eventNode, /partially shredded object is not an object/);
  rejects(event(NULL, { event_type: [null, null], event_ts: [null, null] }), eventNode, /partially shredded object is not an object/);
  // A field with both value and typed_value.
  rejects(event(null, { event_type: [str('x'), 'login'], event_ts: [null, null] }), eventNode, /both value and typed_value/);
});

test('shredded object: a residual key that is also a shredded field yields to the shredded column', () => {
  // Invalid data; the spec lets readers use the shredded value (parquet-testing cases 43 and 125).
  const residual = objValue([[EVENT_TYPE, str('stale')]]);
  assert.deepEqual(assembleVariant(event(residual, { event_type: [null, 'login'], event_ts: [null, null] }), eventNode), { event_type: 'login' });
  assert.deepEqual(assembleVariant(event(residual, { event_type: [null, null], event_ts: [null, null] }), eventNode), {});
});

test('shredded object: an optional field group that is null means the field is missing', () => {
  const node = variant([value, typedGroup([field('a', typed('INT32'), 'OPTIONAL'), field('b', typed('BYTE_ARRAY', STRING))])]);
  const m = meta(['a', 'b']);
  assert.deepEqual(assembleVariant({ metadata: m, value: null, typed_value: { a: null, b: { value: null, typed_value: 'x' } } }, node), { b: 'x' });
  // A field with only a value column.
  const valueOnly = variant([value, typedGroup([field('a')])]);
  assert.deepEqual(assembleVariant({ metadata: m, value: null, typed_value: { a: { value: str('v') } } }, valueOnly), { a: 'v' });
  assert.deepEqual(assembleVariant({ metadata: m, value: null, typed_value: { a: { value: null } } }, valueOnly), {});
});

test('shredded object: keys in UTF-8 byte order across shredded and residual fields; __proto__ is a plain key', () => {
  const m = meta(['__proto__', 'a', 'z', '\u00e9', '\uff01', '\u{1f600}']);
  const node = variant([value, typedGroup([field('\u{1f600}', typed('INT32')), field('z', typed('INT32')), field('__proto__', typed('INT32'))])]);
  const got = assembleVariant(
    {
      metadata: m,
      value: objValue([[1, str('a')], [3, str('e')], [4, str('!')]]),
      typed_value: Object.defineProperty({ '\u{1f600}': { value: null, typed_value: 1 }, z: { value: null, typed_value: 2 } }, '__proto__', {
        value: { value: null, typed_value: 3 }, enumerable: true,
      }),
    },
    node,
  ) as Record<string, unknown>;
  assert.deepEqual(Object.keys(got), ['__proto__', 'a', 'z', '\u00e9', '\uff01', '\u{1f600}']);
  assert.equal(Object.getPrototypeOf(got), Object.prototype);
  assert.equal(JSON.stringify(got), '{"__proto__":3,"a":"a","z":2,"é":"e","！":"!","😀":1}');
});

test('shredded array: the spec tags example', () => {
  const node = variant([value, typedList(typed('BYTE_ARRAY', STRING))]);
  const el = (v: Uint8Array | null, t: string | null) => ({ value: v, typed_value: t });
  const rows: [unknown, Uint8Array | null, unknown][] = [
    [[el(null, 'comedy'), el(null, 'drama')], null, ['comedy', 'drama']],
    [[el(null, 'horror'), el(NULL, null)], null, ['horror', null]],
    [[el(null, 'comedy'), el(null, 'drama'), el(null, 'romance')], null, ['comedy', 'drama', 'romance']],
    [null, NULL, null],
    [[], null, []],
    // An element that is missing altogether cannot be encoded; it reads as variant null (parquet-testing case 85).
    [[el(null, null)], null, [null]],
    // An element that did not fit the shredded type.
    [[el(Uint8Array.of(0x0c, 7), null)], null, [7]],
    // Not an array at all.
    [null, str('solo'), 'solo'],
  ];
  for (const [typedValue, v, want] of rows) assert.deepEqual(assembleVariant({ metadata: EMPTY_META, value: v, typed_value: typedValue }, node), want);
  rejects({ metadata: EMPTY_META, value: str('x'), typed_value: [] }, node, /both value and typed_value are set for a shredded array/);
  // An element with both (parquet-testing case 40).
  rejects({ metadata: EMPTY_META, value: null, typed_value: [el(str('x'), 'comedy')] }, node, /both value and typed_value are set for a shredded primitive/);
  // Elements with only a value column (parquet-testing case 88).
  const valueOnly = variant([value, typedList()]);
  assert.deepEqual(assembleVariant({ metadata: EMPTY_META, value: null, typed_value: [{ value: str('a') }, { value: NULL }] }, valueOnly), ['a', null]);
});

test('nested shredding: objects in objects, arrays of objects, arrays of arrays', () => {
  const keys = ['event_ts', 'event_type', 'extra', 'latitude', 'location', 'longitude', 'tags'];
  const m = meta(keys);
  const node = variant([
    value,
    typedGroup([
      field('event_type', typed('BYTE_ARRAY', STRING)),
      field('location', typedGroup([field('latitude', typed('DOUBLE')), field('longitude', typed('DOUBLE'))])),
      field('tags', typedList(typed('BYTE_ARRAY', STRING))),
    ]),
  ]);
  const tv = (t: unknown, v: Uint8Array | null = null) => ({ value: v, typed_value: t });
  const parts = {
    metadata: m,
    value: objValue([[2, str('more')]]),
    typed_value: {
      event_type: tv('login'),
      location: tv({ latitude: tv(52.5), longitude: tv(null, str('east')) }, objValue([[0, str('x')]])),
      tags: tv([tv('a'), tv(null, Uint8Array.of(0x0c, 1))]),
    },
  };
  const got = assembleVariant(parts, node);
  assert.deepEqual(got, { event_type: 'login', extra: 'more', location: { event_ts: 'x', latitude: 52.5, longitude: 'east' }, tags: ['a', 1] });
  assert.deepEqual(Object.keys((got as { location: object }).location), ['event_ts', 'latitude', 'longitude']);

  const arrays = variant([value, typedList(typedList(typed('INT32')))]);
  assert.deepEqual(
    assembleVariant({ metadata: EMPTY_META, value: null, typed_value: [tv([tv(1), tv(2)]), tv([]), tv(null, NULL)] }, arrays),
    [[1, 2], [], null],
  );
  const objects = variant([value, typedList(typedGroup([field('a', typed('INT32')), field('b', typed('BYTE_ARRAY', STRING))]))]);
  assert.deepEqual(
    assembleVariant(
      { metadata: meta(['a', 'b', 'c']), value: null, typed_value: [tv({ a: tv(1), b: tv('comedy') }, null), tv({ a: tv(3), b: tv(null, null) }, objValue([[2, str('str')]]))] },
      objects,
    ),
    [{ a: 1, b: 'comedy' }, { a: 3, c: 'str' }],
  );
});

test('nesting depth counts across shredded levels and encoded values', () => {
  const node = variant([value, typedGroup([field('k')])]);
  const m = meta(['k']);
  const nested = (levels: number): Uint8Array => {
    let v = Uint8Array.of(0x03, 0x00, 0x00);
    for (let i = 1; i < levels; i++) {
      // 4-byte offsets fit any size here.
      v = Uint8Array.from([0x03 | (3 << 2), 1, 0, 0, 0, 0, ...new Uint8Array(Uint32Array.of(v.length).buffer), ...v]);
    }
    return v;
  };
  // The shredded object is level 1, so its field may hold 127 more levels and no more.
  const ok = assembleVariant({ metadata: m, value: null, typed_value: { k: { value: nested(127) } } }, node) as { k: unknown };
  assert.ok(Array.isArray(ok.k));
  rejects({ metadata: m, value: null, typed_value: { k: { value: nested(128) } } }, node, /nests deeper than 128/);
});

test('reader values of the wrong shape are CorruptFileError, never a raw exception', () => {
  const list = variant([value, typedList(typed('INT32'))]);
  rejects({ metadata: EMPTY_META, value: null, typed_value: { not: 'a list' } }, list, /not a list/);
  rejects({ metadata: EMPTY_META, value: null, typed_value: [5] }, list, /element is not a group/);
  rejects({ metadata: EMPTY_META, value: 'text', typed_value: null }, list, /value is not binary/);
  rejects({ metadata: EMPTY_META, value: null, typed_value: 'x' }, eventNode, /shredded object is not a group/);
});
