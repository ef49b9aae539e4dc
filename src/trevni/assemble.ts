/**
 * Rows from column values, per ../shared/CANONICAL.md's Trevni rules: root
 * columns are the row's fields; an array column is a list; the elements of an
 * array column with children are objects holding (when the column has a value
 * type) `$value` and then each child's value, or list, for that element.
 *
 * One traversal serves two outputs: plain JavaScript rows, and the canonical
 * JSON text (built directly, so keys keep column order even when a column is
 * named like an integer, and never touch a prototype).
 */
import { hex } from '../schema/convert.js';
import type { TrevniColumn, TrevniType, TrevniValue } from './types.js';

/** One column's share of one row. */
export interface ColumnRowData {
  /** All the column's values in the row, in order. */
  values: TrevniValue[];
  /** For an array column, the length of each sequence (one per parent value, or one for a root column). */
  lengths: number[] | null;
}

interface Renderer<T> {
  leaf(type: TrevniType, v: TrevniValue): T;
  list(items: T[]): T;
  object(keys: string[], values: T[]): T;
}

function assemble<T>(columns: readonly TrevniColumn[], data: readonly (ColumnRowData | undefined)[], roots: readonly number[], r: Renderer<T>): T {
  const items = new Map<number, T[]>();
  const offsets = new Map<number, number[]>();

  const itemsOf = (ci: number): T[] => {
    let out = items.get(ci);
    if (out) return out;
    const col = columns[ci]!;
    const d = data[ci]!;
    const kids = col.children.filter((k) => data[k] !== undefined);
    if (kids.length === 0) {
      out = d.values.map((v) => r.leaf(col.type, v));
    } else {
      out = [];
      const keys: string[] = [];
      if (col.type !== 'null') keys.push('$value');
      for (const k of kids) keys.push(columns[k]!.name);
      const kidItems = kids.map(itemsOf);
      const kidOffsets = kids.map((k) => offsetsOf(k));
      for (let e = 0; e < d.values.length; e++) {
        const vals: T[] = [];
        if (col.type !== 'null') vals.push(r.leaf(col.type, d.values[e]!));
        for (let j = 0; j < kids.length; j++) {
          const off = kidOffsets[j];
          vals.push(off ? r.list(kidItems[j]!.slice(off[e]!, off[e + 1]!)) : kidItems[j]![e]!);
        }
        out.push(r.object(keys, vals));
      }
    }
    items.set(ci, out);
    return out;
  };

  const offsetsOf = (ci: number): number[] | undefined => {
    const d = data[ci]!;
    if (!d.lengths) return undefined;
    let off = offsets.get(ci);
    if (!off) {
      off = [0];
      for (const l of d.lengths) off.push(off[off.length - 1]! + l);
      offsets.set(ci, off);
    }
    return off;
  };

  const keys: string[] = [];
  const vals: T[] = [];
  for (const ci of roots) {
    const col = columns[ci]!;
    keys.push(col.name);
    const it = itemsOf(ci);
    vals.push(col.array ? r.list(it) : it[0]!);
  }
  return r.object(keys, vals);
}

const jsRenderer: Renderer<unknown> = {
  leaf: (_t, v) => v,
  list: (items) => items,
  object(keys, values) {
    const o: Record<string, unknown> = {};
    // defineProperty: a column named __proto__ is just a key.
    for (let i = 0; i < keys.length; i++) Object.defineProperty(o, keys[i]!, { value: values[i], enumerable: true, writable: true, configurable: true });
    return o;
  },
};

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A float or double as CANONICAL.md prints it. */
export function canonicalFloat(v: number): string {
  if (Number.isNaN(v)) return '"NaN"';
  if (v === Infinity) return '"Infinity"';
  if (v === -Infinity) return '"-Infinity"';
  return JSON.stringify(v === 0 ? 0 : v);
}

/** One Trevni value as canonical JSON text. */
export function canonicalValue(type: TrevniType, v: TrevniValue): string {
  if (v === null) return 'null';
  switch (type) {
    case 'boolean': return v ? 'true' : 'false';
    case 'int':
    case 'fixed32': return String(v);
    case 'long':
    case 'fixed64': {
      const b = v as bigint;
      return b <= MAX_SAFE && b >= -MAX_SAFE ? b.toString() : `"${b.toString()}"`;
    }
    case 'float':
    case 'double': return canonicalFloat(v as number);
    case 'string': return JSON.stringify(v);
    case 'bytes': return `{"$binary":"${hex(v as Uint8Array)}"}`;
    case 'null': return 'null';
  }
}

const textRenderer: Renderer<string> = {
  leaf: canonicalValue,
  list: (items) => `[${items.join(',')}]`,
  object: (keys, values) => `{${keys.map((k, i) => `${JSON.stringify(k)}:${values[i]}`).join(',')}}`,
};

/** The row as a plain object (long/fixed64 as bigint, bytes as Uint8Array). */
export function assembleRow(columns: readonly TrevniColumn[], data: readonly (ColumnRowData | undefined)[], roots: readonly number[]): Record<string, unknown> {
  return assemble(columns, data, roots, jsRenderer) as Record<string, unknown>;
}

/** The row as one canonical JSON line (without the newline). */
export function canonicalRowText(columns: readonly TrevniColumn[], data: readonly (ColumnRowData | undefined)[], roots: readonly number[]): string {
  return assemble(columns, data, roots, textRenderer);
}
