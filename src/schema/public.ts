/**
 * The root's synchronous schema API: `field`, `defineSchema`, schema
 * inference and the `variant` helpers, declared here, in a module the
 * library itself never imports, and delegating to the modules that
 * implement them (builder.ts, infer.ts, variant-builders.ts).
 *
 * Why not re-export those: esbuild with code splitting gives an app every
 * module that the entry point it imports re-exports, if any chunk of the
 * build uses that module (evanw/esbuild#2922), and the library's lazy parts
 * (the writer, conversion, Arrow schemas, the VARIANT encoder) use these.
 * An app reading a file then loaded the schema builder, inference and the
 * VARIANT helpers, 9 kB gzipped of a 66 kB read. A module nothing imports is
 * not live, so an app that does not call these does not load what they
 * delegate to (docs/decisions/package-size.md).
 */
import { defineSchema as define, field as fieldFactories, type DefinedSchema, type Fields, type RowInputOf, type RowOf } from './builder.js';
import { inferSchemaFromCsv as inferCsv, inferSchemaFromRecords as inferRecords, type InferOptions } from './infer.js';
import { variant as variantHelpers } from './variant-builders.js';

/**
 * Field factories. Every field is OPTIONAL until `.required()`.
 *
 * ```ts
 * f.decimal(38, 10)                         // FIXED_LEN_BYTE_ARRAY(16) DECIMAL(38,10)
 * f.decimal(9, 2, { storage: 'BYTE_ARRAY' })
 * f.time('MILLIS')                          // INT32 TIME(MILLIS, utc) + TIME_MILLIS
 * f.timestamp('NANOS', { utc: false })      // INT64 TIMESTAMP(NANOS, local), no converted type
 * f.list(f.struct({ x: f.double() }).required())
 * f.map(f.string(), f.list(f.int32()))
 * ```
 */
export const field: typeof fieldFactories = fieldFactories;

/**
 * Builds a schema from field declarations. The root element is named
 * `schema` (as Arrow and parquet-java name it) unless `options.name` says
 * otherwise, and has no repetition (parquet.thrift: the root has none).
 *
 * @example
 * ```ts
 * const { elements, schema } = defineSchema({ id: field.int64().required(), tags: field.list(field.string()) });
 * schema.leaves.map((l) => l.path.join('.'));   // ['id', 'tags.list.element']
 * ```
 */
export function defineSchema<F extends Fields>(fields: F, options: { name?: string } = {}): DefinedSchema<RowOf<F>, RowInputOf<F>> {
  return define(fields, options);
}

/**
 * Infers a schema from sample records:
 *
 * - integers (safe-integer numbers, bigints within INT64) → INT64; other
 *   numbers and bigints beyond INT64 → DOUBLE; a field mixing the two → DOUBLE
 * - strings → STRING (with `textTypes`, DATE, TIMESTAMP or UUID when every
 *   sampled string reads as one); booleans → BOOLEAN; Uint8Array/ArrayBuffer → BYTE_ARRAY;
 *   Date → TIMESTAMP(MILLIS, UTC)
 * - plain objects → structs with the union of the keys seen, in first-seen order
 * - arrays → LISTs, the element type inferred over all elements of all samples
 * - a field that is only ever null or undefined (or a list only ever empty)
 *   → an optional STRING, for lack of anything better
 *
 * Every field is OPTIONAL. Conflicting types at one path (a string here, an
 * object there) throw InvalidArgumentError naming the path and both types,
 * unless an override covers that path.
 *
 * ```ts
 * inferSchemaFromRecords(rows, { overrides: { id: f.int64().required(), 'address.zip': f.string() } });
 * ```
 */
export function inferSchemaFromRecords(records: Iterable<Record<string, unknown>>, options: InferOptions = {}): DefinedSchema {
  return inferRecords(records, options);
}

/**
 * Infers a schema from CSV: per column, the narrowest type every non-empty
 * sampled cell fits, in this order:
 *
 * - BOOLEAN: `true` / `false`, any case
 * - INT64: `[+-]digits` within 64 bits, no superfluous leading zeros (`007` stays text)
 * - DOUBLE: decimal or exponent text (`1.5`, `.5`, `1e-3`), or `nan` / `inf` / `infinity`
 * - DATE: `YYYY-MM-DD`, a valid calendar date
 * - TIMESTAMP: ISO 8601 `YYYY-MM-DD[T ]HH:MM:SS[.fff…][Z|±HH:MM]` (bare dates
 *   count as midnight). Unit MICROS, or NANOS when some cell has digits finer
 *   than a microsecond. UTC-adjusted when the times carry a zone (`Z` or an
 *   offset: instants), local when none do (wall-clock readings, as DuckDB and
 *   Arrow read zone-less text); a column mixing both is STRING.
 * - STRING otherwise, and for columns with no non-empty cell at all.
 *
 * Empty cells are nulls and do not constrain the type; cells are not trimmed.
 * Every field is OPTIONAL. Overrides replace columns by name.
 */
export function inferSchemaFromCsv(header: string[], rows: Iterable<string[]>, options: InferOptions = {}): DefinedSchema {
  return inferCsv(header, rows, options);
}

/**
 * Typed variant values, for the types JavaScript has no form of its own for:
 *
 * ```ts
 * import { variant } from 'parquetry';
 * await writer.write({ payload: { n: variant.int8(5), price: variant.decimal('12.30'), day: variant.date('2024-11-07') } });
 * ```
 *
 * Each checks its value and throws InvalidArgumentError when it does not fit.
 */
export const variant: typeof variantHelpers = variantHelpers;
