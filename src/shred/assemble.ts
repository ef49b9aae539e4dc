import { CorruptFileError } from '../errors.js';
import type { ListPlan, MapPlan, Plan, RecordPlan, StructPlan } from './plan.js';

/** One leaf column as the assembler sees it: levels plus a way to fetch the i-th non-null value. */
export interface LeafColumn {
  /** Definition level per entry; null when the leaf's max definition level is 0. */
  def: ArrayLike<number> | null;
  /** Repetition level per entry; null when the leaf is not repeated. */
  rep: ArrayLike<number> | null;
  /** Number of level entries. */
  length: number;
  maxDef: number;
  /** Number of non-null values. */
  valueCount: number;
  /** The i-th non-null value; `fill`, when present, converts a run of them in one call (see schema/convert.ts). */
  value: ValueAt;
  /**
   * Optional, for dictionary-encoded chunks: value(i) is dictionary[indices[i]].
   * Lets the flat fast path index the converted dictionary directly.
   */
  dictionary?: readonly unknown[];
  indices?: ArrayLike<number>;
}

/** How the assembler reads values: one at a time, or a run at once when the column can. */
export interface ValueAt {
  (i: number): unknown;
  /** Sets out[k] to the value at `from + k`, for k < count. */
  fill?: (out: unknown[], from: number, count: number) => void;
  /** Present when value(i) is exactly array[i] (numbers and bigints kept as they are). */
  array?: ArrayLike<unknown>;
}

/** Builds plain objects with the given field order, safely: a field named `__proto__` becomes an own property. */
function makeObject(names: readonly string[], values: unknown[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) {
    const k = names[i]!;
    if (k === '__proto__') Object.defineProperty(o, k, { value: values[i], enumerable: true, writable: true, configurable: true });
    else o[k] = values[i];
  }
  return o;
}

/** Hook for group kinds the generic assembler does not know how to turn into a value (variants). */
export type StructFinisher = (plan: StructPlan, value: Record<string, unknown>) => unknown;

/**
 * Rebuilds records from leaf columns (Dremel record assembly), one row at a
 * time. Each field reads its first leaf's next definition level to decide
 * null / empty / present; a repeated field keeps reading elements while that
 * leaf's next repetition level says the list goes on.
 */
export class RecordAssembler {
  private readonly pos: Int32Array;
  private readonly vpos: Int32Array;
  private readonly names: string[];
  private readonly structNames = new Map<StructPlan, string[]>();
  /** The fast path for records without repeated fields, or null (then or once it hands over). */
  private flat: FlatRows | null;

  constructor(
    private readonly plan: RecordPlan,
    private readonly cols: LeafColumn[],
    private readonly finishVariant?: (parts: Record<string, unknown>, plan: Plan) => unknown,
  ) {
    this.pos = new Int32Array(cols.length);
    this.vpos = new Int32Array(cols.length);
    this.names = plan.fields.map((f) => f.name);
    this.flat = isFlat(plan, cols) ? new FlatRows(plan, cols) : null;
  }

  /** True when every leaf has been read to the end. */
  get done(): boolean {
    if (this.flat !== null) return this.flat.row >= this.cols[0]!.length;
    return this.cols.length === 0 || this.pos[0]! >= this.cols[0]!.length;
  }

  readRow(): Record<string, unknown> {
    if (this.flat !== null) {
      const row = this.flat.next();
      if (row !== undefined) return row;
      this.handOver();
    }
    this.startRow();
    const fields = this.plan.fields;
    const vals = new Array<unknown>(fields.length);
    for (let i = 0; i < fields.length; i++) vals[i] = this.read(fields[i]!.plan);
    return makeObject(this.names, vals);
  }

  /** Continues on the general path from the fast path's position: it finds and reports whatever stopped the fast path. */
  private handOver(): void {
    const f = this.flat!;
    f.uncount(f.row);
    this.pos.fill(f.row);
    this.vpos.set(f.vpos);
    this.flat = null;
  }

