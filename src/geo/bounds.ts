/**
 * Bounding boxes and type codes of WKB geometries, as parquet-format's
 * GeospatialStatistics define them (Geospatial.md): per axis the least and
 * greatest coordinate, NaN skipped, an axis with no number left out, no box
 * without both x and y.
 *
 * GEOGRAPHY edges are arcs on the sphere, not straight lines in (x, y): an
 * arc between two vertices can reach further north or south than both, and
 * one between longitudes 170 and -170 crosses the antimeridian rather than
 * the whole map. Longitudes are gathered as arcs of the circle and the box's
 * x range is the least arc covering them all: when that arc crosses the
 * antimeridian, xmin > xmax, the spec's wraparound form. A polygon shell
 * that circles a pole contains it: the box then takes every longitude and
 * reaches that pole (the smaller of the two regions the ring bounds, as
 * when orientation is unknown; a shell crossing the equator could bound
 * either pole's side, so it takes all latitudes).
 */

import { walkWkb, type WkbVisitor } from './wkb.js';

/** parquet-format's BoundingBox: x and y always, z and m where some vertex has them; xmin > xmax wraps across the antimeridian. */
export interface BoundingBox {
  xmin: number;
  xmax: number;
  ymin: number;
  ymax: number;
  zmin?: number;
  zmax?: number;
  mmin?: number;
  mmax?: number;
}

/**
 * How edges run: straight (GEOMETRY), great-circle arcs (GEOGRAPHY's
 * SPHERICAL), or geodesics on an ellipsoid (VINCENTY, THOMAS, ANDOYER,
 * KARNEY), bounded by their great-circle arcs widened by ELLIPSOID_SLACK.
 */
export type Edges = 'planar' | 'spherical' | 'ellipsoidal';

/** Degrees: an ellipsoid's geodesic strays from the great circle through the same ends by well under this. */
const ELLIPSOID_SLACK = 0.5;
/** Degrees a computed arc extreme is widened by, for the rounding of its trigonometry. */
const ROUNDING = 1e-9;
/** Disjoint longitude ranges kept; past this the closest two are joined (the cover only grows). */
const MAX_RANGES = 64;

const RAD = Math.PI / 180;

class Range {
  min = Infinity;
  max = -Infinity;
  add(v: number): void {
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }
  merge(o: Range): void {
    this.add(o.min);
    this.add(o.max);
  }
  get empty(): boolean {
    return this.min > this.max;
  }
}

/** Longitudes as sorted disjoint closed ranges within [-180, 180]. */
class LonCover {
  private lo: number[] = [];
  private hi: number[] = [];

  get empty(): boolean {
    return this.lo.length === 0;
  }

  /** The range [a, b], a <= b, both within [-180, 180]. */
  add(a: number, b: number): void {
    const { lo, hi } = this;
    // The first range ending at or after a (binary search: most adds fall inside a range already).
    let i = 0;
    for (let n = lo.length; i < n; ) {
      const mid = (i + n) >> 1;
      if (hi[mid]! < a) i = mid + 1;
      else n = mid;
    }
    if (i < lo.length && lo[i]! <= a && b <= hi[i]!) return;
    let j = i;
    while (j < lo.length && lo[j]! <= b) {
      a = Math.min(a, lo[j]!);
      b = Math.max(b, hi[j]!);
      j++;
    }
    lo.splice(i, j - i, a);
    hi.splice(i, j - i, b);
    if (lo.length > MAX_RANGES) this.joinClosest();
  }

  /** The arc from longitude a to b the short way round (a geodesic's), split at the antimeridian. */
  addArc(a: number, b: number): void {
    let d = b - a;
    if (d > 180) d -= 360;
    else if (d < -180) d += 360;
    const from = d >= 0 ? a : a + d;
    const to = from + Math.abs(d);
    if (from < -180) {
      this.add(from + 360, 180);
      this.add(-180, to);
    } else if (to > 180) {
      this.add(from, 180);
      this.add(-180, to - 360);
    } else this.add(from, to);
  }

  merge(o: LonCover): void {
    for (let i = 0; i < o.lo.length; i++) this.add(o.lo[i]!, o.hi[i]!);
  }

