/**
 * Compiles the declarative tables of `spec.ts` into codecs, once per struct
 * (memoized). Two decode paths implement the same rules:
 * - `decodeGenerated`: JavaScript generated from the table (gen.ts), 3-4x
 *   faster on a struct decoded again and again (page headers); built on
 *   first use. `decode` takes it from the GENERATE_AFTER-th call on.
 * - `decodeWithClosures`: closures composed from the table, no `eval`. Used
 *   where the runtime forbids `new Function` (a strict browser CSP), and in
 *   tests as the reference the generated code is checked against.
 * Encoding always goes through closures (it is not the hot path).
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

import { CorruptFileError, InvalidArgumentError, ParquetryError } from '../../errors.js';
import type { ByteCursor } from '../../bytes/cursor.js';
import type { ByteWriter } from '../../bytes/writer.js';
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
  writeBinary,
  writeDouble,
  writeFieldHeader,
  writeI16,
  writeI32,
  writeI64,
  writeI64BigInt,
  writeI8,
  writeListHeader,
  writeMapHeader,
  writeString,
  writeUuid,
} from './compact.js';
import { generateDecoder, typeName } from './gen.js';
import type { EnumSpec, ListSpec, MapSpec, Spec, StructSpec, UnionSpec, UnitUnionSpec } from './spec.js';

/** Passed as the wire type to a reader when it reads a collection element. */
const ELEM = -1;

/** Returned by a reader that skipped its value (type mismatch, empty union). */
const SKIPPED: unique symbol = Symbol('skipped');

type Reader = (c: ByteCursor, t: number, depth: number) => unknown;
type Writer = (w: ByteWriter, v: unknown) => void;

interface ValueCodec {
  /** The compact type written for this value (a bool field's header type is chosen per value). */
  readonly wire: number;
  /** Bit mask of wire types accepted on read. */
  readonly accept: number;
  readonly read: Reader;
  readonly write: Writer;
}

/**
 * A struct value (count 1) or a list's elements (`count` of them) already
 * encoded, written as they are wherever the codec takes that struct or list:
 * a writer's footer keeps its column chunks as bytes from the moment each is
 * written, not as objects until the end (a wide table's footer has one per
 * column). The caller vouches that the bytes are of the right type.
 */
export class Encoded {
  constructor(readonly bytes: Uint8Array, readonly count = 1) {}
}

/** A compiled struct: decode into a fresh or given object, encode fields + stop. */
export interface StructCodec<T = Record<string, unknown>> {
  readonly spec: StructSpec;
  /**
   * Reads a whole struct (fields up to and including the stop byte): through
   * the closures for the first calls, then the generated fast path (gen.ts)
   * where the runtime allows it.
   */
  decode(c: ByteCursor, depth?: number): T;
  /** The same, through the generated fast path from the first call (the closures where code generation is not allowed). */
  decodeGenerated(c: ByteCursor, depth?: number): T;
  /** The same, always through the closures (the fallback; also used to cross-check the fast path). */
  decodeWithClosures(c: ByteCursor, depth?: number): T;
  /** Reads the fields of a struct into an existing object (closure path). */
  decodeInto(c: ByteCursor, depth: number, obj: Record<string, unknown>): void;
  /** Writes the fields of `obj` and the stop byte. */
  encode(w: ByteWriter, obj: T): void;
}

function invalid(where: string, detail: string): InvalidArgumentError {
  return new InvalidArgumentError(`thrift: ${where} ${detail}`);
}

function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Uint8Array) return `Uint8Array(${v.length})`;
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object' && v !== null) return 'an object';
  return String(v);
}

/** Wraps a primitive writer so its error names the field. */
function named(where: string, kind: string, fn: Writer): Writer {
  return (w, v) => {
    try {
      fn(w, v);
    } catch (e) {
      if (e instanceof InvalidArgumentError) throw invalid(where, `(${kind}) cannot hold ${show(v)}`);
      throw e;
    }
  };
}

const BOOL_MASK = (1 << CT.BOOLEAN_TRUE) | (1 << CT.BOOLEAN_FALSE);
const LIST_MASK = (1 << CT.LIST) | (1 << CT.SET);

