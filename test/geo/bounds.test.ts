/**
 * GeoBounder against the boxes other writers put in the shared geospatial
 * files: Arrow C++ (GEOMETRY, planar, NaN) and DataFusion / arrow-rs
 * (GEOGRAPHY: spherical arcs, wraparound and polar boxes), row group by
 * row group from the WKB the files hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openParquet } from '../../src/node/index.js';
import { GeoBounder } from '../../src/geo/bounds.js';
import type { BoundingBox as GeoBox } from '../../src/parquet/metadata/index.js';
import { arcSamples } from './wkb-build.js';

const DIR = '../shared/corpus/parquet-testing/data/geospatial';

/** Does box `outer` hold `inner` (longitudes as arcs of the circle, wraparound when min > max), within `eps`? */
function holds(outer: GeoBox, inner: GeoBox, eps: number): boolean {
  const arc = (lo: number, hi: number): [number, number] => [lo, lo <= hi ? hi : hi + 360];
  const [ol, oh] = arc(outer.xmin, outer.xmax);
  let [il, ih] = arc(inner.xmin, inner.xmax);
  if (il < ol - eps) [il, ih] = [il + 360, ih + 360];
  const xOk = oh - ol >= 360 - eps || (il >= ol - eps && ih <= oh + eps);
  return xOk && inner.ymin >= outer.ymin - eps && inner.ymax <= outer.ymax + eps;
}

async function chunks(file: string): Promise<{ stored: GeoBox | undefined; types: number[] | undefined; values: Uint8Array[] }[]> {
  const reader = await openParquet(join(DIR, file));
  try {
    const col = reader.file.metadata.schema.findIndex((e) => e.name === 'geometry') - 1;
    const out = [];
    for (let rg = 0; rg < reader.file.metadata.rowGroups.length; rg++) {
      const rows = await reader.readRows({ columns: ['geometry'], rowGroups: [rg] });
      const gs = reader.file.metadata.rowGroups[rg]!.columns[col]!.metaData!.geospatialStatistics;
      out.push({ stored: gs?.bbox as GeoBox | undefined, types: gs?.geospatialTypes, values: rows.map((r) => r.geometry as Uint8Array).filter((v) => v != null) });
    }
    return out;
  } finally {
    await reader.close();
  }
}

function inBox(b: GeoBox, x: number, y: number, eps: number): boolean {
  const inX = b.xmin <= b.xmax ? x >= b.xmin - eps && x <= b.xmax + eps : x >= b.xmin - eps || x <= b.xmax + eps;
  return (inX || Math.abs(y) > 90 - eps) && y >= b.ymin - eps && y <= b.ymax + eps;
}

for (const file of ['geography-points.parquet', 'geography-lines.parquet', 'geography-polygons.parquet']) {
  test(`GEOGRAPHY boxes of ${file}: every point of every arc inside, and never looser than arrow-rs's`, async () => {
    let wraps = 0;
    let same = 0;
    const groups = await chunks(file);
    for (const { stored, types, values } of groups) {
      const b = new GeoBounder('spherical');
      for (const v of values) assert.ok(b.add(v));
      const ours = b.box()!;
      assert.deepEqual([...b.types].sort(), types!.slice().sort());
      for (const v of values) for (const [x, y] of arcSamples(v)) assert.ok(inBox(ours, x, y, 1e-9), `(${x}, ${y}) outside ${JSON.stringify(ours)}`);
      // A box reaching a pole takes every longitude (the pole is at all of them); arrow-rs keeps the vertices' longitudes.
      const polar = ours.ymax === 90 || ours.ymin === -90;
      assert.ok(holds(stored!, polar ? { ...ours, xmin: stored!.xmin, xmax: stored!.xmax } : ours, 1e-8), `${JSON.stringify(ours)} is looser than arrow-rs's ${JSON.stringify(stored)}`);
      if (holds(ours, stored!, 1e-8)) same++;
      if (ours.xmin > ours.xmax) wraps++;
    }
    assert.ok(wraps > 0, 'some row group wraps around the antimeridian');
    assert.ok(same >= groups.length - 2, `${same} of ${groups.length} row groups' boxes equal arrow-rs's`);
  });
}

for (const file of ['geospatial.parquet', 'geospatial-with-nan.parquet', 'crs-default.parquet', 'crs-srid.parquet']) {
  test(`GEOMETRY boxes and types of ${file} equal Arrow C++'s`, async () => {
    for (const { stored, types, values } of await chunks(file)) {
      const b = new GeoBounder('planar');
      for (const v of values) assert.ok(b.add(v));
      assert.deepEqual(b.box(), stored);
      assert.deepEqual([...b.types].sort((x, y) => x - y), (types ?? []).slice().sort((x, y) => x - y));
    }
  });
}
