/**
 * From input records to the schema and the rows the Parquet writer takes:
 * CSV cells typed column by column (as inference typed them), JSON objects
 * as they are.
 */
import { InvalidArgumentError } from '../errors.js';
import { isCsvDelimiter } from '../formats.js';
import type { AnyField, DefinedSchema } from '../schema/builder.js';
import { csvCellParser, CsvInference, inferSchemaFromCsv, inferSchemaFromRecords, RecordsInference } from '../schema/infer.js';
import type { Item } from './source.js';
import { integerBeyondInt64 } from '../schema/text-types.js';
import { ExactNumber } from '../schema/exact-number.js';
import { type LeafNode, type SchemaElementLike } from '../schema/tree.js';
import type { WarningHandler } from '../warnings.js';
import { applyOverride, defineFromNodes, parseTypeOverride, toBuilder, typeFromJson, type TypeNode } from './types.js';
import { parseJson, type JsonRecord } from './read-json.js';
import type { Cells } from './read-csv.js';
import { addTextCells, cellColumns, type CellColumn } from './csv-cells.js';
import type { BuiltColumn } from './column-builders.js';

/** How a schema is given: a schema file's fields and/or `--type` overrides. */
export interface SchemaChoice {
  fields: Array<[string, TypeNode]> | undefined;
  overrides: Array<[string, TypeNode]>;
}

/** A schema given in code: `{ id: 'int64!', tags: ['string'] }` as a schema file holds it, and `--type` texts. */
export function schemaChoiceOf(o: { schema?: Record<string, unknown>; types?: readonly string[] }): SchemaChoice {
  const fields = o.schema === undefined ? undefined : Object.entries(o.schema).map(([k, v]): [string, TypeNode] => [k, typeFromJson(v, `schema field "${k}"`)]);
  return { fields, overrides: (o.types ?? []).map(parseTypeOverride) };
}

/**
 * The text readers' options as `convert` and the record readers take them
 * in code (the CLI checks its flags by the same rules, in its own words).
 */
export function checkReadOptions(o: { delimiter?: string; sample?: number }): void {
  if (o.delimiter !== undefined && !(typeof o.delimiter === 'string' && isCsvDelimiter(o.delimiter))) {
    throw new InvalidArgumentError(`delimiter must be one character, not a quote or a line break (a tab is "\\t"); got ${JSON.stringify(o.delimiter)}`);
  }
  if (o.sample !== undefined && !(Number.isSafeInteger(o.sample) && o.sample > 0)) {
    throw new InvalidArgumentError(`sample must be a positive integer (records read to infer the schema); got ${String(o.sample)}`);
  }
}

/** The schema file with the overrides applied, or undefined when the schema is to be inferred. */
function declared(choice: SchemaChoice): Array<[string, TypeNode]> | undefined {
  if (!choice.fields) return undefined;
  let fields = choice.fields;
  for (const [path, node] of choice.overrides) fields = applyOverride(fields, path, node);
  return fields;
}

function overrideBuilders(choice: SchemaChoice): Record<string, AnyField> {
  const o: Record<string, AnyField> = Object.create(null);
  for (const [path, node] of choice.overrides) o[path] = toBuilder(node);
  return o;
}

/** Inference's advice, in the command's terms. */
function adviseType(e: unknown): never {
  if (e instanceof InvalidArgumentError) {
    throw new InvalidArgumentError(e.detail.replace(/give an override for "([^"]*)"/g, 'give its type with --type $1=TYPE'), e.context);
  }
  throw e;
}

/** Sets a property even when the name is `__proto__`. */
function setter(names: readonly string[]): (o: Record<string, unknown>, i: number, v: unknown) => void {
  if (!names.includes('__proto__')) return (o, i, v) => void (o[names[i]!] = v);
  return (o, i, v) => void Object.defineProperty(o, names[i]!, { value: v, enumerable: true, writable: true, configurable: true });
}

export interface Shaper<R> {
  /** A reason the record cannot be a row before any typing (a CSV row with the wrong number of fields), or undefined. */
  check(record: R): string | undefined;
  /** The schema, from the sampled records or the declaration. */
  schema(sample: R[]): DefinedSchema;
  /** The writer's row for a record; throws InvalidArgumentError (with a column) when it does not fit. */
  row(record: R): Record<string, unknown>;
  /** A second form of the record to try when the writer refused the first (JSON with big integers read as numbers). */
  retry(record: R): Record<string, unknown> | undefined;
  /** Records gathered as column vectors, for outputs that take columns, once the schema is settled; undefined when this shaper's rows need a row each. */
  batch?(): ColumnBatch<R> | undefined;
  /** The writer's refusal of a record, with what the column's refusals add (how to give its type). */
  advise?(problem: { why: string; column: string | undefined }): { why: string; column: string | undefined };
}

