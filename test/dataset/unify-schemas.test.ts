/**
 * A dataset's schema is unified from its files' fields whatever their
 * size: a field's elements are added one by one, not spread into push's
 * arguments, which overflowed the stack (an untyped RangeError) for a group
 * of more elements than the stack holds arguments (issue 21).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldRuns, unifySchemas } from '../../src/dataset/schema.js';
import { CorruptFileError } from '../../src/errors.js';
import type { SchemaElement } from '../../src/parquet/metadata/index.js';

test('a group of 300,000 leaves unifies into the dataset schema, every element kept in order', () => {
  const leaves = 300_000;
  const elements: SchemaElement[] = [
    { name: 'schema', numChildren: 2 },
    { name: 'id', type: 'INT64', repetitionType: 'REQUIRED' },
    { name: 'g', repetitionType: 'OPTIONAL', numChildren: leaves },
  ];
  for (let i = 0; i < leaves; i++) elements.push({ name: `c${i}`, type: 'INT32', repetitionType: 'OPTIONAL' });
  for (const unionByName of [false, true]) {
    const out = unifySchemas([{ file: 'a.parquet', runs: fieldRuns(elements) }, { file: 'b.parquet', runs: fieldRuns(elements) }], unionByName);
    assert.equal(out.length, elements.length);
    assert.deepStrictEqual(out.map((e) => e.name), elements.map((e) => e.name));
  }
});

test("a footer's flattened schema whose child counts claim more elements than it lists is a CorruptFileError naming the file, at any depth", () => {
  const shapes: { label: string; elements: SchemaElement[] }[] = [
    // The fuzz's finding: the root repeated in place of its first field.
    { label: 'root repeated', elements: [{ name: 'schema', numChildren: 2 }, { name: 'schema', numChildren: 2 }, { name: 'a', type: 'INT32', repetitionType: 'OPTIONAL' }] },
    { label: 'a group short of children', elements: [{ name: 'schema', numChildren: 1 }, { name: 'g', repetitionType: 'OPTIONAL', numChildren: 3 }, { name: 'x', type: 'INT32', repetitionType: 'OPTIONAL' }] },
    { label: 'more fields than elements', elements: [{ name: 'schema', numChildren: 5 }, { name: 'a', type: 'INT32', repetitionType: 'OPTIONAL' }] },
  ];
  // 100,000 nested groups, each claiming one child, the last claiming two: a recursive walk overflowed the stack before the count ran out.
  const deep: SchemaElement[] = [{ name: 'schema', numChildren: 1 }];
  for (let i = 0; i < 100_000; i++) deep.push({ name: `g${i}`, repetitionType: 'OPTIONAL', numChildren: i === 99_999 ? 2 : 1 });
  deep.push({ name: 'leaf', type: 'INT32', repetitionType: 'OPTIONAL' });
  shapes.push({ label: 'deep', elements: deep });
  for (const { label, elements } of shapes) {
    assert.throws(() => fieldRuns(elements, 'p.parquet'), (e: unknown) => e instanceof CorruptFileError && /fewer than its child counts claim/.test(e.message) && /p\.parquet/.test(e.message), label);
  }
  // The same depth, whole, is one field holding every element.
  deep[deep.length - 2] = { ...deep[deep.length - 2]!, numChildren: 1 };
  const runs = fieldRuns(deep);
  assert.equal(runs.length, 1);
  assert.equal(runs[0]!.elements.length, deep.length - 1);
});