  private joinClosest(): void {
    let k = 0;
    for (let i = 1; i + 1 < this.lo.length; i++) if (this.lo[i + 1]! - this.hi[i]! < this.lo[k + 1]! - this.hi[k]!) k = i;
    this.hi[k] = this.hi[k + 1]!;
    this.lo.splice(k + 1, 1);
    this.hi.splice(k + 1, 1);
  }

  /** The least arc covering every range: the circle less its widest gap (xmin > xmax when the arc crosses the antimeridian). */
  bounds(): [number, number] {
    const { lo, hi } = this;
    const n = lo.length;
    let gap = lo[0]! + 180 + (180 - hi[n - 1]!);
    let bounds: [number, number] = [lo[0]!, hi[n - 1]!];
    for (let i = 0; i + 1 < n; i++) {
      if (lo[i + 1]! - hi[i]! > gap) {
        gap = lo[i + 1]! - hi[i]!;
        bounds = [lo[i + 1]!, hi[i]!];
      }
    }
    return bounds;
  }
}

type Vec = [number, number, number];

const unit = (lon: number, lat: number): Vec => [Math.cos(lat * RAD) * Math.cos(lon * RAD), Math.cos(lat * RAD) * Math.sin(lon * RAD), Math.sin(lat * RAD)];
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * The bounds of geometries added one WKB value at a time, and the set of
 * their ISO type codes. A value that is not WKB makes the whole unknown
 * (`valid` false): nothing can then be said of the column.
 */
export class GeoBounder implements WkbVisitor {
  readonly types = new Set<number>();
  valid = true;
  private x = new Range();
  private y = new Range();
  private z = new Range();
  private m = new Range();
  private lon = new LonCover();
  /** A GEOGRAPHY vertex outside [-180, 180] x [-90, 90]: the data break the type's rule, so no box is claimed. */
  private outOfRange = false;
  // The run being walked (spherical edges).
  private kind: 'point' | 'line' | 'shell' | 'hole' = 'point';
  private prev: Vec | undefined;
  private prevLon = 0;
  private winding = 0;
  private north = true;
  private south = true;

  constructor(private readonly edges: Edges) {}

  /** Adds one value; false (and the bounder no longer valid) when it is not one WKB geometry. */
  add(wkb: Uint8Array): boolean {
    if (!this.valid) return false;
    if (!walkWkb(wkb, this)) this.valid = false;
    this.endRun();
    return this.valid;
  }

  type(code: number): void {
    this.types.add(code);
  }

  begin(kind: 'point' | 'line' | 'shell' | 'hole'): void {
    this.endRun();
    this.kind = kind;
  }

  vertex(x: number, y: number, z: number, m: number): void {
    this.z.add(z);
    this.m.add(m);
    if (this.edges === 'planar') {
      this.x.add(x);
      this.y.add(y);
      return;
    }
    if (x !== x || y !== y) return;
    if (!(x >= -180 && x <= 180 && y >= -90 && y <= 90)) {
      this.outOfRange = true;
      return;
    }
    this.y.add(y);
    this.north &&= y > 0;
    this.south &&= y < 0;
    // A pole is at every longitude.
    if (y === 90 || y === -90) this.lon.add(-180, 180);
    if (this.kind === 'point') {
      this.lon.add(x, x);
      return;
    }
    const v = unit(x, y);
    if (this.prev === undefined) this.lon.add(x, x);
    else this.arc(this.prev, v, this.prevLon, x);
    this.prev = v;
    this.prevLon = x;
  }

