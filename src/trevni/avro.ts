/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * Avro records in Trevni files, as trevni-avro (AvroColumnWriter /
 * AvroColumnReader) shreds and reassembles them. Depth first over the
 * schema, one column per primitive, named by path:
 *
 * - record field: `parent#field` (top-level fields have no prefix);
 * - array: `path[]`: of a simple type (null, boolean, int, long, float,
 *   double, bytes, string, enum, fixed), one array column of that type; else a
 *   null-typed array column with the element's columns as children;
 * - map: null-typed array column `path>`, child `path>key` (string), the
 *   value's columns under `path>value`;
 * - union: no column for null; each other branch an array column of 0/1
 *   lengths `path/Branch` (full name for named types, else the type name),
 *   of the branch's type when simple, else null-typed with children;
 * - enum as int (the ordinal), fixed as bytes; a top-level simple schema is
 *   one column named by its (full) type name, a top-level array `[]`, map `>`.
 *
 * Columns inside an array, map or union have `trevni.parent` = the nearest
 * enclosing array column, written before `trevni.array` as trevni-avro does.
 * The schema is stored as file metadata `avro.schema`.
 *
 * In memory: records are objects, arrays arrays, maps objects, long a bigint,
 * bytes and fixed Uint8Array, enum its symbol; a union value is null or
 * tagged `{ branch: value }` as in Avro's JSON encoding (the writer also
 * takes the bare value for a union with one non-null branch).
 */
import { CorruptFileError, InvalidArgumentError, UnsupportedError } from '../errors.js';
import type { Sink } from '../io/sink.js';
import { MAX_SCHEMA_DEPTH } from '../schema/tree.js';
import { FieldNames, unknownKeyBeyond, type UnknownFieldRule } from '../shred/shred.js';
import type { ColumnRowData } from './assemble.js';
import type { TrevniReader, TrevniRowsOptions } from './reader.js';
import { KEY, metaGet, textBytes, type MetaEntry, type TrevniType, type TrevniValue } from './types.js';
import { TrevniWriter, type TrevniColumnSpec, type TrevniWriterOptions } from './writer.js';

/** An Avro schema as parsed JSON: what `AvroTrevniWriter` writes and `readAvro` reads back. */
export type AvroSchema =
  | { type: 'null' | 'boolean' | 'int' | 'long' | 'float' | 'double' | 'bytes' | 'string' }
  | { type: 'record'; name: string; fields: { name: string; type: AvroSchema }[] }
  | { type: 'enum'; name: string; symbols: string[] }
  | { type: 'fixed'; name: string; size: number }
  | { type: 'array'; items: AvroSchema }
  | { type: 'map'; values: AvroSchema }
  | { type: 'union'; branches: AvroSchema[] };

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);

export const AVRO_SCHEMA_KEY = 'avro.schema';

/**
 * Parses an Avro schema (JSON text or its parsed value); named types get
 * their full names. Recursive schemas are refused, as trevni-avro does, and
 * so is nesting deeper than a Parquet schema may go (every later walk over
 * the schema recurses).
 */
