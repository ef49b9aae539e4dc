/**
 * GeoParquet 1.1 `geo` metadata beside the native types: what each column
 * gets, what is left out, and DuckDB's own GeoParquet metadata for the
 * same geometries (types and box) matching ours.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferSink, defineSchema, field as f, openParquet, writeParquet } from '../../src/node/index.js';
import { DuckFiles } from '../reader/helpers.js';
import { wkb } from './wkb-build.js';

async function geo(rows: Record<string, unknown>[], schema: ReturnType<typeof defineSchema>, options: object = {}): Promise<Record<string, unknown> | undefined> {
  const sink = new BufferSink();
  await writeParquet(sink, rows, { schema, ...options } as never);
  const reader = await openParquet(sink.bytes());
  const value = reader.file.metadata.keyValueMetadata?.find((kv) => kv.key === 'geo')?.value;
  return value === undefined ? undefined : JSON.parse(value);
}

const TYPES = /^(GeometryCollection|(Multi)?(Point|LineString|Polygon))( Z)?$/; // GeoParquet 1.1's schema.json pattern

test('geo: version, primary column, WKB, types with Z, box (6 values with z), spherical edges, wraparound, PROJJSON by reference', async () => {
  const projjson = { $schema: 'https://proj.org/schemas/v0.7/projjson.schema.json', type: 'GeographicCRS', name: 'NAD83' };
  const schema = defineSchema({
    id: f.int32(),
    g: f.geometry(),
    h: f.geography(),
    p: f.geometry('projjson:my_crs'),
    d: f.geometry('OGC:CRS84'),
  });
  const rows = [
    { id: 1, g: wkb({ t: 'Point', c: [1, 2] }), h: wkb({ t: 'Point', c: [170, 10] }), p: wkb({ t: 'Point', c: [5, 6] }), d: null },
    { id: 2, g: wkb({ t: 'LineString', c: [[0, -3, 4], [9, 9, 8]] }, 'XYZ'), h: wkb({ t: 'Point', c: [-170, -20] }), p: null, d: null },
  ];
  const meta = await geo(rows, schema, { metadata: { my_crs: JSON.stringify(projjson) }, rowGroupRows: 1 });
  assert.deepEqual(meta, {
    version: '1.1.0',
    primary_column: 'g',
    columns: {
      g: { encoding: 'WKB', geometry_types: ['Point', 'LineString Z'], bbox: [0, -3, 4, 9, 9, 8] },
      h: { encoding: 'WKB', geometry_types: ['Point'], edges: 'spherical', bbox: [170, -20, -170, 10] },
      p: { encoding: 'WKB', geometry_types: ['Point'], crs: projjson, bbox: [5, 6, 5, 6] },
      d: { encoding: 'WKB', geometry_types: [] },
    },
  });
  for (const c of Object.values(meta!.columns as Record<string, { geometry_types: string[] }>)) for (const t of c.geometry_types) assert.match(t, TYPES);
});

test('geo leaves out what GeoParquet cannot say truly, and keeps a caller\'s own geo key', async () => {
  const pt = wkb({ t: 'Point', c: [1, 2] });
  // A CRS code is no PROJJSON, an ellipsoid's edges are neither planar nor spherical, a nested column is not at the root.
  assert.equal(await geo([{ a: pt, b: pt, c: { g: pt } }], defineSchema({ a: f.geometry('EPSG:5070'), b: f.geography(undefined, 'KARNEY'), c: f.struct({ g: f.geometry() }) })), undefined);
  // M has no GeoParquet type name: the list says unknown; a value that is not WKB makes types and box unknown.
  assert.deepEqual(await geo([{ g: wkb({ t: 'Point', c: [1, 2, 3] }, 'XYM') }], defineSchema({ g: f.geometry() })), { version: '1.1.0', primary_column: 'g', columns: { g: { encoding: 'WKB', geometry_types: [], bbox: [1, 2, 1, 2] } } });
  assert.deepEqual((await geo([{ g: pt }, { g: Uint8Array.of(9) }], defineSchema({ g: f.geometry() }), { rowGroupRows: 1 }))!.columns, { g: { encoding: 'WKB', geometry_types: [] } });
  assert.deepEqual(await geo([{ g: pt }], defineSchema({ g: f.geometry() }), { metadata: { geo: '{"mine":1}' } }), { mine: 1 });
});

test('DuckDB\'s GeoParquet metadata for the same geometries lists the same types and box', async () => {
  const files = await DuckFiles.create();
  const duck = files.duck;
  try {
    const wkt = ['POINT (1 2)', 'LINESTRING Z (0 0 1, 5 5 2)', 'POLYGON ((-3 -3, 4 -3, 4 4, -3 -3))', 'POINT EMPTY', 'MULTIPOINT ((8 -9))'];
    const file = await files.write('duck.parquet', `SELECT * FROM (VALUES ${wkt.map((w, i) => `(${i}, '${w}'::GEOMETRY)`).join(', ')}) t(id, g) ORDER BY id`);
    const rows = (await duck.runAndReadAll(`SELECT ST_AsWKB(g) FROM '${file}' ORDER BY id`)).getRows().map((r) => ({ g: (r[0] as { bytes: Uint8Array }).bytes }));
    const theirs = JSON.parse(String((await duck.runAndReadAll(`SELECT value FROM parquet_kv_metadata('${file}') WHERE key = 'geo'`)).getRows()[0]![0]).replaceAll('\\x22', '"'));
    const ours = (await geo(rows, defineSchema({ g: f.geometry() })))!;
    const col = (m: Record<string, unknown>) => (m.columns as Record<string, { geometry_types: string[]; bbox: number[] }>).g!;
    assert.deepEqual(col(ours).geometry_types.slice().sort(), col(theirs).geometry_types.slice().sort());
    assert.deepEqual(col(ours).bbox, col(theirs).bbox);
  } finally {
    files.close();
  }
});
