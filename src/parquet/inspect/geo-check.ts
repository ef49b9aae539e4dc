import type { GeospatialStatistics } from '../metadata/index.js';
import { walkWkb, type WkbVisitor } from '../../geo/wkb.js';

/**
 * A chunk's WKB values against its GeospatialStatistics: the first vertex
 * outside each bound of the bbox (NaN coordinates, as empty geometries
 * have, bound nothing; xmin above xmax wraps around the antimeridian), and
 * the type codes geospatial_types leaves out (an empty list claims nothing).
 * A GEOGRAPHY's bbox is computed on the sphere and back, so its bounds may
 * miss a vertex by rounding: there a vertex must be more than `slack` out.
 */
export class GeoCheck implements WkbVisitor {
  /** Per bbox field, what it says and the first coordinate past it. */
  readonly outside = new Map<string, { stored: string; actual: number }>();
  readonly unlisted = new Set<number>();
  /** Every value read as WKB (otherwise nothing can be said). */
  readable = true;

  constructor(readonly stats: GeospatialStatistics, private readonly slack = 0) {}

  add(value: Uint8Array): void {
    if (this.readable) this.readable = walkWkb(value, this);
  }

  type(code: number): void {
    const listed = this.stats.geospatialTypes;
    if (listed?.length && !listed.includes(code)) this.unlisted.add(code);
  }

  vertex(x: number, y: number, z: number, m: number): void {
    const b = this.stats.bbox;
    if (!b) return;
    if (b.xmin > b.xmax) {
      if (x < b.xmin - this.slack && x > b.xmax + this.slack) this.note('xmin', `${b.xmin} (wrapping to xmax ${b.xmax})`, x);
    } else this.range('x', b.xmin, b.xmax, x);
    this.range('y', b.ymin, b.ymax, y);
    this.range('z', b.zmin, b.zmax, z);
    this.range('m', b.mmin, b.mmax, m);
  }

  private range(axis: string, min: number | undefined, max: number | undefined, v: number): void {
    if (min !== undefined && v < min - this.slack) this.note(`${axis}min`, String(min), v);
    if (max !== undefined && v > max + this.slack) this.note(`${axis}max`, String(max), v);
  }

  private note(bound: string, stored: string, actual: number): void {
    if (!this.outside.has(bound)) this.outside.set(bound, { stored, actual });
  }
}
