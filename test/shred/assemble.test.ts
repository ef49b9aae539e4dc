/**
 * Record assembly on the Dremel paper's own example (Melnik et al., 2010,
 * figures 2 and 3): the Document schema, its two records, and the
 * repetition/definition levels the paper lists for every column.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchema, type SchemaElementLike } from '../../src/schema/tree.js';
import { planRecord } from '../../src/shred/plan.js';
import { RecordAssembler, type LeafColumn } from '../../src/shred/assemble.js';
import { CorruptFileError } from '../../src/errors.js';

const DOCUMENT: SchemaElementLike[] = [
  { name: 'Document', numChildren: 3 },
  { name: 'DocId', type: 'INT64', repetitionType: 'REQUIRED' },
  { name: 'Links', repetitionType: 'OPTIONAL', numChildren: 2 },
  { name: 'Backward', type: 'INT64', repetitionType: 'REPEATED' },
  { name: 'Forward', type: 'INT64', repetitionType: 'REPEATED' },
  { name: 'Name', repetitionType: 'REPEATED', numChildren: 2 },
  { name: 'Language', repetitionType: 'REPEATED', numChildren: 2 },
  { name: 'Code', type: 'BYTE_ARRAY', repetitionType: 'REQUIRED', convertedType: 'UTF8' },
  { name: 'Country', type: 'BYTE_ARRAY', repetitionType: 'OPTIONAL', convertedType: 'UTF8' },
  { name: 'Url', type: 'BYTE_ARRAY', repetitionType: 'OPTIONAL', convertedType: 'UTF8' },
];

/** (value, r, d) triples from the paper; null values are the NULL entries. */
type Triple = [unknown, number, number];
const COLUMNS: Record<string, Triple[]> = {
  DocId: [[10, 0, 0], [20, 0, 0]],
  'Links.Backward': [[null, 0, 1], [10, 0, 2], [30, 1, 2]],
  'Links.Forward': [[20, 0, 2], [40, 1, 2], [60, 1, 2], [80, 0, 2]],
  'Name.Language.Code': [['en-us', 0, 2], ['en', 2, 2], [null, 1, 1], ['en-gb', 1, 2], [null, 0, 1]],
  'Name.Language.Country': [['us', 0, 3], [null, 2, 2], [null, 1, 1], ['gb', 1, 3], [null, 0, 1]],
  'Name.Url': [['http://A', 0, 2], ['http://B', 1, 2], [null, 1, 1], ['http://C', 0, 2]],
};

function columns(data: Record<string, Triple[]>) {
  const schema = buildSchema(DOCUMENT);
  const plan = planRecord(schema.root);
  const cols: LeafColumn[] = plan.leaves.map((leaf) => {
    const t = data[leaf.path.join('.')]!;
    const values = t.filter(([, , d]) => d === leaf.defLevel).map(([v]) => v);
    return {
      def: leaf.defLevel > 0 ? t.map(([, , d]) => d) : null,
      rep: leaf.repLevel > 0 ? t.map(([, r]) => r) : null,
      length: t.length,
      maxDef: leaf.defLevel,
      valueCount: values.length,
      value: (i: number) => values[i],
    };
  });
  return { schema, plan, cols };
}

test('levels are computed as in the paper', () => {
  const { schema } = columns(COLUMNS);
  const levels = Object.fromEntries(schema.leaves.map((l) => [l.path.join('.'), [l.repLevel, l.defLevel]]));
  assert.deepEqual(levels, {
    DocId: [0, 0], 'Links.Backward': [1, 2], 'Links.Forward': [1, 2],
    'Name.Language.Code': [2, 2], 'Name.Language.Country': [2, 3], 'Name.Url': [1, 2],
  });
});

test('assembles the two Document records of the paper', () => {
  const { plan, cols } = columns(COLUMNS);
  const asm = new RecordAssembler(plan, cols);
  const r1 = asm.readRow();
  const r2 = asm.readRow();
  asm.finish();
  assert.deepEqual(r1, {
    DocId: 10,
    Links: { Backward: [], Forward: [20, 40, 60] },
    Name: [
      { Language: [{ Code: 'en-us', Country: 'us' }, { Code: 'en', Country: null }], Url: 'http://A' },
      { Language: [], Url: 'http://B' },
      { Language: [{ Code: 'en-gb', Country: 'gb' }], Url: null },
    ],
  });
  assert.deepEqual(r2, { DocId: 20, Links: { Backward: [10, 30], Forward: [80] }, Name: [{ Language: [], Url: 'http://C' }] });
});

test('skipRows lands on the next record boundary in every column', () => {
  const { plan, cols } = columns(COLUMNS);
  const asm = new RecordAssembler(plan, cols);
  asm.skipRows(1);
  assert.equal(asm.readRow().DocId, 20);
  asm.finish();
});

test('a row that starts with a non-zero repetition level is corrupt', () => {
  const bad = { ...COLUMNS, 'Links.Forward': [[20, 1, 2], [40, 1, 2], [60, 1, 2], [80, 0, 2]] as Triple[] };
  const { plan, cols } = columns(bad);
  assert.throws(() => new RecordAssembler(plan, cols).readRow(), CorruptFileError);
});

test('levels left over after the last row are corrupt', () => {
  const extra = { ...COLUMNS, DocId: [[10, 0, 0], [20, 0, 0], [30, 0, 0]] as Triple[] };
  const { plan, cols } = columns(extra);
  const asm = new RecordAssembler(plan, cols);
  asm.readRow();
  asm.readRow();
  assert.throws(() => asm.finish(), CorruptFileError);
});

test('projection drops fields without kept leaves and keeps list shapes', () => {
  const schema = buildSchema(DOCUMENT);
  const plan = planRecord(schema.root, (l) => l.path.join('.') === 'Name.Url');
  assert.deepEqual(plan.fields.map((f) => f.name), ['Name']);
  assert.equal(plan.leaves.length, 1);
  const name = plan.fields[0]!.plan;
  assert.equal(name.t, 'list');
});
