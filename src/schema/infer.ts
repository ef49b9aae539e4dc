/**
 * Schemas inferred from sample data: JS records (as parsed from JSON, say)
 * and CSV text.
 *
 * ```ts
 * const { schema, elements } = inferSchemaFromRecords([{ id: 1, tags: ['a'] }, { id: 2, price: 9.5 }]);
 * // id: INT64, tags: LIST<STRING>, price: DOUBLE, all OPTIONAL
 * const csv = inferSchemaFromCsv(['id', 'day'], [['1', '2024-01-31'], ['2', '']]);
 * // id: INT64, day: DATE
 * ```
 *
 * Every inferred field is OPTIONAL. Overrides replace what inference would
 * choose, by top-level name or dotted path (`address.city`; a list's element
 * is `<list>.element`, so `items.element.price`); an override for a field the
 * samples never show is added at the end of its struct.
 */
import { InvalidArgumentError } from '../errors.js';
import { defineSchema, field as f, FieldBuilder, type AnyField, type DefinedSchema } from './builder.js';
import { booleanText, doubleText, INT64_MAX, INT64_MIN, JSON_TEXT_KINDS, TextColumn } from './text-types.js';
import { ExactNumber, isWholeFloat } from './exact-number.js';
import { MAX_SCHEMA_DEPTH, nestingLimitError, type LeafNode } from './tree.js';
import { geoEdges } from './logical.js';

export interface InferOptions {
  /** Fields to use instead of inferred ones, by top-level name or dotted path. */
  overrides?: Record<string, AnyField>;
  /** Look at no more than this many records (or CSV rows). Default: all. */
  limit?: number;
  /**
   * Records only: a string field whose sampled strings all read as dates,
   * timestamps or UUIDs (by the rules CSV text is read by) infers as DATE,
   * TIMESTAMP or UUID, as DuckDB's read_json infers them; otherwise STRING.
   * Default false: strings are STRING.
   */
  textTypes?: boolean;
}

// ------------------------------------------------------------------ records

type Inferred =
  | { t: 'null' }
  | { t: 'int' }
  | { t: 'double' }
  | { t: 'string'; text?: TextColumn }
  | { t: 'boolean' }
  | { t: 'binary' }
  | { t: 'timestamp' }
  | { t: 'struct'; fields: Map<string, Inferred> }
  | { t: 'list'; element: Inferred };

const NULL: Inferred = { t: 'null' };
const SCALARS: Record<string, Inferred> = {
  int: { t: 'int' }, double: { t: 'double' }, string: { t: 'string' }, boolean: { t: 'boolean' },
  binary: { t: 'binary' }, timestamp: { t: 'timestamp' },
};

const TYPE_NAMES: Record<Inferred['t'], string> = {
  null: 'null', int: 'integer', double: 'number', string: 'string', boolean: 'boolean',
  binary: 'Uint8Array', timestamp: 'Date', struct: 'object', list: 'array',
};

