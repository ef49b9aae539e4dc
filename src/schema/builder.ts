/**
 * A small typed builder for Parquet schemas: declare columns with `field`
 * (`f`), get the footer's SchemaElement list and the schema tree.
 *
 * ```ts
 * import { field as f, defineSchema } from 'parquetry';
 * const { elements, schema } = defineSchema({
 *   id: f.int64().required(),
 *   name: f.string(),                         // OPTIONAL unless .required()
 *   price: f.decimal(9, 2),                   // INT32 storage (precision <= 9)
 *   ts: f.timestamp('MICROS'),                // adjusted to UTC unless { utc: false }
 *   tags: f.list(f.string()),                 // 3-level LIST: tags { repeated group list { optional element } }
 *   attrs: f.map(f.string(), f.int64()),      // MAP: attrs { repeated group key_value { required key; optional value } }
 *   address: f.struct({ city: f.string(), zip: f.int32() }),
 * });
 * ```
 *
 * What a declaration writes follows what parquet-java, Arrow C++ and DuckDB
 * write for the same column: the `logicalType` and, wherever a legacy
 * converted type means the same thing, the `convertedType` too (older readers
 * know only that). There is no converted type for NANOS units, for times and
 * timestamps not adjusted to UTC (the legacy TIME_* and TIMESTAMP_* types mean
 * UTC-adjusted), for UUID, FLOAT16 or the null type. `int32()` and `int64()`
 * are the bare physical types, as Arrow and parquet-java write them;
 * `integer(bitWidth, signed)` always annotates.
 *
 * Builders are immutable: `.required()`, `.optional()` and `.fieldId()`
 * return new builders, so one declaration can be reused.
 *
 * Field order is the order of the object's keys. JavaScript puts
 * integer-like keys ("1", "2") first, and an object literal cannot hold a
 * `__proto__` key; pass an array of `[name, field]` pairs where that matters:
 * `defineSchema([['b', f.int32()], ['1', f.string()]])`.
 */
import { CorruptFileError, InvalidArgumentError } from '../errors.js';
import type { PhysicalType } from '../encodings/types.js';
import type { ConvertedType, EdgeInterpolationAlgorithm, LogicalType, SchemaElement } from '../parquet/metadata/types.js';
import type { TimeUnit } from './logical.js';
import { buildSchema, type Schema } from './tree.js';

// ------------------------------------------------------------------ specs

/** A leaf column: its physical type and annotations, exactly as they go in the SchemaElement. */
export interface LeafSpec {
  node: 'leaf';
  type: PhysicalType;
  typeLength?: number;
  logicalType?: LogicalType;
  convertedType?: ConvertedType;
  scale?: number;
  precision?: number;
}

export interface StructSpec {
  node: 'struct';
  fields: ReadonlyArray<readonly [string, AnyField]>;
}

export interface ListSpec {
  node: 'list';
  element: AnyField;
}

export interface MapSpec {
  node: 'map';
  key: AnyField;
  value: AnyField;
}

/** A VARIANT group; see `field.variant`. */
export interface VariantSpec {
  node: 'variant';
  /** The declared shape of `typed_value`, 'auto' until a sample picks one, or absent: unshredded. */
  shredded?: AnyField | 'auto';
  exactDecimals: boolean;
}

export type FieldSpec = LeafSpec | StructSpec | ListSpec | MapSpec | VariantSpec;

/**
 * One declared field. `T` is the JS value a reader gives for it, `In` what a
 * writer accepts (see src/schema/coerce.ts: the same but for a MAP, which
 * also takes a `Map`), `Req` whether it is REQUIRED; all are for the type
 * checker only (`RowOf`, `RowInputOf`), nothing at run time depends on them.
 */
export class FieldBuilder<T = unknown, Req extends boolean = boolean, In = T> {
  /** Type-level only: the value type read. */
  declare readonly __value?: T;
  /** Type-level only: the value type written. */
  declare readonly __input?: In;
  /** Type-level only: whether the field is required. */
  declare readonly __required?: Req;

  readonly spec: FieldSpec;
  readonly repetition: 'REQUIRED' | 'OPTIONAL';
  /** The SchemaElement's field_id, when set. */
  readonly id: number | undefined;

