/**
 * WKT and GeoJSON to WKB: random geometries of every type and dimension
 * written as text and encoded, against the test's own WKB encoder and
 * DuckDB's WKT reader; bad text refused with its line and column; and
 * `convert --type col=GEOMETRY` from CSV and JSON Lines, read back by DuckDB.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { geojsonToWkb, wktToWkb } from '../../src/geo/encode.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { DuckFiles } from '../reader/helpers.js';
import { wkb, type Dims, type Geom } from './wkb-build.js';
import { run as cli } from '../cli/run-cli.js';

const WIDTH = { XY: 2, XYZ: 3, XYM: 3, XYZM: 4 };
const TAG = { XY: '', XYZ: ' Z', XYM: ' M', XYZM: ' ZM' };
const NAME = { Point: 'POINT', LineString: 'LINESTRING', Polygon: 'POLYGON', MultiPoint: 'MULTIPOINT', MultiLineString: 'MULTILINESTRING', MultiPolygon: 'MULTIPOLYGON', GeometryCollection: 'GEOMETRYCOLLECTION' };

function geometry(d: Dims, depth = 0): fc.Arbitrary<Geom> {
  const pt = fc.array(fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 1000), { minLength: WIDTH[d], maxLength: WIDTH[d] });
  const line = fc.array(pt, { minLength: 1, maxLength: 4 });
  const poly = fc.array(line, { minLength: 1, maxLength: 3 });
  const arbs: fc.Arbitrary<Geom>[] = [
    pt.map((c): Geom => ({ t: 'Point', c })),
    line.map((c): Geom => ({ t: 'LineString', c })),
    poly.map((c): Geom => ({ t: 'Polygon', c })),
    fc.array(pt, { minLength: 1, maxLength: 3 }).map((p): Geom => ({ t: 'MultiPoint', g: p.map((c) => ({ t: 'Point', c })) })),
    fc.array(line, { minLength: 1, maxLength: 3 }).map((p): Geom => ({ t: 'MultiLineString', g: p.map((c) => ({ t: 'LineString', c })) })),
    fc.array(poly, { minLength: 1, maxLength: 2 }).map((p): Geom => ({ t: 'MultiPolygon', g: p.map((c) => ({ t: 'Polygon', c })) })),
  ];
  if (depth < 2) arbs.push(fc.array(geometry(d, depth + 1), { minLength: 1, maxLength: 3 }).map((g): Geom => ({ t: 'GeometryCollection', g })));
  return fc.oneof(...arbs);
}
const anyGeometry = fc.constantFrom<Dims>('XY', 'XYZ', 'XYM', 'XYZM').chain((d) => geometry(d).map((g) => ({ g, d })));

/** WKT as the OGC writes it: the tag on the outer type only. */
function wkt(g: Geom, d: Dims, tag = true): string {
  const pos = (c: number[]) => c.join(' ');
  const body = (x: Geom): string => {
    switch (x.t) {
      case 'Point': return `(${pos(x.c)})`;
      case 'LineString': return `(${x.c.map(pos).join(', ')})`;
      case 'Polygon': return `(${x.c.map((r) => `(${r.map(pos).join(', ')})`).join(', ')})`;
      case 'GeometryCollection': return `(${x.g.map((m) => wkt(m, d)).join(', ')})`;
      default: return `(${x.g.map(body).join(', ')})`;
    }
  };
  return `${NAME[g.t]}${tag ? TAG[d] : ''} ${body(g)}`;
}