  /** Skips `n` rows without building them. */
  skipRows(n: number): void {
    if (this.flat !== null) return this.flat.skip(n);
    for (let l = 0; l < this.cols.length; l++) {
      const c = this.cols[l]!;
      let p = this.pos[l]!;
      let v = this.vpos[l]!;
      let rows = 0;
      while (p < c.length) {
        if (c.rep === null || c.rep[p] === 0) {
          if (rows === n) break;
          rows++;
        }
        if (c.def === null || c.def[p] === c.maxDef) v++;
        p++;
      }
      if (rows < n) throw new CorruptFileError(`leaf ${l} holds fewer rows than the row group claims`);
      this.pos[l] = p;
      this.vpos[l] = v;
    }
  }

  /** Checks that every leaf was consumed exactly: levels and values. */
  finish(): void {
    if (this.flat !== null) return this.flat.finish();
    for (let l = 0; l < this.cols.length; l++) {
      const c = this.cols[l]!;
      if (this.pos[l] !== c.length) {
        throw new CorruptFileError(`column ${this.plan.leaves[l]!.path.join('.')} has ${c.length - this.pos[l]!} level entries beyond the last row`);
      }
      if (this.vpos[l] !== c.valueCount) {
        throw new CorruptFileError(`column ${this.plan.leaves[l]!.path.join('.')} has ${c.valueCount} values but its levels define ${this.vpos[l]}`);
      }
    }
  }

  private startRow(): void {
    for (let l = 0; l < this.cols.length; l++) {
      const c = this.cols[l]!;
      const p = this.pos[l]!;
      if (p >= c.length) throw new CorruptFileError(`column ${this.plan.leaves[l]!.path.join('.')} ran out of values before the last row`);
      if (c.rep !== null && c.rep[p] !== 0) {
        throw new CorruptFileError(`column ${this.plan.leaves[l]!.path.join('.')} starts a row with repetition level ${c.rep[p]} (must be 0)`);
      }
    }
  }

  private peekDef(l: number): number {
    const c = this.cols[l]!;
    const p = this.pos[l]!;
    if (p >= c.length) throw new CorruptFileError(`column ${this.plan.leaves[l]!.path.join('.')} ran out of levels inside a row`);
    return c.def === null ? c.maxDef : c.def[p]!;
  }

  /** Consumes one (null or empty) entry from every leaf under `p`. */
  private skip(p: Plan): void {
    for (let l = p.first; l < p.first + p.width; l++) {
      const c = this.cols[l]!;
      const i = this.pos[l]!;
      if (i >= c.length) throw new CorruptFileError(`column ${this.plan.leaves[l]!.path.join('.')} ran out of levels inside a row`);
      this.pos[l] = i + 1;
    }
  }

  private read(p: Plan): unknown {
    if (p.width === 0) return p.t === 'list' || p.t === 'map' ? [] : p.nullable ? null : {};
    const d = this.peekDef(p.first);
    if (d < p.def) {
      if (!p.nullable) {
        throw new CorruptFileError(`column ${this.plan.leaves[p.first]!.path.join('.')} has definition level ${d} where a required field needs ${p.def}`);
      }
      this.skip(p);
      return null;
    }
    switch (p.t) {
      case 'leaf': {
        const l = p.first;
        const c = this.cols[l]!;
        this.pos[l]!++;
        if (d > c.maxDef) throw new CorruptFileError(`column ${p.leaf.path.join('.')} has definition level ${d} above its maximum ${c.maxDef}`);
        if (d !== c.maxDef) return null; // only reachable for a nullable leaf: d >= p.def = maxDef otherwise
        const v = this.vpos[l]!;
        if (v >= c.valueCount) throw new CorruptFileError(`column ${p.leaf.path.join('.')} has fewer values than its levels define`);
        this.vpos[l] = v + 1;
        return c.value(v);
      }
      case 'struct':
        return this.readStruct(p);
      case 'list':
      case 'map':
        return this.readRepeated(p, d);
      case 'variant': {
        const parts = this.readStruct(p.parts);
        return this.finishVariant ? this.finishVariant(parts, p) : parts;
      }
    }
  }

  private readStruct(p: StructPlan): Record<string, unknown> {
    let names = this.structNames.get(p);
    if (!names) this.structNames.set(p, (names = p.fields.map((f) => f.name)));
    const vals = new Array<unknown>(p.fields.length);
    for (let i = 0; i < p.fields.length; i++) vals[i] = this.read(p.fields[i]!.plan);
    return makeObject(names, vals);
  }

