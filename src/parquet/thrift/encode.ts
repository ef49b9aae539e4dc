/**
 * Compiles the declarative tables of `spec.ts` into encoders, once per
 * struct (memoized): the writing side of codec.ts, apart so a read does not
 * load it. An encoder writes what the decoder reads back: unknown enum
 * values and union members as they were read (`UNKNOWN_<n>`,
 * `UNKNOWN_FIELD_<id>`), a required field's table default when the object
 * has none.
 */

import { InvalidArgumentError } from '../../errors.js';
import type { ByteWriter } from '../../bytes/writer.js';
import { CT } from './compact.js';
import {
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
} from './compact-write.js';
import { wireOf } from './codec.js';
import type { EnumSpec, ListSpec, MapSpec, Spec, StructSpec, UnionSpec, UnitUnionSpec } from './spec.js';

type Writer = (w: ByteWriter, v: unknown) => void;

/**
 * A struct value (count 1) or a list's elements (`count` of them) already
 * encoded, written as they are wherever the encoder takes that struct or list:
 * a writer's footer keeps its column chunks as bytes from the moment each is
 * written, not as objects until the end (a wide table's footer has one per
 * column). The caller vouches that the bytes are of the right type.
 */
export class Encoded {
  constructor(readonly bytes: Uint8Array, readonly count = 1) {}
}

/** Writes the fields of a struct and its stop byte. */
export type StructEncoder<T = Record<string, unknown>> = (w: ByteWriter, obj: T) => void;

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

type ScalarKind = 'i8' | 'i16' | 'i32' | 'i64' | 'i64big' | 'double' | 'string' | 'binary' | 'uuid';

/** The scalar kinds' writers, with the Thrift type an error names. */
const SCALARS: Record<ScalarKind, [string, Writer]> = {
  i8: ['i8', writeI8 as Writer],
  i16: ['i16', writeI16 as Writer],
  i32: ['i32', writeI32 as Writer],
  i64: ['i64', writeI64 as Writer],
  i64big: ['i64', writeI64BigInt as Writer],
  double: ['double', writeDouble as Writer],
  string: ['string', writeString as Writer],
  binary: ['binary', writeBinary as Writer],
  uuid: ['uuid', writeUuid as Writer],
};

function compileValue(spec: Spec, where: string): Writer {
  switch (spec.kind) {
    case 'bool':
      return (w, v) => {
        if (typeof v !== 'boolean') throw invalid(where, `(bool) cannot hold ${show(v)}`);
        w.u8(v ? CT.BOOLEAN_TRUE : CT.BOOLEAN_FALSE);
      };
    case 'enum':
      return compileEnum(spec, where);
    case 'list':
      return compileList(spec, where);
    case 'map':
      return compileMap(spec, where);
    case 'struct': {
      const encode = compileEncoder(spec);
      return (w, v) => {
        if (v instanceof Encoded) return w.bytes(v.bytes);
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(where, `(${spec.name}) cannot hold ${show(v)}`);
        encode(w, v as Record<string, unknown>);
      };
    }
    case 'union':
      return compileUnion(spec, where);
    case 'unitUnion':
      return compileUnitUnion(spec, where);
    default: {
      const [kind, fn] = SCALARS[spec.kind];
      return named(where, kind, fn);
    }
  }
}

function compileEnum(spec: EnumSpec, where: string): Writer {
  const byName = new Map<string, number>();
  spec.names.forEach((n, i) => {
    if (n !== undefined) byName.set(n, i);
  });
  return (w, v) => {
    let n = typeof v === 'string' ? byName.get(v) : undefined;
    if (n === undefined && typeof v === 'string') {
      const m = /^UNKNOWN_(-?\d+)$/.exec(v);
      if (m) n = Number(m[1]);
    }
    if (n === undefined || (n | 0) !== n) throw invalid(where, `(enum ${spec.name}) has no member ${show(v)}`);
    writeI32(w, n);
  };
}

function compileList(spec: ListSpec, where: string): Writer {
  const elem = compileValue(spec.elem, `${where}[]`);
  const elemWire = wireOf(spec.elem);
  return (w, v) => {
    if (v instanceof Encoded) {
      writeListHeader(w, elemWire, v.count);
      w.bytes(v.bytes);
      return;
    }
    if (!Array.isArray(v)) throw invalid(where, `(list) cannot hold ${show(v)}`);
    writeListHeader(w, elemWire, v.length);
    for (let i = 0; i < v.length; i++) elem(w, v[i]);
  };
}