/**
 * Records gathered column by column into what the writer stores, each value
 * checked as the writer would check it, so an output takes them as they are
 * (no row object per record, no second check).
 */
export interface ColumnBatch<R> {
  /** Rows gathered since the last take. */
  readonly length: number;
  /** Columns per row. */
  readonly width: number;
  /** Adds a record's values; one that does not fit throws InvalidArgumentError (with its column) and adds nothing. */
  add(record: R): void;
  /** The gathered columns in schema order, the batch then empty. */
  take(): BuiltColumn[];
}

// ------------------------------------------------------------------ CSV

type CellReader = (cell: string) => unknown;

function cellReader(field: AnyField, leaf: LeafNode | undefined, column: string): CellReader {
  if (field.spec.node !== 'leaf' || !leaf) {
    // A struct, list or map column holds its value as JSON text (the form Parquet → CSV writes).
    return (cell) => {
      if (cell === '') return null;
      try {
        return parseJson(cell);
      } catch (e) {
        throw new InvalidArgumentError(`cannot read CSV cell as JSON (the column is a ${field.spec.node}): ${(e as Error).message}`, { column });
      }
    };
  }
  // An empty cell is null.
  return csvCellParser(leaf);
}

/** How a conversion is given its columns: the library's option and the CLI's. */
const SCHEMA_WAY = 'the schema option; --schema FILE in convert';

/**
 * `cellReader`, one for all the leaves of a type (`shared`, by type): a leaf's reader
 * depends on its type alone but for the column its refusals name, which the caller sets.
 */
function sharedReader(field: AnyField, leaf: LeafNode | undefined, column: string, shared: Map<string, CellReader>): CellReader {
  if (field.spec.node !== 'leaf' || !leaf) return cellReader(field, leaf, column);
  const key = `${leaf.kind.kind}/${leaf.physicalType}/${leaf.element.logicalType?.type ?? ''}`;
  let read = shared.get(key);
  if (read === undefined) shared.set(key, (read = cellReader(field, leaf, column)));
  return read;
}

export class CsvShaper implements Shaper<Cells> {
  private names: string[] = [];
  /**
   * Each column's reader, one per type shared by its columns (a reader and its advice a
   * column took about 250 bytes, a wide table's hundreds of MB): `row()` names the column
   * of a cell it refuses, and adds the advice.
   */
  private readers: CellReader[] = [];
  /** The columns' leaves, when every column is one (fewer when some column is a group). */
  private leaves: LeafNode[] = [];
  private set: (o: Record<string, unknown>, i: number, v: unknown) => void = () => undefined;
  /** Cells per row: the header's, the schema's, or the first row's. */
  private width = -1;

  /** Whether column i's bad cells get advice (its type was inferred from the sample): the advice is made when a cell fails. */
  private advised: (i: number) => boolean = () => false;
  /** Inference from every row (`inferFromAll`), instead of from the sample. */
  private whole: CsvInference | undefined;

  /**
   * `onWarning` hears of renamed header columns, and of what the inferred
   * schema may lose of the input; `advice` is what a cell that does not fit
   * its column's inferred type adds to its bad row (how to give the type).
   */
  constructor(private readonly choice: SchemaChoice, private readonly onWarning?: WarningHandler, private readonly advice?: (column: string) => string) {}

  /** The header row's names (empty names become c1..cN, repeats get _2, _3...); each renamed one is a warning. */
  setHeader(cells: Cells): void {
    const { names, renamed } = headerNames(cells);
    this.names = names;
    this.width = this.names.length;
    for (const message of renamed) this.onWarning?.({ code: 'RENAMED_COLUMN', message });
  }

  /**
   * Infers the columns' types from every record of `items` (a first read of
   * the input; its bad rows are the second read's to report), for `schema`
   * to use instead of the sample.
   */
  async inferFromAll(items: AsyncIterable<Array<Item<Cells>>>, header: boolean): Promise<void> {
    let n = 0;
    let width = -1;
    for await (const batch of items) {
      for (const item of batch) {
        if (item.error !== undefined) continue;
        if (!this.whole) {
          const names = header ? headerNames(item.record).names : Array.from({ length: item.record.length }, (_, i) => `c${i + 1}`);
          width = names.length;
          this.whole = new CsvInference(names, { overrides: overrideBuilders(this.choice) });
          if (header) continue;
        }
        if (item.record.length === width) this.whole.add(item.record, ++n);
      }
    }
  }