function compileValue(spec: Spec, where: string): ValueCodec {
  switch (spec.kind) {
    case 'bool':
      return {
        wire: CT.BOOLEAN_TRUE,
        accept: BOOL_MASK,
        read: (c, t) => (t === ELEM ? readByte(c) === 1 : t === CT.BOOLEAN_TRUE),
        write: (w, v) => {
          if (typeof v !== 'boolean') throw invalid(where, `(bool) cannot hold ${show(v)}`);
          w.u8(v ? CT.BOOLEAN_TRUE : CT.BOOLEAN_FALSE);
        },
      };
    case 'i8':
      return { wire: CT.I8, accept: 1 << CT.I8, read: readI8, write: named(where, 'i8', writeI8 as Writer) };
    case 'i16':
      return { wire: CT.I16, accept: 1 << CT.I16, read: readI16, write: named(where, 'i16', writeI16 as Writer) };
    case 'i32':
      return { wire: CT.I32, accept: 1 << CT.I32, read: readI32, write: named(where, 'i32', writeI32 as Writer) };
    case 'i64':
      return { wire: CT.I64, accept: 1 << CT.I64, read: readI64Number, write: named(where, 'i64', writeI64 as Writer) };
    case 'i64big':
      return { wire: CT.I64, accept: 1 << CT.I64, read: readI64BigInt, write: named(where, 'i64', writeI64BigInt as Writer) };
    case 'double':
      return { wire: CT.DOUBLE, accept: 1 << CT.DOUBLE, read: readDouble, write: named(where, 'double', writeDouble as Writer) };
    case 'string':
      return { wire: CT.BINARY, accept: 1 << CT.BINARY, read: readString, write: named(where, 'string', writeString as Writer) };
    case 'binary':
      return { wire: CT.BINARY, accept: 1 << CT.BINARY, read: readBinary, write: named(where, 'binary', writeBinary as Writer) };
    case 'uuid':
      return { wire: CT.UUID, accept: 1 << CT.UUID, read: readUuid, write: named(where, 'uuid', writeUuid as Writer) };
    case 'enum':
      return compileEnum(spec, where);
    case 'list':
      return compileList(spec, where);
    case 'map':
      return compileMap(spec, where);
    case 'struct': {
      const sc = compileStruct(spec);
      return {
        wire: CT.STRUCT,
        accept: 1 << CT.STRUCT,
        read: (c, _t, depth) => sc.decodeWithClosures(c, depth),
        write: (w, v) => {
          if (v instanceof Encoded) return w.bytes(v.bytes);
          if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(where, `(${spec.name}) cannot hold ${show(v)}`);
          sc.encode(w, v as Record<string, unknown>);
        },
      };
    }
    case 'union':
      return compileUnion(spec, where);
    case 'unitUnion':
      return compileUnitUnion(spec, where);
  }
}

function compileEnum(spec: EnumSpec, where: string): ValueCodec {
  const names = spec.names;
  // Names for small unknown values are made once, so decoding them does not build strings.
  const table: string[] = [];
  for (let i = 0; i < Math.max(names.length, 32); i++) table.push(names[i] ?? `UNKNOWN_${i}`);
  const byName = new Map<string, number>();
  names.forEach((n, i) => {
    if (n !== undefined) byName.set(n, i);
  });
  return {
    wire: CT.I32,
    accept: 1 << CT.I32,
    read: (c) => {
      const v = readI32(c);
      return v >= 0 && v < table.length ? table[v] : `UNKNOWN_${v}`;
    },
    write: (w, v) => {
      let n = typeof v === 'string' ? byName.get(v) : undefined;
      if (n === undefined && typeof v === 'string') {
        const m = /^UNKNOWN_(-?\d+)$/.exec(v);
        if (m) n = Number(m[1]);
      }
      if (n === undefined || (n | 0) !== n) throw invalid(where, `(enum ${spec.name}) has no member ${show(v)}`);
      writeI32(w, n);
    },
  };
}

function compileList(spec: ListSpec, where: string): ValueCodec {
  const elem = compileValue(spec.elem, `${where}[]`);
  const elemAccept = elem.accept;
  const readElem = elem.read;
  const wire = spec.set ? CT.SET : CT.LIST;
  return {
    wire,
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
    write: (w, v) => {
      if (v instanceof Encoded) {
        writeListHeader(w, elem.wire, v.count);
        w.bytes(v.bytes);
        return;
      }
      if (!Array.isArray(v)) throw invalid(where, `(list) cannot hold ${show(v)}`);
      writeListHeader(w, elem.wire, v.length);
      for (let i = 0; i < v.length; i++) elem.write(w, v[i]);
    },
  };
}

function compileMap(spec: MapSpec, where: string): ValueCodec {
  const key = compileValue(spec.key, `${where}{key}`);
  const value = compileValue(spec.value, `${where}{value}`);
  return {
    wire: CT.MAP,
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
    write: (w, v) => {
      if (!(v instanceof Map)) throw invalid(where, `(map) cannot hold ${show(v)}`);
      writeMapHeader(w, key.wire, value.wire, v.size);
      for (const [k, x] of v) {
        key.write(w, k);
        value.write(w, x);
      }
    },
  };
}