  /** The edge from a (longitude la) to b (lb): its longitudes, and its latitudes past its ends. */
  private arc(a: Vec, b: Vec, la: number, lb: number): void {
    let d = lb - la;
    if (d > 180) d -= 360;
    else if (d < -180) d += 360;
    this.winding += d;
    const n = cross(a, b);
    const len = Math.hypot(n[0], n[1], n[2]);
    if (len < 1e-15) {
      // Antipodal ends have no one geodesic between them: any latitude and longitude may lie on it.
      if (dot(a, b) < 0) {
        this.lon.add(-180, 180);
        this.y.add(-90);
        this.y.add(90);
      }
      return;
    }
    this.lon.addArc(la, lb);
    const nz = n[2] / len;
    // The great circle's northernmost point: the pole's direction with its normal component taken out.
    const p: Vec = [(-nz * n[0]) / len, (-nz * n[1]) / len, 1 - nz * nz];
    const plen = Math.hypot(p[0], p[1], p[2]);
    if (plen < 1e-15) return; // the equator
    const slack = ROUNDING + (this.edges === 'ellipsoidal' ? ELLIPSOID_SLACK : 0);
    for (const sign of [1, -1]) {
      const q: Vec = [(sign * p[0]) / plen, (sign * p[1]) / plen, (sign * p[2]) / plen];
      if (dot(cross(a, q), n) >= 0 && dot(cross(q, b), n) >= 0) {
        const lat = Math.asin(Math.max(-1, Math.min(1, q[2]))) / RAD;
        this.y.add(Math.max(-90, Math.min(90, lat + sign * slack)));
        // Through a pole, the arc passes every longitude's meridian end.
        if (Math.abs(lat) > 90 - slack) this.lon.add(-180, 180);
      }
    }
  }

  /** Closes the run walked last: a shell circling a pole contains it (every longitude, up to that pole; both when the shell crosses the equator). */
  private endRun(): void {
    if (this.kind === 'shell' && this.prev !== undefined && Math.abs(this.winding) > 180) {
      this.lon.add(-180, 180);
      if (!this.south) this.y.add(90);
      if (!this.north) this.y.add(-90);
    }
    this.prev = undefined;
    this.winding = 0;
    this.north = this.south = true;
    this.kind = 'point';
  }

  merge(o: GeoBounder): void {
    for (const t of o.types) this.types.add(t);
    this.valid &&= o.valid;
    this.outOfRange ||= o.outOfRange;
    this.x.merge(o.x);
    this.y.merge(o.y);
    this.z.merge(o.z);
    this.m.merge(o.m);
    this.lon.merge(o.lon);
  }

  /** The box, or undefined when there is none to claim (no x or y number, a value not WKB, a GEOGRAPHY vertex out of range). */
  box(): BoundingBox | undefined {
    if (!this.valid || this.outOfRange || this.y.empty) return undefined;
    let xmin: number;
    let xmax: number;
    if (this.edges === 'planar') {
      if (this.x.empty) return undefined;
      [xmin, xmax] = [this.x.min, this.x.max];
    } else [xmin, xmax] = this.lon.bounds();
    const box: BoundingBox = { xmin, xmax, ymin: this.y.min, ymax: this.y.max };
    if (!this.z.empty) [box.zmin, box.zmax] = [this.z.min, this.z.max];
    if (!this.m.empty) [box.mmin, box.mmax] = [this.m.min, this.m.max];
    return box;
  }
}

/** The least box holding every box of `boxes` (longitudes as arcs of the circle unless planar); undefined when any is missing. */
export function unionBoxes(boxes: (BoundingBox | undefined)[], edges: Edges): BoundingBox | undefined {
  const x = new Range();
  const y = new Range();
  const z = new Range();
  const m = new Range();
  const lon = new LonCover();
  for (const b of boxes) {
    if (!b) return undefined;
    if (edges === 'planar') {
      x.add(b.xmin);
      x.add(b.xmax);
    } else if (b.xmin <= b.xmax) lon.add(b.xmin, b.xmax);
    else {
      lon.add(b.xmin, 180);
      lon.add(-180, b.xmax);
    }
    y.add(b.ymin);
    y.add(b.ymax);
    for (const [r, lo, hi] of [[z, b.zmin, b.zmax], [m, b.mmin, b.mmax]] as const) {
      if (lo !== undefined) r.add(lo);
      if (hi !== undefined) r.add(hi);
    }
  }
  if (y.empty) return undefined;
  const [xmin, xmax] = edges === 'planar' ? [x.min, x.max] : lon.bounds();
  return { xmin, xmax, ymin: y.min, ymax: y.max, ...(z.empty ? {} : { zmin: z.min, zmax: z.max }), ...(m.empty ? {} : { mmin: m.min, mmax: m.max }) };
}
