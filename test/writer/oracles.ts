/**
 * The three readers the writer tests check a file with, and how their
 * outputs are compared with what was written:
 *
 * - parquetry (`openParquet(...).readRows()`): exact deep equality with the
 *   expected rows in the reader's lossless forms, struct keys in schema order.
 * - DuckDB (`read_parquet`): DuckDB's typed values (never its display text)
 *   and our expected values are both turned into one tagged comparison text
 *   per value (`i:` integer digits, `f:` double text, `d:` exact decimal,
 *   `ts:` nanoseconds since the epoch plus `Z` when UTC-adjusted...). Where
 *   DuckDB's type is coarser than the file's (it reads TIMESTAMP(NANOS, UTC),
 *   TIME(NANOS, UTC) and INT96 as microseconds), the expected value is reduced
 *   the way DuckDB reduces it (truncation; INT96: floor), so the comparison
 *   stays exact.
 * - hyparquet (`parquetReadObjects`, with hyparquet-compressors, `utf8: false`
 *   and parsers that keep timestamps and dates as raw integers): our expected
 *   values are converted to hyparquet's forms (decimals as its doubles, maps
 *   as objects, ENUM as bytes) and compared exactly.
 *
 * Every mismatch names the file, the row, the column and both values.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import {
  DuckDBInstance, DuckDBTypeId, type DuckDBConnection, type DuckDBListType, type DuckDBMapType, type DuckDBStructType, type DuckDBType, type DuckDBValue,
} from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { openParquet } from '../../src/node/index.js';
import type { LeafNode, SchemaElementLike } from '../../src/schema/tree.js';
import type { Plan, RecordPlan } from '../../src/shred/plan.js';
import { daysFromCivil, duckText, floatText } from '../interop/duck-compare.js';
import { halfToNumber, hex, unscaledOf, utf8Bytes, wkbToGeoJson } from './gen.js';

// ------------------------------------------------------------------ comparison and reporting

export function show(v: unknown): string {
  return inspect(v, { depth: 10, breakLength: Infinity, maxArrayLength: 40, maxStringLength: 300 });
}

/** Exact equality: Object.is for primitives (so -0 !== 0, NaN === NaN, 1 !== 1n), bytes by value, objects by keys (in order when `ordered`). */
export function deepSame(a: unknown, b: unknown, ordered = true): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!(Array.isArray(a) && Array.isArray(b)) || a.length !== b.length) return false;
    return a.every((x, i) => deepSame(x, b[i], ordered));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  if (ordered ? ka.some((k, i) => kb[i] !== k) : ka.some((k) => !Object.prototype.hasOwnProperty.call(b, k))) return false;
  return ka.every((k) => deepSame((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], ordered));
}

/** Collects mismatches of one file and one reader; `done()` fails the test with the first few. */
export class Mismatches {
  private readonly lines: string[] = [];
  private readonly perColumn = new Map<string, number>();
  constructor(private readonly label: string, private readonly reader: string, private readonly limit = 8) {}
  add(row: number, column: string, expected: unknown, actual: unknown, note = ''): void {
    this.perColumn.set(column, (this.perColumn.get(column) ?? 0) + 1);
    if (this.lines.length < this.limit) {
      this.lines.push(`file ${this.label}, row ${row}, column ${column}${note ? ` (${note})` : ''}:\n      expected: ${show(expected)}\n      ${this.reader}: ${show(actual)}`);
    }
  }
  note(text: string): void {
    this.perColumn.set('(file)', (this.perColumn.get('(file)') ?? 0) + 1);
    if (this.lines.length < this.limit) this.lines.push(`file ${this.label}: ${text}`);
  }
  get count(): number {
    let n = 0;
    for (const v of this.perColumn.values()) n += v;
    return n;
  }
  done(): void {
    if (!this.lines.length) return;
    const summary = [...this.perColumn].map(([c, n]) => `${c}: ${n}`).join(', ');
    assert.fail(`${this.reader} reading ${this.label} differs from what was written (mismatches per column: ${summary})\n  ${this.lines.join('\n  ')}`);
  }
}

