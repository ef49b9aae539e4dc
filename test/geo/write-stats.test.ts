/**
 * The writer's GeospatialStatistics: a box and type codes per chunk, from
 * hand-checked data, from random geometries (against the box computed
 * naively from their coordinates), and against DuckDB's writer on the same
 * WKB (DuckDB 1.5 writes native GEOMETRY with statistics under
 * GEOPARQUET_VERSION 'BOTH'). check-stats finds every file honest.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { BufferSink, defineSchema, field as f, openParquet, writeParquet, type WriterOptions } from '../../src/node/index.js';
import { checkStatistics } from '../../src/parquet/inspect/check-stats.js';
import { bufferSource } from '../../src/io/source.js';
import type { GeospatialStatistics } from '../../src/parquet/metadata/index.js';
import { DuckFiles } from '../reader/helpers.js';
import { coordinates, wkb, type Dims, type Geom } from './wkb-build.js';

async function write(rows: Record<string, unknown>[], schema: ReturnType<typeof defineSchema>, options: Partial<WriterOptions> = {}): Promise<Uint8Array> {
  const sink = new BufferSink();
  await writeParquet(sink, rows, { schema, ...options } as never);
  return sink.bytes();
}

async function geoStats(bytes: Uint8Array, column = 'g'): Promise<(GeospatialStatistics | undefined)[]> {
  const reader = await openParquet(bytes);
  const i = reader.schema.leaves.findIndex((l) => l.path.join('.') === column);
  return reader.file.metadata.rowGroups.map((rg) => rg.columns[i]!.metaData!.geospatialStatistics);
}

async function honest(bytes: Uint8Array): Promise<void> {
  const report = await checkStatistics(bufferSource(bytes));
  assert.deepEqual(report.lies, []);
  assert.ok(report.checked.statistics > 0);
}

const CONFIGS: Partial<WriterOptions>[] = [
  {},
  { dictionary: false, pageRowLimit: 2 },
  { pageRowLimit: 2, pageVersion: 2 } as Partial<WriterOptions>,
];

test('GEOMETRY: the box of every vertex (NaN skipped, z and m where present) and the ISO type codes, on every page layout', async () => {
  const rows = [
    { g: wkb({ t: 'Point', c: [1, 2] }) },
    { g: wkb({ t: 'LineString', c: [[0, 0, 1], [5, -5, 2]] }, 'XYZ', false) },
    { g: wkb({ t: 'Point', c: [NaN, NaN] }) }, // POINT EMPTY
    { g: null },
    { g: wkb({ t: 'MultiPoint', g: [{ t: 'Point', c: [10, 3, 7] }] }, 'XYM') },
    { g: wkb({ t: 'Point', c: [1, 2] }) },
  ];
  const schema = defineSchema({ g: f.geometry() });
  for (const options of CONFIGS) {
    const bytes = await write(rows, schema, options);
    assert.deepEqual(await geoStats(bytes), [{ bbox: { xmin: 0, xmax: 10, ymin: -5, ymax: 3, zmin: 1, zmax: 2, mmin: 7, mmax: 7 }, geospatialTypes: [1, 1002, 2004] }]);
    await honest(bytes);
  }
});

test('GEOMETRY: no box where x or y has no number, no statistics for an all-null chunk or a value that is not WKB', async () => {
  const schema = defineSchema({ g: f.geometry() });
  const stats = async (rows: unknown[]) => (await geoStats(await write(rows.map((g) => ({ g })), schema)))[0];
  assert.deepEqual(await stats([wkb({ t: 'Point', c: [NaN, NaN] }), wkb({ t: 'Point', c: [1, NaN] })]), { geospatialTypes: [1] });
  assert.equal(await stats([null, null]), undefined);
  assert.equal(await stats([wkb({ t: 'Point', c: [1, 2] }), Uint8Array.of(1, 1, 0, 0)]), undefined);
});

test('GEOGRAPHY: a box across the antimeridian wraps (xmin > xmax), per row group', async () => {
  const schema = defineSchema({ g: f.geography() });
  const rows = [
    { g: wkb({ t: 'Point', c: [170, 10] }) },
    { g: wkb({ t: 'LineString', c: [[-175, 0], [175, 0]] }) }, // ten degrees of the equator, across the antimeridian
    { g: wkb({ t: 'Point', c: [-10, 1] }) },
    { g: wkb({ t: 'Point', c: [20, 2] }) },
  ];
  const bytes = await write(rows, schema, { rowGroupRows: 2 });
  assert.deepEqual(await geoStats(bytes), [
    { bbox: { xmin: 170, xmax: -175, ymin: 0, ymax: 10 }, geospatialTypes: [1, 2] },
    { bbox: { xmin: -10, xmax: 20, ymin: 1, ymax: 2 }, geospatialTypes: [1] },
  ]);
  await honest(bytes);
});

const coord = fc.oneof({ weight: 20, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) }, { weight: 1, arbitrary: fc.constant(NaN) });
const dims = fc.constantFrom<Dims>('XY', 'XYZ', 'XYM', 'XYZM');
const width = { XY: 2, XYZ: 3, XYM: 3, XYZM: 4 };
function geometry(d: Dims, depth = 0): fc.Arbitrary<Geom> {
  const pt = fc.array(coord, { minLength: width[d], maxLength: width[d] });
  const line = fc.array(pt, { maxLength: 5 });
  const simple = fc.oneof(
    pt.map((c): Geom => ({ t: 'Point', c })),
    line.map((c): Geom => ({ t: 'LineString', c })),
    fc.array(line, { maxLength: 3 }).map((c): Geom => ({ t: 'Polygon', c })),
  );
  if (depth > 1) return simple;
  return fc.oneof(
    { weight: 3, arbitrary: simple },
    fc.array(pt.map((c): Geom => ({ t: 'Point', c })), { maxLength: 3 }).map((g): Geom => ({ t: 'MultiPoint', g })),
    fc.array(geometry(d, depth + 1), { maxLength: 3 }).map((g): Geom => ({ t: 'GeometryCollection', g })),
  );
}
const CODE = { Point: 1, LineString: 2, Polygon: 3, MultiPoint: 4, MultiLineString: 5, MultiPolygon: 6, GeometryCollection: 7 };

/** The box the spec asks for, from the coordinates themselves. */
function naive(values: { g: Geom; d: Dims }[]): GeospatialStatistics | undefined {
  if (values.length === 0) return undefined;
  const axis = (pick: (c: number[], d: Dims) => number | undefined) => {
    const xs = values.flatMap(({ g, d }) => coordinates(g).map((c) => pick(c, d))).filter((v): v is number => v !== undefined && !Number.isNaN(v));
    return xs.length ? [Math.min(...xs), Math.max(...xs)] : undefined;
  };
  const x = axis((c) => c[0]);
  const y = axis((c) => c[1]);
  const z = axis((c, d) => (d === 'XYZ' || d === 'XYZM' ? c[2] : undefined));
  const m = axis((c, d) => (d === 'XYM' ? c[2] : d === 'XYZM' ? c[3] : undefined));
  const types = [...new Set(values.map(({ g, d }) => CODE[g.t] + { XY: 0, XYZ: 1000, XYM: 2000, XYZM: 3000 }[d]))].sort((a, b) => a - b);
  if (!x || !y) return { geospatialTypes: types };
  return {
    bbox: { xmin: x[0]!, xmax: x[1]!, ymin: y[0]!, ymax: y[1]!, ...(z ? { zmin: z[0]!, zmax: z[1]! } : {}), ...(m ? { mmin: m[0]!, mmax: m[1]! } : {}) },
    geospatialTypes: types,
  };
}

