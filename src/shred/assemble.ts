import { CorruptFileError } from '../errors.js';
import type { MapPlan, Plan, RecordPlan, StructPlan } from './plan.js';

/** A leaf column's levels. */
export interface LeafLevels {
  /** Definition level per entry; null when every entry is at `maxDef` (always when it is 0). */
  def: ArrayLike<number> | null;
  /** Repetition level per entry; null when the leaf is not repeated. */
  rep: ArrayLike<number> | null;
  /** Number of level entries. */
  length: number;
  maxDef: number;
  /** Number of non-null values. */
  valueCount: number;
}

/** One leaf column as the assembler sees it: levels plus a way to fetch the i-th non-null value. */
export interface LeafColumn extends LeafLevels {
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

/** A JS property key for `name` in an object literal: `__proto__` is computed, so it becomes an own property. */
function literalKey(name: string): string {
  return name === '__proto__' ? '["__proto__"]' : JSON.stringify(name);
}

/**
 * Object builders are generated code where the runtime allows it: an object
 * literal per record shape gives every row the same hidden class in one
 * allocation, far cheaper than adding properties one by one. Field names go
 * in only through `literalKey` (JSON.stringify); every builder has a closure
 * twin for runtimes without `new Function` (a Content-Security-Policy
 * without 'unsafe-eval', --disallow-code-generation-from-strings).
 */
let canCompile = true;
/** Compiled factories by text: row groups (and files) of one schema share them. */
const factories = new Map<string, Function>();

/**
 * Most locals a compiled factory may declare: each is a register of its
 * frame, and a frame of 200,000 (a file of 50,000 columns) overflowed the
 * stack when the factory ran. Past this, the closure twin, which any width
 * leaves alone.
 */
const MAX_COMPILED_LOCALS = 32_768;

/** `new Function(...params, source)`, cached; undefined when code generation is not allowed or the factory would declare more than MAX_COMPILED_LOCALS. */
function compile(params: string[], source: string, locals: number): Function | undefined {
  if (!canCompile || locals > MAX_COMPILED_LOCALS) return undefined;
  const key = `${params.join(',')}\n${source}`;
  let f = factories.get(key);
  if (f === undefined) {
    try {
      f = new Function(...params, source);
    } catch (e) {
      if (e instanceof EvalError) canCompile = false;
      return undefined; // anything else: this builder uses its closure twin
    }
    if (factories.size >= 256) factories.clear();
    factories.set(key, f);
  }
  return f;
}

/** Hook for group kinds the generic assembler does not know how to turn into a value (variants). */
export type StructFinisher = (plan: StructPlan, value: Record<string, unknown>) => unknown;

/** A walk node's kind (`LevelNode.t`). */
export const LEAF = 0;
export const STRUCT = 1;
export const LIST = 2;
export const MAP = 3;
const VARIANT = 4;

/**
 * What a walk over a record's levels needs of a plan node, in one object
 * shape for every kind (so field reads stay monomorphic): the assembler's
 * nodes and the text writer's (convert/text-nested.ts) extend it.
 */
export interface LevelNode<N> {
  t: number;
  def: number;
  nullable: boolean;
  first: number;
  width: number;
  /** Lists and maps: the level at which they have an element, and the repetition level that continues them. */
  elementDef: number;
  rep: number;
  /** Lists: the element (maps: their entry, in the text writer). */
  element: N | null;
}

/** A plan node prepared for the general path, with its object builder attached. */
interface Node extends LevelNode<Node> {
  plan: Plan;
  /** Structs: builds the struct; maps: one {key, value} entry; variants: the parts object. */
  build: NodeBuilder | null;
}

/** Reads the fields of a struct (through `asm.readNode`, in field order) and returns the object. */
type NodeBuilder = (asm: RecordAssembler) => unknown;

function node(plan: Plan, t: number, elementDef: number, rep: number, element: Node | null, build: NodeBuilder | null): Node {
  return { t, plan, def: plan.def, nullable: plan.nullable, first: plan.first, width: plan.width, elementDef, rep, element, build };
}

function prepare(p: Plan): Node {
  switch (p.t) {
    case 'leaf':
      return node(p, LEAF, 0, 0, null, null);
    case 'struct':
      return node(p, STRUCT, 0, 0, null, structBuilder(p.fields.map((f) => f.name), p.fields.map((f) => prepare(f.plan))));
    case 'list':
      return node(p, LIST, p.elementDef, p.rep, prepare(p.element), null);
    case 'map':
      return node(p, MAP, p.elementDef, p.rep, null, entryBuilder(p));
    case 'variant':
      return node(p, VARIANT, 0, 0, null, structBuilder(p.parts.fields.map((f) => f.name), p.parts.fields.map((f) => prepare(f.plan))));
  }
}

/** Compiles `body` (which may use N0, N1... for `nodes`, O for an empty object) into a NodeBuilder, if allowed. */
function compileBuilder(body: string, nodes: Node[]): NodeBuilder | undefined {
  const decls = nodes.map((_, k) => `N${k} = N[${k}]`).concat('O = {}').join(', ');
  const factory = compile(['N'], `"use strict";\nconst ${decls};\nreturn function build(a) {\n  ${body}\n};`, nodes.length + 1);
  return factory === undefined ? undefined : (factory as (nodes: Node[]) => NodeBuilder)(nodes);
}

/** Builders hold no assembler state, so the row groups of one read share them. */
const roots = new WeakMap<RecordPlan, NodeBuilder>();

function rootBuilder(plan: RecordPlan): NodeBuilder {
  let root = roots.get(plan);
  if (root === undefined) {
    root = structBuilder(plan.fields.map((f) => f.name), plan.fields.map((f) => prepare(f.plan)));
    roots.set(plan, root);
  }
  return root;
}

/** An object literal of the fields, read in order. */
function structBuilder(names: string[], fields: Node[]): NodeBuilder {
  const compiled = compileBuilder(`return {${names.map((n, k) => `${literalKey(n)}: a.readNode(N${k})`).join(', ')}};`, fields);
  if (compiled !== undefined) return compiled;
  return (asm) => {
    const vals = new Array<unknown>(fields.length);
    for (let k = 0; k < fields.length; k++) vals[k] = asm.readNode(fields[k]!);
    return makeObject(names, vals);
  };
}

/**
 * One map entry: every field of the key/value group is read (in order, so
 * all their levels are consumed), then the entry is {key, value}. A name
 * that occurs twice takes its last field's value; a map with no value field
 * has null values; a key or value projected away is left out of the entry,
 * as a projected-away field is left out of a struct.
 */
function entryBuilder(p: MapPlan): NodeBuilder {
  const names = p.entry.fields.map((f) => f.name);
  const fields = p.entry.fields.map((f) => prepare(f.plan));
  const parts: { name: 'key' | 'value'; at: number }[] = [];
  const keyAt = names.lastIndexOf(p.keyName);
  if (keyAt >= 0) parts.push({ name: 'key', at: keyAt });
  const valueAt = p.valueName === undefined ? -2 : names.lastIndexOf(p.valueName);
  if (valueAt !== -1) parts.push({ name: 'value', at: valueAt });
  const reads = fields.map((_, k) => `const v${k} = a.readNode(N${k});`).join('\n  ');
  const literal = parts.map((q) => `${q.name}: ${q.at >= 0 ? `v${q.at}` : 'null'}`).join(', ');
  const compiled = compileBuilder(`${reads}\n  return { ${literal} };`, fields);
  if (compiled !== undefined) return compiled;
  return (asm) => {
    const vals = new Array<unknown>(fields.length);
    for (let k = 0; k < fields.length; k++) vals[k] = asm.readNode(fields[k]!);
    const entry: { key?: unknown; value?: unknown } = {};
    for (const q of parts) entry[q.name] = q.at >= 0 ? vals[q.at] : null;
    return entry;
  };
}

/** Moves each leaf's level position `pos[l]` and value position `vpos[l]` past `n` rows. */
export function skipLeafRows(cols: readonly LeafLevels[], pos: Int32Array, vpos: Int32Array, n: number): void {
  for (let l = 0; l < cols.length; l++) {
    const c = cols[l]!;
    let p = pos[l]!;
    let v = vpos[l]!;
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
    pos[l] = p;
    vpos[l] = v;
  }
}

/**
 * Rebuilds records from leaf columns (Dremel record assembly), one row at a
 * time. Each field reads its first leaf's next definition level to decide
 * null / empty / present; a repeated field keeps reading elements while that
 * leaf's next repetition level says the list goes on.
 *
 * Records without repeated fields take a faster path (FlatRows, below) that
 * hands over to this one if the levels turn out to need it.
 */
export class RecordAssembler {
  private readonly pos: Int32Array;
  private readonly vpos: Int32Array;
  /** The general path's view of the plan, built on first use. */
  private root: NodeBuilder | null = null;
  /** List elements being gathered (see readRepeated). */
  private readonly stack: unknown[] = [];
  private top = 0;
  /** The fast path for records without repeated fields, or null (then or once it hands over). */
  private flat: FlatRows | null;

