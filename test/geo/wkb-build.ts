/**
 * A test-only WKB encoder from nested coordinates, written apart from the
 * library's so tests can check one against the other: ISO type codes,
 * either byte order. And points along a geometry's great-circle arcs.
 */
import { walkWkb } from '../../src/geo/wkb.js';

export type Dims = 'XY' | 'XYZ' | 'XYM' | 'XYZM';
export type Geom =
  | { t: 'Point'; c: number[] }
  | { t: 'LineString'; c: number[][] }
  | { t: 'Polygon'; c: number[][][] }
  | { t: 'MultiPoint' | 'MultiLineString' | 'MultiPolygon' | 'GeometryCollection'; g: Geom[] };

const CODES = { Point: 1, LineString: 2, Polygon: 3, MultiPoint: 4, MultiLineString: 5, MultiPolygon: 6, GeometryCollection: 7 };
const OFFSET = { XY: 0, XYZ: 1000, XYM: 2000, XYZM: 3000 };

export function wkb(g: Geom, dims: Dims = 'XY', le = true): Uint8Array {
  const out: number[] = [];
  const u32 = (v: number) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, le);
    out.push(...b);
  };
  const f64 = (v: number) => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, le);
    out.push(...b);
  };
  const pts = (c: number[][]) => {
    u32(c.length);
    for (const p of c) p.forEach(f64);
  };
  const put = (g: Geom) => {
    out.push(le ? 1 : 0);
    u32(CODES[g.t] + OFFSET[dims]);
    if (g.t === 'Point') g.c.forEach(f64);
    else if (g.t === 'LineString') pts(g.c);
    else if (g.t === 'Polygon') {
      u32(g.c.length);
      g.c.forEach(pts);
    } else {
      u32(g.g.length);
      g.g.forEach(put);
    }
  };
  put(g);
  return Uint8Array.from(out);
}

/** Every coordinate of a geometry, as [x, y, z?, m?] arrays. */
export function coordinates(g: Geom): number[][] {
  if (g.t === 'Point') return [g.c];
  if (g.t === 'LineString') return g.c;
  if (g.t === 'Polygon') return g.c.flat();
  return g.g.flatMap(coordinates);
}

/** Points along each edge of a WKB geometry, as great-circle arcs: 32 steps of spherical interpolation between each two consecutive vertices. */
export function arcSamples(wkb: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let prev: [number, number, number] | undefined;
  const rad = Math.PI / 180;
  walkWkb(wkb, {
    type() {},
    begin() {
      prev = undefined;
    },
    vertex(x, y) {
      const v: [number, number, number] = [Math.cos(y * rad) * Math.cos(x * rad), Math.cos(y * rad) * Math.sin(x * rad), Math.sin(y * rad)];
      out.push([x, y]);
      if (prev) {
        const omega = Math.acos(Math.min(1, prev[0] * v[0] + prev[1] * v[1] + prev[2] * v[2]));
        for (let k = 1; k < 32 && omega > 1e-12; k++) {
          const t = k / 32;
          const a = Math.sin((1 - t) * omega) / Math.sin(omega);
          const b = Math.sin(t * omega) / Math.sin(omega);
          const p = [a * prev[0] + b * v[0], a * prev[1] + b * v[1], a * prev[2] + b * v[2]];
          out.push([Math.atan2(p[1]!, p[0]!) / rad, Math.asin(Math.max(-1, Math.min(1, p[2]!))) / rad]);
        }
      }
      prev = v;
    },
  });
  return out;
}
