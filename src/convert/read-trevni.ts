/**
 * Trevni input for `parquetry convert` (a file recognised by its magic, or
 * named .trv): a Parquet schema for the file and its rows in the form the
 * Parquet writer takes, so any output can follow.
 *
 * A file with an `avro.schema` whose columns are the file's (trevni-avro's,
 * and what convert writes) is read as Avro records, and the Avro schema
 * becomes the Parquet schema:
 *
 * | Avro | Parquet |
 * | --- | --- |
 * | null | the null type (UNKNOWN), optional |
 * | boolean, int, long, float, double | BOOLEAN, INT32, INT64, FLOAT, DOUBLE |
 * | string / bytes / fixed(n) | STRING / BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY(n) |
 * | enum | ENUM (its symbol) |
 * | int date, int time-millis, long time-micros | DATE, TIME(MILLIS), TIME(MICROS) |
 * | long timestamp-{millis,micros,nanos} / local-timestamp-{…} | TIMESTAMP(unit), UTC / local |
 * | bytes or fixed decimal(p,s) | DECIMAL(p,s) |
 * | fixed(12) duration | INTERVAL |
 * | string uuid | UUID |
 * | record / array / map | struct / LIST / MAP(STRING, …) |
 * | union of null and one type | that type, optional |
 * | union of several types | a struct with one optional field per branch, named by the branch (`int`, `string`, `ns.Rec`); null when the union holds null |
 *
 * A top-level schema that is not a record is one column, `value`. A field
 * property `parquetry.name` (written by convert for Parquet names that are
 * not Avro names) gives the Parquet name back.
 *
 * Any other file is read column by column as CANONICAL.md assembles Trevni
 * rows: each root column is a field (named as stored), an array column a
 * LIST, a column with children a LIST of structs holding `$value` (unless
 * the column is null-typed) and each child under its stored name. int and
 * fixed32 are INT32, long and fixed64 INT64, the null type the null type;
 * every other field is required.
 *
 * A legal Trevni file may hold what no Parquet schema can (an empty name, a
 * child column named `$value`, two fields given one `parquetry.name`,
 * nesting deeper than Parquet's limit, a size or precision out of Parquet's
 * range): the mapping then fails with an `UnsupportedError` naming the
 * field, and only what needs the mapping fails (tables map on first use).
 */
import { defineSchema, field as f, type AnyField, type DefinedSchema, type StructSpec } from '../schema/builder.js';
import { InvalidArgumentError, UnsupportedError } from '../errors.js';
import { bigEndianSigned, formatDecimal } from '../schema/convert.js';
import { buildSchema } from '../schema/tree.js';
import type { TimeUnit } from '../schema/logical.js';
import { AVRO_SCHEMA_KEY, avroColumns, branchName, parseAvroSchema, readAvro, type AvroSchema } from '../trevni/avro.js';
import type { TrevniReader, TrevniRowsOptions } from '../trevni/reader.js';
import { KEY, metaGet, type TrevniColumn, type TrevniType } from '../trevni/types.js';
import { PARQUET_NAME } from './write-trevni.js';

/** Rows from `offset`, at most `limit`, and which top-level fields of the schema (by their Parquet names). */
export type TrevniRange = Pick<TrevniRowsOptions, 'offset' | 'limit'> & { fields?: readonly string[] };

/** A Trevni file's Parquet form: its schema, and its rows in that shape. */
export interface TrevniMapping {
  /** The Parquet schema of the rows. */
  schema: DefinedSchema;
  /** The lossless rows of a range (a table's offset and limit, passed down to the reader), holding at least the top-level `fields` (default all), reading only their columns. */
  rows(range: TrevniRange): AsyncGenerator<Record<string, unknown>>;
}

/** A failure of the schema builder while mapping `field`, as the error naming it (one already named, deeper down, passes through). */
function unmappable(field: string, e: unknown): never {
  if (!(e instanceof InvalidArgumentError)) throw e;
  throw new UnsupportedError(`the Trevni field ${JSON.stringify(field)} has no Parquet form: ${e.detail}`, field === '' ? {} : { column: field });
}

