import type { GeoBounder, Edges } from '../../geo/bounds.js';
import type { LeafNode } from '../../schema/tree.js';
import type { GeospatialStatistics } from '../metadata/index.js';

/** How a GEOMETRY or GEOGRAPHY column's edges run (an unknown algorithm as an ellipsoid's); undefined for other columns. */
export function geoEdges(leaf: LeafNode): Edges | undefined {
  const lt = leaf.element.logicalType as { type?: string; algorithm?: string } | undefined;
  if (lt?.type === 'GEOMETRY') return 'planar';
  if (lt?.type !== 'GEOGRAPHY') return undefined;
  return lt.algorithm === undefined || lt.algorithm === 'SPHERICAL' ? 'spherical' : 'ellipsoidal';
}

/**
 * A chunk's GeospatialStatistics: its box where there is one, its type
 * codes ascending. Nothing when a value is not WKB (no bound can be
 * claimed) or the chunk has no value.
 */
export function geospatialStatistics(b: GeoBounder): GeospatialStatistics | undefined {
  if (!b.valid || b.types.size === 0) return undefined;
  const bbox = b.box();
  return { ...(bbox ? { bbox } : {}), geospatialTypes: [...b.types].sort((x, y) => x - y) };
}