function geojson(g: Geom): unknown {
  switch (g.t) {
    case 'Point':
    case 'LineString':
    case 'Polygon':
      return { type: g.t, coordinates: g.c };
    case 'GeometryCollection':
      return { type: g.t, geometries: g.g.map(geojson) };
    default:
      return { type: g.t, coordinates: g.g.map((m) => (m as { c: unknown }).c) };
  }
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

test('WKT and GeoJSON of random geometries encode to the WKB the test encoder writes', () => {
  fc.assert(
    fc.property(anyGeometry, ({ g, d }) => {
      const want = hex(wkb(g, d));
      assert.equal(hex(wktToWkb(wkt(g, d))), want);
      assert.equal(hex(wktToWkb(wkt(g, d).toLowerCase().replaceAll(' ', '  '))), want);
      // GeoJSON has no M: its third number is Z, its fourth M.
      if (d !== 'XYM') assert.equal(hex(geojsonToWkb(geojson(g))), want);
      // Without a tag, three numbers are Z and four ZM.
      if (d !== 'XYM') assert.equal(hex(wktToWkb(wkt(g, d, false))), want);
    }),
    { numRuns: 300 },
  );
});

test('empty geometries and glued tags', () => {
  assert.equal(hex(wktToWkb('POINT EMPTY')), hex(wkb({ t: 'Point', c: [NaN, NaN] })));
  assert.equal(hex(wktToWkb('POINT ZM EMPTY')), hex(wkb({ t: 'Point', c: [NaN, NaN, NaN, NaN] }, 'XYZM')));
  assert.equal(hex(wktToWkb('POINTZ(1 2 3)')), hex(wkb({ t: 'Point', c: [1, 2, 3] }, 'XYZ')));
  assert.equal(hex(wktToWkb('MULTIPOINT (1 2, 3 4)')), hex(wkb({ t: 'MultiPoint', g: [{ t: 'Point', c: [1, 2] }, { t: 'Point', c: [3, 4] }] })));
  assert.equal(hex(wktToWkb('GEOMETRYCOLLECTION (POINT EMPTY, LINESTRING EMPTY)')), hex(wkb({ t: 'GeometryCollection', g: [{ t: 'Point', c: [NaN, NaN] }, { t: 'LineString', c: [] }] })));
  assert.equal(hex(geojsonToWkb({ type: 'Point', coordinates: [] })), hex(wkb({ t: 'Point', c: [NaN, NaN] })));
});

test('bad text: a typed error naming the line and column where it goes wrong', () => {
  const cases: [string, RegExp][] = [
    ['POINT (1 2', /expected "\)" at line 1, column 11, found the end of the text/],
    ['POINT (1 2,', /expected "\)" at line 1, column 11, found ","/],
    ['LINESTRING (1 2,\n  3)', /expected a number at line 2, column 4/],
    ['CIRCLE (1 2)', /expected a geometry type .* at line 1, column 1/],
    ['POINT Z (1 2)', /expected 3 numbers per position \(XYZ\) at line 1, column 13/],
    ['LINESTRING (1 2, 3 4 5)', /expected 2 numbers per position \(XY\) at line 1, column 23/],
    ['POINT (1 2) x', /expected the end of the text at line 1, column 13/],
    ['GEOMETRYCOLLECTION Z (POINT M (1 2 3))', /expected a member with the collection's dimensions \(XYZ\)/],
    ['GEOMETRYCOLLECTION ('.repeat(100) + 'POINT (1 2)' + ')'.repeat(100), /at most 64 nested collections/],
  ];
  for (const [text, message] of cases) assert.throws(() => wktToWkb(text), (e: Error) => e instanceof InvalidArgumentError && message.test(e.message), text);
  assert.throws(() => geojsonToWkb({ type: 'Point', coordinates: [1] }), /GeoJSON: geometry.coordinates is not a position of 2 to 4 numbers/);
  assert.throws(() => geojsonToWkb({ type: 'LineString', coordinates: [[1, 2], [1, 2, 3]] }), /coordinates\[1\] has 3 numbers where earlier positions have 2/);
  assert.throws(() => geojsonToWkb({ type: 'Feature' }), /GeoJSON: geometry.type must be one of Point/);
});

let files: DuckFiles;
before(async () => {
  files = await DuckFiles.create();
});
after(() => files?.close());

test('DuckDB reads the same WKT to the same WKB', async () => {
  const samples = fc.sample(anyGeometry, { numRuns: 200, seed: 7 }).map(({ g, d }) => wkt(g, d));
  const list = samples.map((s, i) => `(${i}, '${s}')`).join(', ');
  const rows = (await files.duck.runAndReadAll(`SELECT ST_AsWKB(w::GEOMETRY) FROM (VALUES ${list}) t(i, w) ORDER BY i`)).getRows();
  rows.forEach((r, i) => assert.equal(hex(wktToWkb(samples[i]!)), hex((r[0] as { bytes: Uint8Array }).bytes), samples[i]));
});


test('convert --type shape=GEOMETRY: WKT, GeoJSON and hex WKB cells of CSV, GeoJSON objects of JSON Lines; a bad cell names its line and column', async () => {
  const csv = join(files.dir, 'in.csv');
  writeFileSync(csv, 'id,shape\n1,POINT (1 2)\n2,"LINESTRING Z (0 0 1, 5 5 2)"\n3,"{""type"":""Point"",""coordinates"":[7,8]}"\n4,0101000000000000000000f03f0000000000000040\n5,\n');
  const jsonl = join(files.dir, 'in.jsonl');
  writeFileSync(jsonl, '{"id":1,"shape":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}\n{"id":2,"shape":"POINT EMPTY"}\n');
  const read = async (file: string) => (await files.duck.runAndReadAll(`SELECT typeof(shape), shape::VARCHAR FROM '${file}' ORDER BY id`)).getRows().map(String);
  for (const [input, want] of [
    [csv, ['GEOMETRY,POINT (1 2)', 'GEOMETRY,LINESTRING Z (0 0 1, 5 5 2)', 'GEOMETRY,POINT (7 8)', 'GEOMETRY,POINT (1 2)', 'GEOMETRY,']],
    [jsonl, ['GEOMETRY,POLYGON ((0 0, 1 0, 1 1, 0 0))', 'GEOMETRY,POINT EMPTY']],
  ] as const) {
    const out = `${input}.parquet`;
    const r = await cli('convert', input, out, '--type', 'shape=GEOMETRY');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(await read(out), want);
  }
  const bad = join(files.dir, 'bad.csv');
  writeFileSync(bad, 'id,shape\n1,POINT (1 2)\n2,"POINT (1 2,"\n');
  const r = await cli('convert', bad, `${bad}.parquet`, '--type', 'shape=GEOMETRY');
  assert.notEqual(r.code, 0);
  assert.match(r.err, /bad\.csv:3: column shape: expected GEOMETRY as WKB bytes, hex WKB, WKT text or a GeoJSON geometry; got "POINT \(1 2," \(string\): WKT: expected "\)" at line 1, column 11/);
});
