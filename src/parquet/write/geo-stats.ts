import type { GeoBounder } from '../../geo/bounds.js';
import type { GeospatialStatistics } from '../metadata/index.js';

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