  /** Use the `field` factories instead. */
  constructor(spec: FieldSpec, repetition: 'REQUIRED' | 'OPTIONAL' = 'OPTIONAL', id?: number) {
    this.spec = spec;
    this.repetition = repetition;
    this.id = id;
  }

  /** The same field, REQUIRED (never null). */
  required(): FieldBuilder<T, true, In> {
    if (this.spec.node === 'leaf' && this.spec.logicalType?.type === 'UNKNOWN') {
      throw new InvalidArgumentError('a null-type field holds only nulls, so it cannot be required');
    }
    return new FieldBuilder<T, true, In>(this.spec, 'REQUIRED', this.id);
  }

  /** The same field, OPTIONAL (the default). */
  optional(): FieldBuilder<T, false, In> {
    return new FieldBuilder<T, false, In>(this.spec, 'OPTIONAL', this.id);
  }

  /** The same field with the SchemaElement `field_id` set (a non-negative 32-bit integer, as Iceberg uses them). */
  fieldId(id: number): FieldBuilder<T, Req, In> {
    if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff) {
      throw new InvalidArgumentError(`field id must be an integer from 0 to 2147483647, got ${String(id)}`);
    }
    return new FieldBuilder<T, Req, In>(this.spec, this.repetition, id);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyField = FieldBuilder<any, boolean, any>;

/** Fields of a struct or of the schema root: an object, or `[name, field]` pairs to fix the order. */
export type Fields = Readonly<Record<string, AnyField>> | ReadonlyArray<readonly [string, AnyField]>;

/** The JS value type a field reads as, null and undefined included unless it is required. */
export type ValueOf<B> = B extends FieldBuilder<infer T, infer R, unknown> ? (R extends true ? T : T | null | undefined) : never;

/** The JS value type a field accepts on write, null and undefined included unless it is required. */
export type InputValueOf<B> = B extends FieldBuilder<unknown, infer R, infer In> ? (R extends true ? In : In | null | undefined) : never;

type RequiredKeys<F> = { [K in keyof F]: F[K] extends FieldBuilder<unknown, true, unknown> ? K : never }[keyof F];
type OptionalKeys<F> = Exclude<keyof F, RequiredKeys<F>>;

/**
 * The row type a set of fields reads as:
 * `RowOf<{ id: FieldBuilder<bigint | number, true>; name: FieldBuilder<string, false> }>`
 * is `{ id: bigint | number; name?: string | null }`.
 * Fields given as `[name, field]` pairs give `Record<string, unknown>`.
 */
export type RowOf<F> = F extends ReadonlyArray<unknown>
  ? Record<string, unknown>
  : { [K in RequiredKeys<F>]: ValueOf<F[K]> } & { [K in OptionalKeys<F>]?: ValueOf<F[K]> };

/** The record type a set of fields accepts on write: `RowOf`, but each MAP may also be a `Map` (or, with string keys, an object). */
export type RowInputOf<F> = F extends ReadonlyArray<unknown>
  ? Record<string, unknown>
  : { [K in RequiredKeys<F>]: InputValueOf<F[K]> } & { [K in OptionalKeys<F>]?: InputValueOf<F[K]> };

// Accepted values, by kind (what src/schema/coerce.ts takes). Exported by the
// root: a row type from defineSchema names them, so a declaration file of a
// schema (`export const schema = defineSchema(...)`) must be able to.
/** An integer field's values: a number, or a bigint (INT64 reads as one by default). */
export type IntValue = number | bigint;
/** A binary field's values (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, BSON, GEOMETRY, GEOGRAPHY): bytes. */
export type BinaryValue = Uint8Array | ArrayBuffer;
/** A TIMESTAMP or INT96 field's values: a bigint or number in the unit, ISO text or a Date. */
export type TemporalValue = bigint | number | string | Date;
/** A legacy INTERVAL field's value: months, days and milliseconds. */
export interface IntervalValue {
  /** Whole months. */
  months: number;
  /** Whole days. */
  days: number;
  /** Milliseconds. */
  millis: number;
}

/** What a writer takes for a MAP of keys `K` and values `V`; see `field.map`. */
export type MapInput<K, V> = Array<{ key: K; value: V }> | Map<K, V> | (string extends K ? Record<string, V> : never);

// ------------------------------------------------------------------ factories

function leaf<T>(spec: Omit<LeafSpec, 'node'>): FieldBuilder<T, false> {
  return new FieldBuilder<T, false>({ node: 'leaf', ...spec });
}

const UNITS: readonly string[] = ['MILLIS', 'MICROS', 'NANOS'];

function checkUnit(unit: unknown, what: string): asserts unit is TimeUnit {
  if (typeof unit !== 'string' || !UNITS.includes(unit)) {
    throw new InvalidArgumentError(`${what} unit must be 'MILLIS', 'MICROS' or 'NANOS', got ${String(unit)}`);
  }
}

function intField<T>(bitWidth: 8 | 16 | 32 | 64, signed: boolean): FieldBuilder<T, false> {
  const convertedType = `${signed ? 'INT' : 'UINT'}_${bitWidth}` as ConvertedType;
  return leaf<T>({ type: bitWidth === 64 ? 'INT64' : 'INT32', convertedType, logicalType: { type: 'INTEGER', bitWidth, isSigned: signed } });
}

/** Largest decimal precision `bytes` of big-endian two's complement can hold: floor(log10(2^(8*bytes-1))). */
export function maxDecimalPrecision(bytes: number): number {
  if (bytes <= 0) return 0;
  return String(1n << BigInt(8 * bytes - 1)).length - 1;
}

/** Fewest bytes of two's complement that hold every unscaled value of a precision (as parquet-java and Arrow size FIXED_LEN_BYTE_ARRAY decimals). */
export function minDecimalBytes(precision: number): number {
  let n = 1;
  while (maxDecimalPrecision(n) < precision) n++;
  return n;
}

/** Sanity limit on DECIMAL precision (no writer goes past 76, Arrow's decimal256). */
export const MAX_DECIMAL_PRECISION = 1000;

export type DecimalStorage = 'INT32' | 'INT64' | 'FIXED_LEN_BYTE_ARRAY' | 'BYTE_ARRAY';

export interface DecimalOptions {
  /**
   * Physical storage. Default: INT32 for precision <= 9, INT64 for <= 18,
   * else FIXED_LEN_BYTE_ARRAY of the fewest bytes (parquet-java's and
   * DuckDB's choice; Arrow C++ writes FIXED_LEN_BYTE_ARRAY unless told to
   * store as integers).
   */
  storage?: DecimalStorage;
  /** Width of FIXED_LEN_BYTE_ARRAY storage; default the fewest bytes for the precision. */
  byteLength?: number;
}

function decimalField(precision: number, scale: number, options: DecimalOptions): FieldBuilder<string | number | bigint, false> {
  if (!Number.isInteger(precision) || precision < 1 || precision > MAX_DECIMAL_PRECISION) {
    throw new InvalidArgumentError(`decimal precision must be an integer from 1 to ${MAX_DECIMAL_PRECISION}, got ${String(precision)}`);
  }
  if (!Number.isInteger(scale) || scale < 0 || scale > precision) {
    throw new InvalidArgumentError(`decimal scale must be an integer from 0 to the precision (${precision}), got ${String(scale)}`);
  }
  const storage = options.storage ?? (precision <= 9 ? 'INT32' : precision <= 18 ? 'INT64' : 'FIXED_LEN_BYTE_ARRAY');
  if (options.byteLength !== undefined && storage !== 'FIXED_LEN_BYTE_ARRAY') {
    throw new InvalidArgumentError(`decimal byteLength applies to FIXED_LEN_BYTE_ARRAY storage only, not ${storage}`);
  }
  let typeLength: number | undefined;
  switch (storage) {
    case 'INT32':
    case 'INT64': {
      const max = storage === 'INT32' ? 9 : 18;
      if (precision > max) throw new InvalidArgumentError(`decimal precision ${precision} does not fit ${storage} storage (at most ${max} digits)`);
      break;
    }
    case 'FIXED_LEN_BYTE_ARRAY': {
      typeLength = options.byteLength ?? minDecimalBytes(precision);
      if (!Number.isInteger(typeLength) || typeLength < 1 || typeLength > 0x7fffffff) {
        throw new InvalidArgumentError(`decimal byteLength must be a positive integer, got ${String(options.byteLength)}`);
      }
      const max = maxDecimalPrecision(typeLength);
      if (precision > max) {
        throw new InvalidArgumentError(`decimal precision ${precision} does not fit ${typeLength} bytes (at most ${max} digits; needs ${minDecimalBytes(precision)} bytes)`);
      }
      break;
    }
    case 'BYTE_ARRAY':
      break;
    default:
      throw new InvalidArgumentError(`decimal storage must be INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY, got ${String(storage)}`);
  }
  return leaf({
    type: storage, ...(typeLength !== undefined ? { typeLength } : {}),
    convertedType: 'DECIMAL', scale, precision, logicalType: { type: 'DECIMAL', scale, precision },
  });
}

export interface VariantOptions {
  /** The shape of `typed_value`: a leaf, struct or list declaration. */
  shredded?: AnyField;
  /** 'auto': the shape is picked from a sample of the values written. */
  shred?: 'auto';
  /** Numbers that are not integers as exact decimals (their shortest text) rather than doubles. */
  exactDecimals?: boolean;
}

function variantField(options: VariantOptions): FieldBuilder<unknown, false> {
  const { shredded, shred } = options;
  if (shred !== undefined && shred !== 'auto') throw new InvalidArgumentError(`variant shred must be 'auto', got ${String(shred)}`);
  if (shred !== undefined && shredded !== undefined) throw new InvalidArgumentError("variant takes either a shredded shape or shred: 'auto', not both");
  if (shredded !== undefined) checkShreddable(shredded, 'variant shredded');
  return new FieldBuilder<unknown, false>({ node: 'variant', shredded: shred ?? shredded, exactDecimals: options.exactDecimals === true });
}

/** A shredded shape: leaves, structs and lists of them (VariantShredding.md has no maps or nested variants). */
function checkShreddable(fb: unknown, where: string): void {
  if (!(fb instanceof FieldBuilder)) throw new InvalidArgumentError(`${where} is not a field declaration (use the field.* factories)`);
  const spec = fb.spec;
  if (spec.node === 'struct') for (const [n, c] of spec.fields) checkShreddable(c, `${where}.${n}`);
  else if (spec.node === 'list') checkShreddable(spec.element, `${where}[]`);
  else if (spec.node !== 'leaf') throw new InvalidArgumentError(`${where}: a ${spec.node} cannot be shredded (leaves, structs and lists can)`);
}

/** One shredded `value` / `typed_value` pair: a required group, as the spec asks of object fields and array elements. */
function shreddedPair(fb: AnyField): AnyField {
  return field.struct({ value: field.binary(), typed_value: typedValue(fb) }).required();
}

/** The `typed_value` field for a declared shape: always optional (null when the value does not fit). */
function typedValue(fb: AnyField): AnyField {
  const spec = fb.spec;
  if (spec.node === 'struct') return field.struct(spec.fields.map(([n, c]) => [n, shreddedPair(c)] as const));
  if (spec.node === 'list') return field.list(shreddedPair(spec.element));
  return fb.optional();
}

/** The fields of a VARIANT group. */
function variantParts(spec: VariantSpec): Array<readonly [string, AnyField]> {
  const metadata = ['metadata', field.binary().required()] as const;
  if (spec.shredded === undefined || spec.shredded === 'auto') return [metadata, ['value', field.binary().required()]];
  return [metadata, ['value', field.binary()], ['typed_value', typedValue(spec.shredded)]];
}

function checkFields(fields: Fields, where: string): Array<readonly [string, AnyField]> {
  const entries: Array<readonly [string, AnyField]> = Array.isArray(fields)
    ? [...(fields as ReadonlyArray<readonly [string, AnyField]>)]
    : Object.keys(fields).map((k) => [k, (fields as Record<string, AnyField>)[k]!] as const);
  if (entries.length === 0) throw new InvalidArgumentError(`${where} has no fields; a group needs at least one`);
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!Array.isArray(entry) || entry.length !== 2) throw new InvalidArgumentError(`${where}: fields must be [name, field] pairs`);
    const [name, fb] = entry;
    if (typeof name !== 'string' || name === '') throw new InvalidArgumentError(`${where}: a field name must be a non-empty string, got ${JSON.stringify(name)}`);
    if (seen.has(name)) throw new InvalidArgumentError(`${where}: duplicate field name "${name}"`);
    seen.add(name);
    if (!(fb instanceof FieldBuilder)) throw new InvalidArgumentError(`${where}: field "${name}" is not a field declaration (use the field.* factories)`);
  }
  return entries;
}