  private readRepeated(p: ListPlan | MapPlan, d: number): unknown[] {
    const out: unknown[] = [];
    if (d < p.elementDef) {
      this.skip(p);
      return out;
    }
    const f = p.first;
    const c = this.cols[f]!;
    const rep = c.rep;
    if (rep === null) throw new CorruptFileError(`column ${this.plan.leaves[f]!.path.join('.')} is inside a list but has no repetition levels`);
    for (;;) {
      if (p.t === 'list') {
        out.push(this.read(p.element));
      } else {
        const e = this.readStruct(p.entry);
        out.push(makeObject(['key', 'value'], [e[p.keyName], p.valueName === undefined ? null : e[p.valueName]]));
      }
      const i = this.pos[f]!;
      if (i >= c.length) break;
      const r = rep[i]!;
      if (r !== p.rep) {
        if (r > p.rep) throw new CorruptFileError(`column ${this.plan.leaves[f]!.path.join('.')} has repetition level ${r} where at most ${p.rep} fits`);
        break;
      }
      // Sibling leaves of the same list must agree that the list goes on.
      if (this.peekDef(f) < p.elementDef) throw new CorruptFileError(`column ${this.plan.leaves[f]!.path.join('.')} continues a list with an empty element`);
    }
    return out;
  }
}

// ---------------------------------------------------------------------------
// Fast path: records without repeated fields (flat rows, optionally structs).
//
// Without repetition every leaf has exactly one level entry per row, so row r
// is entry r of every leaf. Rows are built a block at a time: each leaf's
// values for the block are converted in one loop (the column's `fill`) and
// spread over its definition levels, then one function per record shape builds
// each row as an object literal, so every row gets the same hidden class in
// one allocation. The checks are those of the general path: a required field
// with a lower definition level, a level above the maximum, fewer values than
// the levels define, leaves that run out or have entries left over.

/** Rows per block: big enough to amortise the per-column loops, small enough to stay in cache. */
const BLOCK = 1024;

function isFlat(plan: RecordPlan, cols: LeafColumn[]): boolean {
  if (cols.length === 0 || plan.fields.length === 0) return false;
  const ok = (p: Plan): boolean => {
    if (p.width === 0) return false;
    if (p.t === 'leaf') {
      const c = cols[p.first];
      return c !== undefined && c.rep === null && p.def === c.maxDef;
    }
    return p.t === 'struct' && p.fields.length > 0 && p.fields.every((f) => ok(f.plan));
  };
  return plan.fields.every((f) => ok(f.plan));
}

/** Builds row `r` (entry `i` of the current block). */
type RowBuilder = (i: number, r: number) => Record<string, unknown>;

/**
 * How the row builder gets a leaf's value for row r. When a chunk has no
 * nulls, value r belongs to row r, and the builder reads the column as it
 * is: `array[r]` or `dictionary[indices[r]]` (no copy, no conversion call).
 * Otherwise `buf`: the block's values converted and spread over the levels.
 */
type Source = { t: 'array'; array: ArrayLike<unknown> } | { t: 'dict'; dictionary: readonly unknown[]; indices: ArrayLike<number> } | { t: 'buf' };

function sourceOf(c: LeafColumn): Source {
  if (c.valueCount !== c.length) return { t: 'buf' };
  const array = c.value.array;
  if (array !== undefined && array.length >= c.length) return { t: 'array', array };
  if (c.dictionary !== undefined && c.indices !== undefined && c.indices.length >= c.length) {
    // Indices are checked once here, so the builder can use them blindly.
    const { dictionary, indices } = c;
    for (let i = 0; i < c.length; i++) {
      const k = indices[i]!;
      if (!(k >= 0 && k < dictionary.length)) return { t: 'buf' };
    }
    return { t: 'dict', dictionary, indices };
  }
  return { t: 'buf' };
}
/** Throws the error for a required field whose definition level `d` is below `need` (leaf `l` speaks for it). */
type Required = (l: number, d: number, need: number) => never;