function isPlainObject(v: object): boolean {
  const p = Object.getPrototypeOf(v) as object | null;
  return p === null || p === Object.prototype;
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

class RecordInference {
  constructor(private readonly overrides: Map<string, AnyField>, private readonly textTypes: boolean) {}

  /**
   * The kind of `holder[key]`, its children merged into `prev` (so a struct or list's contents
   * accumulate across samples); the holder tells a whole float of JSON text from an integer.
   */
  merge(prev: Inferred, holder: object, key: string, path: string, depth: number): Inferred {
    if (this.overrides.has(path)) return prev; // not inferred at all
    const v = (holder as Record<string, unknown>)[key];
    const next = typeof v === 'number' && isWholeFloat(holder, key) ? SCALARS.double! : this.shape(v, prev, path, depth);
    if (prev.t === 'null') return next;
    if (next.t === 'null' || next === prev) return prev;
    if (prev.t === next.t) return prev; // same scalar kind
    if ((prev.t === 'int' && next.t === 'double') || (prev.t === 'double' && next.t === 'int')) return SCALARS.double!;
    throw new InvalidArgumentError(
      `field "${path}" has conflicting types in the samples: ${TYPE_NAMES[prev.t]} and ${TYPE_NAMES[next.t]} (give an override for "${path}")`,
    );
  }

  /** `depth`: the objects and arrays `v` is inside; checked before going into one, so no record is too deep for the stack. */
  private shape(v: unknown, prev: Inferred, path: string, depth: number): Inferred {
    switch (typeof v) {
      case 'undefined': return NULL;
      case 'number': return Number.isSafeInteger(v) ? SCALARS.int! : SCALARS.double!;
      // Beyond INT64 no signed integer type holds it: DOUBLE, as for CSV text.
      case 'bigint': return v >= INT64_MIN && v <= INT64_MAX ? SCALARS.int! : SCALARS.double!;
      case 'string': {
        if (!this.textTypes) return SCALARS.string!;
        // Each field keeps what its strings could all be, narrowed by each one.
        if (prev.t === 'string' && prev.text) {
          prev.text.add(v);
          return prev;
        }
        const text = new TextColumn(JSON_TEXT_KINDS);
        text.add(v);
        return { t: 'string', text };
      }
      case 'boolean': return SCALARS.boolean!;
      case 'object': {
        if (v === null) return NULL;
        if (v instanceof ExactNumber) return SCALARS.double!; // a number no double holds exactly: typed by an override to keep it
        if (v instanceof Uint8Array || v instanceof ArrayBuffer) return SCALARS.binary!;
        if (v instanceof Date) return SCALARS.timestamp!;
        if (depth >= MAX_SCHEMA_DEPTH && (Array.isArray(v) || isPlainObject(v))) throw nestingLimitError(`field "${clipPath(path)}"`);
        if (Array.isArray(v)) {
          // A list whose earlier samples gave it an element keeps accumulating into it.
          const target: Inferred = prev.t === 'list' ? prev : { t: 'list', element: NULL };
          if (target.t !== 'list') break;
          const elementPath = join(path, 'element');
          for (let i = 0; i < v.length; i++) target.element = this.merge(target.element, v, String(i), elementPath, depth + 1);
          return target;
        }
        if (isPlainObject(v)) {
          const target: Inferred = prev.t === 'struct' ? prev : { t: 'struct', fields: new Map() };
          if (target.t !== 'struct') break;
          this.mergeFields(target.fields, v as Record<string, unknown>, path, depth + 1);
          return target;
        }
        break;
      }
    }
    throw new InvalidArgumentError(`field "${path}" has a value no Parquet type is inferred from: ${describe(v)} (give an override for "${path}")`);
  }

  mergeFields(fields: Map<string, Inferred>, record: Record<string, unknown>, path: string, depth: number): void {
    for (const key of Object.keys(record)) {
      const p = join(path, key);
      fields.set(key, this.merge(fields.get(key) ?? NULL, record, key, p, depth));
    }
  }
}

/** A path hundreds of levels deep, shortened for a message. */
function clipPath(path: string): string {
  return path.length > 120 ? `${path.slice(0, 60)}…${path.slice(-59)}` : path;
}

function describe(v: unknown): string {
  if (typeof v === 'object' && v !== null) {
    const name = (Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null)?.constructor?.name;
    return `a ${name || 'non-plain'} object`;
  }
  return `${String(v)} (${typeof v})`;
}

function checkOverrides(overrides: Record<string, AnyField> | undefined): Map<string, AnyField> {
  const m = new Map<string, AnyField>();
  if (overrides === undefined) return m;
  for (const key of Object.keys(overrides)) {
    const fb = overrides[key];
    if (!(fb instanceof FieldBuilder)) throw new InvalidArgumentError(`override "${key}" is not a field declaration (use the field.* factories)`);
    if (key === '') throw new InvalidArgumentError('an override needs a field name');
    m.set(key, fb);
  }
  // An override inside another override can never apply.
  for (const key of m.keys()) {
    for (let i = key.indexOf('.'); i >= 0; i = key.indexOf('.', i + 1)) {
      if (m.has(key.slice(0, i))) throw new InvalidArgumentError(`override "${key}" is inside the overridden field "${key.slice(0, i)}"`);
    }
  }
  return m;
}

/** Inferred kinds to field declarations, overrides applied; `used` collects the override paths that found their place. */
function toField(inf: Inferred, path: string, overrides: Map<string, AnyField>, used: Set<string>): AnyField {
  const o = overrides.get(path);
  if (o !== undefined) {
    used.add(path);
    return o;
  }
  switch (inf.t) {
    case 'null': return f.string(); // nothing to go on: an optional string column
    case 'int': return f.int64();
    case 'double': return f.double();
    case 'string': return inf.text ? inf.text.field() : f.string();
    case 'boolean': return f.boolean();
    case 'binary': return f.binary();
    case 'timestamp': return f.timestamp('MILLIS', { utc: true });
    case 'list': return f.list(toField(inf.element, join(path, 'element'), overrides, used));
    case 'struct': {
      const entries = structEntries(inf.fields, path, overrides, used);
      if (entries.length === 0) {
        throw new InvalidArgumentError(`field "${path}" is only ever an empty object, and a struct needs fields (give an override for "${path}")`);
      }
      return f.struct(entries);
    }
  }
}

function structEntries(fields: Map<string, Inferred>, path: string, overrides: Map<string, AnyField>, used: Set<string>): Array<[string, AnyField]> {
  const entries: Array<[string, AnyField]> = [];
  for (const [name, inf] of fields) entries.push([name, toField(inf, join(path, name), overrides, used)]);
  // Overrides naming a direct child this struct has not seen are added at its end.
  const prefix = path === '' ? '' : path + '.';
  for (const [key, fb] of overrides) {
    if (used.has(key) || !key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    if (name.includes('.') || fields.has(name)) continue;
    entries.push([name, fb]);
    used.add(key);
  }
  return entries;
}

function finish(fields: Map<string, Inferred>, overrides: Map<string, AnyField>): DefinedSchema {
  const used = new Set<string>();
  const entries = structEntries(fields, '', overrides, used);
  for (const key of overrides.keys()) {
    if (!used.has(key)) throw new InvalidArgumentError(`override "${key}" matches no field: its parent is not a struct in the inferred schema`);
  }
  if (entries.length === 0) throw new InvalidArgumentError('no fields to infer a schema from: no records, or records without fields');
  return defineSchema(entries);
}

function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return Infinity;
  if (!(typeof limit === 'number' && limit >= 0 && (Number.isInteger(limit) || limit === Infinity))) {
    throw new InvalidArgumentError(`limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}

/** A schema inferred from sample records: the root's `inferSchemaFromRecords` (schema/public.ts documents the rules). */
export function inferSchemaFromRecords(records: Iterable<Record<string, unknown>>, options: InferOptions = {}): DefinedSchema {
  const limit = checkLimit(options.limit);
  const inference = new RecordsInference(options);
  let n = 0;
  for (const record of records) {
    if (n >= limit) break;
    inference.add(record, n++);
  }
  return inference.schema();
}

/**
 * Record inference a record at a time (`inferSchemaFromRecords` over
 * records that come as they are read, such as every record of an input).
 */
export class RecordsInference {
  private readonly overrides: Map<string, AnyField>;
  private readonly inference: RecordInference;
  private readonly fields = new Map<string, Inferred>();

  constructor(options: InferOptions = {}) {
    this.overrides = checkOverrides(options.overrides);
    this.inference = new RecordInference(this.overrides, options.textTypes === true);
  }

  /** A record (`n`: its number, for the message when it is not a plain object). */
  add(record: Record<string, unknown>, n: number): void {
    if (typeof record !== 'object' || record === null || Array.isArray(record) || !isPlainObject(record)) {
      throw new InvalidArgumentError(`record ${n} is not a plain object: ${describe(record)}`);
    }
    this.inference.mergeFields(this.fields, record, '', 1);
  }

  /** No field in the records added so far (none added, or each `{}`). */
  get empty(): boolean {
    return this.fields.size === 0;
  }

  /** The schema of the records added so far. */
  schema(): DefinedSchema {
    return finish(this.fields, this.overrides);
  }
}

// ------------------------------------------------------------------ CSV

/** Integer text a declared integer column takes: leading zeros allowed. */
const LENIENT_INT_TEXT = /^[+-]?[0-9]+$/;

/** A schema inferred from CSV rows: the root's `inferSchemaFromCsv` (schema/public.ts documents the rules). Use `csvCellParser` to turn the cells into values the same way. */
export function inferSchemaFromCsv(header: string[], rows: Iterable<string[]>, options: InferOptions = {}): DefinedSchema {
  const inference = new CsvInference(header, options);
  const limit = checkLimit(options.limit);
  let n = 0;
  for (const row of rows) {
    if (n >= limit) break;
    inference.add(row, n + 1);
    n++;
  }
  return inference.schema();
}

/**
 * CSV inference a row at a time (`inferSchemaFromCsv` over rows that come
 * as they are read): each column's `TextColumn`, overridden ones aside.
 */
export class CsvInference {
  private readonly overrides: Map<string, AnyField>;
  private readonly columns: Array<TextColumn | undefined>;

  constructor(private readonly header: string[], options: InferOptions = {}) {
    this.overrides = checkOverrides(options.overrides);
    for (const key of this.overrides.keys()) {
      if (!header.includes(key)) {
        const names = header.slice(0, 20).join(', ') + (header.length > 20 ? ', …' : '');
        throw new InvalidArgumentError(`override "${key}" matches no CSV column (the header: ${names})`);
      }
    }
    this.columns = header.map((h) => (this.overrides.has(h) ? undefined : new TextColumn()));
  }

  /** A row's cells (`n`: its number, for the message when it has more cells than the header). */
  add(row: string[], n: number): void {
    if (row.length > this.header.length) {
      throw new InvalidArgumentError(`CSV row ${n} has ${row.length} cells but the header names ${this.header.length} columns`);
    }
    for (let c = 0; c < row.length; c++) {
      const s = row[c];
      if (s === undefined || s === '') continue;
      this.columns[c]?.add(s);
    }
  }

  schema(): DefinedSchema {
    const entries: Array<[string, AnyField]> = this.header.map((name, c) => [name, this.overrides.get(name) ?? this.columns[c]!.field()]);
    if (entries.length === 0) throw new InvalidArgumentError('the CSV header names no columns');
    return defineSchema(entries);
  }
}

/** Module level, not a closure per column: a table may have 100,000 columns. */
function badCell(leaf: LeafNode, s: string, expected: string): never {
  throw new InvalidArgumentError(`cannot read CSV cell ${JSON.stringify(s.length > 60 ? s.slice(0, 59) + '…' : s)} as ${expected}`, { column: leaf.path.join('.') });
}

/** A cell parser: CSV text to a value the column's coercer accepts (src/schema/coerce.ts), null for an empty cell. */
export type CsvCellParser = (cell: string) => unknown;

/**
 * The parser of CSV cells for a column: gives, for each cell, the value to
 * hand the writer (null for an empty cell), by the rules inference uses.
 * Accepts the field declaration or the schema's leaf.
 *
 * - BOOLEAN: `true`/`false` in any case → boolean
 * - integers: decimal integer text → number (INT32 widths) or bigint (64-bit)
 * - FLOAT, DOUBLE, FLOAT16: number text (as inference reads it) → number
 * - DATE, TIME, TIMESTAMP, INT96, DECIMAL, UUID, STRING, ENUM, JSON: the text
 *   itself (the coercer parses it exactly)
 * - BYTE_ARRAY, BSON and other byte columns: the text's UTF-8 bytes
 *
 * Text that does not parse throws InvalidArgumentError naming the column.
 * INTERVAL, the null type and groups (struct, list, map) have no CSV form.
 */
export function csvCellParser(column: LeafNode | AnyField): CsvCellParser {
  let leaf: LeafNode;
  if (column instanceof FieldBuilder) {
    if (column.spec.node !== 'leaf') throw new InvalidArgumentError(`a CSV cell cannot hold a ${column.spec.node}`);
    leaf = defineSchema([['column', column]]).schema.leaves[0]!;
  } else {
    leaf = column;
  }
  const k = leaf.kind;
  switch (k.kind) {
    case 'boolean':
      return (s) => (s === '' ? null : booleanText(s) ?? badCell(leaf, s, 'a boolean (true or false)'));
    case 'int': {
      const wide = leaf.physicalType === 'INT64';
      return (s) => {
        if (s === '') return null;
        // Leading zeros are fine here: the column was declared (or overridden) as an integer.
        if (!LENIENT_INT_TEXT.test(s)) return badCell(leaf, s, 'an integer');
        // Up to 15 digits a double holds exactly: read as a number, which is quicker than BigInt(text).
        if (s.length <= 15) {
          const v = Number(s) + 0; // + 0: "-0" is 0, not -0
          return wide ? BigInt(v) : v;
        }
        const v = BigInt(s);
        return wide ? v : Number(v);
      };
    }
    case 'float':
    case 'float16':
      return (s) => (s === '' ? null : doubleText(s) ?? badCell(leaf, s, 'a number'));
    case 'bytes':
      // Geometry cells are text the coercer encodes (WKT, GeoJSON, hex WKB).
      return geoEdges(leaf.element.logicalType) ? textCell : bytesCell;
    case 'interval':
    case 'null':
      throw new InvalidArgumentError(`a CSV cell has no form for ${k.kind === 'null' ? 'the null type' : 'INTERVAL'}`, { column: leaf.path.join('.') });
    default:
      // Text the coercer parses exactly (dates, times, timestamps, decimals, UUIDs) or keeps (strings).
      return textCell;
  }
}

// One parser for every column of these kinds.
const cellEncoder = new TextEncoder();
const bytesCell: CsvCellParser = (s) => (s === '' ? null : cellEncoder.encode(s));
const textCell: CsvCellParser = (s) => (s === '' ? null : s);