/** The field factories, exported by the root from schema/public.ts, which documents them. */
export const field = {
  /** BOOLEAN. */
  boolean: () => leaf<boolean>({ type: 'BOOLEAN' }),
  /** Plain INT32, no annotation. */
  int32: () => leaf<IntValue>({ type: 'INT32' }),
  /** Plain INT64, no annotation. */
  int64: () => leaf<IntValue>({ type: 'INT64' }),
  /** INT32 INTEGER(8, signed) + INT_8. */
  int8: () => intField<IntValue>(8, true),
  /** INT32 INTEGER(16, signed) + INT_16. */
  int16: () => intField<IntValue>(16, true),
  /** INT32 INTEGER(8, unsigned) + UINT_8. */
  uint8: () => intField<IntValue>(8, false),
  /** INT32 INTEGER(16, unsigned) + UINT_16. */
  uint16: () => intField<IntValue>(16, false),
  /** INT32 INTEGER(32, unsigned) + UINT_32 (values up to 2^32-1). */
  uint32: () => intField<IntValue>(32, false),
  /** INT64 INTEGER(64, unsigned) + UINT_64 (values up to 2^64-1). */
  uint64: () => intField<IntValue>(64, false),
  /** INTEGER(bitWidth, signed) with its INT_n / UINT_n converted type, at any width (DuckDB annotates 32 and 64 too). */
  integer: (bitWidth: 8 | 16 | 32 | 64, signed = true) => {
    if (bitWidth !== 8 && bitWidth !== 16 && bitWidth !== 32 && bitWidth !== 64) {
      throw new InvalidArgumentError(`integer bitWidth must be 8, 16, 32 or 64, got ${String(bitWidth)}`);
    }
    return intField<IntValue>(bitWidth, Boolean(signed));
  },
  /** FLOAT: single precision; a number is rounded to it. */
  float: () => leaf<number>({ type: 'FLOAT' }),
  /** DOUBLE. */
  double: () => leaf<number>({ type: 'DOUBLE' }),
  /** IEEE half precision: FIXED_LEN_BYTE_ARRAY(2) FLOAT16. */
  float16: () => leaf<number>({ type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 2, logicalType: { type: 'FLOAT16' } }),
  /** Legacy INT96 timestamp (Impala, Spark): nanoseconds, UTC. */
  int96: () => leaf<TemporalValue>({ type: 'INT96' }),
  /** Unannotated BYTE_ARRAY. */
  binary: () => leaf<BinaryValue>({ type: 'BYTE_ARRAY' }),
  /** Unannotated FIXED_LEN_BYTE_ARRAY of `byteLength` bytes. */
  fixed: (byteLength: number) => {
    if (!Number.isInteger(byteLength) || byteLength < 1 || byteLength > 0x7fffffff) {
      throw new InvalidArgumentError(`fixed byteLength must be a positive 32-bit integer, got ${String(byteLength)}`);
    }
    return leaf<BinaryValue>({ type: 'FIXED_LEN_BYTE_ARRAY', typeLength: byteLength });
  },
  /** UTF-8 text: BYTE_ARRAY STRING + UTF8. */
  string: () => leaf<string>({ type: 'BYTE_ARRAY', logicalType: { type: 'STRING' }, convertedType: 'UTF8' }),
  /** BYTE_ARRAY ENUM + ENUM (text; the set of values is not recorded, as in every writer). */
  enum: () => leaf<string>({ type: 'BYTE_ARRAY', logicalType: { type: 'ENUM' }, convertedType: 'ENUM' }),
  /** JSON text: BYTE_ARRAY JSON + JSON. Writers take JSON text, or any other value to JSON.stringify. */
  json: () => leaf<unknown>({ type: 'BYTE_ARRAY', logicalType: { type: 'JSON' }, convertedType: 'JSON' }),
  /** BSON bytes: BYTE_ARRAY BSON + BSON. */
  bson: () => leaf<BinaryValue>({ type: 'BYTE_ARRAY', logicalType: { type: 'BSON' }, convertedType: 'BSON' }),
  /** FIXED_LEN_BYTE_ARRAY(16) UUID. */
  uuid: () => leaf<string | Uint8Array>({ type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 16, logicalType: { type: 'UUID' } }),
  /** DECIMAL(precision, scale); see DecimalOptions for the storage. */
  decimal: (precision: number, scale = 0, options: DecimalOptions = {}) => decimalField(precision, scale, options),
  /** INT32 DATE + DATE: days since 1970-01-01. */
  date: () => leaf<number | string | Date>({ type: 'INT32', logicalType: { type: 'DATE' }, convertedType: 'DATE' }),
  /**
   * TIME of day: INT32 for MILLIS, INT64 for MICROS and NANOS. `utc` (default
   * true, as Arrow and parquet-java write times) sets isAdjustedToUTC.
   */
  time: (unit: TimeUnit = 'MILLIS', options: { utc?: boolean } = {}) => {
    checkUnit(unit, 'time');
    const utc = options.utc ?? true;
    const convertedType = utc && unit !== 'NANOS' ? (`TIME_${unit}` as ConvertedType) : undefined;
    return leaf<number | bigint | string>({
      type: unit === 'MILLIS' ? 'INT32' : 'INT64', logicalType: { type: 'TIME', isAdjustedToUTC: utc, unit },
      ...(convertedType ? { convertedType } : {}),
    });
  },
  /**
   * INT64 TIMESTAMP in `unit` (default MICROS) since the epoch. `utc`
   * (default true: JS Dates are instants) sets isAdjustedToUTC; `utc: false`
   * is a local, wall-clock timestamp (Arrow's timestamp without a zone).
   */
  timestamp: (unit: TimeUnit = 'MICROS', options: { utc?: boolean } = {}) => {
    checkUnit(unit, 'timestamp');
    const utc = options.utc ?? true;
    const convertedType = utc && unit !== 'NANOS' ? (`TIMESTAMP_${unit}` as ConvertedType) : undefined;
    return leaf<TemporalValue>({
      type: 'INT64', logicalType: { type: 'TIMESTAMP', isAdjustedToUTC: utc, unit },
      ...(convertedType ? { convertedType } : {}),
    });
  },
  /** Legacy INTERVAL: FIXED_LEN_BYTE_ARRAY(12) of little-endian months, days, milliseconds (no logical type exists). */
  interval: () => leaf<IntervalValue>({ type: 'FIXED_LEN_BYTE_ARRAY', typeLength: 12, convertedType: 'INTERVAL' }),
  /** The null type (logical UNKNOWN): a column that is always null, stored as INT32 like Arrow writes it. Cannot be required. */
  null: () => leaf<null>({ type: 'INT32', logicalType: { type: 'UNKNOWN' } }),
  /** GEOMETRY (WKB in BYTE_ARRAY); `crs` absent means OGC:CRS84. */
  geometry: (crs?: string) => leaf<BinaryValue>({ type: 'BYTE_ARRAY', logicalType: crs === undefined ? { type: 'GEOMETRY' } : { type: 'GEOMETRY', crs } }),
  /** GEOGRAPHY (WKB in BYTE_ARRAY); `crs` absent means OGC:CRS84, `algorithm` absent SPHERICAL. */
  geography: (crs?: string, algorithm?: EdgeInterpolationAlgorithm) =>
    leaf<BinaryValue>({
      type: 'BYTE_ARRAY',
      logicalType: { type: 'GEOGRAPHY', ...(crs !== undefined ? { crs } : {}), ...(algorithm !== undefined ? { algorithm } : {}) },
    }),
  /**
   * VARIANT (parquet-format VariantEncoding.md): any JS value, or typed values
   * made with `variant.*` (see src/parquet/variant/encode.ts for the mapping).
   * Unshredded it is `group (VARIANT(1)) { required binary metadata; required binary value }`.
   * `shredded` declares the shape of a `typed_value` (VariantShredding.md):
   * a leaf of a type the spec allows, a struct (each field shredded in turn),
   * or a list; what does not fit goes into the optional `value`. `shred:
   * 'auto'` picks the shape from a sample of the values (writeRecords and
   * convert take one). `exactDecimals` writes numbers that are not integers
   * as the decimal of their shortest text rather than as doubles.
   */
  variant: (options: VariantOptions = {}) => variantField(options),
  /** A group of named fields. */
  struct: <F extends Fields>(fields: F) => new FieldBuilder<RowOf<F>, false, RowInputOf<F>>({ node: 'struct', fields: checkFields(fields, 'struct') }),
  /**
   * A LIST in the standard 3-level form:
   * `<name> (LIST) { repeated group list { <element repetition> element } }`.
   * The element is OPTIONAL unless declared `.required()`.
   */
  list: <E extends AnyField>(element: E) => {
    if (!(element instanceof FieldBuilder)) throw new InvalidArgumentError('list element is not a field declaration (use the field.* factories)');
    return new FieldBuilder<Array<ValueOf<E>>, false, Array<InputValueOf<E>>>({ node: 'list', element });
  },
  /**
   * A MAP: `<name> (MAP) { repeated group key_value { required key; value } }`.
   * The key is always REQUIRED (the spec demands it); the value is OPTIONAL
   * unless declared `.required()`. The reader gives an array of
   * `{ key, value }` in the file's order; a writer takes that, a `Map`, or,
   * when the key accepts strings, a plain object (its own keys, in their order).
   */
  map: <K extends AnyField, V extends AnyField>(key: K, value: V) => {
    if (!(key instanceof FieldBuilder) || !(value instanceof FieldBuilder)) {
      throw new InvalidArgumentError('map key and value must be field declarations (use the field.* factories)');
    }
    const k = key.repetition === 'REQUIRED' ? key : key.required();
    return new FieldBuilder<Array<{ key: NonNullable<ValueOf<K>>; value: ValueOf<V> }>, false, MapInput<NonNullable<InputValueOf<K>>, InputValueOf<V>>>({ node: 'map', key: k, value });
  },
};