class FlatRows {
  /** Next row to build. */
  row = 0;
  /** Rows [start, end) are in `bufs`. */
  private start = 0;
  private end = 0;
  /**
   * Per leaf: the values the rows before `counted` took, exactly as the
   * general path counts them (so it can take over at any block).
   */
  readonly vpos: Int32Array;
  counted = 0;
  /** Rows every leaf has entries for. */
  private readonly rows: number;
  private readonly bufs: unknown[][];
  private readonly sources: Source[];
  /**
   * Per leaf: the structs around it whose presence another leaf decides,
   * as [leaf, level] pairs: the leaf is read in a row only when each of
   * those leaves has at least that definition level there.
   */
  private readonly guards: number[][];
  /** Per leaf: whether it takes a value at each entry of the block (computed in load). */
  private readonly takes: Uint8Array[];
  private readonly counts: Int32Array;
  private readonly build: RowBuilder;

  constructor(
    private readonly plan: RecordPlan,
    private readonly cols: LeafColumn[],
  ) {
    this.vpos = new Int32Array(cols.length);
    this.counts = new Int32Array(cols.length);
    this.rows = Math.min(...cols.map((c) => c.length));
    this.sources = cols.map(sourceOf);
    this.bufs = this.sources.map((s) => (s.t === 'buf' ? new Array<unknown>(BLOCK).fill(null) : []));
    this.guards = cols.map(() => []);
    const visit = (p: Plan, outer: number[]): void => {
      if (p.t === 'leaf') {
        const g: number[] = [];
        for (let k = 0; k < outer.length; k += 2) if (outer[k] !== p.first) g.push(outer[k]!, outer[k + 1]!);
        this.guards[p.first] = g;
      } else if (p.t === 'struct') {
        for (const f of p.fields) visit(f.plan, [...outer, p.first, p.def]);
      }
    };
    for (const f of plan.fields) visit(f.plan, []);
    this.takes = this.guards.map((g) => (g.length > 0 ? new Uint8Array(BLOCK) : new Uint8Array(0)));
    const required: Required = (l, d, need) => {
      throw new CorruptFileError(`column ${this.plan.leaves[l]!.path.join('.')} has definition level ${d} where a required field needs ${need}`);
    };
    this.build = rowBuilder(plan, cols, this.sources, this.bufs, required);
  }

  /** The next row, or undefined when the general path must take over here (something about the levels is off). */
  next(): Record<string, unknown> | undefined {
    const r = this.row;
    if (r >= this.end && !this.load(r)) return undefined;
    this.row = r + 1;
    return this.build(r - this.start, r);
  }

  /** Skips rows; counts their values as the general path does (every entry at the maximum level). */
  skip(n: number): void {
    if (this.row < this.end) {
      // Undo what the loaded block counted for the rows not built.
      this.uncount(this.row);
      this.start = this.end = this.row;
    }
    const from = this.counted;
    const target = from + n;
    for (let l = 0; l < this.cols.length; l++) {
      const c = this.cols[l]!;
      if (c.length < target) throw new CorruptFileError(`leaf ${l} holds fewer rows than the row group claims`);
      const { def, maxDef } = c;
      let v = 0;
      if (def === null) v = n;
      else for (let x = from; x < target; x++) if (def[x] === maxDef) v++;
      this.vpos[l] += v;
    }
    this.counted = this.row = this.start = this.end = target;
  }

  /** The values of rows [row, counted) (read rows of the loaded block) no longer count. */
  uncount(row: number): void {
    for (let l = 0; l < this.cols.length; l++) this.vpos[l] -= this.taken(l, row, this.counted);
    this.counted = row;
  }

  /** How many values leaf `l` takes in rows [from, to) of the loaded block. */
  private taken(l: number, from: number, to: number): number {
    const { def, maxDef } = this.cols[l]!;
    if (this.guards[l]!.length > 0) {
      const t = this.takes[l]!;
      let n = 0;
      for (let x = from; x < to; x++) n += t[x - this.start]!;
      return n;
    }
    if (def === null) return to - from;
    let n = 0;
    for (let x = from; x < to; x++) if (def[x] === maxDef) n++;
    return n;
  }