function unknownMemberId(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^UNKNOWN_FIELD_(\d+)$/.exec(v);
  return m ? Number(m[1]) : undefined;
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

function compileUnion(spec: UnionSpec, where: string): ValueCodec {
  const ids = spec.members.map((m) => m.id);
  const members = spec.members.map((m) => ({ id: m.id, name: m.name, codec: compileStruct(m.struct) }));
  const byName = new Map(members.map((m) => [m.name, m]));
  return {
    wire: CT.STRUCT,
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
    write: (w, v) => {
      if (typeof v !== 'object' || v === null) throw invalid(where, `(union ${spec.name}) cannot hold ${show(v)}`);
      const type = (v as { type?: unknown }).type;
      const m = typeof type === 'string' ? byName.get(type) : undefined;
      if (m !== undefined) {
        writeFieldHeader(w, CT.STRUCT, m.id, 0);
        m.codec.encode(w, v as Record<string, unknown>);
      } else {
        const id = unknownMemberId(type);
        if (id === undefined) throw invalid(where, `(union ${spec.name}) has no member ${show(type)}`);
        if (id !== 0) {
          // an unknown member is written back as an empty struct; UNKNOWN_FIELD_0 as an empty union
          writeFieldHeader(w, CT.STRUCT, id, 0);
          w.u8(0);
        }
      }
      w.u8(0);
    },
  };
}

function compileUnitUnion(spec: UnitUnionSpec, where: string): ValueCodec {
  const ids = spec.members.map((m) => m.id);
  const byName = new Map(spec.members.map((m) => [m.name, m.id]));
  return {
    wire: CT.STRUCT,
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
    write: (w, v) => {
      const id = typeof v === 'string' ? (byName.get(v) ?? unknownMemberId(v)) : undefined;
      if (id === undefined) throw invalid(where, `(union ${spec.name}) has no member ${show(v)}`);
      if (id !== 0) {
        writeFieldHeader(w, CT.STRUCT, id, 0);
        w.u8(0);
      }
      w.u8(0);
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
  readonly isBool: boolean;
  readonly accept: number;
  readonly read: Reader;
  readonly write: Writer;
  readonly wire: number;
}

interface WrongField {
  readonly id: number;
  readonly type: number;
  readonly at: number;
}
const NO_WRONG: WrongField = { id: -1, type: -1, at: -1 };

const compiled = new WeakMap<StructSpec, StructCodec<never>>();

/**
 * The call of a struct's `decode` from which its generated decoder serves;
 * the calls before go through the closures. Generating and compiling a decoder costs more than decoding a
 * struct a few times: a small file's footer, decoded once, took 1 ms
 * through the closures and 8-10 ms with generation (a loaded machine), most
 * of a footer-only read's own work; a 5 MB footer took as long either way.
 * Page headers, decoded thousands of times, reach the generated code at once.
 */
const GENERATE_AFTER = 4;

/** Compiles (once, memoized) the codec of a struct table. */
export function compileStruct<T = Record<string, unknown>>(spec: StructSpec): StructCodec<T> {
  const hit = compiled.get(spec);
  if (hit) return hit as unknown as StructCodec<T>;

  const fields: CompiledField[] = [];
  let calls = 0;
  // Filled in after registration so that (indirectly) self-referencing tables terminate.
  const decodeWithClosures = (c: ByteCursor, depth = 0): Record<string, unknown> => {
    const obj: Record<string, unknown> = {};
    decodeInto(c, depth, obj);
    return obj;
  };
  const codec: StructCodec<Record<string, unknown>> = {
    spec,
    decode: (c, depth = 0) => {
      if (++calls < GENERATE_AFTER) return decodeWithClosures(c, depth);
      // Called first: it replaces itself with the generated decoder, which decode then becomes.
      const v = codec.decodeGenerated(c, depth);
      codec.decode = codec.decodeGenerated;
      return v;
    },
    // The first call generates the fast decoder (if allowed) and replaces itself with it.
    decodeGenerated: (c, depth = 0) => {
      const gen = generateDecoder(spec);
      codec.decodeGenerated = gen ? (gen as StructCodec<Record<string, unknown>>['decode']) : decodeWithClosures;
      return codec.decodeGenerated(c, depth);
    },
    decodeWithClosures,
    decodeInto: (c, depth, obj) => decodeInto(c, depth, obj),
    encode: (w, obj) => encode(w, obj),
  };
  compiled.set(spec, codec as unknown as StructCodec<never>);

  let requiredMask = 0;
  let nextBit = 0;
  for (const f of spec.fields) {
    const vc = compileValue(f.type, `${spec.name}.${f.thriftName}`);
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
      isBool: f.type.kind === 'bool',
      accept: vc.accept,
      read: vc.read,
      write: vc.write,
      wire: vc.wire,
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

  function encode(w: ByteWriter, obj: Record<string, unknown>): void {
    let last = 0;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      let v = obj[f.key];
      if (v === undefined || v === null) {
        if (!f.required) continue;
        if (f.missingDefault === undefined) throw invalid(`${name}.${f.thriftName}`, 'is required but missing');
        v = f.missingDefault;
      }
      if (f.isBool) {
        if (typeof v !== 'boolean') throw invalid(`${name}.${f.thriftName}`, `(bool) cannot hold ${show(v)}`);
        writeFieldHeader(w, v ? CT.BOOLEAN_TRUE : CT.BOOLEAN_FALSE, f.id, last);
      } else {
        writeFieldHeader(w, f.wire, f.id, last);
        f.write(w, v);
      }
      last = f.id;
    }
    w.u8(0);
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

/** Encodes one struct (its fields and the stop byte). */
export function encodeStruct<T>(codec: StructCodec<T>, value: T, w: ByteWriter): void {
  if (typeof value !== 'object' || value === null) throw invalid(codec.spec.name, `cannot be ${show(value)}`);
  codec.encode(w, value);
}