/** `build()`, the Parquet form of `field`; the builder's refusal names the field. */
function mapped<T>(field: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    unmappable(field, e);
  }
}

/** The schema of the top-level fields; a refusal names the field it is in (the root's name: two fields of one name). */
function defineMapped(fields: ReadonlyArray<readonly [string, AnyField]>, root: string): DefinedSchema {
  try {
    return defineSchema(fields, { name: root });
  } catch (e) {
    // Only on failure: each field alone, to find the one that fails (an empty name, nesting too deep).
    for (const [name, field] of fields) mapped(name, () => defineSchema([[name, field]]));
    unmappable(root, e);
  }
}

/** One Avro type as a Parquet field, and the conversion of readAvro's values. */
interface FieldMap {
  field: AnyField;
  /** Whether the field takes nulls (it is then left optional). */
  nullable: boolean;
  convert: (v: unknown) => unknown;
}

const identity = (v: unknown) => v;

function define(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function shape(m: FieldMap): AnyField {
  return m.nullable ? m.field : m.field.required();
}

const TIMESTAMPS: Record<string, [TimeUnit, boolean]> = {
  'timestamp-millis': ['MILLIS', true], 'timestamp-micros': ['MICROS', true], 'timestamp-nanos': ['NANOS', true],
  'local-timestamp-millis': ['MILLIS', false], 'local-timestamp-micros': ['MICROS', false], 'local-timestamp-nanos': ['NANOS', false],
};

const COMPLEX = new Set(['record', 'error', 'enum', 'fixed', 'array', 'map']);
const PRIMITIVE = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);

/**
 * Walks the schema JSON (for logical types and properties) beside its parsed
 * form (names resolved), giving each type's Parquet field.
 */
