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
  value(i: number): unknown;
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

  constructor(
    private readonly plan: RecordPlan,
    private readonly cols: LeafColumn[],
    private readonly finishVariant?: (parts: Record<string, unknown>, plan: Plan) => unknown,
  ) {
    this.pos = new Int32Array(cols.length);
    this.vpos = new Int32Array(cols.length);
    this.names = plan.fields.map((f) => f.name);
  }

  /** True when every leaf has been read to the end. */
  get done(): boolean {
    return this.cols.length === 0 || this.pos[0]! >= this.cols[0]!.length;
  }

  readRow(): Record<string, unknown> {
    this.startRow();
    const fields = this.plan.fields;
    const vals = new Array<unknown>(fields.length);
    for (let i = 0; i < fields.length; i++) vals[i] = this.read(fields[i]!.plan);
    return makeObject(this.names, vals);
  }

  /** Skips `n` rows without building them. */
  skipRows(n: number): void {
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