function compileMap(spec: MapSpec, where: string): Writer {
  const key = compileValue(spec.key, `${where}{key}`);
  const value = compileValue(spec.value, `${where}{value}`);
  const keyWire = wireOf(spec.key);
  const valueWire = wireOf(spec.value);
  return (w, v) => {
    if (!(v instanceof Map)) throw invalid(where, `(map) cannot hold ${show(v)}`);
    writeMapHeader(w, keyWire, valueWire, v.size);
    for (const [k, x] of v) {
      key(w, k);
      value(w, x);
    }
  };
}

function unknownMemberId(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^UNKNOWN_FIELD_(\d+)$/.exec(v);
  return m ? Number(m[1]) : undefined;
}

/** Ends a union whose value is an unknown member: written back as an empty struct (UNKNOWN_FIELD_0 as an empty union). */
function writeUnknownMember(w: ByteWriter, id: number): void {
  if (id !== 0) {
    writeFieldHeader(w, CT.STRUCT, id, 0);
    w.u8(0);
  }
  w.u8(0);
}

function compileUnion(spec: UnionSpec, where: string): Writer {
  const byName = new Map(spec.members.map((m) => [m.name, { id: m.id, encode: compileEncoder(m.struct) }]));
  return (w, v) => {
    if (typeof v !== 'object' || v === null) throw invalid(where, `(union ${spec.name}) cannot hold ${show(v)}`);
    const type = (v as { type?: unknown }).type;
    const m = typeof type === 'string' ? byName.get(type) : undefined;
    if (m === undefined) {
      const id = unknownMemberId(type);
      if (id === undefined) throw invalid(where, `(union ${spec.name}) has no member ${show(type)}`);
      return writeUnknownMember(w, id);
    }
    writeFieldHeader(w, CT.STRUCT, m.id, 0);
    m.encode(w, v as Record<string, unknown>);
    w.u8(0);
  };
}

function compileUnitUnion(spec: UnitUnionSpec, where: string): Writer {
  const byName = new Map(spec.members.map((m) => [m.name, m.id]));
  return (w, v) => {
    const id = typeof v === 'string' ? (byName.get(v) ?? unknownMemberId(v)) : undefined;
    if (id === undefined) throw invalid(where, `(union ${spec.name}) has no member ${show(v)}`);
    writeUnknownMember(w, id);
  };
}

interface EncodedField {
  readonly id: number;
  readonly key: string;
  readonly where: string;
  readonly required: boolean;
  readonly missingDefault: unknown;
  readonly isBool: boolean;
  readonly wire: number;
  readonly write: Writer;
}

const compiled = new WeakMap<StructSpec, StructEncoder<never>>();

/** Compiles (once, memoized) the encoder of a struct table. */
export function compileEncoder<T = Record<string, unknown>>(spec: StructSpec): StructEncoder<T> {
  const hit = compiled.get(spec);
  if (hit) return hit as unknown as StructEncoder<T>;
  const fields: EncodedField[] = [];
  const encode = (w: ByteWriter, obj: Record<string, unknown>): void => {
    let last = 0;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      let v = obj[f.key];
      if (v === undefined || v === null) {
        if (!f.required) continue;
        if (f.missingDefault === undefined) throw invalid(f.where, 'is required but missing');
        v = f.missingDefault;
      }
      if (f.isBool) {
        if (typeof v !== 'boolean') throw invalid(f.where, `(bool) cannot hold ${show(v)}`);
        writeFieldHeader(w, v ? CT.BOOLEAN_TRUE : CT.BOOLEAN_FALSE, f.id, last);
      } else {
        writeFieldHeader(w, f.wire, f.id, last);
        f.write(w, v);
      }
      last = f.id;
    }
    w.u8(0);
  };
  // Registered before its fields are compiled, so that (indirectly) self-referencing tables terminate.
  compiled.set(spec, encode as unknown as StructEncoder<never>);
  for (const f of spec.fields) {
    const where = `${spec.name}.${f.thriftName}`;
    fields.push({
      id: f.id,
      key: f.key,
      where,
      required: f.required,
      missingDefault: f.missingDefault,
      isBool: f.type.kind === 'bool',
      wire: wireOf(f.type),
      write: compileValue(f.type, where),
    });
  }
  return encode as unknown as StructEncoder<T>;
}

/** Encodes one struct (its fields and the stop byte). */
export function encodeStruct<T>(spec: StructSpec, value: T, w: ByteWriter): void {
  if (typeof value !== 'object' || value === null) throw invalid(spec.name, `cannot be ${show(value)}`);
  compileEncoder<T>(spec)(w, value);
}
