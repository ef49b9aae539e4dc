/**
 * A field whose name holds a dot (`who.am`) beside a group path spelling
 * the same (`who` → `am`): every format that can store both is read
 * through its table with `columns` as name arrays, and each selection
 * must be the full read cut to that field, never the other's value. (The
 * RedElm table passed dotted strings to its reader, which took `who.am` as
 * the group path and gave null for the field.)
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferSink, openTable, openWriter, type TableInput } from '../../src/node/index.js';
import { TrevniDraftWriter } from '../../src/trevni/draft/writer.js';
import { buildSchema, type SchemaElementLike } from '../../src/schema/tree.js';
import { allRows } from './helpers.js';

const ELEMENTS: SchemaElementLike[] = [
  { name: 'schema', numChildren: 3 },
  { name: 'who.am', type: 'INT32', repetitionType: 'OPTIONAL' },
  { name: 'who', repetitionType: 'OPTIONAL', numChildren: 1 },
  { name: 'am', type: 'INT32', repetitionType: 'OPTIONAL' },
  { name: 'x', type: 'INT32', repetitionType: 'REQUIRED' },
];
const RECORDS = Array.from({ length: 7 }, (_, i) => ({ 'who.am': i % 3 === 0 ? null : i, who: i % 4 === 0 ? null : { am: i % 2 ? null : 100 + i }, x: -i }));

let dir = '';
const inputs: [string, TableInput | readonly string[]][] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parquetry-dotted-'));
  const schema = buildSchema(ELEMENTS);
  const parquet = join(dir, 'p.parquet');
  const w = await openWriter(parquet, schema);
  await w.writeMany(RECORDS);
  await w.close();
  inputs.push(['parquet', parquet], ['dataset', [parquet]]);
  const redelm = join(dir, 'r.redelm');
  const r = await openWriter(redelm, schema, { format: 'redelm' });
  for (const rec of RECORDS) await r.write(rec);
  await r.close();
  inputs.push(['redelm', redelm]);
  const sink = new BufferSink();
  const d = await TrevniDraftWriter.open(sink, schema);
  for (const rec of RECORDS) await d.write(rec);
  await d.close();
  inputs.push(['trevni draft', sink.bytes()]);
  inputs.push(['jsonl', new TextEncoder().encode(RECORDS.map((rec) => JSON.stringify(rec)).join('\n') + '\n')]);
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('columns as name arrays select the field named with a dot, or the group path, on every format that stores both', async () => {
  for (const [name, input] of inputs) {
    await using table = await openTable(input, name === 'jsonl' ? { format: 'jsonl' } : {});
    const all = await allRows(table);
    assert.equal(all.length, RECORDS.length, name);
    assert.ok(all.some((row) => row['who.am'] !== null) && all.some((row) => (row.who as { am: unknown } | null)?.am != null), `${name}: both have values`);
    assert.deepStrictEqual(await allRows(table, { columns: [['who.am']] }), all.map((row) => ({ 'who.am': row['who.am'] })), `${name}: the dotted name`);
    assert.deepStrictEqual(await allRows(table, { columns: [['who', 'am']] }), all.map((row) => ({ who: row.who })), `${name}: the group path`);
    assert.deepStrictEqual(await allRows(table, { columns: [['who.am'], 'x'], offset: 2, limit: 3 }), all.slice(2, 5).map((row) => ({ 'who.am': row['who.am'], x: row.x })), `${name}: with others`);
    if (name === 'redelm' || name === 'trevni draft') continue;
    // A filter names a leaf the same way: the dotted field's values, not the group's.
    for (const [column, test] of [[['who.am'], (row: Record<string, unknown>) => row['who.am'] !== null && Number(row['who.am']) >= 2], [['who', 'am'], (row: Record<string, unknown>) => Number((row.who as { am: unknown } | null)?.am ?? -1) >= 2]] as const) {
      const want = all.filter(test);
      assert.ok(want.length > 0 && want.length < all.length, name);
      assert.deepStrictEqual(await allRows(table, { filter: { column, op: '>=', value: 2 } }), want, `${name}: filter on ${JSON.stringify(column)}`);
    }
  }
});