  /** The number of columns before the first record says it: with no header row, the schema file's fields; else undefined. */
  knownWidth(header: boolean): number | undefined {
    return header ? undefined : declared(this.choice)?.length;
  }

  /** No header row: names from the schema file, else c1..cN for the first row's N cells. */
  noHeader(first: Cells): void {
    const fields = declared(this.choice);
    const n = fields ? fields.length : first.length;
    this.names = fields ? fields.map(([name]) => name) : Array.from({ length: n }, (_, i) => `c${i + 1}`);
    this.width = n;
  }

  check(cells: Cells): string | undefined {
    return widthProblem(this.width, cells.length);
  }

  schema(sample: Cells[]): DefinedSchema {
    let schema: DefinedSchema;
    const fields = declared(this.choice);
    if (this.width < 0) {
      // An empty input: the schema file can still say what the (empty) file holds.
      if (!fields) throw new InvalidArgumentError(`the CSV input is empty (no header row; declare its columns to write an empty file: ${SCHEMA_WAY})`);
      this.names = fields.map(([name]) => name);
      this.width = this.names.length;
    }
    if (fields) {
      const byName = new Map(fields);
      const missing = fields.map(([n]) => n).filter((n) => !this.names.includes(n));
      const extra = this.names.filter((n) => !byName.has(n));
      if (missing.length || extra.length) {
        const parts = [];
        if (missing.length) parts.push(`the schema names ${missing.map((n) => JSON.stringify(n)).join(', ')}, not in the CSV header`);
        if (extra.length) parts.push(`the CSV has ${extra.map((n) => JSON.stringify(n)).join(', ')}, not in the schema`);
        throw new InvalidArgumentError(`the schema does not match the CSV columns: ${parts.join('; ')}`);
      }
      // Columns in the CSV's order.
      schema = defineFromNodes(this.names.map((n) => [n, byName.get(n)!]));
    } else {
      const overrides = overrideBuilders(this.choice);
      try {
        schema = this.whole ? this.whole.schema() : inferSchemaFromCsv(this.names, sample, { overrides });
      } catch (e) {
        adviseType(e);
      }
      this.warnWideIntegers(schema, sample, overrides);
    }
    const leaves = new Map<string, LeafNode>();
    for (const leaf of schema.schema.leaves) if (leaf.path.length === 1) leaves.set(leaf.path[0]!, leaf);
    // A cell that does not fit a type inferred from the sample says how to give the type.
    const overridden = new Set(this.choice.overrides.map(([path]) => path));
    const inferred = !fields && !this.whole && this.advice !== undefined;
    this.advised = (i) => inferred && !overridden.has(this.names[i]!);
    const shared = new Map<string, CellReader>();
    this.readers = schema.fields.map(([name, fb]) => sharedReader(fb, leaves.get(name), name, shared));
    this.leaves = schema.fields.flatMap(([name, fb]) => (fb.spec.node === 'leaf' && leaves.has(name) ? [leaves.get(name)!] : []));
    this.set = setter(this.names);
    return schema;
  }

  /**
   * An inferred DOUBLE column with integer text beyond INT64 keeps only 15
   * to 17 significant digits of it: said, since the input looked exact.
   */
  private warnWideIntegers(schema: DefinedSchema, sample: Cells[], overrides: Record<string, AnyField> | undefined): void {
    const doubles = new Set(schema.schema.leaves.filter((l) => l.path.length === 1 && l.physicalType === 'DOUBLE').map((l) => l.path[0]!));
    this.names.forEach((name, i) => {
      if (!doubles.has(name) || overrides?.[name] !== undefined) return;
      const wide = sample.map((cells) => cells[i]).find((c) => c !== undefined && integerBeyondInt64(c));
      if (wide !== undefined) {
        this.onWarning?.({ code: 'WIDE_INTEGER', column: name, message: `column "${name}" has integers beyond 64 bits (${wide}): it is written as DOUBLE, which keeps 15 to 17 digits (--type '${name}=decimal(38,0)' or '${name}=string' keeps them all)` });
      }
    });
  }

