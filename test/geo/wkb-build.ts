/**
 * A test-only WKB encoder from nested coordinates, written apart from the
 * library's so tests can check one against the other: ISO type codes,
 * either byte order.
 */
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
