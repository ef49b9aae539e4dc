/**
 * The columns the writer interop tests write: every type the schema builder
 * offers, and every nesting form, with nulls at every level.
 */
import { field as f, type AnyField } from '../../src/schema/builder.js';
import type { LeafNode } from '../../src/schema/tree.js';
import type { ValueEncoding } from '../../src/parquet/write/column-writer.js';

export type Fields = [string, AnyField][];

/** Every leaf type of the builder that DuckDB reads (BSON is apart: DuckDB refuses the converted type). */
export const FLAT: Fields = [
  ['bool', f.boolean()],
  ['i8', f.int8()],
  ['i16', f.int16()],
  ['i32', f.int32()],
  ['i64', f.int64()],
  ['i32a', f.integer(32)],
  ['i64a', f.integer(64)],
  ['u8', f.uint8()],
  ['u16', f.uint16()],
  ['u32', f.uint32()],
  ['u64', f.uint64()],
  ['f32', f.float()],
  ['f64', f.double()],
  ['f16', f.float16()],
  ['i96', f.int96()],
  ['bin', f.binary()],
  ['fix5', f.fixed(5)],
  ['str', f.string()],
  ['enm', f.enum()],
  ['js', f.json()],
  ['uu', f.uuid()],
  ['d4_i32', f.decimal(4, 2)],
  ['d4_i64', f.decimal(4, 2, { storage: 'INT64' })],
  ['d4_fix', f.decimal(4, 2, { storage: 'FIXED_LEN_BYTE_ARRAY' })],
  ['d4_bin', f.decimal(4, 2, { storage: 'BYTE_ARRAY' })],
  ['d9_i32', f.decimal(9, 3)],
  ['d9_i64', f.decimal(9, 3, { storage: 'INT64' })],
  ['d9_fix', f.decimal(9, 3, { storage: 'FIXED_LEN_BYTE_ARRAY' })],
  ['d9_bin', f.decimal(9, 3, { storage: 'BYTE_ARRAY' })],
  ['d18_i64', f.decimal(18, 6)],
  ['d18_fix', f.decimal(18, 6, { storage: 'FIXED_LEN_BYTE_ARRAY' })],
  ['d18_bin', f.decimal(18, 6, { storage: 'BYTE_ARRAY' })],
  ['d38_fix', f.decimal(38, 10)],
  ['d38_bin', f.decimal(38, 10, { storage: 'BYTE_ARRAY' })],
  ['dt', f.date()],
  ['tm_ms', f.time('MILLIS')],
  ['tm_us', f.time('MICROS')],
  ['tm_ns', f.time('NANOS')],
  ['tm_ms_local', f.time('MILLIS', { utc: false })],
  ['tm_us_local', f.time('MICROS', { utc: false })],
  ['tm_ns_local', f.time('NANOS', { utc: false })],
  ['ts_ms', f.timestamp('MILLIS')],
  ['ts_us', f.timestamp('MICROS')],
  ['ts_ns', f.timestamp('NANOS')],
  ['ts_ms_local', f.timestamp('MILLIS', { utc: false })],
  ['ts_us_local', f.timestamp('MICROS', { utc: false })],
  ['ts_ns_local', f.timestamp('NANOS', { utc: false })],
  ['iv', f.interval()],
  ['nul', f.null()],
  ['geom', f.geometry()],
  ['geom_crs', f.geometry('EPSG:4326')],
  ['geog', f.geography()],
  // Required leaves.
  ['req_i32', f.int32().required()],
  ['req_str', f.string().required()],
  ['req_dec', f.decimal(18, 6, { storage: 'BYTE_ARRAY' }).required()],
  ['req_bool', f.boolean().required()],
];

/** Every nesting form: struct, list, map, and their combinations, optional and required. */
export const NESTED: Fields = [
  ['st', f.struct({ a: f.int32(), b: f.string(), c: f.struct({ d: f.double() }) })],
  ['st_req', f.struct({ x: f.int64().required(), y: f.list(f.string().required()).required(), z: f.uuid() }).required()],
  ['li', f.list(f.int32())],
  ['li_req', f.list(f.int32().required()).required()],
  ['ls', f.list(f.struct({ x: f.int32(), y: f.string() }))],
  ['ls_req', f.list(f.struct({ x: f.int32().required(), t: f.timestamp('NANOS') }).required())],
  ['ll', f.list(f.list(f.int64()))],
  ['lll', f.list(f.list(f.list(f.string())))],
  ['mp', f.map(f.string(), f.int32())],
  ['mp_req', f.map(f.int64(), f.double().required()).required()],
  ['mpl', f.map(f.int32(), f.list(f.string()))],
  ['mps', f.map(f.string(), f.struct({ p: f.int32(), q: f.string() }))],
  ['mpm', f.map(f.date(), f.map(f.string(), f.boolean()))],
  ['stl', f.struct({ tags: f.list(f.string()), n: f.int32(), m: f.map(f.string(), f.decimal(9, 2)) })],
  ['lm', f.list(f.map(f.string(), f.int32()))],
  ['ldec', f.list(f.decimal(38, 10))],
  ['lts', f.list(f.timestamp('MICROS'))],
  ['lf', f.list(f.float())],
  ['lbin', f.list(f.binary().required())],
  ['lgeo', f.list(f.geography())],
  ['deep', f.struct({ l: f.list(f.struct({ m: f.map(f.string(), f.list(f.int32())) })) })],
];

/** parquetry reads these; DuckDB refuses BSON, and reads INTERVAL fields as signed 32-bit, so large ones stay here. */
export const PARQUETRY_ONLY: Fields = [
  ['bs', f.bson()],
  ['lbs', f.list(f.bson())],
  ['iv_big', f.interval()],
];

/** Value encodings a leaf's physical type allows (besides dictionary). */
export function encodingsFor(leaf: LeafNode): ValueEncoding[] {
  const t = leaf.physicalType;
  const out: ValueEncoding[] = ['PLAIN'];
  if (t === 'BOOLEAN') out.push('RLE');
  if (t === 'INT32' || t === 'INT64') out.push('DELTA_BINARY_PACKED');
  if (t === 'BYTE_ARRAY') out.push('DELTA_LENGTH_BYTE_ARRAY');
  if (t === 'BYTE_ARRAY' || t === 'FIXED_LEN_BYTE_ARRAY') out.push('DELTA_BYTE_ARRAY');
  if (t === 'FLOAT' || t === 'DOUBLE' || t === 'INT32' || t === 'INT64' || t === 'FIXED_LEN_BYTE_ARRAY') out.push('BYTE_STREAM_SPLIT');
  return out;
}