  finish(): void {
    this.uncount(this.row);
    for (let l = 0; l < this.cols.length; l++) {
      const c = this.cols[l]!;
      const path = this.plan.leaves[l]!.path.join('.');
      if (this.row !== c.length) throw new CorruptFileError(`column ${path} has ${c.length - this.row} level entries beyond the last row`);
      if (this.vpos[l] !== c.valueCount) throw new CorruptFileError(`column ${path} has ${c.valueCount} values but its levels define ${this.vpos[l]}`);
    }
  }

  /**
   * Converts the block of rows starting at `r` into `bufs`. Returns false,
   * changing nothing, when the block holds anything the general path
   * must see row by row: a leaf that ends early, a level above the maximum,
   * more defined entries than values.
   */
  private load(r: number): boolean {
    const cols = this.cols;
    if (r >= this.rows || r !== this.counted) return false;
    const end = Math.min(r + BLOCK, this.rows);
    const n = end - r;
    // First pass: check every leaf and count the values the block takes.
    for (let l = 0; l < cols.length; l++) {
      const c = cols[l]!;
      const { def, maxDef } = c;
      const guard = this.guards[l]!;
      let k = 0;
      if (guard.length > 0) {
        // Entries of a leaf inside a null struct are skipped: their value (if any) is not taken.
        const takes = this.takes[l]!;
        for (let x = r; x < end; x++) {
          let on = true;
          for (let g = 0; g < guard.length; g += 2) {
            const gd = cols[guard[g]!]!.def;
            if ((gd === null ? cols[guard[g]!]!.maxDef : gd[x]!) < guard[g + 1]!) {
              on = false;
              break;
            }
          }
          const d = def === null ? maxDef : def[x]!;
          if (on && d > maxDef) return false;
          const t = on && d === maxDef ? 1 : 0;
          takes[x - r] = t;
          k += t;
        }
      } else if (def === null) {
        k = n;
      } else {
        for (let x = r; x < end; x++) {
          const d = def[x]!;
          if (d === maxDef) k++;
          else if (d > maxDef) return false;
        }
      }
      const v = this.vpos[l]!;
      if (v + k > c.valueCount) return false;
      // Reading in place needs value x for row x: every entry so far took its value.
      if (this.sources[l]!.t !== 'buf' && (v !== r || k !== n)) return false;
      this.counts[l] = k;
    }
    this.start = r;
    // Second pass: convert, then spread over the entries that take a value (back to front, in place).
    for (let l = 0; l < cols.length; l++) {
      const c = cols[l]!;
      const k = this.counts[l]!;
      const v = this.vpos[l]!;
      this.vpos[l] = v + k;
      if (this.sources[l]!.t !== 'buf') continue;
      const buf = this.bufs[l]!;
      const fill = c.value.fill;
      if (fill !== undefined) fill(buf, v, k);
      else for (let x = 0; x < k; x++) buf[x] = c.value(v + x);
      if (k < n) {
        let j = k - 1;
        if (this.guards[l]!.length > 0) {
          const takes = this.takes[l]!;
          for (let x = n - 1; x > j; x--) buf[x] = takes[x] === 1 ? buf[j--] : null;
        } else {
          const { def, maxDef } = c;
          for (let x = n - 1; x > j; x--) buf[x] = def![r + x] === maxDef ? buf[j--] : null;
        }
      }
    }
    this.counted = end;
    this.end = end;
    return true;
  }
}

/** A JS property key for `name` in an object literal: `__proto__` is computed, so it becomes an own property. */
function literalKey(name: string): string {
  return name === '__proto__' ? '["__proto__"]' : JSON.stringify(name);
}

/** null: not tried yet. */
let canCompile: boolean | null = null;
/** Compiled builder factories by source: files of one schema share them. */
type Factory = (V: unknown[][], D: (ArrayLike<number> | null)[], A: (ArrayLike<unknown> | null)[], X: (ArrayLike<number> | null)[], req: Required) => RowBuilder;
const compiled = new Map<string, Factory>();

/**
 * The row builder for a flat plan: generated source (an object literal per
 * record and struct, names embedded with JSON.stringify) where code
 * generation is allowed, closures otherwise.
 */