// ------------------------------------------------------------------ parquetry

/** Reads the file with parquetry and requires every row to equal `expected` exactly (key order included). */
export async function checkParquetry(path: string, label: string, expected: Record<string, unknown>[]): Promise<void> {
  const reader = await openParquet(path);
  const m = new Mismatches(label, 'parquetry');
  try {
    if (reader.numRows !== expected.length) m.note(`numRows ${reader.numRows}, wrote ${expected.length}`);
    const rows = await reader.readRows();
    if (rows.length !== expected.length) m.note(`read ${rows.length} rows, wrote ${expected.length}`);
    for (let i = 0; i < Math.min(rows.length, expected.length); i++) {
      const got = rows[i]!;
      const want = expected[i]!;
      if (Object.keys(got).join('\u0000') !== Object.keys(want).join('\u0000')) m.add(i, '(keys)', Object.keys(want), Object.keys(got));
      for (const k of Object.keys(want)) if (!deepSame(want[k], got[k])) m.add(i, k, want[k], got[k]);
    }
  } finally {
    await reader.close();
  }
  m.done();
}

// ------------------------------------------------------------------ DuckDB

export class Duck {
  private constructor(private readonly instance: DuckDBInstance, readonly conn: DuckDBConnection) {}
  static async create(): Promise<Duck> {
    const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
    const conn = await instance.connect();
    await conn.run(`SET TimeZone = 'UTC'`);
    return new Duck(instance, conn);
  }
  async rows(sql: string): Promise<{ names: string[]; types: DuckDBType[]; rows: DuckDBValue[][] }> {
    const r = await this.conn.runAndReadAll(sql);
    return { names: r.columnNames(), types: r.columnTypes(), rows: r.getRows() };
  }
  async objects(sql: string): Promise<Record<string, unknown>[]> {
    const r = await this.conn.runAndReadAll(sql);
    return r.getRowObjectsJson() as Record<string, unknown>[];
  }
  async run(sql: string): Promise<void> {
    await this.conn.run(sql);
  }
  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

export const sqlString = (s: string): string => `'${s.replaceAll("'", "''")}'`;

const NANOS: Record<string, bigint> = { MILLIS: 1_000_000n, MICROS: 1000n, NANOS: 1n };

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** Whether DuckDB's type holds nanoseconds (else microseconds). */
function nanosType(t: DuckDBType): boolean {
  return t.typeId === DuckDBTypeId.TIME_NS || t.typeId === DuckDBTypeId.TIMESTAMP_NS;
}

/** The comparison text of one of our (reader-form) leaf values, reduced the way DuckDB reads it as `t`. */
function expectLeaf(leaf: LeafNode, v: unknown, t: DuckDBType): string {
  const k = leaf.kind;
  switch (k.kind) {
    case 'boolean': return `b:${v}`;
    case 'int': return `i:${BigInt(v as number | bigint)}`;
    case 'float': case 'float16': return floatText(v as number, true);
    case 'int96': return nanosType(t) ? `ts:${v}` : `ts:${floorDiv(v as bigint, 1000n) * 1000n}`; // DuckDB floors INT96 to microseconds
    case 'string': return `s:${JSON.stringify(v)}`;
    case 'bytes': return `x:${hex(v as Uint8Array)}`;
    case 'uuid': return `u:${v}`;
    case 'decimal': return `d:${v}`;
    case 'date': return `date:${v}`;
    case 'time': {
      const n = BigInt(v as number | bigint) * NANOS[k.unit]!;
      return `time:${nanosType(t) ? n : (n / 1000n) * 1000n}`;
    }
    case 'timestamp': {
      const n = (v as bigint) * NANOS[k.unit]!;
      // DuckDB truncates TIMESTAMP(NANOS, UTC) to microseconds (towards zero).
      return `ts:${nanosType(t) ? n : (n / 1000n) * 1000n}${k.utc ? 'Z' : ''}`;
    }
    case 'interval': {
      const i = v as { months: number; days: number; millis: number };
      return `iv:${i.months},${i.days},${i.millis}`;
    }
    case 'null': return 'null';
  }
}

const KIND_TYPE: Partial<Record<Plan['t'], DuckDBTypeId[]>> = {
  struct: [DuckDBTypeId.STRUCT],
  list: [DuckDBTypeId.LIST, DuckDBTypeId.ARRAY],
  map: [DuckDBTypeId.MAP],
};

/** The comparison text of one of our values, as DuckDB (type `t`) should read it. */
export function expectText(p: Plan, v: unknown, t: DuckDBType): string {
  if (v === null || v === undefined) return 'null';
  const ids = KIND_TYPE[p.t];
  if (ids && !ids.includes(t.typeId)) return `WRONG-DUCKDB-TYPE(${p.t} read as ${t.toString()})`;
  switch (p.t) {
    case 'leaf': return expectLeaf(p.leaf, v, t);
    case 'struct': {
      const st = t as DuckDBStructType;
      if (st.entryNames.join('\u0000') !== p.fields.map((f) => f.name).join('\u0000')) return `WRONG-STRUCT-FIELDS(${st.entryNames.join(',')})`;
      const o = v as Record<string, unknown>;
      return `{${p.fields.map((f, k) => `${JSON.stringify(f.name)}:${expectText(f.plan, o[f.name], st.entryTypes[k]!)}`).join(',')}}`;
    }
    case 'list': {
      const el = (t as DuckDBListType).valueType;
      return `[${(v as unknown[]).map((x) => expectText(p.element, x, el)).join(',')}]`;
    }
    case 'map': {
      const mt = t as DuckDBMapType;
      const key = p.entry.fields.find((f) => f.name === p.keyName)!.plan;
      const val = p.entry.fields.find((f) => f.name === p.valueName)?.plan;
      return `[${(v as { key: unknown; value: unknown }[]).map((e) => `{"key":${expectText(key, e.key, mt.keyType)},"value":${val ? expectText(val, e.value, mt.valueType) : 'null'}}`).join(',')}]`;
    }
    case 'variant': return 'VARIANT-NOT-WRITTEN';
  }
}

/** Reads the file with DuckDB and compares every value of every column with `expected`. */
export async function checkDuckValues(duck: Duck, path: string, label: string, expected: Record<string, unknown>[], plan: RecordPlan, columns?: string[]): Promise<void> {
  const m = new Mismatches(label, 'DuckDB');
  const fields = plan.fields.filter((f) => !columns || columns.includes(f.name));
  const names = fields.map((f) => f.name);
  const got = await duck.rows(`SELECT ${columns ? names.map((n) => `"${n.replaceAll('"', '""')}"`).join(', ') : '*'} FROM read_parquet(${sqlString(path)})`);
  if (got.names.join('\u0000') !== names.join('\u0000')) m.note(`columns ${JSON.stringify(got.names)}, wrote ${JSON.stringify(names)}`);
  if (got.rows.length !== expected.length) m.note(`DuckDB reads ${got.rows.length} rows, wrote ${expected.length}`);
  for (let i = 0; i < Math.min(got.rows.length, expected.length); i++) {
    fields.forEach((f) => {
      const c = got.names.indexOf(f.name);
      if (c < 0) return;
      const t = got.types[c]!;
      const want = expectText(f.plan, expected[i]![f.name], t);
      const have = duckText(t, got.rows[i]![c]!, { signedZero: true });
      if (want !== have) m.add(i, f.name, want, have, `DuckDB type ${t.toString()}; as comparison text`);
    });
  }
  m.done();
}

// ------------------------------------------------------------------ hyparquet

const textDecoder = new TextDecoder();

/**
 * hyparquet-compressors 1.1.2 throws "lz4 offset out of range 0" on the
 * 1-byte LZ4 block of empty input (token 0x00: no literals, no match), which
 * is what LZ4_compress_default and parquetry write for an empty section,
 * e.g. the values of an all-null DATA_PAGE_V2. Work around it here, so
 * hyparquet still checks everything else in LZ4_RAW files.
 */
const hyparquetCompressors = {
  ...compressors,
  LZ4_RAW: (input: Uint8Array, outputLength: number) => (outputLength === 0 && input.length === 1 && input[0] === 0 ? new Uint8Array(0) : compressors.LZ4_RAW!(input, outputLength)),
};

/** Reads the file with hyparquet (all columns, or `columns`), timestamps and dates as raw integers. */
export async function readHyparquet(path: string, columns?: string[]): Promise<Record<string, unknown>[]> {
  const b = readFileSync(path);
  const file = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  const rows = await parquetReadObjects({
    file, compressors: hyparquetCompressors, utf8: false, ...(columns ? { columns } : {}),
    parsers: {
      timestampFromMilliseconds: (x: bigint) => x,
      timestampFromMicroseconds: (x: bigint) => x,
      timestampFromNanoseconds: (x: bigint) => x,
      dateFromDays: (d: number) => d,
      jsonFromBytes: (x: Uint8Array) => (x ? textDecoder.decode(x) : x),
    },
  });
  return rows.map((r) => nullify(r) as Record<string, unknown>);
}

/** hyparquet gives undefined for some nulls (a null list): make every absent value null. */
function nullify(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map(nullify);
  if (typeof v === 'object' && !(v instanceof Uint8Array) && Object.getPrototypeOf(v) === Object.prototype) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = nullify(x);
    return o;
  }
  return v;
}

/** GEOMETRY and GEOGRAPHY: WKB whose sort order parquet-format leaves undefined. */
export function isGeo(leaf: LeafNode): boolean {
  const t = leaf.element.logicalType?.type;
  return t === 'GEOMETRY' || t === 'GEOGRAPHY';
}

function isEnum(leaf: LeafNode): boolean {
  return leaf.element.logicalType?.type === 'ENUM' || leaf.element.convertedType === 'ENUM';
}

/** One of our values in hyparquet's form. */
export function hyparquetForm(p: Plan, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (p.t) {
    case 'leaf': {
      const k = p.leaf.kind;
      if (k.kind === 'decimal') return Number(unscaledOf(v as string, k.scale)) * 10 ** -k.scale;
      if (k.kind === 'string' && isEnum(p.leaf)) return utf8Bytes(v as string);
      if (isGeo(p.leaf)) return wkbToGeoJson(v as Uint8Array);
      return v;
    }
    case 'struct': {
      const o: Record<string, unknown> = {};
      for (const f of p.fields) o[f.name] = hyparquetForm(f.plan, (v as Record<string, unknown>)[f.name]);
      return o;
    }
    case 'list': return (v as unknown[]).map((x) => hyparquetForm(p.element, x));
    case 'map': {
      const key = p.entry.fields.find((f) => f.name === p.keyName)!.plan;
      const val = p.entry.fields.find((f) => f.name === p.valueName)?.plan;
      const o: Record<string, unknown> = {};
      for (const e of v as { key: unknown; value: unknown }[]) {
        const kf = hyparquetForm(key, e.key);
        o[kf instanceof Uint8Array ? textDecoder.decode(kf) : String(kf)] = val ? hyparquetForm(val, e.value) : null;
      }
      return o;
    }
    case 'variant': return v;
  }
}

/** Reads the file with hyparquet and compares every value of the `columns` (default all) with `expected`. */
export async function checkHyparquet(path: string, label: string, expected: Record<string, unknown>[], plan: RecordPlan, columns?: string[]): Promise<void> {
  const m = new Mismatches(label, 'hyparquet');
  const fields = plan.fields.filter((f) => !columns || columns.includes(f.name));
  let rows: Record<string, unknown>[];
  try {
    rows = await readHyparquet(path, columns);
  } catch (e) {
    assert.fail(`hyparquet cannot read ${label}: ${(e as Error).stack}`);
  }
  if (rows.length !== expected.length) m.note(`hyparquet reads ${rows.length} rows, wrote ${expected.length}`);
  for (let i = 0; i < Math.min(rows.length, expected.length); i++) {
    for (const f of fields) {
      const want = hyparquetForm(f.plan, expected[i]![f.name]);
      const have = rows[i]![f.name];
      if (!deepSame(want, have, false)) m.add(i, f.name, want, have, 'in hyparquet form');
    }
  }
  m.done();
}

// ------------------------------------------------------------------ leaf entries and statistics

/** The entries a leaf column holds for one record field value: its values, and null for every null or empty list on the way. */
export function leafEntries(p: Plan, v: unknown, leafIndex: number, out: unknown[]): void {
  if (v === null || v === undefined) {
    out.push(null);
    return;
  }
  switch (p.t) {
    case 'leaf':
      out.push(v);
      return;
    case 'struct': {
      const f = p.fields.find((x) => leafIndex >= x.plan.first && leafIndex < x.plan.first + x.plan.width)!;
      leafEntries(f.plan, (v as Record<string, unknown>)[f.name], leafIndex, out);
      return;
    }
    case 'list': {
      const a = v as unknown[];
      if (a.length === 0) out.push(null);
      for (const x of a) leafEntries(p.element, x, leafIndex, out);
      return;
    }
    case 'map': {
      const a = v as { key: unknown; value: unknown }[];
      if (a.length === 0) out.push(null);
      for (const e of a) {
        const o: Record<string, unknown> = { [p.keyName]: e.key };
        if (p.valueName !== undefined) o[p.valueName] = e.value;
        leafEntries(p.entry, o, leafIndex, out);
      }
      return;
    }
    case 'variant':
      throw new Error('variant');
  }
}

/** Entries of leaf `leafIndex` over some records. */
export function columnEntries(plan: RecordPlan, records: Record<string, unknown>[], leafIndex: number): unknown[] {
  const f = plan.fields.find((x) => leafIndex >= x.plan.first && leafIndex < x.plan.first + x.plan.width)!;
  const out: unknown[] = [];
  for (const r of records) leafEntries(f.plan, r[f.name], leafIndex, out);
  return out;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * parquet-format's order for a leaf's reader-form values (unsigned integers
 * are already unsigned in reader form), or undefined when the type has no
 * statistics order (INT96, INTERVAL, the null type).
 */
export function valueOrder(leaf: LeafNode): ((a: unknown, b: unknown) => number) | undefined {
  const k = leaf.kind;
  const num = (a: unknown, b: unknown) => {
    const x = a as number | bigint;
    const y = b as number | bigint;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  switch (k.kind) {
    case 'boolean': return (a, b) => Number(a) - Number(b);
    case 'int': case 'date': case 'time': case 'timestamp': case 'float': case 'float16': return num;
    case 'decimal': return (a, b) => num(unscaledOf(a as string, k.scale), unscaledOf(b as string, k.scale));
    case 'string': return (a, b) => compareBytes(utf8Bytes(a as string), utf8Bytes(b as string));
    case 'bytes': return (a, b) => compareBytes(a as Uint8Array, b as Uint8Array);
    case 'uuid': return (a, b) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0);
    default: return undefined;
  }
}

/** Min and max of entries by the spec's rules (NaN left out; a zero min is -0 and a zero max +0), and the null count. */
export function expectedStats(leaf: LeafNode, entries: unknown[]): { min?: unknown; max?: unknown; nulls: number } {
  const order = valueOrder(leaf);
  let nulls = 0;
  let min: unknown;
  let max: unknown;
  const isFloat = leaf.kind.kind === 'float' || leaf.kind.kind === 'float16';
  for (const e of entries) {
    if (e === null) {
      nulls++;
      continue;
    }
    if (!order) continue;
    if (isFloat && Number.isNaN(e)) continue;
    if (min === undefined || order(e, min) < 0) min = e;
    if (max === undefined || order(e, max) > 0) max = e;
  }
  if (isFloat && min === 0) min = -0;
  if (isFloat && max === 0) max = 0;
  return { ...(min !== undefined ? { min, max } : {}), nulls };
}

// ---- DuckDB's text of statistics, parsed back

function parseDuckDate(s: string): bigint | undefined {
  const m = /^(\d{4,})-(\d{2})-(\d{2})$/.exec(s);
  return m ? daysFromCivil(BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!)) : undefined;
}

function parseDuckTime(s: string): bigint | undefined {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:\+00)?$/.exec(s);
  if (!m) return undefined;
  return ((BigInt(m[1]!) * 60n + BigInt(m[2]!)) * 60n + BigInt(m[3]!)) * 1_000_000_000n + BigInt((m[4] ?? '').padEnd(9, '0'));
}