// ------------------------------------------------------------------ schema

/**
 * What `defineSchema` returns: the footer's schema elements, the schema tree, and the fields as
 * declared; `Row` is the rows' type as read, `Input` the records' type a writer takes.
 */
export interface DefinedSchema<Row = Record<string, unknown>, Input = Row> {
  /** The footer's flattened, depth-first SchemaElement list, root first. */
  elements: SchemaElement[];
  /** The schema tree with levels computed (buildSchema of `elements`). */
  schema: Schema;
  /** The top-level fields as declared, in order. */
  fields: Array<readonly [string, AnyField]>;
  /** Type-level only: the row type read. */
  readonly __row?: Row;
  /** Type-level only: the record type written. */
  readonly __input?: Input;
}

/** Deepest nesting a declaration may have (tree.ts refuses deeper schemas). */
const MAX_ELEMENT_DEPTH = 200;

function emit(name: string, fb: AnyField, repetition: 'REQUIRED' | 'OPTIONAL' | 'REPEATED', out: SchemaElement[], depth: number): void {
  if (depth > MAX_ELEMENT_DEPTH) throw new InvalidArgumentError(`schema nests deeper than ${MAX_ELEMENT_DEPTH} levels`);
  const base: SchemaElement = { name, repetitionType: repetition };
  if (fb.id !== undefined) base.fieldId = fb.id;
  const spec = fb.spec;
  switch (spec.node) {
    case 'leaf': {
      // A literal, not a copy of base: V8 gives each spread copy a hidden class of its own (about 200 bytes a column of a wide table).
      const el: SchemaElement = fb.id === undefined ? { name, repetitionType: repetition, type: spec.type } : { name, repetitionType: repetition, fieldId: fb.id, type: spec.type };
      if (spec.typeLength !== undefined) el.typeLength = spec.typeLength;
      if (spec.convertedType !== undefined) el.convertedType = spec.convertedType;
      if (spec.scale !== undefined) el.scale = spec.scale;
      if (spec.precision !== undefined) el.precision = spec.precision;
      if (spec.logicalType !== undefined) el.logicalType = { ...spec.logicalType };
      out.push(el);
      return;
    }
    case 'struct':
      out.push({ ...base, numChildren: spec.fields.length });
      for (const [n, child] of spec.fields) emit(n, child, child.repetition, out, depth + 1);
      return;
    case 'list':
      out.push({ ...base, numChildren: 1, convertedType: 'LIST', logicalType: { type: 'LIST' } });
      out.push({ name: 'list', repetitionType: 'REPEATED', numChildren: 1 });
      emit('element', spec.element, spec.element.repetition, out, depth + 2);
      return;
    case 'map':
      out.push({ ...base, numChildren: 1, convertedType: 'MAP', logicalType: { type: 'MAP' } });
      out.push({ name: 'key_value', repetitionType: 'REPEATED', numChildren: 2 });
      emit('key', spec.key, 'REQUIRED', out, depth + 2);
      emit('value', spec.value, spec.value.repetition, out, depth + 2);
      return;
    case 'variant': {
      const parts = variantParts(spec);
      out.push({ ...base, numChildren: parts.length, logicalType: { type: 'VARIANT', specificationVersion: 1 } });
      for (const [n, child] of parts) emit(n, child, child.repetition, out, depth + 1);
      return;
    }
  }
}

