/**
 * The canonical JSON Lines form of ../shared/CANONICAL.md: one exact text for
 * a row, so parquetry's output can be compared byte for byte with any other
 * reader's. Works on rows read with the default (lossless) value options.
 */
import type { LeafKind } from '../schema/logical.js';
import { hex } from '../schema/convert.js';
import type { Plan, RecordPlan } from '../shred/plan.js';
import { formatDate, formatTime, formatTimestamp } from '../schema/temporal-format.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function integer(v: number | bigint): string {
  if (typeof v === 'number') return String(v);
  return v <= MAX_SAFE && v >= -MAX_SAFE ? v.toString() : `"${v.toString()}"`;
}

function float(v: number): string {
  if (Number.isNaN(v)) return '"NaN"';
  if (v === Infinity) return '"Infinity"';
  if (v === -Infinity) return '"-Infinity"';
  return JSON.stringify(v === 0 ? 0 : v);
}

function binary(b: Uint8Array): string {
  return `{"$binary":"${hex(b)}"}`;
}

/** One leaf value (read with the default lossless options) in canonical JSON. */
export function canonicalValue(kind: LeafKind, v: unknown): string {
  switch (kind.kind) {
    case 'boolean': return v ? 'true' : 'false';
    case 'int': return integer(v as number | bigint);
    case 'float':
    case 'float16': return float(v as number);
    case 'int96': return `"${formatTimestamp(v as bigint, 'NANOS', true)}"`;
    case 'string':
    case 'uuid':
    case 'decimal': return JSON.stringify(v);
    case 'bytes': return binary(v as Uint8Array);
    case 'date': return `"${formatDate(v as number)}"`;
    case 'time': return `"${formatTime(v as number | bigint, kind.unit)}"`;
    case 'timestamp': return `"${formatTimestamp(v as bigint, kind.unit, kind.utc)}"`;
    case 'interval': {
      const i = v as { months: number; days: number; millis: number };
      return `{"months":${i.months},"days":${i.days},"millis":${i.millis}}`;
    }
    case 'null': return 'null';
  }
}

const utf8 = new TextEncoder();

function compareUtf8(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** A decoded VARIANT value: JSON-like, with bigint, Uint8Array and the special floats handled. */
export function canonicalVariant(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean': return v ? 'true' : 'false';
    case 'bigint': return integer(v);
    case 'number': return Number.isInteger(v) && !Object.is(v, -0) ? String(v) : float(v);
    case 'string': return JSON.stringify(v);
  }
  if (v instanceof Uint8Array) return binary(v);
  if (Array.isArray(v)) return `[${v.map(canonicalVariant).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort(compareUtf8);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalVariant(o[k])}`).join(',')}}`;
}

type Fields = readonly { name: string; plan: Plan }[];

/** Each field's `"name":` prefix, made once a plan: a file's rows share their plan, so a row costs only its values. */
const prefixes = new WeakMap<Fields, string[]>();

function object(fields: Fields, o: Record<string, unknown>): string {
  let names = prefixes.get(fields);
  if (!names) prefixes.set(fields, (names = fields.map((f) => `${JSON.stringify(f.name)}:`)));
  let out = '{';
  for (let i = 0; i < fields.length; i++) out += `${i ? ',' : ''}${names[i]}${value(fields[i]!.plan, o[fields[i]!.name])}`;
  return `${out}}`;
}

function value(p: Plan, v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (p.t) {
    case 'leaf': return canonicalValue(p.leaf.kind, v);
    case 'struct': return object(p.fields, v as Record<string, unknown>);
    case 'list': return `[${(v as unknown[]).map((e) => value(p.element, e)).join(',')}]`;
    case 'map': {
      const key = p.entry.fields.find((f) => f.name === p.keyName)?.plan;
      const val = p.entry.fields.find((f) => f.name === p.valueName)?.plan;
      const entries = v as { key: unknown; value: unknown }[];
      // A key or value projected away is left out, as the reader leaves it out; a map without a value field has null values.
      const withValue = val !== undefined || p.valueName === undefined;
      const entry = (e: { key: unknown; value: unknown }): string => {
        const parts: string[] = [];
        if (key) parts.push(`"key":${value(key, e.key)}`);
        if (withValue) parts.push(`"value":${val ? value(val, e.value) : 'null'}`);
        return `{${parts.join(',')}}`;
      };
      return `[${entries.map(entry).join(',')}]`;
    }
    case 'variant': return canonicalVariant(v);
  }
}

/** One row as a canonical JSON line (without the trailing newline). */
export function canonicalRow(plan: RecordPlan, row: Record<string, unknown>): string {
  return object(plan.fields, row);
}
