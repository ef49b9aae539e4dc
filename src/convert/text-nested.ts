/**
 * Nested fields (structs, lists, maps) written as JSON text straight from
 * their leaves' levels and values, with no object per value: the record
 * assembler's walk (shred/assemble.ts's `readNode`, with its checks), each
 * step printing what `jsonText` prints for the value the assembler would
 * have built. A struct whose keys would not come out in field order
 * (integer-like or repeated names) or a map entry whose key and value
 * fields come in the other order has no text plan here: the row path's
 * objects print it.
 */
import { CorruptFileError } from '../errors.js';
import { LEAF, LIST, MAP, skipLeafRows, STRUCT, type LeafLevels, type LevelNode } from '../shred/assemble.js';
import type { Plan, RecordPlan, StructPlan } from '../shred/plan.js';
import type { TextBytes } from './text-bytes.js';

interface Node extends LevelNode<Node> {
  /** Structs and map entries: the fields read in order; before each, its key's bytes (`"name":`), or null for a field read and dropped. */
  fields: Node[];
  keys: (Uint8Array | null)[];
  /** A map entry with no value field ends `"value":null}`. */
  close: Uint8Array;
}

const encoder = new TextEncoder();
const NULL = encoder.encode('null');
const EMPTY_LIST = encoder.encode('[]');
const EMPTY_OBJECT = encoder.encode('{}');
const CLOSE = encoder.encode('}');

const key = (name: string, first: boolean): Uint8Array => encoder.encode(`${first ? '' : ','}${JSON.stringify(name)}:`);

function node(p: Plan, t: number, rest: Partial<Node>): Node {
  return { t, def: p.def, nullable: p.nullable, first: p.first, width: p.width, elementDef: 0, rep: 0, element: null, fields: [], keys: [], close: CLOSE, ...rest };
}

/** Whether an object of these keys lists them in this order (Object.keys puts integer-like keys first, and a repeated key where it first came). */
function inOrder(names: string[]): boolean {
  const keys = Object.keys(Object.fromEntries(names.map((n) => [n, 0])));
  return keys.length === names.length && keys.every((k, i) => k === names[i]);
}

function prepare(p: Plan): Node | undefined {
  switch (p.t) {
    case 'leaf':
      return node(p, LEAF, {});
    case 'struct':
      return struct(p);
    case 'list': {
      const element = prepare(p.element);
      return element && node(p, LIST, { elementDef: p.elementDef, rep: p.rep, element });
    }
    case 'map': {
      // The entry is {key, value}: the key's and the value's fields (the last of each name), a missing value field's null.
      const names = p.entry.fields.map((f) => f.name);
      const keyAt = names.lastIndexOf(p.keyName);
      const valueAt = p.valueName === undefined ? -2 : names.lastIndexOf(p.valueName);
      if (keyAt >= 0 && valueAt >= 0 && keyAt >= valueAt) return undefined;
      const fields = p.entry.fields.map((f) => prepare(f.plan));
      if (!fields.every((f) => f !== undefined)) return undefined;
      const keys = names.map((_, k) => (k === keyAt ? key('key', true) : k === valueAt ? key('value', keyAt < 0) : null));
      const close = encoder.encode(valueAt === -2 ? `${keyAt >= 0 ? ',' : ''}"value":null}` : '}');
      const entry = node(p.entry, STRUCT, { fields: fields as Node[], keys, close });
      return node(p, MAP, { elementDef: p.elementDef, rep: p.rep, element: entry });
    }
    case 'variant':
      return undefined;
  }
}

function struct(p: StructPlan): Node | undefined {
  const names = p.fields.map((f) => f.name);
  if (!inOrder(names)) return undefined;
  const fields = p.fields.map((f) => prepare(f.plan));
  if (!fields.every((f) => f !== undefined)) return undefined;
  return node(p, STRUCT, { fields: fields as Node[], keys: names.map((n, k) => key(n, k === 0)) });
}

/** A leaf as the writer reads it: its levels, and its k-th value's JSON text. */
export interface LeafText extends LeafLevels {
  value: (out: TextBytes, k: number) => void;
}

/**
 * The JSON text of a plan's top-level fields, row by row, from their
 * leaves; `of` is undefined where some field has no text plan (see above).
 */
export class NestedText {
  private readonly pos: Int32Array;
  private readonly vpos: Int32Array;

  private constructor(
    private readonly nodes: Node[],
    private readonly cols: LeafText[],
    private readonly paths: string[],
  ) {
    this.pos = new Int32Array(cols.length);
    this.vpos = new Int32Array(cols.length);
  }

  /** The plan's text writer over `cols` (one per plan leaf), or undefined. */
  static of(plan: RecordPlan, cols: LeafText[]): NestedText | undefined {
    const nodes = plan.fields.map((f) => prepare(f.plan));
    if (!nodes.every((n) => n !== undefined)) return undefined;
    return new NestedText(nodes as Node[], cols, plan.leaves.map((l) => l.path.join('.')));
  }

