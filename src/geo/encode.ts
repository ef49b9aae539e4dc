/**
 * Geometries from text to ISO WKB (little-endian): Well-Known Text
 * (`POINT (1 2)`, `LINESTRING Z (...)`, `POLYGON EMPTY`, every type of the
 * Simple Features model with Z, M and ZM) and GeoJSON geometry objects
 * (RFC 7946; a third coordinate is Z, a fourth M). An empty point is
 * written with NaN coordinates, as the convention Parquet's spec cites.
 * Bad text is an InvalidArgumentError naming line and column in the text.
 */
import { InvalidArgumentError } from '../errors.js';

type Dims = 'XY' | 'XYZ' | 'XYM' | 'XYZM';

/** A geometry before encoding: ISO type code 1-7, its own coordinates or members. */
interface Shape {
  code: number;
  dims: Dims;
  /** Point: zero (empty) or one position; LineString: its positions. */
  points?: number[][];
  rings?: number[][][];
  parts?: Shape[];
}

const WIDTH: Record<Dims, number> = { XY: 2, XYZ: 3, XYM: 3, XYZM: 4 };
const OFFSET: Record<Dims, number> = { XY: 0, XYZ: 1000, XYM: 2000, XYZM: 3000 };
const CODES: Record<string, number> = {
  POINT: 1, LINESTRING: 2, POLYGON: 3, MULTIPOINT: 4, MULTILINESTRING: 5, MULTIPOLYGON: 6, GEOMETRYCOLLECTION: 7,
};
const GEOJSON_CODES: Record<string, number> = {
  Point: 1, LineString: 2, Polygon: 3, MultiPoint: 4, MultiLineString: 5, MultiPolygon: 6, GeometryCollection: 7,
};
/** Collections nested deeper than this are refused (the WKB walker's limit too). */
const MAX_DEPTH = 64;

function toWkb(shape: Shape): Uint8Array {
  let size = 0;
  const measure = (s: Shape): void => {
    size += 5;
    const w = 8 * WIDTH[s.dims];
    if (s.code === 1) size += w;
    else if (s.points) size += 4 + s.points.length * w;
    else if (s.rings) size += 4 + s.rings.reduce((n, r) => n + 4 + r.length * w, 0);
    else {
      size += 4;
      s.parts!.forEach(measure);
    }
  };
  measure(shape);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let pos = 0;
  const u32 = (v: number) => {
    view.setUint32(pos, v, true);
    pos += 4;
  };
  const position = (p: number[]) => {
    for (const v of p) {
      view.setFloat64(pos, v, true);
      pos += 8;
    }
  };
  const put = (s: Shape): void => {
    out[pos++] = 1;
    u32(s.code + OFFSET[s.dims]);
    if (s.code === 1) position(s.points![0] ?? new Array<number>(WIDTH[s.dims]).fill(NaN));
    else if (s.points) {
      u32(s.points.length);
      s.points.forEach(position);
    } else if (s.rings) {
      u32(s.rings.length);
      for (const r of s.rings) {
        u32(r.length);
        r.forEach(position);
      }
    } else {
      u32(s.parts!.length);
      s.parts!.forEach(put);
    }
  };
  put(shape);
  return out;
}

// ------------------------------------------------------------------ WKT

