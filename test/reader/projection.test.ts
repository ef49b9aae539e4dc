/** Column projection: top-level and nested paths, unknown paths, and what a projected row holds. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError, openParquet, type ParquetReader } from '../../src/node/index.js';
import { DuckFiles, SAMPLE, collect, lines } from './helpers.js';

let reader: ParquetReader;
let full: Record<string, unknown>[];

before(async () => {
  reader = await openParquet(SAMPLE);
  full = await collect(reader);
});
after(() => reader.close());

test('the sample has the columns these tests rely on', () => {
  assert.deepEqual(reader.schema.leaves.map((l) => l.path.join('.')), [
    'id', 'fruit', 'price', 'discount', 'in_stock', 'updated_at', 'day', 'nullable_qty',
    'tags.list.element', 'address.city', 'address.zip', 'attrs.key_value.key', 'attrs.key_value.value',
  ]);
  assert.equal(full.length, 20);
});

test('top-level columns: only those keys, in schema order, with the same values', async () => {
  const rows = await collect(reader, { columns: ['price', 'id'] });
  assert.equal(rows.length, full.length);
  rows.forEach((row, i) => {
    assert.deepEqual(Object.keys(row), ['id', 'price']);
    assert.equal(row.id, full[i]!.id);
    assert.equal(row.price, full[i]!.price);
  });
});

test('a nested path keeps the struct around the chosen field only', async () => {
  const rows = await collect(reader, { columns: ['address.city'] });
  rows.forEach((row, i) => {
    assert.deepEqual(row, { address: { city: (full[i]!.address as { city: string }).city } });
  });
  assert.deepEqual(await lines(reader, { columns: ['address.city'], limit: 1 }), ['{"address":{"city":"Lima"}}']);
});

test('a group path selects everything under it', async () => {
  const rows = await collect(reader, { columns: ['address'] });
  rows.forEach((row, i) => assert.deepEqual(row, { address: full[i]!.address }));
  const lists = await collect(reader, { columns: ['tags', 'attrs'] });
  lists.forEach((row, i) => assert.deepEqual(row, { tags: full[i]!.tags, attrs: full[i]!.attrs }));
});

test('a leaf path inside a list or map gives that part of each element', async () => {
  const tags = await collect(reader, { columns: ['tags.list.element'] });
  tags.forEach((row, i) => assert.deepEqual(row, { tags: full[i]!.tags }));
  // The part of each entry projected away is left out, as a projected-away struct field is.
  const keys = await collect(reader, { columns: ['attrs.key_value.key'] });
  keys.forEach((row, i) => assert.deepEqual(row, { attrs: (full[i]!.attrs as { key: string }[] | null)?.map((e) => ({ key: e.key })) ?? null }));
  const values = await collect(reader, { columns: ['attrs.key_value.value'] });
  values.forEach((row, i) => assert.deepEqual(row, { attrs: (full[i]!.attrs as { value: unknown }[] | null)?.map((e) => ({ value: e.value })) ?? null }));
  assert.deepEqual(await lines(reader, { columns: ['attrs.key_value.key'], limit: 1 }), ['{"attrs":[{"key":"k1"}]}']);
  assert.deepEqual(await lines(reader, { columns: ['attrs.key_value.value'], limit: 1 }), ['{"attrs":[{"value":1}]}']);
});

test('naming a column twice, or a leaf and its group, reads it once', async () => {
  const rows = await collect(reader, { columns: ['id', 'id', 'address', 'address.zip'] });
  rows.forEach((row, i) => assert.deepEqual(row, { id: full[i]!.id, address: full[i]!.address }));
});

test('projection combines with offset and limit', async () => {
  const rows = await collect(reader, { columns: ['fruit', 'tags'], offset: 5, limit: 4 });
  assert.deepEqual(rows, full.slice(5, 9).map((r) => ({ fruit: r.fruit, tags: r.tags })));
});

test('plan(columns) describes the projected row', () => {
  const plan = reader.plan(['address.city', 'id']);
  assert.deepEqual(plan.fields.map((f) => f.name), ['id', 'address']);
});

for (const bad of ['nope', 'address.country', 'id.x', 'address.city.deeper', '', 'tags.element', 'ADDRESS']) {
  test(`unknown column ${JSON.stringify(bad)} is an InvalidArgumentError naming it`, async () => {
    await assert.rejects(collect(reader, { columns: [bad] }), (e: unknown) => {
      assert.ok(e instanceof InvalidArgumentError, `got ${(e as Error)?.stack}`);
      assert.ok(e.message.includes(JSON.stringify(bad)) || e.message.includes(bad), e.message);
      return true;
    });
    assert.throws(() => reader.plan([bad]), InvalidArgumentError);
    await assert.rejects(async () => {
      for await (const _ of reader.columns({ columns: [bad] }));
    }, InvalidArgumentError);
  });
}

test('an empty projection gives one empty object per row', async () => {
  const rows = await collect(reader, { columns: [] });
  assert.equal(rows.length, full.length);
  for (const r of rows) assert.deepEqual(r, {});
});

test('the reader is reusable: projections do not disturb a later full read', async () => {
  await collect(reader, { columns: ['address.city'] });
  assert.deepEqual(await collect(reader), full);
});

test('a column whose name contains a dot can be selected', async () => {
  const files = await DuckFiles.create();
  try {
    const path = await files.write('dotted.parquet', `SELECT 1 AS "a.b", 2 AS c`);
    const r = await openParquet(path);
    try {
      assert.deepEqual(await collect(r, { columns: ['a.b'] }), [{ 'a.b': 1 }]);
      assert.deepEqual(await collect(r, { columns: [['a.b'], 'c'] }), [{ 'a.b': 1, c: 2 }]);
    } finally {
      await r.close();
    }
  } finally {
    files.close();
  }
});

test('columns given as one string, not an array, is an error that says so (not "no column \\"i\\"", a letter of it)', async () => {
  for (const read of [() => reader.readRows({ columns: 'id' as never }), () => collect(reader, { columns: 'id' as never })]) {
    await assert.rejects(read(), (e: unknown) => e instanceof InvalidArgumentError && e.message === 'columns must be an array of column paths, as [\'id\'], not the string "id"');
  }
});

test('a column not found names the one it may mean: the same path in another case, or a nested leaf by its own name', async () => {
  const why = async (columns: string[]) => (await reader.readRows({ columns }).then(() => '', (e: Error) => e.message));
  assert.equal(await why(['Fruit']), 'no column "Fruit" in the schema (did you mean "fruit"?) (file ' + SAMPLE + ')');
  assert.equal(await why(['city']), 'no column "city" in the schema (did you mean "address.city"?) (file ' + SAMPLE + ')');
  assert.equal(await why(['nope']), 'no column "nope" in the schema (file ' + SAMPLE + ')');
});
