/**
 * A dataset's schema is unified from its files' fields whatever their
 * size: a field's elements are added one by one, not spread into push's
 * arguments, which overflowed the stack (an untyped RangeError) for a group
 * of more elements than the stack holds arguments (issue 21).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldRuns, unifySchemas } from '../../src/dataset/schema.js';
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
