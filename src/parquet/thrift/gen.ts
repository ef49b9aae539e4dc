/**
 * The fast decode path: JavaScript source generated from the struct tables,
 * compiled once with `new Function`. Each struct becomes a function that
 * keeps every field in a local, switches on the field id, and builds the
 * result with one object literal (required fields) plus named stores for
 * optional fields present; V8 then sees stable shapes and monomorphic
 * stores, which the generic closures of codec.ts cannot give. It decodes a
 * typical page header 3-4 times faster than those closures.
 *
 * Where `new Function` is not allowed (a browser page with a strict CSP),
 * `generateDecoder` returns undefined and codec.ts uses its closures: both
 * paths implement the same rules and are tested against each other.
 *
 * Only table content reaches the generated source (names from tables.ts,
 * quoted with JSON.stringify), never bytes from a file.
 */

import type { ByteCursor } from '../../bytes/cursor.js';
import {
  MAX_DEPTH,
  corrupt,
  missingField,
  wireName,
  readBinary,
  readByte,
  readDouble,
  readI16,
  readI32,
  readI64BigInt,
  readI64Number,
  readI8,
  readListHeaderPacked,
  readMapHeader,
  readString,
  readUuid,
  skipValue,
} from './compact.js';
import type { EnumSpec, ListSpec, MapSpec, Spec, StructSpec, UnionSpec, UnitUnionSpec } from './spec.js';

export type GeneratedDecoder = (c: ByteCursor, depth: number) => unknown;

/** Marker a collection reader returns when it skipped a value of the wrong element type. */
export const GEN_SKIPPED: unique symbol = Symbol('skipped');

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const runtime = {
  MAX_DEPTH,
  SKIPPED: GEN_SKIPPED,
  readBinary,
  readByte,
  readDouble,
  readI16,
  readI32,
  readI64BigInt,
  readI64Number,
  readI8,
  readListHeaderPacked,
  readMapHeader,
  readString,
  readUuid,
  skipValue,
  tooDeep: (c: ByteCursor, name: string) => corrupt(c, `nesting deeper than ${MAX_DEPTH} in ${name}`),
  eof: (c: ByteCursor, name: string) => corrupt(c, `unexpected end of data in ${name}`),
  missingField,
  orList: (x: unknown) => (x === GEN_SKIPPED ? [] : x),
  orMap: (x: unknown) => (x === GEN_SKIPPED ? new Map() : x),
};

class Generator {
  readonly out: string[] = [];
  private readonly consts: unknown[] = [];
  private readonly names = new Map<object, Map<string, string>>();
  private n = 0;

  private fresh(prefix: string): string {
    return `${prefix}${this.n++}`;
  }

  private constant(v: unknown): string {
    this.consts.push(v);
    return `K${this.consts.length - 1}`;
  }

  /** Memoized function name for (spec, variant); `make` generates the body once. */
  private fn(spec: object, variant: string, prefix: string, make: (name: string) => string): string {
    let byVariant = this.names.get(spec);
    if (!byVariant) this.names.set(spec, (byVariant = new Map()));
    const hit = byVariant.get(variant);
    if (hit) return hit;
    const name = this.fresh(prefix);
    byVariant.set(variant, name); // before generating: a recursive table refers to itself
    this.out.push(make(name));
    return name;
  }

  /** Condition (over the type variable `v`) that a wire type fits `spec`. */
  private accept(spec: Spec, v: string): string {
    switch (spec.kind) {
      case 'bool':
        return `(${v} === 1 || ${v} === 2)`;
      case 'list':
        return `(${v} === 9 || ${v} === 10)`;
      default:
        return `${v} === ${wireOf(spec)}`;
    }
  }

  /** Expression reading one value of `spec` as a collection element (no wire type at hand). */
  private elemExpr(spec: Spec): string {
    switch (spec.kind) {
      case 'bool':
        return 'readByte(c) === 1';
      case 'list':
        return `orList(${this.list(spec)}(c, depth + 1))`;
      case 'map':
        return `orMap(${this.map(spec)}(c, depth + 1))`;
      default:
        return this.valueExpr(spec);
    }
  }

  /** Expression reading a value that needs no wire type and never skips. */
  private valueExpr(spec: Spec): string {
    switch (spec.kind) {
      case 'i8':
        return 'readI8(c)';
      case 'i16':
        return 'readI16(c)';
      case 'i32':
        return 'readI32(c)';
      case 'i64':
        return 'readI64Number(c)';
      case 'i64big':
        return 'readI64BigInt(c)';
      case 'double':
        return 'readDouble(c)';
      case 'string':
        return 'readString(c)';
      case 'binary':
        return 'readBinary(c)';
      case 'uuid':
        return 'readUuid(c)';
      case 'enum':
        return `${this.enumFn(spec)}(c)`;
      case 'struct':
        return `${this.struct(spec)}(c, depth + 1)`;
      case 'union':
        return `${this.union(spec)}(c, depth + 1)`;
      case 'unitUnion':
        return `${this.unitUnion(spec)}(c, depth + 1)`;
      default:
        throw new Error(`no plain read for ${spec.kind}`);
    }
  }

