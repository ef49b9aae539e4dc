/**
 * The schema tree refuses what rows keyed by name cannot hold: two siblings
 * of one name (docs/decisions/duplicate-sibling-names.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CorruptFileError } from '../../src/errors.js';
import { buildSchema, leavesOf, type SchemaElementLike } from '../../src/schema/tree.js';

const int = (name: string): SchemaElementLike => ({ name, type: 'INT32', repetitionType: 'OPTIONAL' });
const group = (name: string, n: number): SchemaElementLike => ({ name, repetitionType: 'OPTIONAL', numChildren: n });

test('two siblings of one name are a CorruptFileError naming the path; one name in two groups is fine', () => {
  const refused = (elements: SchemaElementLike[], column: string, what: RegExp) =>
    assert.throws(() => buildSchema(elements), (e) => e instanceof CorruptFileError && e.context.column === column && what.test(e.message));
  refused([{ name: 'schema', numChildren: 2 }, int('a'), int('a')], 'a', /the schema has two fields named "a"/);
  // A group and a leaf: the case a reader that keys rows by name drops silently.
  refused([{ name: 'schema', numChildren: 2 }, group('a', 1), int('x'), int('a')], 'a', /two fields named "a"/);
  refused([{ name: 'schema', numChildren: 1 }, group('g', 3), int('x'), int('y'), int('x')], 'g.x', /group "g" has two fields named "x"/);
  const ok = buildSchema([{ name: 'schema', numChildren: 2 }, group('a', 1), int('x'), group('b', 1), int('x')]);
  assert.deepEqual(ok.leaves.map((l) => l.path.join('.')), ['a.x', 'b.x']);
  // Names differing only in case are different names.
  assert.equal(buildSchema([{ name: 'schema', numChildren: 2 }, int('a'), int('A')]).leaves.length, 2);
});

test('the leaves of a group wider than the stack passes arguments (200,000) come back in order', () => {
  const n = 200_000;
  const elements: SchemaElementLike[] = [{ name: 'schema', numChildren: 1 }, group('g', n)];
  for (let i = 0; i < n; i++) elements.push(int(`c${i}`));
  const schema = buildSchema(elements);
  const leaves = leavesOf(schema.root);
  assert.equal(leaves.length, n);
  assert.equal(leaves[n - 1]!.path.join('.'), `g.c${n - 1}`);
});
