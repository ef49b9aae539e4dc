/** A column named `__proto__` (or constructor, toString...) is just a column: an own property, and no prototype changes. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalRow } from '../../src/node/entries/inspect.js';
import { openParquet, type ParquetReader } from '../../src/node/index.js';
import { DuckFiles, collect } from './helpers.js';

let files: DuckFiles;
let reader: ParquetReader;

before(async () => {
  files = await DuckFiles.create();
  const path = await files.write('proto.parquet', `SELECT i::INTEGER AS "__proto__", 'c' || i AS "constructor", i % 2 = 0 AS "toString",
      {'__proto__': {'polluted': i::INTEGER}, 'hasOwnProperty': 'h'} AS s,
      [{'__proto__': i::INTEGER}] AS l,
      MAP {'__proto__': i::INTEGER} AS m
    FROM range(3) t(i)`);
  reader = await openParquet(path);
});
after(async () => {
  await reader.close();
  files.close();
});

function assertClean(): void {
  const probe = {} as Record<string, unknown>;
  assert.equal(probe.polluted, undefined, 'Object.prototype gained no property');
  assert.equal(Object.getPrototypeOf(probe), Object.prototype);
  assert.equal(typeof probe.toString, 'function');
  assert.equal(typeof probe.hasOwnProperty, 'function');
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).filter((k) => !['constructor', '__defineGetter__', '__defineSetter__', 'hasOwnProperty', '__lookupGetter__', '__lookupSetter__', 'isPrototypeOf', 'propertyIsEnumerable', 'toString', 'valueOf', '__proto__', 'toLocaleString'].includes(k)), []);
}

const own = (o: unknown, k: string): unknown => Object.getOwnPropertyDescriptor(o as object, k)?.value;

test('the schema has the column', () => {
  assert.deepEqual(reader.schema.leaves.map((l) => l.path.join('.')), [
    '__proto__', 'constructor', 'toString', 's.__proto__.polluted', 's.hasOwnProperty', 'l.list.element.__proto__', 'm.key_value.key', 'm.key_value.value',
  ]);
});

test('__proto__, constructor and toString are own properties holding the values', async () => {
  const rows = await collect(reader);
  assert.equal(rows.length, 3);
  rows.forEach((row, i) => {
    assert.ok(Object.hasOwn(row, '__proto__'));
    assert.equal(own(row, '__proto__'), i);
    assert.equal(own(row, 'constructor'), `c${i}`);
    assert.equal(own(row, 'toString'), i % 2 === 0);
    assert.deepEqual(Object.keys(row), ['__proto__', 'constructor', 'toString', 's', 'l', 'm']);
    const proto = Object.getPrototypeOf(row);
    assert.ok(proto === Object.prototype || proto === null, 'a row is a plain object (or has no prototype)');
    const s = own(row, 's');
    assert.deepEqual(own(own(s, '__proto__'), 'polluted'), i);
    assert.equal(own(s, 'hasOwnProperty'), 'h');
    assert.equal(own((row.l as unknown[])[0], '__proto__'), i);
    assert.deepEqual(row.m, [{ key: '__proto__', value: i }]);
  });
  assertClean();
});

test('canonical rows print the fields', async () => {
  const plan = reader.plan();
  const rows = await collect(reader, { limit: 1 });
  assert.equal(canonicalRow(plan, rows[0]!),
    '{"__proto__":0,"constructor":"c0","toString":true,"s":{"__proto__":{"polluted":0},"hasOwnProperty":"h"},"l":[{"__proto__":0}],"m":[{"key":"__proto__","value":0}]}');
  assertClean();
});

test('projection by those names', async () => {
  const rows = await collect(reader, { columns: ['__proto__', 's.__proto__'] });
  rows.forEach((row, i) => {
    assert.deepEqual(Object.keys(row), ['__proto__', 's']);
    assert.equal(own(row, '__proto__'), i);
    assert.equal(own(own(own(row, 's'), '__proto__'), 'polluted'), i);
  });
  const only = await collect(reader, { columns: ['constructor'] });
  assert.deepEqual(only.map((r) => own(r, 'constructor')), ['c0', 'c1', 'c2']);
  assertClean();
});

test('the minimal case from the brief: SELECT 1 AS "__proto__"', async () => {
  const path = await files.write('one.parquet', 'SELECT 1 AS "__proto__"');
  const r = await openParquet(path);
  try {
    const [row] = await collect(r);
    assert.ok(Object.hasOwn(row!, '__proto__'));
    assert.equal(own(row, '__proto__'), 1);
    assert.equal(canonicalRow(r.plan(), row!), '{"__proto__":1}');
  } finally {
    await r.close();
  }
  assertClean();
});