function avroMapper(root: string) {
  const defs = new Map<string, unknown>();

  const decimal = (raw: Record<string, unknown>): FieldMap | undefined => {
    const precision = Number(raw.precision);
    const scale = raw.scale === undefined ? 0 : Number(raw.scale);
    if (!(Number.isInteger(precision) && Number.isInteger(scale) && precision >= 1 && scale >= 0 && scale <= precision)) return undefined;
    return { field: f.decimal(precision, scale), nullable: false, convert: (v) => formatDecimal(bigEndianSigned(v as Uint8Array, 0, (v as Uint8Array).length), scale) };
  };

  /** The JSON that defines `s`: a reference by name is its definition, `{"type": {...}}` what it wraps. */
  const resolve = (raw: unknown, s: AvroSchema): unknown => {
    if (typeof raw === 'string') return 'name' in s ? defs.get(s.name) ?? {} : { type: raw };
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const t = (raw as Record<string, unknown>).type;
    if (t !== null && typeof t === 'object') return resolve(t, s);
    if (typeof t === 'string' && !COMPLEX.has(t) && !PRIMITIVE.has(t)) return resolve(t, s);
    return raw;
  };

  /** `path`: the field's, by Parquet names (none for the top-level schema, named by `root`). */
  const map = (rawIn: unknown, s: AvroSchema, path: readonly string[]): FieldMap => mapped(path.length ? path.join('.') : root, () => {
    const raw = resolve(rawIn, s);
    const o = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    if ('name' in s && COMPLEX.has(o.type as string)) defs.set(s.name, o);
    const logical = typeof o.logicalType === 'string' ? o.logicalType : undefined;
    switch (s.type) {
      case 'null':
        return { field: f.null(), nullable: true, convert: () => null };
      case 'boolean':
        return { field: f.boolean(), nullable: false, convert: identity };
      case 'int':
        if (logical === 'date') return { field: f.date(), nullable: false, convert: identity };
        if (logical === 'time-millis') return { field: f.time('MILLIS'), nullable: false, convert: identity };
        return { field: f.int32(), nullable: false, convert: identity };
      case 'long': {
        const ts = logical !== undefined ? TIMESTAMPS[logical] : undefined;
        if (ts) {
          const [unit, utc] = ts;
          return { field: f.timestamp(unit, { utc }), nullable: false, convert: identity };
        }
        if (logical === 'time-micros') return { field: f.time('MICROS'), nullable: false, convert: identity };
        return { field: f.int64(), nullable: false, convert: identity };
      }
      case 'float':
        return { field: f.float(), nullable: false, convert: identity };
      case 'double':
        return { field: f.double(), nullable: false, convert: identity };
      case 'string':
        return { field: logical === 'uuid' ? f.uuid() : f.string(), nullable: false, convert: identity };
      case 'bytes':
        return (logical === 'decimal' ? decimal(o) : undefined) ?? { field: f.binary(), nullable: false, convert: identity };
      case 'fixed': {
        if (logical === 'decimal') {
          const d = decimal(o);
          if (d) return d;
        }
        if (logical === 'duration' && s.size === 12) {
          return {
            field: f.interval(), nullable: false,
            convert: (v) => {
              const b = v as Uint8Array;
              const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
              return { months: dv.getUint32(0, true), days: dv.getUint32(4, true), millis: dv.getUint32(8, true) };
            },
          };
        }
        return { field: s.size > 0 ? f.fixed(s.size) : f.binary(), nullable: false, convert: identity };
      }
      case 'enum':
        return { field: f.enum(), nullable: false, convert: identity };
      case 'record': {
        const rawFields = Array.isArray(o.fields) ? (o.fields as Record<string, unknown>[]) : [];
        const parts = s.fields.map((fs, i) => {
          const rf = rawFields[i] ?? {};
          const name = typeof rf[PARQUET_NAME] === 'string' && rf[PARQUET_NAME] !== '' ? (rf[PARQUET_NAME] as string) : fs.name;
          return { avro: fs.name, name, m: map(rf.type, fs.type, [...path, name]) };
        });
        return {
          field: f.struct(parts.map((p) => [p.name, shape(p.m)] as const)),
          nullable: false,
          convert: (v) => {
            const r = v as Record<string, unknown>;
            const out: Record<string, unknown> = {};
            // readAvro leaves out the top-level fields a read does not select.
            for (const p of parts) if (Object.prototype.hasOwnProperty.call(r, p.avro)) define(out, p.name, p.m.convert(r[p.avro]));
            return out;
          },
        };
      }
      case 'array': {
        const items = map(o.items, s.items, path);
        return { field: f.list(shape(items)), nullable: false, convert: (v) => (v as unknown[]).map(items.convert) };
      }
      case 'map': {
        const values = map(o.values, s.values, path);
        return {
          field: f.map(f.string(), shape(values)),
          nullable: false,
          convert: (v) => Object.entries(v as Record<string, unknown>).map(([key, value]) => ({ key, value: values.convert(value) })),
        };
      }
      case 'union': {
        const raws = Array.isArray(raw) ? raw : [];
        const hasNull = s.branches.some((b) => b.type === 'null');
        const others = s.branches.map((b, i) => ({ b, raw: raws[i] })).filter((x) => x.b.type !== 'null');
        if (others.length === 0) return { field: f.null(), nullable: true, convert: () => null };
        const branches = others.map((x) => ({ name: branchName(x.b), m: map(x.raw, x.b, path) }));
        if (branches.length === 1) {
          const [{ name, m }] = branches as [(typeof branches)[0]];
          return { field: m.field, nullable: hasNull || m.nullable, convert: (v) => (v === null ? null : m.convert((v as Record<string, unknown>)[name])) };
        }
        return {
          field: f.struct(branches.map((b) => [b.name, b.m.field] as const)),
          nullable: hasNull,
          convert: (v) => {
            if (v === null) return null;
            const tagged = v as Record<string, unknown>;
            const out: Record<string, unknown> = {};
            for (const b of branches) define(out, b.name, Object.prototype.hasOwnProperty.call(tagged, b.name) ? b.m.convert(tagged[b.name]) : null);
            return out;
          },
        };
      }
    }
  });
  return map;
}

