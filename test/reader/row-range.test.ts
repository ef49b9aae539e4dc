/**
 * offset / limit / rowGroups, and numRows: across row group boundaries, in
 * flat and nested data, against the corpus's expected rows and the full read.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { InvalidArgumentError, openParquet, type ParquetReader } from '../../src/node/index.js';
import { DATA, DuckFiles, collect, expectedLines, lines } from './helpers.js';

describe('floating_orders_nan_count.parquet: 5 row groups of 10 rows', () => {
  const file = 'floating_orders_nan_count.parquet';
  let reader: ParquetReader;
  let expected: string[];
  before(async () => {
    reader = await openParquet(join(DATA, file));
    expected = expectedLines(file);
  });
  after(() => reader.close());

  test('has the shape the tests below assume', async () => {
    assert.deepEqual(reader.file.metadata.rowGroups.map((g) => g.numRows), [10, 10, 10, 10, 10]);
    assert.equal(reader.numRows, 50);
    assert.deepEqual(await lines(reader), expected);
  });

  test('every offset with limits around the row group size is the matching slice', async () => {
    for (let offset = 0; offset <= 52; offset++) {
      for (const limit of [undefined, 0, 1, 9, 10, 11, 20, 50, 1000]) {
        const got = await lines(reader, { offset, limit });
        const want = expected.slice(offset, limit === undefined ? undefined : offset + limit);
        assert.deepEqual(got, want, `offset ${offset} limit ${limit}`);
      }
    }
  });

  test('rowGroups picks those groups, in the order given', async () => {
    const group = (g: number) => expected.slice(g * 10, g * 10 + 10);
    assert.deepEqual(await lines(reader, { rowGroups: [1, 3] }), [...group(1), ...group(3)]);
    assert.deepEqual(await lines(reader, { rowGroups: [4] }), group(4));
    assert.deepEqual(await lines(reader, { rowGroups: [3, 1] }), [...group(3), ...group(1)]);
    assert.deepEqual(await lines(reader, { rowGroups: [] }), []);
  });

  test('offset and limit count within the selected row groups', async () => {
    const picked = [...expected.slice(10, 20), ...expected.slice(30, 40), ...expected.slice(40, 50)];
    for (const [offset, limit] of [[0, 5], [5, 10], [9, 2], [10, 10], [15, 100], [29, 1], [30, 1]] as const) {
      assert.deepEqual(await lines(reader, { rowGroups: [1, 3, 4], offset, limit }), picked.slice(offset, offset + limit), `offset ${offset} limit ${limit}`);
    }
  });

  test('columns() honours rowGroups', async () => {
    const seen: number[] = [];
    for await (const b of reader.columns({ rowGroups: [2, 0], columns: ['float_ieee754'] })) seen.push(b.rowGroup);
    assert.deepEqual(seen, [2, 0]);
  });

  for (const bad of [-1, 5, 1.5, Number.NaN, 2 ** 53]) {
    test(`rowGroups [${bad}] is an InvalidArgumentError`, async () => {
      await assert.rejects(collect(reader, { rowGroups: [bad] }), InvalidArgumentError);
      await assert.rejects(async () => {
        for await (const _ of reader.columns({ rowGroups: [bad] }));
      }, InvalidArgumentError);
    });
  }

  for (const bad of [-1, 1.5, Number.NaN, 2 ** 53]) {
    test(`offset ${bad} and limit ${bad} are InvalidArgumentErrors`, async () => {
      await assert.rejects(collect(reader, { offset: bad }), InvalidArgumentError);
      await assert.rejects(collect(reader, { limit: bad }), InvalidArgumentError);
    });
  }

  test('offset Infinity is an InvalidArgumentError', async () => {
    await assert.rejects(collect(reader, { offset: Infinity }), InvalidArgumentError);
  });
});

describe('a DuckDB-written nested file with 5 row groups', () => {
  let files: DuckFiles;
  let reader: ParquetReader;
  let all: string[];
  before(async () => {
    files = await DuckFiles.create();
    const path = await files.write('nested.parquet', `SELECT i AS id,
        CASE WHEN i % 7 = 0 THEN NULL ELSE list_transform(range(i % 5), x -> CASE WHEN x = 2 THEN NULL ELSE {'x': x, 's': 's' || i} END) END AS l,
        CASE WHEN i % 3 = 0 THEN NULL ELSE MAP {'k' || (i % 4): [i, NULL]} END AS m,
        {'a': CASE WHEN i % 2 = 0 THEN NULL ELSE [[i], [], NULL] END, 'b': 'b' || i} AS s
      FROM range(10000) t(i) ORDER BY i`, 'ROW_GROUP_SIZE 2048');
    reader = await openParquet(path);
    all = await lines(reader);
  });
  after(async () => {
    await reader.close();
    files.close();
  });

  test('has several row groups and reads every row', () => {
    assert.equal(reader.file.metadata.rowGroups.length, 5);
    assert.equal(all.length, 10000);
    assert.equal(reader.numRows, 10000);
    assert.equal(all[1], '{"id":1,"l":[{"x":0,"s":"s1"}],"m":[{"key":"k1","value":[1,null]}],"s":{"a":[[1],[],null],"b":"b1"}}');
  });

  test('offset skips nested rows exactly, within and across row groups', async () => {
    const bounds = [0, 1, 2047, 2048, 2049, 4095, 4096, 5000, 8191, 8192, 9999, 10000, 10001];
    for (const offset of bounds) {
      for (const limit of [1, 3, 2048, 5000]) {
        assert.deepEqual(await lines(reader, { offset, limit }), all.slice(offset, offset + limit), `offset ${offset} limit ${limit}`);
      }
    }
  });

  test('offset and limit with a projection into the nesting', async () => {
    const proj = await lines(reader, { columns: ['l.list.element.s', 'm'] });
    assert.equal(proj.length, 10000);
    for (const [offset, limit] of [[2040, 20], [6000, 3000], [9990, 50]] as const) {
      assert.deepEqual(await lines(reader, { columns: ['l.list.element.s', 'm'], offset, limit }), proj.slice(offset, offset + limit));
    }
  });

  test('rowGroups with offset and limit', async () => {
    const g = (k: number) => all.slice(k * 2048, Math.min((k + 1) * 2048, 10000));
    const picked = [...g(4), ...g(2)];
    assert.deepEqual(await lines(reader, { rowGroups: [4, 2] }), picked);
    assert.deepEqual(await lines(reader, { rowGroups: [4, 2], offset: 1900, limit: 300 }), picked.slice(1900, 2200));
  });
});

describe('numRows', () => {
  test('comes from the row groups when the footer says 0 (repeated_no_annotation.parquet)', async () => {
    const file = 'repeated_no_annotation.parquet';
    const reader = await openParquet(join(DATA, file));
    try {
      assert.equal(reader.file.metadata.numRows, 0, 'the footer really says 0');
      assert.equal(reader.numRows, 6);
      const got = await lines(reader);
      assert.equal(got.length, 6);
      assert.deepEqual(got, expectedLines(file));
      assert.deepEqual(await lines(reader, { offset: 2, limit: 3 }), expectedLines(file).slice(2, 5));
    } finally {
      await reader.close();
    }
  });

  test('equals the rows read for every corpus file with several row groups', async () => {
    for (const file of ['floating_orders_nan_count.parquet', 'sort_columns.parquet']) {
      const reader = await openParquet(join(DATA, file));
      try {
        assert.ok(reader.file.metadata.rowGroups.length > 1);
        assert.equal(reader.numRows, (await collect(reader)).length, file);
      } finally {
        await reader.close();
      }
    }
  });
});

test('rows(): overlapping next() calls each get the next row, none is lost', async () => {
  const { openParquet } = await import('../../src/node/index.js');
  const r = await openParquet('../shared/corpus/parquet-testing/data/alltypes_plain.parquet');
  try {
    const it = r.rows({ columns: ['id'] });
    const results = await Promise.all(Array.from({ length: 10 }, () => it.next()));
    assert.deepEqual(results.filter((x) => !x.done).map((x) => x.value.id), [4, 5, 6, 7, 2, 3, 0, 1]);
    assert.equal(results.filter((x) => x.done).length, 2);
  } finally {
    await r.close();
  }
});