  row(cells: Cells): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    const readers = this.readers;
    let i = 0;
    try {
      for (; i < readers.length; i++) this.set(o, i, readers[i]!(cells[i]!));
    } catch (e) {
      if (!(e instanceof InvalidArgumentError)) throw e;
      const advice = this.adviceOf(i);
      throw new InvalidArgumentError(advice === undefined ? e.detail : `${e.detail} (${advice})`, { ...e.context, column: this.names[i]! });
    }
    return o;
  }

  /** What column i's bad cells add (how to give its type), if anything. */
  private adviceOf(i: number): string | undefined {
    return this.advised(i) ? this.advice!(this.names[i]!) : undefined;
  }

  /** Every column's advice (a batch's few thousand columns at most). */
  private advices(): Array<string | undefined> {
    return this.names.map((_, i) => this.adviceOf(i));
  }

  retry(): undefined {
    return undefined;
  }

  batch(): CsvColumnBatch | undefined {
    // Past BATCH_MAX_COLUMNS the batch's fixed cost per column (a cell parser and a builder) outweighs
    // what it saves per row: 50,000 columns needed 200 MiB of heap where rows need 160 (test/convert/wide-tables.test.ts).
    if (this.leaves.length !== this.names.length || this.names.length > BATCH_MAX_COLUMNS) return undefined;
    return new CsvColumnBatch(this.leaves, this.advices());
  }

  /** What another thread needs to read cells into the same column batches (none when rows need a row each). */
  replica(schema: DefinedSchema): CsvBatchReplica | undefined {
    if (this.leaves.length !== this.names.length || this.names.length > BATCH_MAX_COLUMNS) return undefined;
    return { names: this.names, elements: schema.elements, advices: this.advices() };
  }
}

/** A CSV shaper's column batch, as plain data a worker thread is given (`replicaBatch`). */
export interface CsvBatchReplica {
  names: string[];
  elements: SchemaElementLike[];
  advices: Array<string | undefined>;
}

/** Why a record of `n` cells is a bad row where rows have `width`, or undefined. */
export function widthProblem(width: number, n: number): string | undefined {
  return n === width ? undefined : `expected ${width} field${width === 1 ? '' : 's'}, got ${n}`;
}

/** A header row's column names (empty names become c1..cN, repeats get _2, _3...), and what was renamed. */
function headerNames(cells: Cells): { names: string[]; renamed: string[] } {
  const seen = new Set<string>();
  const renamed: string[] = [];
  const names = cells.map((c, i) => {
    let name = c === '' ? `c${i + 1}` : c;
    if (seen.has(name)) {
      let k = 2;
      while (seen.has(`${name}_${k}`)) k++;
      name = `${name}_${k}`;
      renamed.push(`header column ${i + 1} repeats the name "${c}": it is named "${name}"`);
    } else if (c === '') renamed.push(`header column ${i + 1} has no name: it is named "${name}"`);
    seen.add(name);
    return name;
  });
  return { names, renamed };
}

const BATCH_MAX_COLUMNS = 4096;

/** CSV records into built columns (csv-cells.ts): each cell parsed once, into what the writer stores. */
export class CsvColumnBatch implements ColumnBatch<Cells> {
  private readonly columns: CellColumn[];

  constructor(leaves: readonly LeafNode[], advices: ReadonlyArray<string | undefined>) {
    this.columns = cellColumns(leaves, advices);
  }

  get length(): number {
    return this.columns[0]?.builder.rows ?? 0;
  }

  get width(): number {
    return this.columns.length;
  }

  add(cells: Cells): void {
    addTextCells(this.columns, cells);
  }

  take(): BuiltColumn[] {
    return this.columns.map((c) => c.builder.take());
  }
}

// ------------------------------------------------------------------ JSON

const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A scalar of the wrong JSON type, converted when the conversion is exact; anything else as it is. */
function looseLeaf(spec: Extract<AnyField['spec'], { node: 'leaf' }>, v: unknown): unknown {
  const logical = spec.logicalType?.type;
  const text = logical === 'STRING' || logical === 'ENUM' || logical === 'JSON' || spec.convertedType === 'UTF8' || spec.convertedType === 'ENUM';
  if (text) return typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || v instanceof ExactNumber ? String(v) : v;
  if (logical !== undefined && logical !== 'INTEGER') return v; // dates, times, timestamps, decimals take text and numbers as they are
  switch (spec.type) {
    case 'INT32':
    case 'INT64':
      return typeof v === 'string' && INTEGER_TEXT.test(v) ? BigInt(v) : v;
    case 'FLOAT':
    case 'DOUBLE':
      if (typeof v === 'bigint') return Number(v);
      return typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : v;
    case 'BOOLEAN':
      return v === 'true' ? true : v === 'false' ? false : v;
    default:
      return v;
  }
}

