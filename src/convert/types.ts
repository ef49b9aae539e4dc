/**
 * The type syntax of `parquetry convert --type col=TYPE` and `--schema FILE`,
 * mapped onto the `field.*` builders.
 *
 * A type is a name, optional arguments in parentheses, and `!` for REQUIRED:
 *
 *   int64!   decimal(9,2)   timestamp(MICROS,utc)   time(NANOS,local)   list(string!)   map(string,int64)
 *
 * A schema file is JSON: an object of column name → type, where a type is a
 * type string, `[T]` (a list of T), an object (a struct of its keys), or a
 * long form `{"$list": T}`, `{"$map": [K, V]}`, `{"$struct": {...}}` that also
 * takes `"$required": true`. Field order is the order of the keys; where JSON
 * would reorder them (integer-like names come first), give `[[name, type], ...]`
 * pairs instead of an object.
 */
import { InvalidArgumentError } from '../errors.js';
import { defineSchema, field as f, type DefinedSchema } from '../schema/builder.js';
import { MAX_SCHEMA_DEPTH, nestingLimitError } from '../schema/tree.js';
import type { AnyField } from '../schema/builder.js';

/** A declared type before it becomes a field builder, so `--type` can replace parts of a `--schema`. */
export type TypeNode =
  | { t: 'leaf'; build: () => AnyField; required: boolean }
  | { t: 'struct'; fields: Array<[string, TypeNode]>; required: boolean }
  | { t: 'list'; element: TypeNode; required: boolean }
  | { t: 'map'; key: TypeNode; value: TypeNode; required: boolean };

/** The names `--type` knows, for help and error messages. */
export const TYPE_NAMES = [
  'boolean', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float', 'double', 'float16',
  'string', 'binary', 'json', 'bson', 'uuid', 'enum', 'date', 'time(unit,utc|local)', 'timestamp(unit,utc|local)',
  'int96', 'decimal(p,s)', 'fixed(n)', 'interval', 'null', 'variant', 'list(T)', 'map(K,V)',
  'geometry', 'geography',
];

const SIMPLE: Record<string, () => AnyField> = {
  boolean: f.boolean, bool: f.boolean,
  int8: f.int8, tinyint: f.int8,
  int16: f.int16, smallint: f.int16,
  int32: f.int32, int: f.int32, integer: f.int32,
  int64: f.int64, bigint: f.int64, long: f.int64,
  uint8: f.uint8, uint16: f.uint16, uint32: f.uint32, uint64: f.uint64,
  float: f.float, float32: f.float, real: f.float,
  double: f.double, float64: f.double,
  float16: f.float16, half: f.float16,
  string: f.string, utf8: f.string, text: f.string, varchar: f.string,
  binary: f.binary, bytes: f.binary, blob: f.binary,
  json: f.json, bson: f.bson, uuid: f.uuid, enum: f.enum,
  date: f.date, int96: f.int96, interval: f.interval, null: f.null,
  geometry: () => f.geometry(), geography: () => f.geography(),
  // A variant takes any JSON value as it is, the shape picked from the sample (no shape fits every variant).
  variant: () => f.variant({ shred: 'auto' }),
};

// ------------------------------------------------------------------ type strings

/** A type node before its `!`. */
type Bare = TypeNode extends infer T ? (T extends TypeNode ? Omit<T, 'required'> : never) : never;

type Arg = { s: string; node?: undefined } | { node: TypeNode; s: string };

class TypeParser {
  private i = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  parse(): TypeNode {
    const node = this.type();
    this.ws();
    if (this.i < this.text.length) this.fail(`unexpected ${JSON.stringify(this.text.slice(this.i))}`);
    return node;
  }

  private fail(why: string): never {
    throw new InvalidArgumentError(`bad type ${JSON.stringify(this.text)}: ${why} (types: ${TYPE_NAMES.join(', ')}; ! for required)`);
  }

