/**
 * Compiles the declarative tables of `spec.ts` into decoders, once per
 * struct (memoized): closures composed from the table. Encoding is
 * encode.ts, so a read does not load it.
 *
 * One decoder. JavaScript generated from the tables with `new Function`
 * decoded page headers 3-4 times faster, but it needed these closures
 * anyway where a strict browser CSP forbids `new Function`, and the two
 * paths were 10.8 kB gzipped of a browser read; a page header through the
 * closures takes a few microseconds, next to the page it describes
 * (docs/decisions/package-size.md).
 *
 * Decoding rules (the same as thrift's generated code, plus safety):
 * - Unknown field ids are skipped, whatever their type and depth.
 * - A known field whose wire type is not the declared one is skipped too
 *   (as Java/C++ generated code does); if it was required, the struct then
 *   fails the required-field check, whose error says what was there instead
 *   (the wire type found, the one expected, and where).
 * - Nesting deeper than MAX_DEPTH is corrupt; every size is checked against
 *   the bytes left before anything is allocated.
 * - A missing required field is a CorruptFileError naming struct and field,
 *   unless the table gives a default for it (leniency, see the tables).
 * - A union with no member set reads as `{ type: 'UNKNOWN_FIELD_0' }` (and
 *   writes back as an empty union); with several set, the first known wins.
 */

import { CorruptFileError, ParquetryError } from '../../errors.js';
import type { ByteCursor } from '../../bytes/cursor.js';
import {
  CT,
  MAX_DEPTH,
  corrupt,
  missingField,
  readByte,
  readDouble,
  readI16,
  readI32,
  readI64BigInt,
  readI64Number,
  readI8,
  readListHeaderPacked,
  readMapHeader,
  readBinary,
  readString,
  readUuid,
  skipValue,
  wireName,
} from './compact.js';
import type { EnumSpec, ListSpec, MapSpec, Spec, StructSpec, UnionSpec, UnitUnionSpec } from './spec.js';

/** Passed as the wire type to a reader when it reads a collection element. */
const ELEM = -1;

/** Returned by a reader that skipped its value (type mismatch, empty union). */
const SKIPPED: unique symbol = Symbol('skipped');

type Reader = (c: ByteCursor, t: number, depth: number) => unknown;

interface ValueDecoder {
  /** Bit mask of wire types accepted on read. */
  readonly accept: number;
  readonly read: Reader;
}

/** A compiled struct decoder. */
export interface StructCodec<T = Record<string, unknown>> {
  readonly spec: StructSpec;
  /** Reads a whole struct (fields up to and including the stop byte). */
  decode(c: ByteCursor, depth?: number): T;
  /** Reads the fields of a struct into an existing object. */
  decodeInto(c: ByteCursor, depth: number, obj: Record<string, unknown>): void;
}

const BOOL_MASK = (1 << CT.BOOLEAN_TRUE) | (1 << CT.BOOLEAN_FALSE);
const LIST_MASK = (1 << CT.LIST) | (1 << CT.SET);