  /** Statement for a `case` that stores the value of a field of `spec` into `local`. */
  private fieldRead(spec: Spec, local: string, wrong?: string): string {
    switch (spec.kind) {
      case 'bool':
        return `${local} = t === 1; continue;`;
      case 'list':
      case 'map': {
        const read = spec.kind === 'list' ? this.list(spec) : this.map(spec);
        if (!wrong) return `{ const x = ${read}(c, depth + 1); if (x !== SKIPPED) ${local} = x; continue; }`;
        return `{ const at = c.pos; const x = ${read}(c, depth + 1); if (x !== SKIPPED) ${local} = x; else { ${wrong} } continue; }`;
      }
      default:
        return `${local} = ${this.valueExpr(spec)}; continue;`;
    }
  }

  enumFn(spec: EnumSpec): string {
    return this.fn(spec, '', 'E', (name) => {
      const table: string[] = [];
      for (let i = 0; i < Math.max(spec.names.length, 32); i++) table.push(spec.names[i] ?? `UNKNOWN_${i}`);
      const k = this.constant(table);
      return `function ${name}(c) { const v = readI32(c); return v >= 0 && v < ${table.length} ? ${k}[v] : "UNKNOWN_" + v; }`;
    });
  }

  list(spec: ListSpec): string {
    return this.fn(spec, '', 'L', (name) => {
      const elem = this.elemExpr(spec.elem);
      return `function ${name}(c, depth) {
  if (depth > MAX_DEPTH) throw tooDeep(c, "list");
  const p = readListHeaderPacked(c);
  const et = p & 15;
  const n = (p - et) / 16;
  const out = [];
  if (n === 0) return out;
  if (!(${this.accept(spec.elem, "et")})) { for (let i = 0; i < n; i++) skipValue(c, et, depth + 1, true); return SKIPPED; }
  for (let i = 0; i < n; i++) out.push(${elem});
  return out;
}`;
    });
  }

  map(spec: MapSpec): string {
    return this.fn(spec, '', 'M', (name) => {
      const k = this.elemExpr(spec.key);
      const v = this.elemExpr(spec.value);
      return `function ${name}(c, depth) {
  if (depth > MAX_DEPTH) throw tooDeep(c, "map");
  const h = readMapHeader(c);
  const out = new Map();
  if (h.size === 0) return out;
  if (!(${this.accept(spec.key, 'h.keyType')} && ${this.accept(spec.value, 'h.valueType')})) {
    for (let i = 0; i < h.size; i++) { skipValue(c, h.keyType, depth + 1, true); skipValue(c, h.valueType, depth + 1, true); }
    return SKIPPED;
  }
  for (let i = 0; i < h.size; i++) { const k = ${k}; out.set(k, ${v}); }
  return out;
}`;
    });
  }

  /** The loop head shared by structs and unions: reads a header into `t` and `id`, or breaks at stop. */
  private loopHead(structName: string): string {
    const q = JSON.stringify(structName);
    return `    if (c.pos >= c.end) throw eof(c, ${q});
    const h = c.buf[c.pos++];
    if (h === 0) break;
    const t = h & 15;
    const id = (h >> 4) !== 0 ? last + (h >> 4) : readI32(c);
    last = id;`;
  }

  /** A struct decoder; with `discriminant`, the result starts with `type: discriminant` (a union member). */
  struct(spec: StructSpec, discriminant?: string): string {
    return this.fn(spec, discriminant ?? '', 'S', (name) => {
      const q = JSON.stringify(spec.name);
      const locals = spec.fields.map((f) => `f${f.id}`);
      // A required field of the wrong wire type is skipped, but remembered for the error if it stays missing.
      const strict = (f: StructSpec['fields'][number]) => f.required && f.missingDefault === undefined;
      const cases = spec.fields.map((f) => {
        const wrong = strict(f) ? `wid = ${f.id}; wt = t; wat = c.base + at;` : undefined;
        return `      case ${f.id}: if (${this.accept(f.type, 't')}) { ${this.fieldRead(f.type, `f${f.id}`, wrong)} }${wrong ? ` else { const at = c.pos; ${wrong} }` : ''} break;`;
      });
      const checks: string[] = [];
      const literal: string[] = [];
      const optional: string[] = [];
      if (discriminant !== undefined) literal.push(`type: ${JSON.stringify(discriminant)}`);
      for (const f of spec.fields) {
        if (!IDENT.test(f.key) || f.key === '__proto__' || (discriminant !== undefined && f.key === 'type')) {
          throw new Error(`${spec.name}: field key ${f.key} cannot be generated`);
        }
        const key = JSON.stringify(f.key);
        if (f.required) {
          const fallback =
            f.missingDefault !== undefined
              ? `f${f.id} = ${this.constant(f.missingDefault)};`
              : `missingField(c, ${q}, ${JSON.stringify(f.thriftName)}, ${f.id}, ${JSON.stringify(typeName(f.type))}, wid === ${f.id} ? wt : -1, wat);`;
          checks.push(`  if (f${f.id} === undefined) ${fallback}`);
          literal.push(`${key}: f${f.id}`);
        } else {
          optional.push(`  if (f${f.id} !== undefined) o[${key}] = f${f.id};`);
        }
      }
      return `function ${name}(c, depth) {
  if (depth > MAX_DEPTH) throw tooDeep(c, ${q});
  ${locals.length ? `let ${locals.join(', ')};` : ''}
  let last = 0${spec.fields.some(strict) ? ', wid = -1, wt = -1, wat = -1' : ''};
  for (;;) {
${this.loopHead(spec.name)}
    switch (id) {
${cases.join('\n')}
    }
    skipValue(c, t, depth + 1, false);
  }
${checks.join('\n')}
  const o = { ${literal.join(', ')} };
${optional.join('\n')}
  return o;
}`;
    });
  }