  private ws(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i]!)) this.i++;
  }

  private word(): string {
    this.ws();
    const m = /^[A-Za-z0-9_+-]+/.exec(this.text.slice(this.i));
    if (!m) this.fail(this.i >= this.text.length ? 'a type name is missing' : `unexpected ${JSON.stringify(this.text[this.i])}`);
    this.i += m[0].length;
    return m[0];
  }

  private peek(c: string): boolean {
    this.ws();
    if (this.text[this.i] === c) {
      this.i++;
      return true;
    }
    return false;
  }

  private type(): TypeNode {
    if (++this.depth > MAX_SCHEMA_DEPTH) throw nestingLimitError(`type ${JSON.stringify(this.text.length > 60 ? this.text.slice(0, 59) + '…' : this.text)}`);
    const name = this.word().toLowerCase();
    const args: Arg[] = [];
    if (this.peek('(')) {
      if (!this.peek(')')) {
        do args.push(this.arg(name)); while (this.peek(','));
        if (!this.peek(')')) this.fail(`expected ")" after the arguments of ${name}`);
      }
    }
    const required = this.peek('!');
    this.depth--;
    return { ...this.build(name, args), required } as TypeNode;
  }

  /** list and map take types; everything else takes words and numbers. */
  private arg(name: string): Arg {
    if (name === 'list' || name === 'map') {
      const start = this.i;
      const node = this.type();
      return { node, s: this.text.slice(start, this.i) };
    }
    return { s: this.word() };
  }

  private build(name: string, args: Arg[]): Bare {
    const words = (): string[] => args.map((a) => a.s.trim());
    const noArgs = () => {
      if (args.length) this.fail(`${name} takes no arguments`);
    };
    const simple = SIMPLE[name];
    if (simple) {
      noArgs();
      return { t: 'leaf', build: simple };
    }
    switch (name) {
      case 'time':
      case 'timestamp': {
        const [unitText, zone, extra] = words();
        if (extra !== undefined) this.fail(`${name} takes (unit, utc|local)`);
        const unit = (unitText ?? (name === 'time' ? 'MILLIS' : 'MICROS')).toUpperCase();
        if (unit !== 'MILLIS' && unit !== 'MICROS' && unit !== 'NANOS') this.fail(`the unit must be MILLIS, MICROS or NANOS, not ${unitText}`);
        const z = (zone ?? 'utc').toLowerCase();
        if (z !== 'utc' && z !== 'local') this.fail(`the zone must be utc or local, not ${zone}`);
        const utc = z === 'utc';
        return { t: 'leaf', build: () => (name === 'time' ? f.time(unit, { utc }) : f.timestamp(unit, { utc })) };
      }
      case 'decimal':
      case 'numeric': {
        const [p, s, extra] = words();
        if (p === undefined || extra !== undefined || !/^\d+$/.test(p) || (s !== undefined && !/^\d+$/.test(s))) this.fail('decimal takes (precision, scale)');
        const precision = Number(p);
        const scale = s === undefined ? 0 : Number(s);
        f.decimal(precision, scale); // checks now, so a bad declaration fails while parsing
        return { t: 'leaf', build: () => f.decimal(precision, scale) };
      }
      case 'fixed': {
        const [n, extra] = words();
        if (n === undefined || extra !== undefined || !/^\d+$/.test(n)) this.fail('fixed takes (byte length)');
        f.fixed(Number(n));
        return { t: 'leaf', build: () => f.fixed(Number(n)) };
      }
      case 'list': {
        if (args.length !== 1) this.fail('list takes one element type: list(T)');
        return { t: 'list', element: args[0]!.node! };
      }
      case 'map': {
        if (args.length !== 2) this.fail('map takes a key and a value type: map(K,V)');
        return { t: 'map', key: args[0]!.node!, value: args[1]!.node! };
      }
    }
    return this.fail(`unknown type ${JSON.stringify(name)}`);
  }
}

/** Parses one type string (`int64!`, `decimal(9,2)`, `list(string)`). */
export function parseType(text: string): TypeNode {
  return new TypeParser(text).parse();
}

// ------------------------------------------------------------------ schema files

const LONG_KEYS = new Set(['$list', '$map', '$struct', '$required']);

function entriesOf(v: unknown, where: string): Array<[string, unknown]> {
  if (Array.isArray(v)) {
    return v.map((pair, i) => {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
        throw new InvalidArgumentError(`${where}: item ${i} is not a [name, type] pair`);
      }
      return [pair[0], pair[1]];
    });
  }
  if (typeof v === 'object' && v !== null) return Object.entries(v);
  throw new InvalidArgumentError(`${where}: expected an object of name → type`);
}

/** One type in a schema file's JSON form; `depth`, the types it is inside. */
export function typeFromJson(v: unknown, where: string, depth = 0): TypeNode {
  if (depth >= MAX_SCHEMA_DEPTH) throw nestingLimitError(`the type of ${where.length > 120 ? where.slice(0, 60) + '…' + where.slice(-59) : where}`);
  if (typeof v === 'string') {
    try {
      return parseType(v);
    } catch (e) {
      if (e instanceof InvalidArgumentError) throw new InvalidArgumentError(`${where}: ${e.detail}`);
      throw e;
    }
  }
  if (Array.isArray(v)) {
    if (v.length !== 1) throw new InvalidArgumentError(`${where}: a list is written [elementType], with one element`);
    return { t: 'list', element: typeFromJson(v[0], `${where}.element`, depth + 1), required: false };
  }
  if (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v);
    if (keys.some((k) => k.startsWith('$'))) {
      const o = v as Record<string, unknown>;
      for (const k of keys) if (!LONG_KEYS.has(k)) throw new InvalidArgumentError(`${where}: unknown key ${JSON.stringify(k)} (a long form has $list, $map or $struct, and $required)`);
      const kinds = keys.filter((k) => k !== '$required');
      if (kinds.length !== 1) throw new InvalidArgumentError(`${where}: a long form needs exactly one of $list, $map, $struct`);
      if (o.$required !== undefined && typeof o.$required !== 'boolean') throw new InvalidArgumentError(`${where}: $required must be true or false`);
      const required = o.$required === true;
      switch (kinds[0]) {
        case '$list':
          return { t: 'list', element: typeFromJson(o.$list, `${where}.element`, depth + 1), required };
        case '$map': {
          const kv = o.$map;
          if (!Array.isArray(kv) || kv.length !== 2) throw new InvalidArgumentError(`${where}: $map is [keyType, valueType]`);
          return { t: 'map', key: typeFromJson(kv[0], `${where}.key`, depth + 1), value: typeFromJson(kv[1], `${where}.value`, depth + 1), required };
        }
        default:
          return structFromJson(o.$struct, where, required, depth);
      }
    }
    return structFromJson(v, where, false, depth);
  }
  throw new InvalidArgumentError(`${where}: expected a type string, [elementType] or an object of fields, got ${JSON.stringify(v)}`);
}