function rowBuilder(plan: RecordPlan, cols: LeafColumn[], sources: Source[], bufs: unknown[][], req: Required): RowBuilder {
  if (canCompile !== false) {
    const expr = (p: Plan): string => {
      if (p.t === 'leaf') {
        const l = p.first;
        const c = cols[l]!;
        const t = sources[l]!.t;
        const value = t === 'array' ? `A${l}[r]` : t === 'dict' ? `A${l}[X${l}[r]]` : `V${l}[i]`;
        if (p.nullable || c.def === null) return value;
        return `(D${l}[r] < ${p.def} ? req(${l}, D${l}[r], ${p.def}) : ${value})`;
      }
      const s = p as StructPlan;
      const body = `{${s.fields.map((f) => `${literalKey(f.name)}: ${expr(f.plan)}`).join(', ')}}`;
      const l = s.first;
      const c = cols[l]!;
      if (c.def === null) {
        // The first leaf is always defined at its maximum.
        if (c.maxDef >= s.def) return body;
        return s.nullable ? 'null' : `req(${l}, ${c.maxDef}, ${s.def})`;
      }
      if (s.def === 0) return body;
      return `(D${l}[r] < ${s.def} ? ${s.nullable ? 'null' : `req(${l}, D${l}[r], ${s.def})`} : ${body})`;
    };
    const decls = cols.map((_, l) => `V${l} = V[${l}], D${l} = D[${l}], A${l} = A[${l}], X${l} = X[${l}]`).join(', ');
    const source = `"use strict";\nconst ${decls};\nreturn function row(i, r) {\n  return {${plan.fields.map((f) => `${literalKey(f.name)}: ${expr(f.plan)}`).join(', ')}};\n};`;
    let factory = compiled.get(source);
    if (factory === undefined) {
      try {
        factory = new Function('V', 'D', 'A', 'X', 'req', source) as Factory;
        canCompile = true;
        if (compiled.size >= 256) compiled.clear();
        compiled.set(source, factory);
      } catch {
        canCompile = false; // e.g. a Content-Security-Policy without 'unsafe-eval'
      }
    }
    if (factory !== undefined) {
      const A = sources.map((s) => (s.t === 'array' ? s.array : s.t === 'dict' ? s.dictionary : null));
      const X = sources.map((s) => (s.t === 'dict' ? s.indices : null));
      return factory(bufs, cols.map((c) => c.def), A, X, req);
    }
  }
  return closureBuilder(plan, cols, sources, bufs, req);
}

/** The same builder as closures, for where `new Function` is not allowed. */
function closureBuilder(plan: RecordPlan, cols: LeafColumn[], sources: Source[], bufs: unknown[][], req: Required): RowBuilder {
  type Part = (i: number, r: number) => unknown;
  const part = (p: Plan): Part => {
    if (p.t === 'leaf') {
      const l = p.first;
      const V = bufs[l]!;
      const D = cols[l]!.def;
      const need = p.def;
      const s = sources[l]!;
      let value: Part;
      if (s.t === 'array') {
        const a = s.array;
        value = (_i, r) => a[r];
      } else if (s.t === 'dict') {
        const { dictionary, indices } = s;
        value = (_i, r) => dictionary[indices[r]!];
      } else value = (i) => V[i];
      if (p.nullable || D === null) return value;
      return (i, r) => (D[r]! < need ? req(l, D[r]!, need) : value(i, r));
    }
    const s = p as StructPlan;
    const build = objectBuilder(s.fields.map((f) => f.name), s.fields.map((f) => part(f.plan)));
    const l = s.first;
    const D = cols[l]!.def;
    const { def: need, nullable } = s;
    if (D === null) {
      const d = cols[l]!.maxDef;
      if (d >= need) return build;
      return nullable ? () => null : () => req(l, d, need);
    }
    if (need === 0) return build;
    return (i, r) => (D[r]! < need ? (nullable ? null : req(l, D[r]!, need)) : build(i, r));
  };
  return objectBuilder(plan.fields.map((f) => f.name), plan.fields.map((f) => part(f.plan)));
}

function objectBuilder(names: string[], parts: ((i: number, r: number) => unknown)[]): RowBuilder {
  const vals = new Array<unknown>(parts.length);
  return (i, r) => {
    for (let k = 0; k < parts.length; k++) vals[k] = parts[k]!(i, r);
    return makeObject(names, vals);
  };
}