  constructor(
    private readonly plan: RecordPlan,
    private readonly cols: LeafColumn[],
    private readonly finishVariant?: (parts: Record<string, unknown>, plan: Plan) => unknown,
  ) {
    this.pos = new Int32Array(cols.length);
    this.vpos = new Int32Array(cols.length);
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
    this.top = 0;
    const root = this.root ?? (this.root = rootBuilder(this.plan));
    return root(this) as Record<string, unknown>;
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
    skipLeafRows(this.cols, this.pos, this.vpos, n);
  }

  /** Checks that every leaf was consumed exactly: levels and values. */
  finish(): void {
    if (this.flat !== null) return this.flat.finish();
    for (let l = 0; l < this.cols.length; l++) {
      const c = this.cols[l]!;
      if (this.pos[l] !== c.length) {
        throw new CorruptFileError(`column ${this.path(l)} has ${c.length - this.pos[l]!} level entries beyond the last row`);
      }
      if (this.vpos[l] !== c.valueCount) {
        throw new CorruptFileError(`column ${this.path(l)} has ${c.valueCount} values but its levels define ${this.vpos[l]}`);
      }
    }
  }

  private path(l: number): string {
    return this.plan.leaves[l]!.path.join('.');
  }

  private startRow(): void {
    for (let l = 0; l < this.cols.length; l++) {
      const c = this.cols[l]!;
      const p = this.pos[l]!;
      if (p >= c.length) throw new CorruptFileError(`column ${this.path(l)} ran out of values before the last row`);
      if (c.rep !== null && c.rep[p] !== 0) {
        throw new CorruptFileError(`column ${this.path(l)} starts a row with repetition level ${c.rep[p]} (must be 0)`);
      }
    }
  }