const WORD = /[A-Za-z]{1,24}/y;
const NUMBER = /[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;

class WktParser {
  private i = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  parse(): Shape {
    const s = this.geometry();
    this.ws();
    if (this.i < this.text.length) this.fail('the end of the text');
    return s;
  }

  private fail(expected: string): never {
    const before = this.text.slice(0, this.i);
    const line = before.split('\n').length;
    const column = this.i - before.lastIndexOf('\n');
    const found = this.i < this.text.length ? JSON.stringify(this.text.slice(this.i, this.i + 12)) : 'the end of the text';
    throw new InvalidArgumentError(`WKT: expected ${expected} at line ${line}, column ${column}, found ${found}`);
  }

  private ws(): void {
    for (let c = this.text.charCodeAt(this.i); c === 32 || (c >= 9 && c <= 13); c = this.text.charCodeAt(++this.i));
  }

  private word(): string {
    this.ws();
    WORD.lastIndex = this.i;
    const m = WORD.exec(this.text);
    return m ? m[0].toUpperCase() : '';
  }

  private take(c: string): boolean {
    this.ws();
    if (this.text[this.i] !== c) return false;
    this.i++;
    return true;
  }

  private expect(c: string, what = `"${c}"`): void {
    if (!this.take(c)) this.fail(what);
  }

  private geometry(outer?: Dims): Shape {
    if (++this.depth > MAX_DEPTH) this.fail(`at most ${MAX_DEPTH} nested collections`);
    let name = this.word();
    // POINTZ, LINESTRINGZM: the dimension glued to the name.
    let tag = '';
    for (const t of ['ZM', 'Z', 'M']) {
      if (!CODES[name] && name.endsWith(t) && CODES[name.slice(0, -t.length)]) {
        tag = t;
        name = name.slice(0, -t.length);
        break;
      }
    }
    const code = CODES[name];
    if (!code) this.fail('a geometry type (POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON, GEOMETRYCOLLECTION)');
    this.i += this.word().length;
    if (!tag) {
      const t = this.word();
      if (t === 'Z' || t === 'M' || t === 'ZM') {
        tag = t;
        this.i += t.length;
      }
    }
    const declared = tag ? (('XY' + tag) as Dims) : undefined;
    if (declared && outer && declared !== outer) this.fail(`a member with the collection's dimensions (${outer})`);
    const dims = { d: declared ?? outer };
    const s = this.body(code, dims);
    this.depth--;
    const d = dims.d ?? 'XY';
    // An empty member read before the first position took the default: it takes the collection's.
    for (const part of s.parts ?? []) if (part.dims !== d && (code !== 7 || part.parts?.length === 0 || part.points?.length === 0 || part.rings?.length === 0)) part.dims = d;
    if (s.parts?.some((part) => part.dims !== d)) this.fail(`members with the collection's dimensions (${d})`);
    return { ...s, dims: d };
  }

  /** The body after the type; `dims.d` is fixed by a tag or by the first position. */
  private body(code: number, dims: { d?: Dims }): Omit<Shape, 'dims'> {
    if (this.word() === 'EMPTY') {
      this.i += 5;
      return code === 1 ? { code, points: [] } : code === 2 ? { code, points: [] } : code === 3 ? { code, rings: [] } : { code, parts: [] };
    }
    this.expect('(', '"(" or EMPTY');
    let s: Omit<Shape, 'dims'>;
    switch (code) {
      case 1: s = { code, points: [this.position(dims)] }; break;
      case 2: s = { code, points: this.positions(dims) }; break;
      case 3: s = { code, rings: this.list(() => this.ring(dims)) }; break;
      case 4: s = { code, parts: this.list(() => this.member(1, dims)) }; break;
      case 5: s = { code, parts: this.list(() => this.member(2, dims)) }; break;
      case 6: s = { code, parts: this.list(() => this.member(3, dims)) }; break;
      default: s = { code, parts: this.list(() => {
        const member = this.geometry(dims.d);
        dims.d ??= member.dims;
        return member;
      }) };
    }
    this.expect(')', code === 1 ? '")"' : '"," or ")"');
    return s;
  }

  /** A member of a MULTI*: its body without a type name (a MULTIPOINT's point may lack its parentheses). */
  private member(code: number, dims: { d?: Dims }): Shape {
    if (code === 1 && this.word() !== 'EMPTY' && !this.take('(')) return { code, dims: dims.d!, points: [this.position(dims)] };
    if (code === 1 && this.word() !== 'EMPTY') {
      const p = this.position(dims);
      this.expect(')');
      return { code, dims: dims.d!, points: [p] };
    }
    const s = this.body(code, dims);
    return { ...s, dims: dims.d ?? 'XY' };
  }

  private ring(dims: { d?: Dims }): number[][] {
    if (this.word() === 'EMPTY') {
      this.i += 5;
      return [];
    }
    this.expect('(', '"(" or EMPTY');
    const r = this.positions(dims);
    this.expect(')', '"," or ")"');
    return r;
  }

  private list<T>(item: () => T): T[] {
    const out = [item()];
    while (this.take(',')) out.push(item());
    return out;
  }

  private positions(dims: { d?: Dims }): number[][] {
    return this.list(() => this.position(dims));
  }

  private position(dims: { d?: Dims }): number[] {
    const p: number[] = [];
    for (;;) {
      this.ws();
      NUMBER.lastIndex = this.i;
      const m = NUMBER.exec(this.text);
      if (!m) break;
      p.push(Number(m[0]));
      this.i += m[0].length;
    }
    if (p.length < 2 || p.length > 4) this.fail(p.length < 2 ? 'a number' : '"," or ")"');
    // Without a tag, three numbers are XYZ and four XYZM (as PostGIS and DuckDB read them).
    dims.d ??= p.length === 2 ? 'XY' : p.length === 3 ? 'XYZ' : 'XYZM';
    if (p.length !== WIDTH[dims.d]) this.fail(`${WIDTH[dims.d]} numbers per position (${dims.d})`);
    return p;
  }
}

/** ISO WKB of a Well-Known Text geometry. */
export function wktToWkb(text: string): Uint8Array {
  return toWkb(new WktParser(text).parse());
}

// ------------------------------------------------------------------ GeoJSON

function geojsonShape(g: unknown, path: string, depth: number): Shape {
  const fail = (why: string): never => {
    throw new InvalidArgumentError(`GeoJSON: ${why}`);
  };
  if (depth > MAX_DEPTH) fail(`${path} is inside more than ${MAX_DEPTH} nested collections`);
  if (g === null || typeof g !== 'object' || Array.isArray(g)) return fail(`${path} is not a geometry object`);
  const o = g as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  const code = typeof o.type === 'string' ? GEOJSON_CODES[o.type] : undefined;
  if (code === undefined) return fail(`${path}.type must be one of ${Object.keys(GEOJSON_CODES).join(', ')}`);
  if (code === 7) {
    if (!Array.isArray(o.geometries)) return fail(`${path} is a GeometryCollection without a geometries array`);
    const parts = o.geometries.map((m, k) => geojsonShape(m, `${path}.geometries[${k}]`, depth + 1));
    const dims = parts[0]?.dims ?? 'XY';
    if (parts.some((p) => p.dims !== dims)) fail(`${path} has members with different dimensions`);
    return { code, dims, parts };
  }
  let dims: Dims | undefined;
  const position = (p: unknown, at: string): number[] => {
    if (!Array.isArray(p) || p.length < 2 || p.length > 4 || !p.every((v) => typeof v === 'number')) fail(`${at} is not a position of 2 to 4 numbers`);
    const d: Dims = (p as number[]).length === 2 ? 'XY' : (p as number[]).length === 3 ? 'XYZ' : 'XYZM';
    if ((dims ??= d) !== d) fail(`${at} has ${(p as number[]).length} numbers where earlier positions have ${WIDTH[dims]}`);
    return p as number[];
  };
  const array = (v: unknown, at: string): unknown[] => (Array.isArray(v) ? v : fail(`${at} is not an array`));
  const line = (v: unknown, at: string) => array(v, at).map((p, k) => position(p, `${at}[${k}]`));
  const poly = (v: unknown, at: string) => array(v, at).map((r, k) => line(r, `${at}[${k}]`));
  const c = o.coordinates;
  const at = `${path}.coordinates`;
  let s: Omit<Shape, 'dims'>;
  switch (code) {
    case 1: s = { code, points: array(c, at).length === 0 ? [] : [position(c, at)] }; break;
    case 2: s = { code, points: line(c, at) }; break;
    case 3: s = { code, rings: poly(c, at) }; break;
    case 4: s = { code, parts: array(c, at).map((p, k) => ({ code: 1, dims: 'XY', points: [position(p, `${at}[${k}]`)] })) }; break;
    case 5: s = { code, parts: array(c, at).map((l, k) => ({ code: 2, dims: 'XY', points: line(l, `${at}[${k}]`) })) }; break;
    default: s = { code, parts: array(c, at).map((p, k) => ({ code: 3, dims: 'XY', rings: poly(p, `${at}[${k}]`) })) };
  }
  const d = dims ?? 'XY';
  s.parts?.forEach((p) => (p.dims = d));
  return { ...s, dims: d };
}

/** ISO WKB of a GeoJSON geometry object. */
export function geojsonToWkb(geometry: unknown): Uint8Array {
  return toWkb(geojsonShape(geometry, 'geometry', 0));
}
