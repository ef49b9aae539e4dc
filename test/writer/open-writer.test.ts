/**
 * One writer pattern: `openWriter(dest, schema, options)`, the format an
 * option, each format's schema second, as each writer class's
 * `open(sink, schema, options)` takes it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineSchema, field, formatSchema, InvalidArgumentError, openTable, openWriter, type Table } from '../../src/node/index.js';

const formatSchemaOf = (t: Table): string => formatSchema(t.schema);

const rows = [{ id: 1, name: 'a' }, { id: 2, name: null }, { id: 3, name: 'c' }];

test('openWriter writes Parquet, Trevni and RedElm, each read back with the rows written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-open-writer-'));
  try {
    const writers = [
      await openWriter(join(dir, 't.parquet'), defineSchema({ id: field.int32().required(), name: field.string() })),
      await openWriter(join(dir, 't.trv'), [{ name: 'id', type: 'int' }, { name: 'name', type: 'string', array: true }], { format: 'trevni', codec: 'deflate' }),
      await openWriter(join(dir, 't.redelm'), 'message m {\n  required int32 id;\n  optional string name;\n}\n', { format: 'redelm' }),
    ];
    for (const [i, w] of writers.entries()) {
      // Trevni has no null: an optional value is an array of zero or one.
      for (const r of rows) await (w.write as (row: unknown) => Promise<void>)(i === 1 ? { id: r.id, name: r.name === null ? [] : [r.name] } : r);
      assert.equal(w.numRows, rows.length);
      await w.close();
    }
    const read = async (file: string) => {
      await using t = await openTable(join(dir, file));
      const out: Record<string, unknown>[] = [];
      for await (const r of t.rows()) out.push(r);
      return [t.format, out];
    };
    assert.deepEqual(await read('t.parquet'), ['parquet', rows]);
    assert.deepEqual(await read('t.trv'), ['trevni', rows.map((r) => ({ id: r.id, name: r.name === null ? [] : [r.name] }))]);
    assert.deepEqual(await read('t.redelm'), ['redelm', rows]);
    // An unknown format is refused before the destination is made.
    await assert.rejects(openWriter(join(dir, 'x.orc'), [], { format: 'orc' } as never), InvalidArgumentError);
    assert.equal(existsSync(join(dir, 'x.orc')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a table's schema is a Parquet writer's schema, whatever the table's format: a copy reads back as the table", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parquetry-copy-'));
  try {
    const sources = [join(dir, 's.redelm'), join(dir, 's.jsonl')];
    const red = await openWriter(sources[0]!, 'message m {\n  required int64 id;\n  optional group g {\n    repeated string tag;\n  }\n}\n', { format: 'redelm' });
    for (let i = 0; i < 5; i++) await red.write({ id: BigInt(i), g: i % 2 ? null : { tag: Array.from({ length: i }, (_, k) => `t${k}`) } });
    await red.close();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(sources[1]!, '{"a":1,"b":{"c":"x"}}\n{"a":null,"b":{"c":null}}\n');
    for (const source of sources) {
      await using table = await openTable(source);
      const copy = join(dir, 'copy.parquet');
      const w = await openWriter(copy, table.schema);
      for await (const batch of table.rowBatches()) await w.writeMany(batch);
      await w.close();
      await using back = await openTable(copy);
      const rows = async (t: typeof table) => { const out: unknown[] = []; for await (const r of t.rows()) out.push(r); return out; };
      assert.equal(formatSchemaOf(back), formatSchemaOf(table), source);
      assert.deepStrictEqual(await rows(back), await rows(table), source);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