/**
 * The VARIANT fields of a declaration, by the dotted path of their group
 * (lists and maps through the names `emit` gives their inner levels).
 */
export function declaredVariants(fields: ReadonlyArray<readonly [string, AnyField]>): Map<string, VariantSpec> {
  const out = new Map<string, VariantSpec>();
  const walk = (path: string, fb: AnyField): void => {
    const spec = fb.spec;
    if (spec.node === 'variant') out.set(path, spec);
    else if (spec.node === 'struct') for (const [n, c] of spec.fields) walk(`${path}.${n}`, c);
    else if (spec.node === 'list') walk(`${path}.list.element`, spec.element);
    else if (spec.node === 'map') {
      walk(`${path}.key_value.key`, spec.key);
      walk(`${path}.key_value.value`, spec.value);
    }
  };
  for (const [n, fb] of fields) walk(n, fb);
  return out;
}

/**
 * The SchemaElements of one field, depth-first (the field's own element
 * first), as they appear in a footer.
 */
export function fieldElements(name: string, fb: AnyField): SchemaElement[] {
  if (typeof name !== 'string' || name === '') throw new InvalidArgumentError('a field name must be a non-empty string');
  if (!(fb instanceof FieldBuilder)) throw new InvalidArgumentError(`field "${name}" is not a field declaration (use the field.* factories)`);
  const out: SchemaElement[] = [];
  emit(name, fb, fb.repetition, out, 1);
  return out;
}

