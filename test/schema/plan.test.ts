/**
 * LIST and MAP resolution: the backward-compatibility rules of
 * parquet-format's LogicalTypes.md, on the schemas it gives as examples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchema, type SchemaElementLike } from '../../src/schema/tree.js';
import { planRecord, type Plan } from '../../src/shred/plan.js';

function shape(p: Plan): unknown {
  switch (p.t) {
    case 'leaf': return p.leaf.name;
    case 'struct': return Object.fromEntries(p.fields.map((f) => [f.name, shape(f.plan)]));
    case 'list': return [shape(p.element)];
    case 'map': return { map: [p.keyName, p.valueName ?? null] };
    case 'variant': return 'variant';
  }
}

function plan(children: SchemaElementLike[]): unknown {
  const root = { name: 'schema', numChildren: 1 };
  return shape(planRecord(buildSchema([root, ...children]).root).fields[0]!.plan);
}

const LIST = { convertedType: 'LIST' };

test('standard three-level list: element is the repeated group\'s only child', () => {
  assert.deepEqual(plan([
    { name: 'my_list', repetitionType: 'OPTIONAL', numChildren: 1, ...LIST },
    { name: 'list', repetitionType: 'REPEATED', numChildren: 1 },
    { name: 'element', type: 'INT32', repetitionType: 'OPTIONAL' },
  ]), ['element']);
});

test('two-level list of a repeated primitive', () => {
  assert.deepEqual(plan([
    { name: 'my_list', repetitionType: 'OPTIONAL', numChildren: 1, ...LIST },
    { name: 'element', type: 'INT32', repetitionType: 'REPEATED' },
  ]), ['element']);
});

test('repeated group with two fields: elements are structs', () => {
  assert.deepEqual(plan([
    { name: 'my_list', repetitionType: 'OPTIONAL', numChildren: 1, ...LIST },
    { name: 'element', repetitionType: 'REPEATED', numChildren: 2 },
    { name: 'str', type: 'BYTE_ARRAY', repetitionType: 'REQUIRED' },
    { name: 'num', type: 'INT32', repetitionType: 'REQUIRED' },
  ]), [{ str: 'str', num: 'num' }]);
});

test('repeated group named array or <name>_tuple: one-field structs', () => {
  for (const name of ['array', 'my_list_tuple']) {
    assert.deepEqual(plan([
      { name: 'my_list', repetitionType: 'OPTIONAL', numChildren: 1, ...LIST },
      { name, repetitionType: 'REPEATED', numChildren: 1 },
      { name: 'str', type: 'BYTE_ARRAY', repetitionType: 'REQUIRED' },
    ]), [{ str: 'str' }]);
  }
});

test('a bare repeated field is a required list of itself', () => {
  assert.deepEqual(plan([{ name: 'r', type: 'INT32', repetitionType: 'REPEATED' }]), ['r']);
});

test('MAP and MAP_KEY_VALUE, with and without a value field', () => {
  for (const convertedType of ['MAP', 'MAP_KEY_VALUE']) {
    assert.deepEqual(plan([
      { name: 'm', repetitionType: 'OPTIONAL', numChildren: 1, convertedType },
      { name: 'key_value', repetitionType: 'REPEATED', numChildren: 2 },
      { name: 'key', type: 'BYTE_ARRAY', repetitionType: 'REQUIRED' },
      { name: 'value', type: 'INT32', repetitionType: 'OPTIONAL' },
    ]), { map: ['key', 'value'] });
  }
  assert.deepEqual(plan([
    { name: 'm', repetitionType: 'OPTIONAL', numChildren: 1, convertedType: 'MAP' },
    { name: 'key_value', repetitionType: 'REPEATED', numChildren: 1 },
    { name: 'key', type: 'BYTE_ARRAY', repetitionType: 'REQUIRED' },
  ]), { map: ['key', null] });
});

test('schemas that claim more children than exist are corrupt', () => {
  assert.throws(() => buildSchema([{ name: 'schema', numChildren: 3 }, { name: 'a', type: 'INT32' }]), /claims 3 children/);
});