function parseDuckTimestamp(s: string): bigint | undefined {
  const i = s.indexOf(' ');
  if (i < 0) return undefined;
  const d = parseDuckDate(s.slice(0, i));
  const t = parseDuckTime(s.slice(i + 1));
  return d === undefined || t === undefined ? undefined : d * 86_400_000_000_000n + t;
}

/** DuckDB prints a BLOB with printable ASCII as is and other bytes as \xHH. */
function parseDuckBlob(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; ) {
    if (s[i] === '\\' && s[i + 1] === 'x') {
      out.push(parseInt(s.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      out.push(s.charCodeAt(i));
      i++;
    }
  }
  return Uint8Array.from(out);
}

/** A statistics bound as DuckDB prints it, made comparable with `statKey` of our value. */
export function duckStatKey(leaf: LeafNode, s: string): string {
  const k = leaf.kind;
  switch (k.kind) {
    case 'boolean': return s;
    case 'int': return BigInt(s).toString();
    case 'float': case 'float16': {
      const x = leaf.physicalType === 'DOUBLE' ? Number(s) : Math.fround(Number(s));
      return Object.is(x, -0) ? '-0' : String(x);
    }
    case 'string': case 'uuid': case 'decimal': return s;
    case 'bytes': return hex(parseDuckBlob(s));
    case 'date': return String(parseDuckDate(s));
    case 'time': return String(parseDuckTime(s));
    case 'timestamp': return String(parseDuckTimestamp(s));
    default: return `UNEXPECTED:${s}`;
  }
}

/** Our value as `duckStatKey` gives it (reduced to DuckDB's precision where its type is coarser). */
export function statKey(leaf: LeafNode, v: unknown): string {
  const k = leaf.kind;
  switch (k.kind) {
    case 'boolean': return String(v);
    case 'int': return BigInt(v as number).toString();
    case 'float': case 'float16': return Object.is(v, -0) ? '-0' : String(v);
    case 'string': case 'uuid': case 'decimal': return v as string;
    case 'bytes': return hex(v as Uint8Array);
    case 'date': return String(v);
    case 'time': {
      const n = BigInt(v as number) * NANOS[k.unit]!;
      return String(k.unit === 'NANOS' && k.utc ? (n / 1000n) * 1000n : n);
    }
    case 'timestamp': {
      const n = (v as bigint) * NANOS[k.unit]!;
      return String(k.unit === 'NANOS' && k.utc ? (n / 1000n) * 1000n : n);
    }
    default: return `UNEXPECTED:${show(v)}`;
  }
}

/** Row counts of the file's row groups, as DuckDB sees them. */
export async function rowGroupRows(duck: Duck, path: string): Promise<number[]> {
  const rows = await duck.objects(`SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata(${sqlString(path)}) ORDER BY row_group_id`);
  return rows.map((r) => Number(r.row_group_num_rows));
}

/**
 * DuckDB's parquet_metadata() statistics of every column chunk agree with
 * the data written to it: null_count exactly; min and max exactly when
 * flagged exact, else bounds of the values. DuckDB does not show infinite
 * float bounds: those are checked in the footer directly (`rawStats`).
 */
export async function checkDuckStats(duck: Duck, path: string, label: string, expected: Record<string, unknown>[], plan: RecordPlan): Promise<void> {
  const m = new Mismatches(label, 'DuckDB parquet_metadata');
  const meta = await duck.objects(`SELECT row_group_id, row_group_num_rows, column_id, path_in_schema, stats_min_value, stats_max_value, stats_null_count, min_is_exact, max_is_exact FROM parquet_metadata(${sqlString(path)}) ORDER BY row_group_id, column_id`);
  const groups = new Map<number, number>();
  for (const r of meta) groups.set(Number(r.row_group_id), Number(r.row_group_num_rows));
  const starts: number[] = [];
  let total = 0;
  for (let g = 0; g < groups.size; g++) {
    starts.push(total);
    total += groups.get(g)!;
  }
  if (total !== expected.length) m.note(`row groups hold ${total} rows, wrote ${expected.length}`);
  const reader = await openParquet(path);
  try {
    for (const r of meta) {
      const g = Number(r.row_group_id);
      const c = Number(r.column_id);
      const leaf = plan.leaves[c]!;
      const where = `row group ${g}, leaf ${leaf.path.join('.')}`;
      const entries = columnEntries(plan, expected.slice(starts[g]!, starts[g]! + groups.get(g)!), c);
      const want = expectedStats(leaf, entries);
      const nulls = r.stats_null_count === null ? undefined : Number(r.stats_null_count);
      if (nulls !== want.nulls) m.add(starts[g]!, leaf.path.join('.'), want.nulls, nulls, `${where}: null_count`);
      // GEOMETRY and GEOGRAPHY have no sort order: their min/max are behaviour.test.ts's business.
      if (isGeo(leaf)) continue;
      const dmin = r.stats_min_value as string | null;
      const dmax = r.stats_max_value as string | null;
      if (want.min === undefined) {
        if (dmin !== null || dmax !== null) m.add(starts[g]!, leaf.path.join('.'), 'no min/max', [dmin, dmax], `${where}: min/max`);
        continue;
      }
      const isFloat = leaf.kind.kind === 'float' || leaf.kind.kind === 'float16';
      if (isFloat && (dmin === null || dmax === null) && (!Number.isFinite(want.min) || !Number.isFinite(want.max))) {
        // DuckDB hides float bounds when one is infinite: read the footer's bytes instead.
        const st = reader.file.metadata.rowGroups[g]!.columns[c]!.metaData!.statistics!;
        const dec = (b: Uint8Array | undefined) => {
          if (b === undefined) return undefined;
          const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
          return leaf.physicalType === 'DOUBLE' ? dv.getFloat64(0, true) : leaf.physicalType === 'FLOAT' ? dv.getFloat32(0, true) : halfToNumber(dv.getUint16(0, true));
        };
        const [lo, hi] = [dec(st.minValue), dec(st.maxValue)];
        if (!Object.is(lo, want.min) || !Object.is(hi, want.max)) m.add(starts[g]!, leaf.path.join('.'), [want.min, want.max], [lo, hi], `${where}: min/max in the footer`);
        continue;
      }
      const order = valueOrder(leaf)!;
      const check = (side: 'min' | 'max', text: string | null, exact: unknown, v: unknown) => {
        if (text === null) return m.add(starts[g]!, leaf.path.join('.'), v, null, `${where}: ${side}`);
        const key = duckStatKey(leaf, text);
        if (exact === true || exact === null) {
          if (key !== statKey(leaf, v)) m.add(starts[g]!, leaf.path.join('.'), statKey(leaf, v), key, `${where}: ${side} (exact), DuckDB prints ${JSON.stringify(text)}`);
        } else if (leaf.kind.kind === 'string') {
          // A truncated bound: a bound all the same.
          const c2 = order(text, v);
          if (side === 'min' ? c2 > 0 : c2 < 0) m.add(starts[g]!, leaf.path.join('.'), v, text, `${where}: inexact ${side} is not a bound`);
        } else if (leaf.kind.kind === 'bytes') {
          const c2 = order(parseDuckBlob(text), v);
          if (side === 'min' ? c2 > 0 : c2 < 0) m.add(starts[g]!, leaf.path.join('.'), v, text, `${where}: inexact ${side} is not a bound`);
        } else {
          m.add(starts[g]!, leaf.path.join('.'), 'an exact bound', text, `${where}: ${side} flagged inexact`);
        }
      };
      check('min', dmin, r.min_is_exact, want.min);
      check('max', dmax, r.max_is_exact, want.max);
    }
  } finally {
    await reader.close();
  }
  m.done();
}

// ------------------------------------------------------------------ schema

/** A LogicalType as DuckDB's parquet_schema() prints it (thrift's printTo). */
export function logicalTypeText(lt: { type: string } & Record<string, unknown>): string {
  const unit = (u: unknown) => `TimeUnit(MILLIS=${u === 'MILLIS' ? 'MilliSeconds()' : '<null>'}, MICROS=${u === 'MICROS' ? 'MicroSeconds()' : '<null>'}, NANOS=${u === 'NANOS' ? 'NanoSeconds()' : '<null>'})`;
  switch (lt.type) {
    case 'STRING': return 'StringType()';
    case 'MAP': return 'MapType()';
    case 'LIST': return 'ListType()';
    case 'ENUM': return 'EnumType()';
    case 'DECIMAL': return `DecimalType(scale=${lt.scale}, precision=${lt.precision})`;
    case 'DATE': return 'DateType()';
    case 'TIME': return `TimeType(isAdjustedToUTC=${lt.isAdjustedToUTC ? 1 : 0}, unit=${unit(lt.unit)})`;
    case 'TIMESTAMP': return `TimestampType(isAdjustedToUTC=${lt.isAdjustedToUTC ? 1 : 0}, unit=${unit(lt.unit)})`;
    case 'INTEGER': return `IntType(bitWidth=${String.fromCharCode(Number(lt.bitWidth))}, isSigned=${lt.isSigned ? 1 : 0})`;
    case 'UNKNOWN': return 'NullType()';
    case 'JSON': return 'JsonType()';
    case 'BSON': return 'BsonType()';
    case 'UUID': return 'UUIDType()';
    case 'FLOAT16': return 'Float16Type()';
    case 'GEOMETRY': return `GeometryType(crs=${lt.crs ?? '<null>'})`;
    case 'GEOGRAPHY': return `GeographyType(crs=${lt.crs ?? '<null>'}, algorithm=${lt.algorithm ?? '<null>'})`;
    default: return `?${lt.type}`;
  }
}

/** DuckDB's parquet_schema() shows exactly the schema elements we declared. */
export async function checkDuckSchema(duck: Duck, path: string, label: string, elements: readonly SchemaElementLike[]): Promise<void> {
  const m = new Mismatches(label, 'DuckDB parquet_schema');
  const rows = await duck.objects(`SELECT name, type, type_length, repetition_type, num_children, converted_type, scale, precision, field_id, logical_type FROM parquet_schema(${sqlString(path)})`);
  if (rows.length !== elements.length) m.note(`${rows.length} schema elements, declared ${elements.length}`);
  const str = (x: unknown) => (x === undefined || x === null ? null : String(x));
  elements.forEach((e, i) => {
    const r = rows[i];
    if (!r) return;
    const want = {
      name: e.name, type: str(e.type), type_length: str(e.typeLength), repetition_type: str(e.repetitionType), num_children: str(e.numChildren),
      converted_type: str(e.convertedType), scale: str(e.scale), precision: str(e.precision), field_id: str(e.fieldId),
      logical_type: e.logicalType ? logicalTypeText(e.logicalType as { type: string } & Record<string, unknown>) : null,
    };
    const have = Object.fromEntries(Object.keys(want).map((k) => [k, r[k] ?? null]));
    if (!deepSame(want, have, false)) m.add(i, e.name, want, have, 'schema element');
  });
  m.done();
}