/** The compact type a value of `spec` is written as (a bool field's is the true one; its header holds the value). */
export function wireOf(spec: Spec): number {
  switch (spec.kind) {
    case 'bool':
      return CT.BOOLEAN_TRUE;
    case 'i8':
      return CT.I8;
    case 'i16':
      return CT.I16;
    case 'i32':
    case 'enum':
      return CT.I32;
    case 'i64':
    case 'i64big':
      return CT.I64;
    case 'double':
      return CT.DOUBLE;
    case 'string':
    case 'binary':
      return CT.BINARY;
    case 'list':
      return spec.set ? CT.SET : CT.LIST;
    case 'map':
      return CT.MAP;
    case 'struct':
    case 'union':
    case 'unitUnion':
      return CT.STRUCT;
    case 'uuid':
      return CT.UUID;
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

function compileValue(spec: Spec): ValueDecoder {
  switch (spec.kind) {
    case 'bool':
      return { accept: BOOL_MASK, read: (c, t) => (t === ELEM ? readByte(c) === 1 : t === CT.BOOLEAN_TRUE) };
    case 'i8':
      return { accept: 1 << CT.I8, read: readI8 };
    case 'i16':
      return { accept: 1 << CT.I16, read: readI16 };
    case 'i32':
      return { accept: 1 << CT.I32, read: readI32 };
    case 'i64':
      return { accept: 1 << CT.I64, read: readI64Number };
    case 'i64big':
      return { accept: 1 << CT.I64, read: readI64BigInt };
    case 'double':
      return { accept: 1 << CT.DOUBLE, read: readDouble };
    case 'string':
      return { accept: 1 << CT.BINARY, read: readString };
    case 'binary':
      return { accept: 1 << CT.BINARY, read: readBinary };
    case 'uuid':
      return { accept: 1 << CT.UUID, read: readUuid };
    case 'enum':
      return compileEnum(spec);
    case 'list':
      return compileList(spec);
    case 'map':
      return compileMap(spec);
    case 'struct': {
      const sc = compileStruct(spec);
      return { accept: 1 << CT.STRUCT, read: (c, _t, depth) => sc.decode(c, depth) };
    }
    case 'union':
      return compileUnion(spec);
    case 'unitUnion':
      return compileUnitUnion(spec);
  }
}

function compileEnum(spec: EnumSpec): ValueDecoder {
  // Names for small unknown values are made once, so decoding them does not build strings.
  const table: string[] = [];
  for (let i = 0; i < Math.max(spec.names.length, 32); i++) table.push(spec.names[i] ?? `UNKNOWN_${i}`);
  return {
    accept: 1 << CT.I32,
    read: (c) => {
      const v = readI32(c);
      return v >= 0 && v < table.length ? table[v] : `UNKNOWN_${v}`;
    },
  };
}

function compileList(spec: ListSpec): ValueDecoder {
  const elem = compileValue(spec.elem);
  const elemAccept = elem.accept;
  const readElem = elem.read;
  return {
    accept: LIST_MASK,
    read: (c, _t, depth) => {
      if (depth > MAX_DEPTH) throw corrupt(c, `nesting deeper than ${MAX_DEPTH}`);
      const p = readListHeaderPacked(c);
      const et = p & 15;
      const n = (p - et) / 16;
      const out: unknown[] = [];
      if (n === 0) return out;
      if (((elemAccept >> et) & 1) === 0) {
        for (let i = 0; i < n; i++) skipValue(c, et, depth + 1, true);
        return SKIPPED;
      }
      for (let i = 0; i < n; i++) {
        const x = readElem(c, ELEM, depth + 1);
        // a nested collection of the wrong element type is skipped, leaving an empty one in its place
        out.push(x !== SKIPPED ? x : spec.elem.kind === 'map' ? new Map() : []);
      }
      return out;
    },
  };
}

function compileMap(spec: MapSpec): ValueDecoder {
  const key = compileValue(spec.key);
  const value = compileValue(spec.value);
  return {
    accept: 1 << CT.MAP,
    read: (c, _t, depth) => {
      if (depth > MAX_DEPTH) throw corrupt(c, `nesting deeper than ${MAX_DEPTH}`);
      const h = readMapHeader(c);
      const out = new Map<unknown, unknown>();
      if (h.size === 0) return out;
      if (((key.accept >> h.keyType) & 1) === 0 || ((value.accept >> h.valueType) & 1) === 0) {
        for (let i = 0; i < h.size; i++) {
          skipValue(c, h.keyType, depth + 1, true);
          skipValue(c, h.valueType, depth + 1, true);
        }
        return SKIPPED;
      }
      for (let i = 0; i < h.size; i++) {
        const k = key.read(c, ELEM, depth + 1);
        const x = value.read(c, ELEM, depth + 1);
        out.set(k, x !== SKIPPED ? x : spec.value.kind === 'map' ? new Map() : []);
      }
      return out;
    },
  };
}

/**
 * Reads the fields of a union, calling `onMember` for the first known member
 * with a struct value. Returns the id of the first unknown member seen, or -1.
 */
function readUnionFields(
  c: ByteCursor,
  depth: number,
  ids: readonly number[],
  onMember: (index: number, c: ByteCursor, depth: number) => void,
): { found: boolean; unknownId: number } {
  let last = 0;
  let found = false;
  let unknownId = -1;
  for (;;) {
    const h = readByte(c);
    if (h === 0) break;
    const t = h & 15;
    const id = h >> 4 !== 0 ? last + (h >> 4) : readI32(c);
    last = id;
    const index = !found && t === CT.STRUCT ? ids.indexOf(id) : -1;
    if (index >= 0) {
      onMember(index, c, depth + 1);
      found = true;
    } else {
      if (!found && unknownId < 0) unknownId = id;
      skipValue(c, t, depth + 1);
    }
  }
  return { found, unknownId };
}

function compileUnion(spec: UnionSpec): ValueDecoder {
  const ids = spec.members.map((m) => m.id);
  const members = spec.members.map((m) => ({ name: m.name, codec: compileStruct(m.struct) }));
  return {
    accept: 1 << CT.STRUCT,
    read: (c, _t, depth) => {
      if (depth > MAX_DEPTH) throw corrupt(c, `nesting deeper than ${MAX_DEPTH}`);
      let result: Record<string, unknown> | undefined;
      const r = readUnionFields(c, depth, ids, (i, cc, d) => {
        const m = members[i]!;
        result = { type: m.name };
        m.codec.decodeInto(cc, d, result);
      });
      if (r.found) return result;
      // An empty union (no member at all) reads as UNKNOWN_FIELD_0.
      return { type: `UNKNOWN_FIELD_${r.unknownId >= 0 ? r.unknownId : 0}` };
    },
  };
}

function compileUnitUnion(spec: UnitUnionSpec): ValueDecoder {
  const ids = spec.members.map((m) => m.id);
  return {
    accept: 1 << CT.STRUCT,
    read: (c, _t, depth) => {
      if (depth > MAX_DEPTH) throw corrupt(c, `nesting deeper than ${MAX_DEPTH}`);
      let name: string | undefined;
      const r = readUnionFields(c, depth, ids, (i, cc, d) => {
        name = spec.members[i]!.name;
        skipValue(cc, CT.STRUCT, d); // members are empty structs; ignore whatever they hold
      });
      if (r.found) return name;
      return `UNKNOWN_FIELD_${r.unknownId >= 0 ? r.unknownId : 0}`;
    },
  };
}

interface CompiledField {
  readonly id: number;
  readonly key: string;
  readonly thriftName: string;
  /** The declared type, for messages. */
  readonly typeName: string;
  readonly required: boolean;
  readonly missingDefault: unknown;
  readonly bit: number;
  readonly accept: number;
  readonly read: Reader;
}

interface WrongField {
  readonly id: number;
  readonly type: number;
  readonly at: number;
}
const NO_WRONG: WrongField = { id: -1, type: -1, at: -1 };

const compiled = new WeakMap<StructSpec, StructCodec<never>>();

/** Compiles (once, memoized) the decoder of a struct table. */
export function compileStruct<T = Record<string, unknown>>(spec: StructSpec): StructCodec<T> {
  const hit = compiled.get(spec);
  if (hit) return hit as unknown as StructCodec<T>;

  const fields: CompiledField[] = [];
  // Filled in after registration so that (indirectly) self-referencing tables terminate.
  const codec: StructCodec<Record<string, unknown>> = {
    spec,
    decode: (c, depth = 0) => {
      const obj: Record<string, unknown> = {};
      decodeInto(c, depth, obj);
      return obj;
    },
    decodeInto: (c, depth, obj) => decodeInto(c, depth, obj),
  };
  compiled.set(spec, codec as unknown as StructCodec<never>);

  let requiredMask = 0;
  let nextBit = 0;
  for (const f of spec.fields) {
    const vc = compileValue(f.type);
    let bit = 0;
    if (f.required) {
      if (nextBit >= 30) throw new Error(`${spec.name}: too many required fields`);
      bit = 1 << nextBit++;
      requiredMask |= bit;
    }
    fields.push({
      id: f.id,
      key: f.key,
      thriftName: f.thriftName,
      typeName: typeName(f.type),
      required: f.required,
      missingDefault: f.missingDefault,
      bit,
      accept: vc.accept,
      read: vc.read,
    });
  }
  const maxId = fields.reduce((m, f) => Math.max(m, f.id), 0);
  const byId: (CompiledField | undefined)[] = new Array<CompiledField | undefined>(maxId + 1).fill(undefined);
  for (const f of fields) byId[f.id] = f;
  const idLimit = byId.length;
  const name = spec.name;

  /** `wrong`: the last required field skipped for its wire type, as (id, wire type, offset of its value), or id -1. */
  function missing(c: ByteCursor, obj: Record<string, unknown>, seen: number, wrong: WrongField): void {
    for (const f of fields) {
      if (f.required && (seen & f.bit) === 0) {
        if (f.missingDefault !== undefined) obj[f.key] = f.missingDefault;
        else missingField(c, name, f.thriftName, f.id, f.typeName, wrong.id === f.id ? wrong.type : -1, wrong.at);
      }
    }
  }

  function decodeInto(c: ByteCursor, depth: number, obj: Record<string, unknown>): void {
    if (depth > MAX_DEPTH) throw corrupt(c, `nesting deeper than ${MAX_DEPTH} in ${name}`);
    const buf = c.buf;
    let last = 0;
    let seen = 0;
    let wrong = NO_WRONG;
    for (;;) {
      if (c.pos >= c.end) throw corrupt(c, `unexpected end of data in ${name}`);
      const h = buf[c.pos++]!;
      if (h === 0) break;
      const t = h & 15;
      const delta = h >> 4;
      const id = delta !== 0 ? last + delta : readI32(c);
      last = id;
      const f = id >= 0 && id < idLimit ? byId[id] : undefined;
      const at = c.pos;
      if (f !== undefined && ((f.accept >> t) & 1) !== 0) {
        const v = f.read(c, t, depth + 1);
        if (v !== SKIPPED) {
          obj[f.key] = v;
          seen |= f.bit;
        } else if (f.required) wrong = { id, type: t, at: c.base + at };
      } else {
        if (f !== undefined && f.required) wrong = { id, type: t, at: c.base + at };
        skipValue(c, t, depth + 1);
      }
    }
    if ((seen & requiredMask) !== requiredMask) missing(c, obj, seen, wrong);
  }

  return codec as unknown as StructCodec<T>;
}

/**
 * Decodes one struct at the cursor, advancing it. Any failure is a
 * ParquetryError: an unexpected exception (a bug, or corrupt input that
 * slipped past a check) is wrapped as CorruptFileError at the cursor offset.
 */
export function decodeStruct<T>(codec: StructCodec<T>, c: ByteCursor): T {
  try {
    return codec.decode(c, 0);
  } catch (e) {
    if (e instanceof ParquetryError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new CorruptFileError(`thrift: unexpected failure decoding ${codec.spec.name}: ${msg}`, { offset: c.base + c.pos }, { cause: e });
  }
}
