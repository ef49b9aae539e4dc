/**
 * The coordinates of a WKB geometry (GEOMETRY and GEOGRAPHY columns), for
 * computing and checking GeospatialStatistics: ISO WKB (type codes 1-7, plus
 * 1000 for Z, 2000 for M, 3000 for ZM) and the EWKB flags (Z, M, SRID) some
 * writers set. Each count is checked against the bytes left before anything
 * loops on it.
 */

/** Nested collections deeper than this are not walked (no real geometry nests so). */
const MAX_DEPTH = 64;

export interface WkbVisitor {
  /** The geometry's ISO type code (not its members' in a multi-geometry or collection). */
  type(code: number): void;
  /** Each vertex; z and m are NaN when the geometry has none. */
  vertex(x: number, y: number, z: number, m: number): void;
  /** Before each run of vertices: a point, a line string, or a polygon's ring (its first the shell); edges join a run's consecutive vertices. */
  begin?(kind: 'point' | 'line' | 'shell' | 'hole'): void;
}

/** Walks `bytes` as one WKB geometry; false when they are not one. */
export function walkWkb(bytes: Uint8Array, visit: WkbVisitor): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  const geometry = (depth: number): boolean => {
    if (depth > MAX_DEPTH || pos + 5 > bytes.length) return false;
    const le = bytes[pos] === 1;
    if (!le && bytes[pos] !== 0) return false;
    const u32 = (): number => {
      const v = view.getUint32(pos, le);
      pos += 4;
      return v;
    };
    pos++;
    const raw = u32();
    let base = raw & 0x0fffffff;
    let z = (raw & 0x80000000) !== 0;
    let m = (raw & 0x40000000) !== 0;
    if (raw & 0x20000000) {
      if (pos + 4 > bytes.length) return false;
      pos += 4; // EWKB SRID
    }
    const dims = Math.floor(base / 1000);
    if (dims > 3) return false;
    base %= 1000;
    z ||= dims === 1 || dims === 3;
    m ||= dims === 2 || dims === 3;
    if (depth === 0) visit.type(base + (z && m ? 3000 : z ? 1000 : m ? 2000 : 0));
    const width = 8 * (2 + (z ? 1 : 0) + (m ? 1 : 0));
    const points = (n: number, kind: 'point' | 'line' | 'shell' | 'hole'): boolean => {
      if (n > (bytes.length - pos) / width) return false;
      visit.begin?.(kind);
      for (let i = 0; i < n; i++) {
        const f = (k: number) => view.getFloat64(pos + 8 * k, le);
        visit.vertex(f(0), f(1), z ? f(2) : NaN, m ? f(z ? 3 : 2) : NaN);
        pos += width;
      }
      return true;
    };
    const count = (): number => (pos + 4 > bytes.length ? -1 : u32());
    switch (base) {
      case 1: return points(1, 'point');
      case 2: {
        const n = count();
        return n >= 0 && points(n, 'line');
      }
      case 3: {
        const rings = count();
        if (rings < 0 || rings > (bytes.length - pos) / 4) return false;
        for (let r = 0; r < rings; r++) {
          const n = count();
          if (n < 0 || !points(n, r === 0 ? 'shell' : 'hole')) return false;
        }
        return true;
      }
      case 4: case 5: case 6: case 7: {
        const n = count();
        if (n < 0 || n > (bytes.length - pos) / 5) return false;
        for (let i = 0; i < n; i++) if (!geometry(depth + 1)) return false;
        return true;
      }
      default: return false;
    }
  };
  return geometry(0) && pos === bytes.length;
}
