/**
 * The `intersects` filter: does a GEOMETRY or GEOGRAPHY value's box meet a
 * query box? Boxes are closed (touching counts). An x range whose min is
 * above its max wraps around the antimeridian (GeospatialStatistics' rule,
 * and a GEOGRAPHY query may use it too). Row groups are pruned by their
 * GeospatialStatistics box; parquet-format keeps no geospatial bounds per
 * page (the column index has none), so pages are not.
 */
import { InvalidArgumentError } from '../../errors.js';
import { GeoBounder, type Edges } from '../../geo/bounds.js';
import { geoEdges } from '../../schema/logical.js';
import type { LeafNode } from '../../schema/tree.js';
import type { BoundingBox } from '../metadata/index.js';

export interface QueryBox {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** Degrees a GEOGRAPHY chunk box is widened by before pruning: another writer's arcs may round a little inside ours. */
const GEOGRAPHY_SLACK = 1e-8;

/** The column's edges and the query box, checked. */
export function bindIntersects(leaf: LeafNode, box: unknown): { edges: Edges; box: QueryBox } {
  const column = leaf.path.join('.');
  const edges = geoEdges(leaf.element.logicalType);
  if (!edges) throw new InvalidArgumentError(`intersects needs a GEOMETRY or GEOGRAPHY column; ${column} is neither`, { column });
  const b = box as Partial<QueryBox> | null;
  const nums = b !== null && typeof b === 'object' ? [b.xmin, b.ymin, b.xmax, b.ymax] : [];
  if (nums.length !== 4 || !nums.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new InvalidArgumentError(`intersects on ${column} needs a "box" of finite numbers xmin, ymin, xmax, ymax`, { column });
  }
  const q = b as QueryBox;
  if (q.ymin > q.ymax) throw new InvalidArgumentError(`intersects on ${column}: ymin ${q.ymin} is above ymax ${q.ymax}`, { column });
  if (q.xmin > q.xmax && edges === 'planar') {
    throw new InvalidArgumentError(`intersects on ${column}: xmin ${q.xmin} is above xmax ${q.xmax} (only a GEOGRAPHY box wraps around the antimeridian)`, { column });
  }
  return { edges, box: { xmin: q.xmin, ymin: q.ymin, xmax: q.xmax, ymax: q.ymax } };
}

/** Do closed ranges [a1, a2] and [b1, b2] meet, either wrapping (min above max) across the antimeridian? */
function rangesMeet(a1: number, a2: number, b1: number, b2: number): boolean {
  const aw = a1 > a2;
  const bw = b1 > b2;
  if (aw && bw) return true; // both hold the antimeridian
  if (aw) return b2 >= a1 || b1 <= a2;
  if (bw) return a2 >= b1 || a1 <= b2;
  return a1 <= b2 && b1 <= a2;
}

export function boxesMeet(a: BoundingBox, q: QueryBox, slack = 0): boolean {
  return a.ymin - slack <= q.ymax && q.ymin <= a.ymax + slack && rangesMeet(a.xmin - slack, a.xmax + slack, q.xmin, q.xmax);
}

/** Can a row group whose chunk has this box hold a value that meets the query? Unknown without a box. */
export function chunkMayMeet(bbox: BoundingBox | undefined, edges: Edges, q: QueryBox): boolean {
  return bbox === undefined || boxesMeet(bbox, q, edges === 'planar' ? 0 : GEOGRAPHY_SLACK);
}

/** Per WKB value: true when its box meets the query, false when it does not (or it is empty), undefined when it is not WKB. */
export function valueMeets(edges: Edges, q: QueryBox): (wkb: Uint8Array) => boolean | undefined {
  return (wkb) => {
    const b = new GeoBounder(edges);
    if (!b.add(wkb)) return undefined;
    const box = b.box();
    return box !== undefined && boxesMeet(box, q);
  };
}