  private peekDef(l: number): number {
    const c = this.cols[l]!;
    const p = this.pos[l]!;
    if (p >= c.length) throw new CorruptFileError(`column ${this.path(l)} ran out of levels inside a row`);
    return c.def === null ? c.maxDef : c.def[p]!;
  }

  /** Consumes one (null or empty) entry from every leaf under `n`. */
  private skip(n: Node): void {
    for (let l = n.first; l < n.first + n.width; l++) {
      const c = this.cols[l]!;
      const i = this.pos[l]!;
      if (i >= c.length) throw new CorruptFileError(`column ${this.path(l)} ran out of levels inside a row`);
      this.pos[l] = i + 1;
    }
  }

  /** Reads one field's value. Internal: public only for the compiled builders. */
  readNode(n: Node): unknown {
    if (n.width === 0) return n.t === LIST || n.t === MAP ? [] : n.nullable ? null : {};
    const d = this.peekDef(n.first);
    if (d < n.def) {
      if (!n.nullable) {
        throw new CorruptFileError(`column ${this.path(n.first)} has definition level ${d} where a required field needs ${n.def}`);
      }
      this.skip(n);
      return null;
    }
    switch (n.t) {
      case LEAF: {
        const l = n.first;
        const c = this.cols[l]!;
        this.pos[l]!++;
        if (d > c.maxDef) throw new CorruptFileError(`column ${this.path(l)} has definition level ${d} above its maximum ${c.maxDef}`);
        if (d !== c.maxDef) return null; // only reachable for a nullable leaf: d >= p.def = maxDef otherwise
        const v = this.vpos[l]!;
        if (v >= c.valueCount) throw new CorruptFileError(`column ${this.path(l)} has fewer values than its levels define`);
        this.vpos[l] = v + 1;
        return c.value(v);
      }
      case STRUCT:
        return n.build!(this);
      case LIST:
      case MAP:
        return this.readRepeated(n, d);
      default: {
        const parts = n.build!(this) as Record<string, unknown>;
        return this.finishVariant ? this.finishVariant(parts, n.plan) : parts;
      }
    }
  }