test('GEOMETRY, random geometries: each row group\'s statistics equal the box and types computed from the coordinates', async () => {
  const schema = defineSchema({ g: f.geometry() });
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.option(dims.chain((d) => geometry(d).map((g) => ({ g, d }))), { nil: null }), { minLength: 1, maxLength: 40 }),
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 1, max: 8 }),
      fc.boolean(),
      fc.boolean(),
      async (values, rowGroupRows, pageRowLimit, dictionary, le) => {
        const rows = values.map((v) => ({ g: v && wkb(v.g, v.d, le) }));
        const bytes = await write(rows, schema, { rowGroupRows, pageRowLimit, dictionary });
        const want = [];
        for (let i = 0; i < values.length; i += rowGroupRows) want.push(naive(values.slice(i, i + rowGroupRows).filter((v) => v !== null)));
        assert.deepEqual(await geoStats(bytes), want);
        await honest(bytes);
      },
    ),
    { numRuns: 60 },
  );
});

let files: DuckFiles;
before(async () => {
  files = await DuckFiles.create();
});
after(() => files?.close());

const WKT = [
  'POINT (1 2)', 'POINT EMPTY', 'LINESTRING (0 0, 3 -4, 10 1)', 'POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 1))',
  'MULTIPOINT ((-5 7), (8 9))', 'MULTILINESTRING ((1 1, 2 2), (3 3, -1 -7))', 'MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))',
  'GEOMETRYCOLLECTION (POINT (40 41), LINESTRING (1 2, 3 4))', 'POINT Z (1 2 3)', 'LINESTRING M (1 2 5, 3 4 -6)', 'POINT ZM (7 8 9 10)',
];

test('DuckDB writes the same statistics for the same WKB, reads our GEOMETRY column as its own, and shows our boxes in parquet_metadata', async () => {
  const values = WKT.map((w, i) => `(${i}, '${w}'::GEOMETRY)`).join(', ');
  const duck = files.duck;
  const theirs = await files.write('duck.parquet', `SELECT * FROM (VALUES ${values}) t(id, g) ORDER BY id`, "GEOPARQUET_VERSION 'BOTH'");
  const wkbs = (await duck.runAndReadAll(`SELECT ST_AsWKB(g) FROM '${theirs}' ORDER BY id`)).getRows().map((r) => (r[0] as { bytes: Uint8Array }).bytes);
  const ours = join(files.dir, 'ours.parquet');
  const { writeParquet: writeFile } = await import('../../src/node/index.js');
  await writeFile(ours, wkbs.map((g, id) => ({ id, g })), { schema: defineSchema({ id: f.int32().required(), g: f.geometry() }) } as never);
  assert.deepEqual(await geoStats(new Uint8Array(readFileSync(ours))), await geoStats(new Uint8Array(readFileSync(theirs))));
  const meta = async (file: string) => (await duck.runAndReadAll(`SELECT geo_bbox::VARCHAR, geo_types::VARCHAR FROM parquet_metadata('${file}') WHERE path_in_schema = 'g' ORDER BY row_group_id`)).getRows().map(String);
  const shown = await meta(ours);
  assert.equal(shown.length, 1);
  assert.ok(shown.every((r) => r.includes('xmin')), shown.join('\n'));
  assert.deepEqual(shown, await meta(theirs));
  const read = async (file: string) => (await duck.runAndReadAll(`SELECT typeof(g), g::VARCHAR FROM '${file}' ORDER BY id`)).getRows().map(String);
  assert.deepEqual(await read(ours), await read(theirs));
  assert.equal((await read(ours))[0], 'GEOMETRY,POINT (1 2)');
});
