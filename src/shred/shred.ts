import { InvalidArgumentError } from '../errors.js';
import type { GroupNode } from '../schema/tree.js';
import type { MapPlan, Plan, RecordPlan, StructPlan } from './plan.js';

/** Receives one leaf's entries while records are shredded. */
export interface LeafSink {
  /** An entry without a value: a null or an empty list at definition level `def`. */
  level(rep: number, def: number): void;
  /** A present value (its definition level is the leaf's maximum). */
  value(rep: number, v: unknown): void;
}

const hasOwn = Object.prototype.hasOwnProperty;
/** The keys of a map entry given as an object. */
const ENTRY_KEYS: ReadonlySet<string> = new Set(['key', 'value']);

/** The name sets of field lists, each built once, on first need: only a record with keys to spare asks. */
export class FieldNames {
  private readonly sets = new WeakMap<readonly { name: string }[], ReadonlySet<string>>();

  /** The names of `fields`, with `extra` names the first time a list is asked for. */
  of(fields: readonly { name: string }[], extra: Iterable<string> = []): ReadonlySet<string> {
    let set = this.sets.get(fields);
    if (!set) this.sets.set(fields, (set = new Set([...fields.map((f) => f.name), ...extra])));
    return set;
  }
}

/**
 * A key of `obj` that `known()` lacks, when `obj` has more than `present` own
 * keys (the known ones a caller found on it). Counting keys is cheaper than
 * looking each one up: only a record with keys to spare is searched.
 */
export function unknownKeyBeyond(obj: object, present: number, known: () => ReadonlySet<string>): string | undefined {
  let count = 0;
  for (const k in obj) {
    if (hasOwn.call(obj, k) && ++count > present) return firstUnknownKey(obj, known());
  }
  return undefined;
}

function describe(v: unknown): string {
  const t = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  let s: string;
  try {
    s = typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : String(v);
  } catch {
    s = t;
  }
  return `${s.length > 60 ? s.slice(0, 57) + '...' : s} (${t})`;
}

/** What the shredder takes as a record or a struct: an object that is not an array, a typed array, a Map or a Date. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v) && !(v instanceof Map) && !(v instanceof Date);
}

/** Turns a value of a VARIANT group into the group's parts (`metadata`, `value`, `typed_value`) as a struct. */
export type VariantWriter = (v: unknown, node: GroupNode) => Record<string, unknown>;

/** What a shredder does with a record's (or struct's) own keys that name no field. */
export interface UnknownFieldRule {
  /** `'error'` (the default) refuses the record, naming the key; `'ignore'` leaves such keys unwritten. */
  unknownFields?: 'error' | 'ignore';
  /** Top-level keys a record may carry beyond the schema, not written (a dataset's partition columns). */
  acceptedFields?: readonly string[];
}

/** The first own enumerable key of `obj` that `known` lacks, if any. */
export function firstUnknownKey(obj: object, known: ReadonlySet<string>): string | undefined {
  for (const k in obj) {
    if (!known.has(k) && hasOwn.call(obj, k)) return k;
  }
  return undefined;
}

/**
 * Records to leaf entries (Dremel shredding), driven by the same plan the
 * reader assembles with, so what one writes the other reads back. Accepts
 * the reader's JS forms: objects for structs, arrays for lists, and for maps
 * an array of `{ key, value }`, a `Map`, or a plain object.
 */
export class RecordShredder {
  /** Field names from the record down to the field being shredded: path[0 .. depth). Only read for error messages. */
  private readonly path: string[] = [];
  private depth = 0;
  private readonly names = new FieldNames();
  private readonly strict: boolean;
  private readonly accepted: ReadonlySet<string>;

  /** `variant` writes VARIANT groups; without it, a schema with one takes no records. */
  constructor(private readonly plan: RecordPlan, private readonly sinks: LeafSink[], rule: UnknownFieldRule = {}, private readonly variant?: VariantWriter) {
    this.strict = (rule.unknownFields ?? 'error') === 'error';
    this.accepted = new Set(rule.acceptedFields);
  }

  shred(record: unknown): void {
    if (!isPlainObject(record)) throw new InvalidArgumentError(`a record must be an object, got ${describe(record)}`);
    this.depth = 0;
    this.fields(this.plan.fields, record, 0, []);
  }

  /** The field names of `fields`, and at the top level the accepted extra names. */
  knownNames(fields: readonly { name: string }[]): ReadonlySet<string> {
    return this.names.of(fields, fields === this.plan.fields ? this.accepted : []);
  }