export function parseAvroSchema(input: string | unknown): AvroSchema {
  let json: unknown = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input);
    } catch (e) {
      throw new InvalidArgumentError(`the Avro schema is not JSON: ${(e as Error).message}`);
    }
  }
  const named = new Map<string, AvroSchema>();
  const inProgress = new Set<string>();
  const bad = (msg: string) => new InvalidArgumentError(`invalid Avro schema: ${msg}`);
  const fullName = (name: unknown, ns: string | undefined): string => {
    if (typeof name !== 'string' || name === '') throw bad('a named type needs a name');
    return name.includes('.') || !ns ? name : `${ns}.${name}`;
  };
  const walk = (s: unknown, ns: string | undefined, depth: number): AvroSchema => {
    if (depth > MAX_SCHEMA_DEPTH) throw bad(`it nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
    if (typeof s === 'string') {
      if (PRIMITIVES.has(s)) return { type: s } as AvroSchema;
      // As Avro's Java parser: the name in the current namespace first, then in the null namespace.
      const full = named.get(fullName(s, ns)) ?? named.get(s);
      if (full) return full;
      if (inProgress.has(s) || inProgress.has(fullName(s, ns))) throw new UnsupportedError(`recursive Avro schemas cannot be shredded into columns (${s})`);
      throw bad(`unknown type ${JSON.stringify(s)}`);
    }
    if (Array.isArray(s)) {
      const branches = s.map((b) => walk(b, ns, depth + 1));
      if (branches.some((b) => b.type === 'union')) throw bad('a union cannot hold a union');
      // Each branch is its column (named by the branch): two of one name would read one column twice.
      const names = branches.map(branchName);
      const twice = names.find((n, i) => names.indexOf(n) !== i);
      if (twice !== undefined) throw bad(`a union holds ${twice} twice`);
      return { type: 'union', branches };
    }
    if (s === null || typeof s !== 'object') throw bad(`unexpected ${JSON.stringify(s)}`);
    const o = s as Record<string, unknown>;
    const t = o.type;
    if (typeof t === 'string' && PRIMITIVES.has(t)) return { type: t } as AvroSchema;
    switch (t) {
      case 'array': return { type: 'array', items: walk(o.items, ns, depth + 1) };
      case 'map': return { type: 'map', values: walk(o.values, ns, depth + 1) };
      case 'record':
      case 'error':
      case 'enum':
      case 'fixed': {
        // An explicit "" is the null namespace (Avro spec; Java's Schema.Name), not "inherit".
        const space = typeof o.namespace === 'string' ? o.namespace : ns;
        const name = fullName(o.name, space);
        const inner = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : undefined;
        let out: AvroSchema;
        if (t === 'enum') {
          if (!Array.isArray(o.symbols) || !o.symbols.every((x) => typeof x === 'string')) throw bad(`enum ${name} needs string symbols`);
          out = { type: 'enum', name, symbols: o.symbols as string[] };
        } else if (t === 'fixed') {
          if (!Number.isInteger(o.size) || (o.size as number) < 0) throw bad(`fixed ${name} needs a size`);
          out = { type: 'fixed', name, size: o.size as number };
        } else {
          if (!Array.isArray(o.fields)) throw bad(`record ${name} needs fields`);
          inProgress.add(name);
          const seen = new Set<string>();
          const fields = o.fields.map((f: unknown) => {
            const fo = f as Record<string, unknown>;
            if (typeof fo?.name !== 'string') throw bad(`a field of ${name} has no name`);
            // A record is an object keyed by field name, and each field is its column: a second field of one name could only shadow the first.
            if (seen.has(fo.name)) throw bad(`record ${name} has two fields named ${JSON.stringify(fo.name)}`);
            seen.add(fo.name);
            return { name: fo.name, type: walk(fo.type, inner, depth + 1) };
          });
          inProgress.delete(name);
          out = { type: 'record', name, fields };
        }
        named.set(name, out);
        return out;
      }
    }
    return walk(t, ns, depth + 1);
  };
  return walk(json, undefined, 0);
}

function isSimple(s: AvroSchema): boolean {
  return PRIMITIVES.has(s.type) || s.type === 'enum' || s.type === 'fixed';
}

function trevniType(s: AvroSchema): TrevniType {
  if (s.type === 'enum') return 'int';
  if (s.type === 'fixed') return 'bytes';
  return s.type as TrevniType;
}

/** A union branch's name in column names and Avro JSON: the full name of a named type, else the type name. */
export function branchName(s: AvroSchema): string {
  return 'name' in s ? s.name : s.type;
}

function join(path: string, sep: string, name: string): string {
  return path === '' ? name : `${path}${sep}${name}`;
}

/** The Trevni columns trevni-avro makes for a schema, in order. */
export function avroColumns(schema: AvroSchema): TrevniColumnSpec[] {
  const out: TrevniColumnSpec[] = [];
  const add = (name: string, type: TrevniType, array: boolean, parent: string | undefined) => {
    const metadata: MetaEntry[] = [];
    if (parent !== undefined) metadata.push({ key: KEY.parent, value: textBytes(parent) });
    if (array) metadata.push({ key: KEY.array, value: new Uint8Array(0) });
    out.push({ name, type, metadata });
  };
  const walk = (s: AvroSchema, path: string, parent: string | undefined): void => {
    switch (s.type) {
      case 'record':
        for (const f of s.fields) walk(f.type, join(path, '#', f.name), parent);
        return;
      case 'array': {
        const name = `${path}[]`;
        if (isSimple(s.items)) add(name, trevniType(s.items), true, parent);
        else {
          add(name, 'null', true, parent);
          walk(s.items, name, name);
        }
        return;
      }
      case 'map': {
        const name = `${path}>`;
        add(name, 'null', true, parent);
        add(`${name}key`, 'string', false, name);
        walk(s.values, `${name}value`, name);
        return;
      }
      case 'union':
        for (const b of s.branches) {
          if (b.type === 'null') continue;
          const name = join(path, '/', branchName(b));
          if (isSimple(b)) add(name, trevniType(b), true, parent);
          else {
            add(name, 'null', true, parent);
            walk(b, name, name);
          }
        }
        return;
      default:
        add(path === '' ? branchName(s) : path, trevniType(s), false, parent);
    }
  };
  walk(schema, '', undefined);
  return out;
}

// ------------------------------------------------------------------ reading

/** How `readAvro` reads: the rows and Avro schema, and which of the top-level record's fields. */
export interface TrevniAvroOptions extends Pick<TrevniRowsOptions, 'offset' | 'limit'> {
  /** The schema to read with (default: the file's `avro.schema`). */
  schema?: AvroSchema | string;
  /** Fields of the top-level record to read (default all); the records hold only these, and only their columns are read. */
  fields?: readonly string[];
}

/** The record `schema` cut to `names` (in its own field order). */
function recordFields(schema: AvroSchema, names: readonly string[]): AvroSchema {
  if (schema.type !== 'record') throw new InvalidArgumentError(`fields selects fields of a record; the schema is ${schema.type}`);
  for (const n of names) {
    if (!schema.fields.some((f) => f.name === n)) throw new InvalidArgumentError(`no field ${JSON.stringify(n)} in record ${schema.name}`);
  }
  const keep = new Set(names);
  return { ...schema, fields: schema.fields.filter((f) => keep.has(f.name)) };
}

/** Reads rows of a trevni-avro file as Avro values (see the module comment for the forms). */
export async function* readAvro(reader: TrevniReader, options: TrevniAvroOptions = {}): AsyncGenerator<unknown> {
  let schema: AvroSchema;
  const given = options.schema;
  if (given !== undefined) schema = typeof given === 'string' ? parseAvroSchema(given) : given;
  else {
    const text = metaGet(reader.metadata, AVRO_SCHEMA_KEY);
    if (!text) throw new InvalidArgumentError('the file has no avro.schema metadata; pass a schema');
    schema = fromFile(reader, () => parseAvroSchema(new TextDecoder().decode(text)));
  }
  // Check every column the schema needs exists with the right shape before reading.
  const index = new Map<string, number>();
  const check = () => {
    for (const spec of avroColumns(schema)) {
      const c = reader.column(spec.name);
      const array = spec.metadata!.some((m) => m.key === KEY.array);
      if (c.type !== spec.type || c.array !== array) {
        throw new InvalidArgumentError(`column ${spec.name} is ${c.array ? 'an array of ' : ''}${c.type}, the schema needs ${array ? 'an array of ' : ''}${spec.type}`);
      }
      index.set(spec.name, c.index);
    }
  };
  if (given !== undefined) check();
  else fromFile(reader, check);
  const fields = options.fields;
  if (fields !== undefined) schema = recordFields(schema, fields);
  const needed = fields === undefined ? [...index.values()] : avroColumns(schema).map((spec) => index.get(spec.name)!);
  const roots = [...new Set(needed.map((ci) => {
    let c = reader.columns[ci]!;
    while (c.parentIndex >= 0) c = reader.columns[c.parentIndex]!;
    return c.name;
  }))];
  const rowsOptions: TrevniRowsOptions = { columns: roots };
  if (options.offset !== undefined) rowsOptions.offset = options.offset;
  if (options.limit !== undefined) rowsOptions.limit = options.limit;
  for await (const data of reader.columnData(rowsOptions)) {
    const pos = new Map<number, { v: number; l: number }>();
    const at = (name: string) => {
      const ci = index.get(name)!;
      let p = pos.get(ci);
      if (!p) pos.set(ci, (p = { v: 0, l: 0 }));
      return { d: data[ci]!, p };
    };
    const value = (name: string): TrevniValue => {
      const { d, p } = at(name);
      return d.values[p.v++]!;
    };
    const length = (name: string): number => {
      const { d, p } = at(name);
      return d.lengths![p.l++]!;
    };
    const simple = (s: AvroSchema, column: string): unknown => {
      const v = value(column);
      if (s.type === 'enum') {
        const sym = s.symbols[v as number];
        if (sym === undefined) {
          const detail = `enum ${s.name} has no symbol ${v}`;
          // With the file's own schema the ordinal contradicts the file; with the caller's, the schema does not fit.
          throw given === undefined ? new CorruptFileError(detail, { column, file: reader.source.name }) : new InvalidArgumentError(detail, { column });
        }
        return sym;
      }
      return v;
    };
    const read = (s: AvroSchema, path: string): unknown => {
      switch (s.type) {
        case 'record': {
          const o: Record<string, unknown> = {};
          for (const f of s.fields) define(o, f.name, read(f.type, join(path, '#', f.name)));
          return o;
        }
        case 'array': {
          const name = `${path}[]`;
          const n = length(name);
          const out: unknown[] = [];
          for (let i = 0; i < n; i++) out.push(isSimple(s.items) ? simple(s.items, name) : read(s.items, name));
          return out;
        }
        case 'map': {
          const name = `${path}>`;
          const n = length(name);
          const o: Record<string, unknown> = {};
          for (let i = 0; i < n; i++) {
            const k = value(`${name}key`) as string;
            define(o, k, read(s.values, `${name}value`));
          }
          return o;
        }
        case 'union': {
          let result: unknown = null;
          for (const b of s.branches) {
            if (b.type === 'null') continue;
            const name = join(path, '/', branchName(b));
            const n = length(name);
            if (n === 0) continue;
            const v = isSimple(b) ? simple(b, name) : read(b, name);
            result = { [branchName(b)]: v };
          }
          return result;
        }
        default:
          return simple(s, path === '' ? branchName(s) : path);
      }
    };
    yield read(schema, '');
  }
}

/** Runs a check of the file's own schema: what is wrong with it is wrong with the file, not with the call. */
function fromFile<T>(reader: TrevniReader, f: () => T): T {
  try {
    return f();
  } catch (e) {
    const at = () => reader.metadata.find((m) => m.key === AVRO_SCHEMA_KEY)?.offset;
    if (e instanceof InvalidArgumentError) {
      throw new CorruptFileError(`${AVRO_SCHEMA_KEY} metadata: ${e.detail}`, { ...e.context, file: reader.source.name, offset: at() }, { cause: e });
    }
    // A valid schema this reader cannot shred (a recursive one): the file is fine, but the fault is still in that value.
    if (e instanceof UnsupportedError && e.context.offset === undefined) {
      throw new UnsupportedError(`${AVRO_SCHEMA_KEY} metadata: ${e.detail}`, { ...e.context, file: reader.source.name, offset: at() });
    }
    throw e;
  }
}

function define(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/**
 * An Avro value in the corpus's JSON form (trevni-avro's dump): long as a
 * decimal string, bytes and fixed as hex, map keys sorted (Java String
 * order), NaN and infinities as strings, unions tagged.
 */
export function avroJson(schema: AvroSchema, v: unknown): unknown {
  switch (schema.type) {
    case 'null': return null;
    case 'long': return (v as bigint).toString();
    case 'float':
    case 'double': {
      const n = v as number;
      return Number.isNaN(n) ? 'NaN' : n === Infinity ? 'Infinity' : n === -Infinity ? '-Infinity' : n;
    }
    case 'bytes':
    case 'fixed': return hex(v as Uint8Array);
    case 'record': {
      const o: Record<string, unknown> = {};
      for (const f of schema.fields) define(o, f.name, avroJson(f.type, (v as Record<string, unknown>)[f.name]));
      return o;
    }
    case 'array': return (v as unknown[]).map((x) => avroJson(schema.items, x));
    case 'map': {
      const o: Record<string, unknown> = {};
      const m = v as Record<string, unknown>;
      for (const k of Object.keys(m).sort()) define(o, k, avroJson(schema.values, m[k]));
      return o;
    }
    case 'union': {
      if (v === null) return null;
      const [name, inner] = Object.entries(v as Record<string, unknown>)[0]!;
      const b = schema.branches.find((x) => branchName(x) === name)!;
      return { [name]: avroJson(b, inner) };
    }
    default: return v;
  }
}

// ------------------------------------------------------------------ writing

/** `AvroTrevniWriter`'s options: a Trevni writer's, and what to do with fields the schema lacks (the Avro schema gives the columns). */
export interface AvroTrevniWriterOptions extends TrevniWriterOptions, Pick<UnknownFieldRule, 'unknownFields'> {
  /** The schema text to store as avro.schema (default: JSON.stringify of the schema given). */
  schemaText?: string;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : (JSON.stringify(v) ?? String(v));
}

/** Writes Avro records into a Trevni file with trevni-avro's columns. */
export class AvroTrevniWriter {
  private constructor(
    readonly schema: AvroSchema,
    private readonly writer: TrevniWriter,
    private readonly index: Map<string, number>,
    private readonly arrays: boolean[],
    private readonly strict: boolean,
  ) {}

  private readonly names = new FieldNames();

  /**
   * Opens a writer for records of an Avro record schema (JSON text or the parsed object), stored as
   * `avro.schema`.
   */
  static async open(sink: Sink, schema: string | unknown, options: AvroTrevniWriterOptions = {}): Promise<AvroTrevniWriter> {
    const parsed = parseAvroSchema(schema);
    const text = options.schemaText ?? (typeof schema === 'string' ? schema : JSON.stringify(schema));
    const columns = avroColumns(parsed);
    const metadata = [...(options.metadata ?? []).filter((m) => m.key !== AVRO_SCHEMA_KEY), { key: AVRO_SCHEMA_KEY, value: textBytes(text) }];
    const { schemaText: _, unknownFields, ...rest } = options;
    void _;
    const writer = await TrevniWriter.open(sink, columns, { ...rest, metadata });
    const arrays = columns.map((c) => c.metadata!.some((m) => m.key === KEY.array));
    return new AvroTrevniWriter(parsed, writer, new Map(columns.map((c, i) => [c.name, i])), arrays, (unknownFields ?? 'error') === 'error');
  }

  /** Records written so far. */
  get numRows(): number {
    return this.writer.numRows;
  }

  /**
   * Writes one record of the schema; a record that does not fit is an InvalidArgumentError naming
   * the field, and leaves nothing behind.
   */
  async write(record: unknown): Promise<void> {
    const row = this.writer.numRows;
    const data: ColumnRowData[] = this.arrays.map((a) => ({ values: [], lengths: a ? [] : null }));
    const col = (name: string) => data[this.index.get(name)!]!;
    const arrayCol = col;
    const fail = (path: string, s: AvroSchema, v: unknown) =>
      new InvalidArgumentError(`record ${row}: ${path || 'the record'} needs ${s.type === 'union' ? `one of ${s.branches.map(branchName).join(', ')}` : s.type}, got ${describe(v)}`);
    const simple = (s: AvroSchema, v: unknown, path: string): TrevniValue => {
      if (s.type === 'enum') {
        const i = s.symbols.indexOf(v as string);
        if (i < 0) throw fail(path, s, v);
        return i;
      }
      if (s.type === 'fixed' && !(v instanceof Uint8Array && v.length === s.size)) throw fail(path, s, v);
      if (s.type === 'null' && v !== null && v !== undefined) throw fail(path, s, v);
      return (v ?? null) as TrevniValue;
    };
    const put = (s: AvroSchema, v: unknown, path: string): void => {
      switch (s.type) {
        case 'record': {
          if (v === null || typeof v !== 'object' || Array.isArray(v)) throw fail(path, s, v);
          let present = 0;
          for (const f of s.fields) {
            const has = Object.prototype.hasOwnProperty.call(v, f.name);
            if (has) present++;
            put(f.type, has ? (v as Record<string, unknown>)[f.name] : undefined, join(path, '#', f.name));
          }
          if (this.strict) {
            const key = unknownKeyBeyond(v, present, () => this.names.of(s.fields));
            if (key !== undefined) throw new InvalidArgumentError(`record ${row}: ${path || 'the record'} has a key the schema lacks: ${JSON.stringify(key)} (write with unknownFields: 'ignore' to leave such keys out)`);
          }
          return;
        }
        case 'array': {
          if (!Array.isArray(v)) throw fail(path, s, v);
          const name = `${path}[]`;
          const d = arrayCol(name);
          d.lengths!.push(v.length);
          for (const x of v) {
            if (isSimple(s.items)) d.values.push(simple(s.items, x, name));
            else {
              d.values.push(null);
              put(s.items, x, name);
            }
          }
          return;
        }
        case 'map': {
          const entries = v instanceof Map ? [...v.entries()] : v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : null;
          if (!entries) throw fail(path, s, v);
          const name = `${path}>`;
          const d = arrayCol(name);
          d.lengths!.push(entries.length);
          for (const [k, x] of entries) {
            if (typeof k !== 'string') throw fail(`${name}key`, { type: 'string' }, k);
            d.values.push(null);
            col(`${name}key`).values.push(k);
            put(s.values, x, `${name}value`);
          }
          return;
        }
        case 'union': {
          const others = s.branches.filter((b) => b.type !== 'null');
          let chosen: AvroSchema | null = null;
          let inner: unknown = null;
          if (v !== null && v !== undefined) {
            const tag = typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Map) ? Object.keys(v) : [];
            const tagged = tag.length === 1 ? others.find((b) => branchName(b) === tag[0]) : undefined;
            if (tagged) {
              chosen = tagged;
              inner = (v as Record<string, unknown>)[tag[0]!];
            } else if (others.length === 1) {
              chosen = others[0]!;
              inner = v;
            } else throw fail(path, s, v);
          } else if (others.length === s.branches.length) throw fail(path, s, v);
          for (const b of others) {
            const name = join(path, '/', branchName(b));
            const d = arrayCol(name);
            if (b !== chosen) {
              d.lengths!.push(0);
              continue;
            }
            d.lengths!.push(1);
            if (isSimple(b)) d.values.push(simple(b, inner, name));
            else {
              d.values.push(null);
              put(b, inner, name);
            }
          }
          return;
        }
        default:
          col(path === '' ? branchName(s) : path).values.push(simple(s, v, path));
      }
    };
    put(this.schema, record, '');
    await this.writer.writeColumnData(data);
  }

  /** Writes the file: header, column descriptors, then the blocks. */
  async close(): Promise<void> {
    await this.writer.close();
  }

  /** Discards the file. */
  async abort(): Promise<void> {
    await this.writer.abort();
  }

  /** `await using`: a writer left open when its scope ends is aborted, never completed half-written. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.abort();
  }
}