/** What defineSchema returned, so its tree is the one built from its elements. */
const built = new WeakSet<object>();

/**
 * The row type of a schema from `defineSchema`: the type to read its files'
 * rows as. Its writer's `write()` takes these rows, and `InferInput`'s too.
 *
 * ```ts
 * const schema = defineSchema({ id: field.int64().required(), name: field.string() });
 * type Row = InferRow<typeof schema>; // { id: number | bigint; name?: string | null }
 * const reader = await openParquet<Row>('people.parquet');
 * ```
 */
export type InferRow<S> = S extends DefinedSchema<infer Row, unknown> ? Row : never;

/**
 * The record type a writer of a schema from `defineSchema` takes: `InferRow`,
 * but a MAP field may also be a `Map` (or, with string keys, a plain object).
 *
 * ```ts
 * const schema = defineSchema({ attrs: field.map(field.string(), field.int32()) });
 * const record: InferInput<typeof schema> = { attrs: new Map([['a', 1]]) };
 * ```
 */
export type InferInput<S> = S extends DefinedSchema<unknown, infer Input> ? Input : never;

/** A schema from field declarations: the root's `defineSchema` (schema/public.ts documents it). */
export function defineSchema<F extends Fields>(fields: F, options: { name?: string } = {}): DefinedSchema<RowOf<F>, RowInputOf<F>> {
  const rootName = options.name ?? 'schema';
  if (typeof rootName !== 'string' || rootName === '') throw new InvalidArgumentError('the schema root name must be a non-empty string');
  const entries = checkFields(fields, 'schema');
  const elements: SchemaElement[] = [{ name: rootName, numChildren: entries.length }];
  for (const [name, fb] of entries) emit(name, fb, fb.repetition, elements, 1);
  let schema: Schema;
  try {
    schema = buildSchema(elements);
  } catch (e) {
    // Declarations are checked above, so this is a limit (depth) rather than a bad file.
    if (e instanceof CorruptFileError) throw new InvalidArgumentError(e.detail);
    throw e;
  }
  const defined = { elements, schema, fields: entries };
  built.add(defined);
  return defined;
}

/**
 * The tree defineSchema built with `s`, undefined for anything else: a
 * writer given what defineSchema returned need not build a second tree (a
 * few hundred bytes a column, of a table of 200,000).
 */
export function definedTree(s: object): Schema | undefined {
  return built.has(s) ? (s as DefinedSchema<unknown>).schema : undefined;
}