  union(spec: UnionSpec): string {
    return this.fn(spec, '', 'U', (name) => {
      const cases = spec.members.map((m) => `        case ${m.id}: r = ${this.struct(m.struct, m.name)}(c, depth + 1); continue;`);
      return this.unionBody(name, spec.name, cases);
    });
  }

  unitUnion(spec: UnitUnionSpec): string {
    return this.fn(spec, '', 'V', (name) => {
      const cases = spec.members.map(
        (m) => `        case ${m.id}: skipValue(c, 12, depth + 1, false); r = ${JSON.stringify(m.name)}; continue;`,
      );
      return this.unionBody(name, spec.name, cases, true);
    });
  }

  private unionBody(name: string, unionName: string, cases: string[], unit = false): string {
    const unknown = unit
      ? `"UNKNOWN_FIELD_" + (unk >= 0 ? unk : 0)`
      : `{ type: "UNKNOWN_FIELD_" + (unk >= 0 ? unk : 0) }`;
    return `function ${name}(c, depth) {
  if (depth > MAX_DEPTH) throw tooDeep(c, ${JSON.stringify(unionName)});
  let r, unk = -1, last = 0;
  for (;;) {
${this.loopHead(unionName)}
    if (r === undefined && t === 12) {
      switch (id) {
${cases.join('\n')}
      }
    }
    if (r === undefined && unk < 0) unk = id;
    skipValue(c, t, depth + 1, false);
  }
  return r !== undefined ? r : ${unknown};
}`;
  }

  build(root: StructSpec): GeneratedDecoder {
    const rootName = this.struct(root);
    const names = Object.keys(runtime);
    const values = Object.values(runtime) as unknown[];
    const constNames = this.consts.map((_, i) => `K${i}`);
    const body = `"use strict";\n${this.out.join('\n\n')}\nreturn ${rootName};`;
    const factory = new Function(...names, ...constNames, body) as (...args: unknown[]) => GeneratedDecoder;
    return factory(...values, ...this.consts);
  }
}

/** The declared type of a field as the wire shows it (collections with their element types), for messages. */
export function typeName(spec: Spec): string {
  switch (spec.kind) {
    case 'list':
      return `${spec.set ? 'SET' : 'LIST'}<${typeName(spec.elem)}>`;
    case 'map':
      return `MAP<${typeName(spec.key)},${typeName(spec.value)}>`;
    default:
      return wireName(wireOf(spec));
  }
}

function wireOf(spec: Spec): number {
  switch (spec.kind) {
    case 'bool':
      return 1;
    case 'i8':
      return 3;
    case 'i16':
      return 4;
    case 'i32':
    case 'enum':
      return 5;
    case 'i64':
    case 'i64big':
      return 6;
    case 'double':
      return 7;
    case 'string':
    case 'binary':
      return 8;
    case 'list':
      return spec.set ? 10 : 9;
    case 'map':
      return 11;
    case 'struct':
    case 'union':
    case 'unitUnion':
      return 12;
    case 'uuid':
      return 13;
  }
}

let evalAllowed: boolean | undefined;

/** Whether this runtime lets us compile generated code (false under a CSP without 'unsafe-eval'). */
export function codegenAvailable(): boolean {
  if (evalAllowed === undefined) {
    try {
      evalAllowed = new Function('return 1')() === 1;
    } catch {
      evalAllowed = false;
    }
  }
  return evalAllowed;
}

/** The generated decoder for `root` (and everything it contains), or undefined where code generation is not allowed. */
export function generateDecoder(root: StructSpec): GeneratedDecoder | undefined {
  if (!codegenAvailable()) return undefined;
  try {
    return new Generator().build(root);
  } catch (e) {
    // A CSP violation surfaces as EvalError; anything else is a bug in the generator.
    if (e instanceof EvalError) return undefined;
    throw e;
  }
}

/** The generated source for `root`, for inspection and tests. */
export function generatedSource(root: StructSpec): string {
  const g = new Generator();
  const name = g.struct(root);
  return `${g.out.join('\n\n')}\n// root: ${name}`;
}