/** The file's Avro schema when its columns are the ones trevni-avro makes of it, else undefined. */
function fileAvroSchema(reader: TrevniReader): { raw: unknown; parsed: AvroSchema; name: string } | undefined {
  const bytes = metaGet(reader.metadata, AVRO_SCHEMA_KEY);
  if (!bytes) return undefined;
  try {
    const raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
    const parsed = parseAvroSchema(raw);
    for (const spec of avroColumns(parsed)) {
      const c = reader.column(spec.name);
      if (c.type !== spec.type || c.array !== spec.metadata!.some((m) => m.key === KEY.array)) return undefined;
    }
    return { raw, parsed, name: parsed.type === 'record' ? parsed.name : 'schema' };
  } catch {
    return undefined;
  }
}

const PLAIN: Record<TrevniType, () => AnyField> = {
  null: f.null, boolean: f.boolean, int: f.int32, fixed32: f.int32, long: f.int64, fixed64: f.int64,
  float: f.float, double: f.double, string: f.string, bytes: f.binary,
};

/** A column (and its children) as a Parquet field in CANONICAL.md's row shape. */
function plainField(reader: TrevniReader, c: TrevniColumn): AnyField {
  return mapped(c.name, () => {
    let element: AnyField;
    if (c.children.length) {
      const fields: Array<readonly [string, AnyField]> = [];
      if (c.type !== 'null') fields.push(['$value', PLAIN[c.type]().required()]);
      for (const k of c.children) fields.push([reader.columns[k]!.name, plainField(reader, reader.columns[k]!)]);
      element = f.struct(fields).required();
    } else element = c.type === 'null' ? f.null() : PLAIN[c.type]().required();
    return c.array ? f.list(element).required() : element;
  });
}

/** A schema without columns (defineSchema wants at least one): a file with none has no fields. */
function noFields(): DefinedSchema {
  const elements = [{ name: 'schema', numChildren: 0 }];
  return { elements, schema: buildSchema(elements), fields: [] };
}

/** The Parquet form of an open Trevni file; an `UnsupportedError` naming the field when a field has none. */
export function trevniMapping(reader: TrevniReader): TrevniMapping {
  const avro = fileAvroSchema(reader);
  // A record of no fields has no columns: it reads as a file of none (a Parquet group needs a field).
  if (avro && !(avro.parsed.type === 'record' && avro.parsed.fields.length === 0)) {
    const top = avroMapper(avro.name)(avro.raw, avro.parsed, []);
    const fields: ReadonlyArray<readonly [string, AnyField]> = avro.parsed.type === 'record'
      ? (top.field.spec as StructSpec).fields
      : [['value', shape(top)]];
    const schema = defineMapped(fields, avro.name);
    const avroFields = avro.parsed.type === 'record' ? avro.parsed.fields : undefined;
    const record = avroFields !== undefined;
    // A field's Parquet name may differ from its Avro name (parquetry.name); the fields line up by position.
    const avroName = new Map(avroFields ? fields.map(([name], i) => [name, avroFields[i]!.name]) : []);
    return {
      schema,
      rows: async function* ({ fields: selected, ...rest }) {
        const convert = top.convert;
        const options = record && selected ? { ...rest, fields: selected.map((n) => avroName.get(n)!) } : rest;
        for await (const v of readAvro(reader, { ...options, schema: avro.parsed })) yield record ? (convert(v) as Record<string, unknown>) : { value: convert(v) };
      },
    };
  }
  const schema = reader.roots.length ? defineMapped(reader.roots.map((i) => [reader.columns[i]!.name, plainField(reader, reader.columns[i]!)] as const), 'schema') : noFields();
  return { schema, rows: ({ fields: selected, ...rest }) => reader.rows(selected ? { ...rest, columns: selected } : rest) };
}