  /** `group` is the path of the schema group whose fields these are (empty at the root): the column an unknown key is named by. */
  private fields(fields: { name: string; plan: Plan }[], obj: Record<string, unknown>, rep: number, group: readonly string[]): void {
    const d = this.depth++;
    let present = 0;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      this.path[d] = f.name;
      // Own properties only: a field named `__proto__` or `toString` must not read the prototype.
      const has = hasOwn.call(obj, f.name);
      if (has) present++;
      this.field(f.plan, has ? obj[f.name] : undefined, rep);
    }
    const key = this.strict ? unknownKeyBeyond(obj, present, () => this.knownNames(fields)) : undefined;
    if (key !== undefined) {
      const where = this.path.slice(0, d).join('.');
      this.refuseUnknown(where ? `field ${where} has` : 'the record has', key, group);
    }
    this.depth = d;
  }

  private refuseUnknown(subject: string, key: string, group: readonly string[]): never {
    throw new InvalidArgumentError(`${subject} a key the schema lacks: ${JSON.stringify(key)} (write with unknownFields: 'ignore' to leave such keys out)`, group.length ? { column: group.join('.') } : {});
  }

  private pathText(): string {
    return this.path.slice(0, this.depth).join('.');
  }

  /** The message names the field by the record's keys; the context, by its column in the schema, as the leaves' coercers do. */
  private fail(p: Plan, expected: string, v: unknown): never {
    throw new InvalidArgumentError(`field ${this.pathText()}: expected ${expected}, got ${describe(v)}`, { column: p.path.join('.') });
  }

  private empty(p: Plan, rep: number, def: number): void {
    for (let l = p.first; l < p.first + p.width; l++) this.sinks[l]!.level(rep, def);
  }

  private field(p: Plan, v: unknown, rep: number): void {
    // A required variant has a null of its own: variant null.
    if ((v === null || v === undefined) && !(p.t === 'variant' && !p.nullable)) {
      if (p.nullable) return this.empty(p, rep, p.def - 1);
      // A required list (a bare repeated field) that is absent is simply empty.
      if (p.t === 'list' || p.t === 'map') return this.empty(p, rep, p.elementDef - 1);
      this.fail(p, 'a value (the field is required)', v);
    }
    switch (p.t) {
      case 'leaf':
        try {
          this.sinks[p.first]!.value(rep, v);
        } catch (e) {
          if (e instanceof InvalidArgumentError) e.within({ column: p.path.join('.') });
          throw e;
        }
        return;
      case 'struct':
        if (!isPlainObject(v)) this.fail(p, 'an object', v);
        return this.fields(p.fields, v, rep, p.path);
      case 'list': {
        if (!Array.isArray(v) && !(ArrayBuffer.isView(v) && !(v instanceof DataView))) this.fail(p, 'an array', v);
        const a = v as ArrayLike<unknown>;
        if (a.length === 0) return this.empty(p, rep, p.elementDef - 1);
        for (let i = 0; i < a.length; i++) this.field(p.element, a[i], i === 0 ? rep : p.rep);
        return;
      }
      case 'map': {
        const entries = this.entries(p, v);
        if (entries.length === 0) return this.empty(p, rep, p.elementDef - 1);
        for (let i = 0; i < entries.length; i++) this.entry(p.entry, p.keyName, p.valueName, entries[i]!, i === 0 ? rep : p.rep);
        return;
      }
      case 'variant': {
        if (!this.variant) this.fail(p, 'nothing: this writer does not write VARIANT columns', v);
        let parts: Record<string, unknown>;
        try {
          parts = this.variant(v, p.node);
        } catch (e) {
          if (e instanceof InvalidArgumentError) e.within({ column: p.path.join('.') });
          throw e;
        }
        return this.fields(p.parts.fields, parts, rep, p.path);
      }
    }
  }

  private entries(p: MapPlan, v: unknown): [unknown, unknown][] {
    if (v instanceof Map) return [...v.entries()];
    if (Array.isArray(v)) {
      return v.map((e) => {
        if (!isPlainObject(e) || !('key' in e)) this.fail(p, 'map entries as { key, value } objects', e);
        // A misspelt `value` would otherwise write a null, as a misspelt field would.
        const extra = this.strict ? unknownKeyBeyond(e, +hasOwn.call(e, 'key') + +hasOwn.call(e, 'value'), () => ENTRY_KEYS) : undefined;
        if (extra !== undefined) this.refuseUnknown(`field ${this.pathText()}: a map entry has`, extra, p.entry.path);
        return [e.key, e.value] as [unknown, unknown];
      });
    }
    if (isPlainObject(v)) return Object.entries(v);
    this.fail(p, 'a map (an array of { key, value }, a Map, or an object)', v);
  }

  private entry(p: StructPlan, keyName: string, valueName: string | undefined, [k, val]: [unknown, unknown], rep: number): void {
    const obj: Record<string, unknown> = Object.create(null);
    obj[keyName] = k;
    if (valueName !== undefined) obj[valueName] = val;
    this.fields(p.fields, obj, rep, p.path);
  }
}
