/**
 * The footer's FileMetaData as plain JSON, in parquet.thrift's own terms,
 * so it can be compared with what any Thrift-based tool decodes:
 * - keys are the thrift field names (`row_groups`, `total_compressed_size`);
 *   absent optional fields are absent;
 * - i64 is a decimal string (JSON numbers lose integers past 2^53), other
 *   integers and doubles are numbers, bool is a boolean, string a string;
 * - binary is a lowercase hex string (statistics bounds, key metadata);
 * - an enum is its member name (`UNKNOWN_<n>` for a number the format does
 *   not name);
 * - a union is an object with one key, the member's name, holding the
 *   member struct (`{"TYPE_ORDER": {}}`, `{"TIMESTAMP": {"isAdjustedToUTC":
 *   true, "unit": {"MICROS": {}}}}`);
 * - a field the tables do not know (a newer writer's) is `"field_<id>"`
 *   (unknown-fields.ts), when the footer's bytes are at hand.
 */
import { hex } from '../../schema/convert.js';
import type { Spec, StructSpec } from '../thrift/spec.js';
import * as tables from '../metadata/tables.js';
import { ByteCursor } from '../../bytes/cursor.js';
import { decodeFileCryptoMetaData, type FileMetaData } from '../metadata/index.js';
import type { Footer } from '../footer.js';
import { addUnknownFields, type JsonValue } from './unknown-fields.js';


/** A decoded Thrift value of `spec` as JSON (see the module comment for the form). */
export function thriftJson(spec: Spec, v: unknown): JsonValue {
  switch (spec.kind) {
    case 'bool': return Boolean(v);
    case 'i8':
    case 'i16':
    case 'i32':
    case 'double': return v as number;
    case 'i64':
    case 'i64big': return String(v);
    case 'string': return v as string;
    case 'binary':
    case 'uuid': return hex(v as Uint8Array);
    case 'enum': return v as string;
    case 'list': return (v as unknown[]).map((e) => thriftJson(spec.elem, e));
    case 'map': return [...(v as Map<unknown, unknown>)].map(([k, x]) => ({ key: thriftJson(spec.key, k), value: thriftJson(spec.value, x) }));
    case 'struct': return structJson(spec, v as Record<string, unknown>);
    case 'union': {
      const { type, ...fields } = v as { type: string };
      const member = spec.members.find((m) => m.name === type);
      return { [type]: member ? structJson(member.struct, fields) : {} };
    }
    case 'unitUnion': return { [v as string]: {} };
  }
}

function structJson(spec: StructSpec, v: Record<string, unknown>): { [k: string]: JsonValue } {
  const out: { [k: string]: JsonValue } = {};
  for (const f of spec.fields) {
    if (v[f.key] !== undefined) out[f.thriftName] = thriftJson(f.type, v[f.key]);
  }
  return out;
}

/** The footer's FileMetaData as JSON in thrift names (see the module comment). */
export function footerJson(metadata: FileMetaData): { [k: string]: JsonValue } {
  return structJson(tables.FileMetaData, metadata as unknown as Record<string, unknown>);
}

/**
 * A footer as readFooter read it, as JSON with the fields the tables do not
 * know too. An encrypted footer is a FileCryptoMetaData (the algorithm,
 * the key metadata) and the sealed FileMetaData: the first comes first, as
 * `file_crypto_metadata`, then the FileMetaData as decrypted (its unknown
 * fields are not looked for in the sealed bytes).
 */
export function storedFooterJson(footer: Footer): { [k: string]: JsonValue } {
  const { tail, tailOffset, offset, length } = footer;
  const bytes = tail.subarray(offset - tailOffset, offset - tailOffset + length);
  if (tail[tail.length - 1] === 0x45) { // "PARE"
    const crypto = decodeFileCryptoMetaData(new ByteCursor(bytes, 0, bytes.length, offset));
    return { file_crypto_metadata: structJson(tables.FileCryptoMetaData, crypto as unknown as Record<string, unknown>), ...footerJson(footer.metadata) };
  }
  const json = footerJson(footer.metadata);
  addUnknownFields(tables.FileMetaData, bytes, offset, json);
  return json;
}