  private readRepeated(n: Node, d: number): unknown[] {
    if (d < n.elementDef) {
      this.skip(n);
      return [];
    }
    const f = n.first;
    const c = this.cols[f]!;
    const rep = c.rep;
    if (rep === null) throw new CorruptFileError(`column ${this.path(f)} is inside a list but has no repetition levels`);
    // Elements gather on a shared stack (lists nest, so each list owns the part above
    // where it started) and leave it as one exact-size array.
    const start = this.top;
    const element = n.element;
    if (element !== null && element.t === LEAF && element.width === 1) {
      this.readLeafElements(element, c, rep, n.rep, n.elementDef);
    } else {
      for (;;) {
        const v = element !== null ? this.readNode(element) : n.build!(this);
        this.stack[this.top++] = v;
        const i = this.pos[f]!;
        if (i >= c.length) break;
        const r = rep[i]!;
        if (r !== n.rep) {
          if (r > n.rep) throw new CorruptFileError(`column ${this.path(f)} has repetition level ${r} where at most ${n.rep} fits`);
          break;
        }
        // Sibling leaves of the same list must agree that the list goes on.
        if (this.peekDef(f) < n.elementDef) throw new CorruptFileError(`column ${this.path(f)} continues a list with an empty element`);
      }
    }
    const out = this.stack.slice(start, this.top);
    this.top = start;
    return out;
  }

  /** readRepeated's loop for a list of plain values (one leaf): readNode's leaf case, inlined. */
  private readLeafElements(e: Node, c: LeafColumn, rep: ArrayLike<number>, listRep: number, elementDef: number): void {
    const l = e.first;
    const def = c.def;
    const maxDef = c.maxDef;
    const stack = this.stack;
    let p = this.pos[l]!;
    let v = this.vpos[l]!;
    let top = this.top;
    try {
      for (;;) {
        // p < c.length: the caller or the previous round checked.
        const d = def === null ? maxDef : def[p]!;
        if (d < e.def) {
          if (!e.nullable) throw new CorruptFileError(`column ${this.path(l)} has definition level ${d} where a required field needs ${e.def}`);
          stack[top++] = null;
        } else if (d > maxDef) {
          throw new CorruptFileError(`column ${this.path(l)} has definition level ${d} above its maximum ${maxDef}`);
        } else if (d !== maxDef) {
          stack[top++] = null;
        } else {
          if (v >= c.valueCount) throw new CorruptFileError(`column ${this.path(l)} has fewer values than its levels define`);
          stack[top++] = c.value(v++);
        }
        p++;
        if (p >= c.length) break;
        const r = rep[p]!;
        if (r !== listRep) {
          if (r > listRep) throw new CorruptFileError(`column ${this.path(l)} has repetition level ${r} where at most ${listRep} fits`);
          break;
        }
        if ((def === null ? maxDef : def[p]!) < elementDef) throw new CorruptFileError(`column ${this.path(l)} continues a list with an empty element`);
      }
    } finally {
      this.pos[l] = p;
      this.vpos[l] = v;
      this.top = top;
    }
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
    this.rows = cols.reduce((m, c) => Math.min(m, c.length), Infinity);
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

type Factory = (V: unknown[][], D: (ArrayLike<number> | null)[], A: (ArrayLike<unknown> | null)[], X: (ArrayLike<number> | null)[], req: Required) => RowBuilder;

/** The row builder for a flat plan: an object literal per record and struct, reading each leaf as its Source says. */
function rowBuilder(plan: RecordPlan, cols: LeafColumn[], sources: Source[], bufs: unknown[][], req: Required): RowBuilder {
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
  const fields = plan.fields.map((f) => `${literalKey(f.name)}: ${expr(f.plan)}`).join(', ');
  const factory = compile(['V', 'D', 'A', 'X', 'req'], `"use strict";\nconst ${decls};\nreturn function row(i, r) {\n  return {${fields}};\n};`, 4 * cols.length) as Factory | undefined;
  if (factory === undefined) return closureBuilder(plan, cols, sources, bufs, req);
  const A = sources.map((s) => (s.t === 'array' ? s.array : s.t === 'dict' ? s.dictionary : null));
  const X = sources.map((s) => (s.t === 'dict' ? s.indices : null));
  return factory(bufs, cols.map((c) => c.def), A, X, req);
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
