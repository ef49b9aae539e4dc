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
  const w = new Walk(bytes, visit);
  return w.geometry(0) && w.pos === bytes.length;
}

/** One walk's state in fields, not closures: writers walk every value, and per-value closures cost more than the walk. */
class Walk {
  pos = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array, private readonly visit: WkbVisitor) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** A u32 at pos, or -1 when the bytes end first. */
  private count(le: boolean): number {
    if (this.pos + 4 > this.bytes.length) return -1;
    const v = this.view.getUint32(this.pos, le);
    this.pos += 4;
    return v;
  }

  geometry(depth: number): boolean {
    const { bytes } = this;
    if (depth > MAX_DEPTH || this.pos + 5 > bytes.length) return false;
    const le = bytes[this.pos] === 1;
    if (!le && bytes[this.pos] !== 0) return false;
    this.pos++;
    const raw = this.count(le);
    let base = raw & 0x0fffffff;
    let z = (raw & 0x80000000) !== 0;
    let m = (raw & 0x40000000) !== 0;
    if (raw & 0x20000000) {
      if (this.pos + 4 > bytes.length) return false;
      this.pos += 4; // EWKB SRID
    }
    const dims = Math.floor(base / 1000);
    if (dims > 3) return false;
    base %= 1000;
    z ||= dims === 1 || dims === 3;
    m ||= dims === 2 || dims === 3;
    if (depth === 0) this.visit.type(base + (z && m ? 3000 : z ? 1000 : m ? 2000 : 0));
    switch (base) {
      case 1: return this.points(1, 'point', le, z, m);
      case 2: {
        const n = this.count(le);
        return n >= 0 && this.points(n, 'line', le, z, m);
      }
      case 3: {
        const rings = this.count(le);
        if (rings < 0 || rings > (bytes.length - this.pos) / 4) return false;
        for (let r = 0; r < rings; r++) {
          const n = this.count(le);
          if (n < 0 || !this.points(n, r === 0 ? 'shell' : 'hole', le, z, m)) return false;
        }
        return true;
      }
      case 4: case 5: case 6: case 7: {
        const n = this.count(le);
        if (n < 0 || n > (bytes.length - this.pos) / 5) return false;
        for (let i = 0; i < n; i++) if (!this.geometry(depth + 1)) return false;
        return true;
      }
      default: return false;
    }
  }

  private points(n: number, kind: 'point' | 'line' | 'shell' | 'hole', le: boolean, z: boolean, m: boolean): boolean {
    const width = 8 * (2 + (z ? 1 : 0) + (m ? 1 : 0));
    if (n > (this.bytes.length - this.pos) / width) return false;
    this.visit.begin?.(kind);
    const { view } = this;
    for (let i = 0; i < n; i++) {
      const p = this.pos;
      this.visit.vertex(view.getFloat64(p, le), view.getFloat64(p + 8, le), z ? view.getFloat64(p + 16, le) : NaN, m ? view.getFloat64(p + (z ? 24 : 16), le) : NaN);
      this.pos += width;
    }
    return true;
  }
}