  /** Writes top-level field f's value for the next row; true when it is null (written as `null`). */
  field(f: number, out: TextBytes): boolean {
    const n = this.nodes[f]!;
    for (let l = n.first; l < n.first + n.width; l++) {
      const c = this.cols[l]!;
      const p = this.pos[l]!;
      if (p >= c.length) throw new CorruptFileError(`column ${this.paths[l]} ran out of values before the last row`);
      if (c.rep !== null && c.rep[p] !== 0) throw new CorruptFileError(`column ${this.paths[l]} starts a row with repetition level ${c.rep[p]} (must be 0)`);
    }
    return this.node(n, out);
  }

  /** Skips `n` rows, writing nothing. */
  skipRows(n: number): void {
    skipLeafRows(this.cols, this.pos, this.vpos, n);
  }

  /** Checks that every leaf was consumed exactly: levels and values. */
  finish(): void {
    for (let l = 0; l < this.cols.length; l++) {
      const c = this.cols[l]!;
      if (this.pos[l] !== c.length) throw new CorruptFileError(`column ${this.paths[l]} has ${c.length - this.pos[l]!} level entries beyond the last row`);
      if (this.vpos[l] !== c.valueCount) throw new CorruptFileError(`column ${this.paths[l]} has ${c.valueCount} values but its levels define ${this.vpos[l]}`);
    }
  }

  private peekDef(l: number): number {
    const c = this.cols[l]!;
    const p = this.pos[l]!;
    if (p >= c.length) throw new CorruptFileError(`column ${this.paths[l]} ran out of levels inside a row`);
    return c.def === null ? c.maxDef : c.def[p]!;
  }

  /** Consumes one (null or empty) entry from every leaf under `n`. */
  private skip(n: Node): void {
    for (let l = n.first; l < n.first + n.width; l++) {
      if (this.pos[l]! >= this.cols[l]!.length) throw new CorruptFileError(`column ${this.paths[l]} ran out of levels inside a row`);
      this.pos[l]!++;
    }
  }

  private node(n: Node, out: TextBytes): boolean {
    if (n.width === 0) {
      if (n.t === LIST || n.t === MAP) out.bytes(EMPTY_LIST);
      else if (n.nullable) {
        out.bytes(NULL);
        return true;
      } else out.bytes(EMPTY_OBJECT);
      return false;
    }
    const d = this.peekDef(n.first);
    if (d < n.def) {
      if (!n.nullable) throw new CorruptFileError(`column ${this.paths[n.first]} has definition level ${d} where a required field needs ${n.def}`);
      this.skip(n);
      out.bytes(NULL);
      return true;
    }
    switch (n.t) {
      case LEAF: {
        const l = n.first;
        const c = this.cols[l]!;
        this.pos[l]!++;
        if (d > c.maxDef) throw new CorruptFileError(`column ${this.paths[l]} has definition level ${d} above its maximum ${c.maxDef}`);
        if (d !== c.maxDef) {
          out.bytes(NULL);
          return true;
        }
        const v = this.vpos[l]!;
        if (v >= c.valueCount) throw new CorruptFileError(`column ${this.paths[l]} has fewer values than its levels define`);
        this.vpos[l] = v + 1;
        c.value(out, v);
        return false;
      }
      case STRUCT:
        this.struct(n, out);
        return false;
      default:
        this.repeated(n, d, out);
        return false;
    }
  }

  private struct(n: Node, out: TextBytes): void {
    out.byte(123);
    for (let k = 0; k < n.fields.length; k++) {
      const key = n.keys[k];
      if (key) {
        out.bytes(key);
        this.node(n.fields[k]!, out);
      } else {
        const at = out.pos;
        this.node(n.fields[k]!, out);
        out.pos = at;
      }
    }
    out.bytes(n.close);
  }

  private repeated(n: Node, d: number, out: TextBytes): void {
    if (d < n.elementDef) {
      this.skip(n);
      out.bytes(EMPTY_LIST);
      return;
    }
    const f = n.first;
    const c = this.cols[f]!;
    const rep = c.rep;
    if (rep === null) throw new CorruptFileError(`column ${this.paths[f]} is inside a list but has no repetition levels`);
    const element = n.element!;
    out.byte(91);
    for (;;) {
      if (n.t === MAP) this.struct(element, out);
      else this.node(element, out);
      const i = this.pos[f]!;
      if (i >= c.length) break;
      const r = rep[i]!;
      if (r !== n.rep) {
        if (r > n.rep) throw new CorruptFileError(`column ${this.paths[f]} has repetition level ${r} where at most ${n.rep} fits`);
        break;
      }
      // Sibling leaves of the same list must agree that the list goes on.
      if (this.peekDef(f) < n.elementDef) throw new CorruptFileError(`column ${this.paths[f]} continues a list with an empty element`);
      out.byte(44);
    }
    out.byte(93);
  }
}
