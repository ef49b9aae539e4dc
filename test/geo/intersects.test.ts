/**
 * The `intersects` filter: closed boxes (touching counts), row groups
 * pruned by their GeospatialStatistics and never a matching row lost;
 * GEOMETRY against DuckDB's ST_Intersects_Extent, GEOGRAPHY against
 * arrow-rs's point file (each point's own position) and its lines and
 * polygons (every sampled point of an arc inside the query box means a
 * match), wraparound boxes included.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { BufferSink, defineSchema, field as f, InvalidArgumentError, openParquet, parseWhere, ParquetReader, writeParquet, type Filter } from '../../src/node/index.js';
import { CountingSource } from '../filter/fixtures.js';
import { DuckFiles } from '../reader/helpers.js';
import { bindFilter, filterDomains } from '../../src/parquet/filter/expression.js';
import { possible, rowGroupStats } from '../../src/parquet/filter/prune-stats.js';
import { arcSamples, wkb, type Geom } from './wkb-build.js';
import { runWith } from '../cli/run-cli.js';

async function ids(bytes: Uint8Array, filter: Filter): Promise<{ ids: number[]; bytes: number }> {
  const source = new CountingSource(bytes);
  const reader = await ParquetReader.open(source);
  const rows = await reader.readRows({ filter, columns: ['id'] });
  return { ids: rows.map((r) => Number(r.id)).sort((a, b) => a - b), bytes: source.bytes };
}

const box = (xmin: number, ymin: number, xmax: number, ymax: number) => ({ xmin, ymin, xmax, ymax });

test('GEOMETRY: touching counts, a line whose box meets the query matches, other row groups are skipped unread', async () => {
  const schema = defineSchema({ id: f.int32().required(), g: f.geometry() });
  const rows = [];
  // Four row groups of 10,000 points each, one per quadrant, and a long line in the last.
  const N = 10_000;
  for (let q = 0; q < 4; q++) {
    for (let i = 0; i < N; i++) {
      const x = (q % 2 ? 1 : -1) * (10 + (i % 100));
      const y = (q < 2 ? 1 : -1) * (10 + Math.floor(i / 100));
      rows.push({ id: q * N + i, g: wkb({ t: 'Point', c: [x, y] }) });
    }
  }
  rows[4 * N - 1] = { id: 4 * N - 1, g: wkb({ t: 'LineString', c: [[-50, -60], [50, -40]] }) };
  rows[4 * N - 2] = { id: 4 * N - 2, g: null };
  const sink = new BufferSink();
  await writeParquet(sink, rows, { schema, rowGroupRows: N } as never);
  const file = sink.bytes();
  // The corner point (10, 10) of the first group, touched by a box that ends there.
  const corner = await ids(file, { column: 'g', op: 'intersects', box: box(0, 0, 10, 10) });
  assert.deepEqual(corner.ids, [N]);
  const world = await ids(file, { column: 'g', op: 'intersects', box: box(-1e9, -1e9, 1e9, 1e9) });
  assert.equal(world.ids.length, 4 * N - 1);
  // One row group of four read, where the whole-world box reads them all.
  assert.ok(corner.bytes < world.bytes / 2, `${corner.bytes} bytes read, ${world.bytes} for every row group`);
  // The line's box reaches (0, -50) though no vertex is near: the box test, as documented.
  assert.deepEqual((await ids(file, { column: 'g', op: 'intersects', box: box(-1, -51, 1, -49) })).ids, [4 * N - 1]);
  assert.deepEqual((await ids(file, parseWhere('intersects(g, -1, -51, 1, -49)'))).ids, [4 * N - 1]);
  // not: every row with a box outside, nulls neither way.
  assert.equal((await ids(file, { not: { column: 'g', op: 'intersects', box: box(0, 0, 10, 10) } })).ids.length, 4 * N - 2);
  assert.deepEqual((await ids(file, { column: 'g', op: 'intersects', box: box(1000, 1000, 2000, 2000) })).ids, []);
});

test('intersects text and its typed errors', async () => {
  assert.deepEqual(parseWhere('INTERSECTS("geo col", -1.5, -2, 3, 4e1) AND id > 2'), {
    and: [{ column: 'geo col', op: 'intersects', box: box(-1.5, -2, 3, 40) }, { column: 'id', op: '>', value: 2 }],
  });
  assert.deepEqual(parseWhere('intersects = 3'), { column: 'intersects', op: '=', value: 3 });
  assert.throws(() => parseWhere('intersects(g, 1, 2, 3)'), /expected "," and argument 5 of intersects\(\) at position 22/);
  assert.throws(() => parseWhere("intersects(g, 1, 'a', 3, 4)"), /expected a number as argument 3 of intersects\(\) at position 18/);
  const schema = defineSchema({ id: f.int32(), g: f.geometry(), h: f.geography() });
  const sink = new BufferSink();
  await writeParquet(sink, [{ id: 1, g: wkb({ t: 'Point', c: [1, 1] }), h: wkb({ t: 'Point', c: [1, 1] }) }], { schema } as never);
  const reader = await openParquet(sink.bytes());
  const bad = async (filter: Filter, message: RegExp) => assert.rejects(reader.readRows({ filter }), (e: Error) => e instanceof InvalidArgumentError && message.test(e.message));
  await bad({ column: 'id', op: 'intersects', box: box(0, 0, 1, 1) }, /needs a GEOMETRY or GEOGRAPHY column; id is neither/);
  await bad({ column: 'g', op: 'intersects', box: box(5, 0, 1, 1) }, /xmin 5 is above xmax 1 \(only a GEOGRAPHY box wraps/);
  await bad({ column: 'g', op: 'intersects', box: box(0, 2, 1, 1) }, /ymin 2 is above ymax 1/);
  await bad({ column: 'g', op: 'intersects', box: { xmin: 0, ymin: NaN, xmax: 1, ymax: 1 } as never }, /needs a "box" of finite numbers/);
  // A GEOGRAPHY query may wrap: (1, 1) lies east of -170 going round through 180.
  assert.equal((await reader.readRows({ filter: { column: 'h', op: 'intersects', box: box(-170, 0, 5, 5) } })).length, 1);
  assert.equal((await reader.readRows({ filter: { column: 'h', op: 'intersects', box: box(170, 0, -5, 5) } })).length, 0);
});

test('the CLI takes intersects in --where', async () => {
  const r = await runWith(['cat', '--json', '--columns', 'id', '--where', 'intersects(geometry, 10, 10, 30, 30)', '../shared/corpus/parquet-testing/data/geospatial/geography-points.parquet']);
  assert.equal(r.code, 0, r.err);
  assert.ok(r.out.trim().split('\n').length > 0);
});

let duck: DuckFiles;
before(async () => {
  duck = await DuckFiles.create();
});
after(() => duck?.close());

test('GEOMETRY, random geometries and boxes: the rows DuckDB\'s ST_Intersects_Extent selects from the same file', async () => {
  const coord = fc.integer({ min: -20, max: 20 });
  const pt = fc.tuple(coord, coord).map(([x, y]) => [x, y]);
  const geom: fc.Arbitrary<Geom> = fc.oneof(
    pt.map((c): Geom => ({ t: 'Point', c })),
    fc.array(pt, { minLength: 2, maxLength: 4 }).map((c): Geom => ({ t: 'LineString', c })),
    fc.array(pt, { minLength: 1, maxLength: 3 }).map((p): Geom => ({ t: 'MultiPoint', g: p.map((c) => ({ t: 'Point', c })) })),
  );
  const schema = defineSchema({ id: f.int32().required(), g: f.geometry() });
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(fc.option(geom, { nil: null, freq: 8 }), { minLength: 1, maxLength: 60 }), fc.tuple(coord, coord, coord, coord), fc.integer({ min: 1, max: 20 }), async (geoms, [a, b, c, d], rowGroupRows) => {
      const file = join(duck.dir, `r${run++}.parquet`);
      await writeParquet(file, geoms.map((g, id) => ({ id, g: g && wkb(g) })), { schema, rowGroupRows } as never);
      const q = box(Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d));
      const env = `'POLYGON((${q.xmin} ${q.ymin}, ${q.xmax} ${q.ymin}, ${q.xmax} ${q.ymax}, ${q.xmin} ${q.ymax}, ${q.xmin} ${q.ymin}))'::GEOMETRY`;
      const want = (await duck.duck.runAndReadAll(`SELECT id FROM '${file}' WHERE ST_Intersects_Extent(g, ${env}) ORDER BY id`)).getRows().map((r) => Number(r[0]));
      assert.deepEqual((await ids(new Uint8Array(readFileSync(file)), { column: 'g', op: 'intersects', box: q })).ids, want);
    }),
    { numRuns: 40 },
  );
});

const inQuery = (q: ReturnType<typeof box>, x: number, y: number) =>
  y >= q.ymin && y <= q.ymax && (Math.abs(y) === 90 || (q.xmin <= q.xmax ? x >= q.xmin && x <= q.xmax : x >= q.xmin || x <= q.xmax));

for (const file of ['geography-points.parquet', 'geography-lines.parquet', 'geography-polygons.parquet']) {
  test(`GEOGRAPHY ${file} (arrow-rs's boxes prune): no row with a point in the box is lost; points match exactly`, async () => {
    const bytes = new Uint8Array(readFileSync(join('../shared/corpus/parquet-testing/data/geospatial', file)));
    const reader = await openParquet(bytes);
    const leaf = reader.schema.leaves.find((l) => l.path[0] === 'geometry')!;
    const every = await reader.readRows();
    const samples = new Map(every.map((r) => [Number(r.id), arcSamples(r.geometry as Uint8Array)]));
    const lon = fc.double({ min: -180, max: 180, noNaN: true });
    const lat = fc.double({ min: -90, max: 90, noNaN: true });
    let pruned = 0;
    await fc.assert(
      fc.asyncProperty(lon, lat, lon, lat, async (x1, y1, x2, y2) => {
        const q = box(x1, Math.min(y1, y2), x2, Math.max(y1, y2)); // x1 > x2 wraps
        const filter: Filter = { column: 'geometry', op: 'intersects', box: q };
        const got = await ids(bytes, filter);
        const bound = bindFilter(filter, () => leaf);
        pruned += reader.file.metadata.rowGroups.filter((rg) => {
          const stats = rowGroupStats(filterDomains(bound), () => rg.columns[leaf.columnIndex]!.metaData!, reader.file.metadata.columnOrders);
          return !possible(bound, (l) => stats.get(l)).canTrue;
        }).length;
        const must = [...samples].filter(([, pts]) => pts.some(([x, y]) => inQuery(q, x, y))).map(([id]) => id).sort((a, b) => a - b);
        if (file === 'geography-points.parquet') assert.deepEqual(got.ids, must);
        else for (const id of must) assert.ok(got.ids.includes(id), `row ${id} lost for ${JSON.stringify(q)}`);
      }),
      { numRuns: 40, examples: [[170, 10, -170, 60], [-180, -90, 180, 90], [0, 89, 0, 90]] },
    );
    assert.ok(pruned > 40 * reader.file.metadata.rowGroups.length * 0.3, `${pruned} row groups of ${reader.file.metadata.rowGroups.length} skipped over 43 queries`);
  });
}
