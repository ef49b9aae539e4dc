/**
 * Fields our tables of parquet.thrift do not name: the decoder skips them,
 * so the footer's JSON from the decoded struct would hide what a newer
 * writer added. This walks the struct's bytes beside that JSON and puts each
 * unknown field where it lies, as `"field_<id>"` (an unknown union member
 * fills its `UNKNOWN_FIELD_<id>`), its value in the wire's own terms: i64 a
 * decimal string, binary hex (the wire does not tell text from bytes), a
 * struct an object of `field_<id>` keys, a map a list of {key, value}.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { hex } from '../../schema/convert.js';
import {
  CT, MAX_DEPTH, corrupt, readBinary, readDouble, readFieldHeader, readI16, readI32, readI64BigInt, readI8, readListHeader, readMapHeader, readUuid, skipValue,
} from '../thrift/compact.js';
import type { Spec, StructSpec, UnionSpec } from '../thrift/spec.js';

/** A value of the footer's JSON form (`footer-json.ts`), the tree these fields are added to. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

type JsonObject = { [k: string]: JsonValue };

/** Adds the unknown fields of the `spec` struct encoded in `bytes` (at file offset `base`) to `json`, its JSON form. */
export function addUnknownFields(spec: StructSpec, bytes: Uint8Array, base: number, json: JsonObject): void {
  fields(spec, new ByteCursor(bytes, 0, bytes.length, base), json, 0);
}

const isObject = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A struct's (or a union's) fields: known ones walked into where they hold structs, unknown ones added. */
function fields(spec: StructSpec | UnionSpec, c: ByteCursor, json: JsonObject, depth: number): void {
  if (depth > MAX_DEPTH) throw corrupt(c, `nesting deeper than ${MAX_DEPTH}`);
  const h = { id: 0 };
  for (let last = 0; ; last = h.id) {
    const t = readFieldHeader(c, last, h);
    if (t === CT.STOP) return;
    if (spec.kind === 'union') {
      const member = spec.members.find((m) => m.id === h.id);
      const at = json[member ? member.name : `UNKNOWN_FIELD_${h.id}`];
      if (t === CT.STRUCT && isObject(at)) {
        if (member) fields(member.struct, c, at, depth + 1);
        else json[`UNKNOWN_FIELD_${h.id}`] = generic(c, t, depth + 1, false);
      } else skipValue(c, t, depth + 1);
      continue;
    }
    const f = spec.fields.find((x) => x.id === h.id);
    if (!f) json[`field_${h.id}`] = generic(c, t, depth + 1, false);
    else known(f.type, t, c, json[f.thriftName], depth + 1);
  }
}

/** A known field's value: walked into when it holds structs and its JSON is there, else skipped. */
function known(spec: Spec, t: number, c: ByteCursor, json: JsonValue | undefined, depth: number): void {
  if ((spec.kind === 'struct' || spec.kind === 'union') && t === CT.STRUCT && isObject(json)) return fields(spec, c, json, depth);
  if (spec.kind === 'list' && (t === CT.LIST || t === CT.SET) && Array.isArray(json) && (spec.elem.kind === 'struct' || spec.elem.kind === 'union')) {
    const { elemType, size } = readListHeader(c);
    for (let i = 0; i < size; i++) known(spec.elem, elemType, c, json[i], depth + 1);
    return;
  }
  skipValue(c, t, depth, false);
}

/** Any value in the wire's terms (see the module comment). */
function generic(c: ByteCursor, t: number, depth: number, inCollection: boolean): JsonValue {
  if (depth > MAX_DEPTH) throw corrupt(c, `nesting deeper than ${MAX_DEPTH}`);
  switch (t) {
    case CT.BOOLEAN_TRUE:
    case CT.BOOLEAN_FALSE:
      return inCollection ? readI8(c) === 1 : t === CT.BOOLEAN_TRUE;
    case CT.I8: return readI8(c);
    case CT.I16: return readI16(c);
    case CT.I32: return readI32(c);
    case CT.I64: return readI64BigInt(c).toString();
    case CT.DOUBLE: return readDouble(c);
    case CT.BINARY: return hex(readBinary(c));
    case CT.UUID: return hex(readUuid(c));
    case CT.LIST:
    case CT.SET: {
      const { elemType, size } = readListHeader(c);
      return Array.from({ length: size }, () => generic(c, elemType, depth + 1, true));
    }
    case CT.MAP: {
      const { keyType, valueType, size } = readMapHeader(c);
      return Array.from({ length: size }, () => ({ key: generic(c, keyType, depth + 1, true), value: generic(c, valueType, depth + 1, true) }));
    }
    case CT.STRUCT: {
      const out: JsonObject = {};
      fields({ kind: 'struct', name: '', fields: [] }, c, out, depth);
      return out;
    }
    default: throw corrupt(c, `unknown compact type ${t}`);
  }
}