function loose(field: AnyField, v: unknown): unknown {
  if (v === null || v === undefined) return v;
  const spec = field.spec;
  switch (spec.node) {
    case 'leaf':
      return looseLeaf(spec, v);
    case 'struct':
      return typeof v === 'object' && !Array.isArray(v) ? looseObject(spec.fields, v as JsonRecord) : v;
    case 'list':
      return Array.isArray(v) ? v.map((x) => loose(spec.element, x)) : v;
    case 'map':
      return Array.isArray(v) ? v.map((e) => (typeof e === 'object' && e !== null ? { ...e, key: loose(spec.key, (e as JsonRecord).key), value: loose(spec.value, (e as JsonRecord).value) } : e)) : v;
    case 'variant':
      return v; // a variant takes any value as it is
  }
}

function looseObject(fields: ReadonlyArray<readonly [string, AnyField]>, o: JsonRecord): JsonRecord {
  const out: JsonRecord = { ...o };
  for (const [name, f] of fields) {
    if (Object.prototype.hasOwnProperty.call(o, name)) out[name] = loose(f, o[name]);
  }
  return out;
}

export class JsonShaper implements Shaper<JsonRecord> {
  private known = new Set<string>();
  private warned = new Set<string>();
  private fields: ReadonlyArray<readonly [string, AnyField]> = [];
  /** Inference from every record (`inferFromAll`), instead of from the sample. */
  private whole: RecordsInference | undefined;
  /** Whether the schema was inferred from the sample (so a refusal says how to give the type). */
  private sampled = false;

  /**
   * `onWarning` hears about top-level keys the schema does not have (their
   * values are not written); `advice` is what a value that does not fit its
   * column's inferred type adds to its bad row (how to give the type).
   */
  constructor(private readonly choice: SchemaChoice, private readonly onWarning?: WarningHandler, private readonly advice?: (column: string) => string) {}

  check(): undefined {
    return undefined;
  }

  /** Infers the types from every record of `items` (a first read of the input; its bad rows are the second read's to report), for `schema` to use instead of the sample. */
  async inferFromAll(items: AsyncIterable<Array<Item<JsonRecord>>>): Promise<void> {
    const inference = new RecordsInference({ overrides: overrideBuilders(this.choice), textTypes: true });
    let n = 0;
    try {
      for await (const batch of items) for (const item of batch) if (item.error === undefined) inference.add(item.record, n++);
    } catch (e) {
      adviseType(e);
    }
    this.whole = inference;
  }

  schema(sample: JsonRecord[]): DefinedSchema {
    const fields = declared(this.choice);
    let schema: DefinedSchema;
    if (fields) schema = defineFromNodes(fields);
    else {
      const none = this.whole ? this.whole.empty : sample.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r) && Object.keys(r).length === 0);
      if (none && this.choice.overrides.length === 0) throw new InvalidArgumentError(`the JSON input has no fields to infer (no records, or records without fields; declare them: ${SCHEMA_WAY})`);
      try {
        schema = this.whole ? this.whole.schema() : inferSchemaFromRecords(sample, { overrides: overrideBuilders(this.choice), textTypes: true });
      } catch (e) {
        adviseType(e);
      }
      this.sampled = !this.whole;
    }
    this.fields = schema.fields;
    this.known = new Set(schema.fields.map(([n]) => n));
    return schema;
  }

  row(record: JsonRecord): Record<string, unknown> {
    for (const k in record) {
      if (!this.known.has(k) && !this.warned.has(k)) {
        this.warned.add(k);
        this.onWarning?.({ code: 'UNKNOWN_FIELD', column: k, message: `field "${k}" first appears after the sampled records and is not in the schema; its values are not written` });
      }
    }
    return record;
  }

  /**
   * When the writer refused a record: the record with scalars of the wrong JSON type
   * converted where that is exact (digit strings to integers, numbers to strings,
   * big integers to doubles, "true" / "false" to booleans).
   */
  retry(record: JsonRecord): Record<string, unknown> | undefined {
    return looseObject(this.fields, record);
  }

  advise(problem: { why: string; column: string | undefined }): { why: string; column: string | undefined } {
    const column = problem.column;
    if (!this.sampled || !this.advice || column === undefined) return problem;
    // `--type` names a top-level field or a path of struct fields; a list's or a map's leaf is given by its top-level field.
    const path = column.split('.');
    const named = this.fields.find(([n]) => n === path[0])?.[1].spec.node === 'struct' && !/\.(list|key_value)\./.test(`.${column}.`) ? column : path[0]!;
    if (this.choice.overrides.some(([p]) => p === named || p === path[0])) return problem;
    return { why: `${problem.why} (${this.advice(named)})`, column };
  }
}
