/**
 * GeoParquet 1.1's `geo` key-value metadata, written beside the native
 * GEOMETRY and GEOGRAPHY types for readers that know only GeoParquet (GDAL,
 * geopandas, DuckDB's spatial extension). GeoParquet takes columns at the
 * root only, not repeated, with planar or spherical edges and a CRS as
 * PROJJSON (absent for OGC:CRS84). A column it cannot describe truly (a
 * CRS given as a code we cannot turn into PROJJSON, an ellipsoidal edge
 * algorithm, nesting) is left out of it; the native type still says all.
 */
import { unionBoxes } from '../../geo/bounds.js';
import { geoEdges } from '../../schema/logical.js';
import type { Schema } from '../../schema/tree.js';
import type { ColumnMetaData, RowGroup } from '../metadata/index.js';

const NAMES = ['', 'Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon', 'GeometryCollection'];

/** The CRS as GeoParquet states it: undefined for the default, a PROJJSON object, or null when it cannot be given. */
function projjson(crs: string | undefined, metadata: Record<string, string>): object | undefined | null {
  if (crs === undefined || crs === 'OGC:CRS84') return undefined;
  const text = crs.startsWith('projjson:') ? metadata[crs.slice('projjson:'.length)] : crs;
  try {
    const v: unknown = text === undefined ? null : JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** The `geo` value for the file's row groups so far (`chunk` gives row group g's column i), or undefined when no column qualifies. */
export function geoParquetMetadata(
  schema: Schema, rowGroups: readonly Pick<RowGroup, 'numRows'>[], chunk: (g: number, i: number) => ColumnMetaData, metadata: Record<string, string>,
): string | undefined {
  const columns: Record<string, object> = {};
  schema.leaves.forEach((leaf, i) => {
    const edges = geoEdges(leaf.element.logicalType);
    if (!edges || edges === 'ellipsoidal' || leaf.path.length !== 1 || leaf.repetition === 'REPEATED') return;
    const lt = leaf.element.logicalType as { crs?: string };
    const crs = projjson(lt.crs, metadata);
    if (crs === null) return;
    const metas = rowGroups.map((_, g) => chunk(g, i));
    const stats = metas.map((m) => m.geospatialStatistics);
    // A chunk of nulls only has no statistics and adds nothing; any other chunk without them makes types and box unknown.
    const withValues = stats.filter((s, g) => s !== undefined || metas[g]!.statistics?.nullCount !== rowGroups[g]!.numRows);
    const codes = [...new Set(withValues.flatMap((s) => s?.geospatialTypes ?? []))].sort((a, b) => a - b);
    // GeoParquet names no M types: a column with any lists none (unknown), as an empty list says.
    const known = withValues.every((s) => s !== undefined) && codes.every((c) => c < 2000);
    const types = known ? codes.map((c) => NAMES[c % 1000]! + (c >= 1000 ? ' Z' : '')) : [];
    const box = withValues.length ? unionBoxes(withValues.map((s) => s?.bbox), edges) : undefined;
    const bbox = box && (box.zmin !== undefined ? [box.xmin, box.ymin, box.zmin, box.xmax, box.ymax, box.zmax!] : [box.xmin, box.ymin, box.xmax, box.ymax]);
    columns[leaf.path[0]!] = {
      encoding: 'WKB',
      geometry_types: types,
      ...(crs !== undefined ? { crs } : {}),
      ...(edges === 'spherical' ? { edges: 'spherical' } : {}),
      ...(bbox ? { bbox } : {}),
    };
  });
  const names = Object.keys(columns);
  if (names.length === 0) return undefined;
  return JSON.stringify({ version: '1.1.0', primary_column: names[0], columns });
}