function structFromJson(v: unknown, where: string, required: boolean, depth: number): TypeNode {
  const fields = entriesOf(v, where).map(([name, t]): [string, TypeNode] => [name, typeFromJson(t, where === '' ? name : `${where}.${name}`, depth + 1)]);
  if (fields.length === 0) throw new InvalidArgumentError(`${where || 'the schema'}: a struct needs at least one field`);
  checkNames(fields.map(([n]) => n), where || 'the schema');
  return { t: 'struct', fields, required };
}

function checkNames(names: string[], where: string): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (n === '') throw new InvalidArgumentError(`${where}: a field name cannot be empty`);
    if (seen.has(n)) throw new InvalidArgumentError(`${where}: duplicate field name ${JSON.stringify(n)}`);
    seen.add(n);
  }
}

/** A schema file's text to its fields. */
export function schemaFromJsonText(text: string, file: string): Array<[string, TypeNode]> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new InvalidArgumentError(`${file}: not JSON: ${(e as Error).message}`);
  }
  const root = structFromJson(v, '', false, 0);
  return (root as Extract<TypeNode, { t: 'struct' }>).fields;
}

// ------------------------------------------------------------------ --type

/** `col=TYPE` to [path, type]; TYPE may also be JSON (`addr={"city":"string"}`, `tags=["string"]`). */
export function parseTypeOverride(text: string): [string, TypeNode] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`--type takes COLUMN=TYPE, got ${JSON.stringify(text)}`);
  const path = text.slice(0, eq);
  const t = text.slice(eq + 1).trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (e) {
      throw new InvalidArgumentError(`--type ${path}: not a type and not JSON: ${(e as Error).message}`);
    }
    return [path, typeFromJson(v, path)];
  }
  return [path, typeFromJson(t, path)];
}

/**
 * Replaces the node at a dotted path (`a.b`, a list's element `tags.element`,
 * a map's `m.key` / `m.value`) or adds a missing field to its struct.
 */
export function applyOverride(fields: Array<[string, TypeNode]>, path: string, node: TypeNode): Array<[string, TypeNode]> {
  const parts = path.split('.');
  const set = (list: Array<[string, TypeNode]>, i: number): Array<[string, TypeNode]> => {
    const name = parts[i]!;
    const at = list.findIndex(([n]) => n === name);
    if (i === parts.length - 1) {
      if (at < 0) return [...list, [name, node]];
      return list.map((e, j) => (j === at ? [name, node] : e));
    }
    if (at < 0) throw new InvalidArgumentError(`--type ${path}: there is no field ${parts.slice(0, i + 1).join('.')}`);
    return list.map((e, j) => (j === at ? [name, into(e[1], i + 1)] : e));
  };
  const into = (n: TypeNode, i: number): TypeNode => {
    const name = parts[i]!;
    const last = i === parts.length - 1;
    const inner = (child: TypeNode) => (last ? node : into(child, i + 1));
    if (n.t === 'struct') return { ...n, fields: set(n.fields, i) };
    if (n.t === 'list' && name === 'element') return { ...n, element: inner(n.element) };
    if (n.t === 'map' && name === 'key') return { ...n, key: inner(n.key) };
    if (n.t === 'map' && name === 'value') return { ...n, value: inner(n.value) };
    throw new InvalidArgumentError(`--type ${path}: ${parts.slice(0, i).join('.')} has no part ${JSON.stringify(name)}`);
  };
  return set(fields, 0);
}

/** A type node as a field builder. */
export function toBuilder(n: TypeNode): AnyField {
  let b: AnyField;
  switch (n.t) {
    case 'leaf': b = n.build(); break;
    case 'struct': b = f.struct(n.fields.map(([name, t]) => [name, toBuilder(t)] as const)); break;
    case 'list': b = f.list(toBuilder(n.element)); break;
    case 'map': b = f.map(toBuilder(n.key), toBuilder(n.value)); break;
  }
  return n.required ? b.required() : b;
}

/** Fields to a schema. */
export function defineFromNodes(fields: Array<[string, TypeNode]>): DefinedSchema {
  return defineSchema(fields.map(([name, t]) => [name, toBuilder(t)] as const));
}
