/**
 * A tiny, independent reference for filter semantics (docs/filtering.md),
 * working on fully read rows: a leaf's values in a row are the non-null
 * values found along its path (lists flattened); a comparison is true when
 * one of them satisfies it, unknown when there are none, else false; SQL
 * three-valued and/or/not. Plus literal sampling, a seeded expression
 * generator and Filter → DuckDB SQL.
 */
import type { Filter, LeafNode } from '../../src/node/index.js';

export type Kind = 'num' | 'float' | 'str' | 'bytes' | 'bool';

/** How the reference compares a leaf's values, or undefined for leaves it does not test. */
export function kindOf(leaf: LeafNode): Kind | undefined {
  switch (leaf.kind.kind) {
    case 'int': case 'date': case 'time': case 'timestamp': case 'decimal': case 'int96': return 'num';
    case 'float': case 'float16': return 'float';
    case 'string': case 'uuid': return 'str';
    case 'bytes': return 'bytes';
    case 'boolean': return 'bool';
    default: return undefined;
  }
}

/** Non-null values of a leaf path in an assembled row (list/map wrapper names that are not keys are skipped). */
export function leafValues(row: unknown, path: readonly string[]): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown, i: number): void => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) {
      for (const e of v) walk(e, i);
      return;
    }
    if (i === path.length) {
      out.push(v);
      return;
    }
    if (typeof v === 'object' && !(v instanceof Uint8Array) && Object.prototype.hasOwnProperty.call(v, path[i]!)) {
      walk((v as Record<string, unknown>)[path[i]!], i + 1);
      return;
    }
    walk(v, i + 1); // a wrapper level (list, element, key_value) that assembly removed
  };
  walk(row, 0);
  return out;
}

/** leafValues of each row and path refEval has seen: a matrix evaluates hundreds of filters on the same rows. */
const seen = new WeakMap<object, Map<readonly string[], unknown[]>>();

function rowLeafValues(row: Record<string, unknown>, path: readonly string[]): unknown[] {
  let byPath = seen.get(row);
  if (!byPath) seen.set(row, (byPath = new Map()));
  let vals = byPath.get(path);
  if (!vals) byPath.set(path, (vals = leafValues(row, path)));
  return vals;
}

// ---------------------------------------------------------------- exact numbers

interface Rat { n: bigint; d: bigint }

function rat(x: unknown): Rat {
  if (typeof x === 'bigint') return { n: x, d: 1n };
  if (typeof x === 'number') {
    if (Number.isInteger(x)) return { n: BigInt(x), d: 1n };
    return rat(String(x));
  }
  const s = String(x);
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(s);
  if (!m) throw new Error(`reference: not a number: ${s}`);
  const frac = m[3] ?? '';
  let n = BigInt((m[2] || '0') + frac) * (m[1] === '-' ? -1n : 1n);
  let d = 10n ** BigInt(frac.length);
  const e = Number(m[4] ?? 0);
  if (e > 0) n *= 10n ** BigInt(e);
  else d *= 10n ** BigInt(-e);
  return { n, d };
}

/** Compares a value with a literal: negative, 0, positive; NaN above all and equal to itself. */
export function cmp(kind: Kind, a: unknown, b: unknown): number {
  switch (kind) {
    case 'num': {
      if (typeof b === 'number' && (Number.isNaN(b) || b === Infinity)) return -1;
      if (b === -Infinity) return 1;
      // JS compares numbers and bigints (also with each other) by exact value; only decimal text needs rationals.
      if (typeof a !== 'string' && typeof b !== 'string') return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
      const x = rat(a);
      const y = rat(b);
      const l = x.n * y.d;
      const r = y.n * x.d;
      return l < r ? -1 : l > r ? 1 : 0;
    }
    case 'float': {
      const x = a as number;
      const aNaN = Number.isNaN(x);
      const bNaN = typeof b === 'number' && Number.isNaN(b);
      if (aNaN || bNaN) return aNaN && bNaN ? 0 : aNaN ? 1 : -1;
      if (typeof b === 'number') return x < b ? -1 : x > b ? 1 : 0;
      // bigint or decimal text: exact
      const y = rat(b);
      const xr = floatRat(x);
      if (xr === 'inf') return 1;
      if (xr === '-inf') return -1;
      const l = xr.n * y.d;
      const r = y.n * xr.d;
      return l < r ? -1 : l > r ? 1 : 0;
    }
    case 'str':
      return Buffer.compare(Buffer.from(a as string, 'utf8'), Buffer.from(b as string, 'utf8'));
    case 'bytes':
      return Buffer.compare(Buffer.from(a as Uint8Array), typeof b === 'string' ? Buffer.from(b, 'utf8') : Buffer.from(b as Uint8Array));
    case 'bool':
      return Number(a) - Number(b);
  }
}

function floatRat(x: number): Rat | 'inf' | '-inf' {
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  let d = 1n;
  while (!Number.isInteger(x)) {
    x *= 2;
    d *= 2n;
  }
  return { n: BigInt(x), d };
}

// ---------------------------------------------------------------- evaluation

const T = 1, F = 0, N = 2;

export function refEval(f: Filter, row: Record<string, unknown>, kinds: Map<string, { kind: Kind; path: string[] }>): number {
  if ('and' in f) {
    let r = T;
    for (const p of f.and) {
      const x = refEval(p, row, kinds);
      if (x === F) return F;
      if (x === N) r = N;
    }
    return r;
  }
  if ('or' in f) {
    let r = F;
    for (const p of f.or) {
      const x = refEval(p, row, kinds);
      if (x === T) return T;
      if (x === N) r = N;
    }
    return r;
  }
  if ('not' in f) {
    const x = refEval(f.not, row, kinds);
    return x === N ? N : x === T ? F : T;
  }
  const col = typeof f.column === 'string' ? f.column : f.column.join('.');
  const { kind, path } = kinds.get(col)!;
  const vals = rowLeafValues(row, path);
  if (f.op === 'is null') return vals.length === 0 ? T : F;
  if (f.op === 'is not null') return vals.length > 0 ? T : F;
  if (vals.length === 0) return N;
  const test = (v: unknown): number => {
    switch (f.op) {
      case '=': case '!=': case '<': case '<=': case '>': case '>=': {
        if (f.value === null) return N;
        const c = cmp(kind, v, f.value);
        return (f.op === '=' ? c === 0 : f.op === '!=' ? c !== 0 : f.op === '<' ? c < 0 : f.op === '<=' ? c <= 0 : f.op === '>' ? c > 0 : c >= 0) ? T : F;
      }
      case 'in': case 'not in': {
        const hit = f.values.some((x) => x !== null && cmp(kind, v, x) === 0);
        const miss = f.values.some((x) => x === null) ? N : F;
        if (f.op === 'in') return hit ? T : miss;
        return hit ? F : miss === N ? N : T;
      }
      default:
        throw new Error(`reference: operator ${f.op}`);
    }
  };
  let r: number = F;
  for (const v of vals) {
    const x = test(v);
    if (x === T) return T;
    if (x === N) r = N;
  }
  return r;
}

// ---------------------------------------------------------------- literals and expressions

/** Literals for a column: its smallest, largest, median and a random value, and some outside the data. */
export function sampleLiterals(kind: Kind, values: unknown[], rand: () => number): unknown[] {
  const vals = values.filter((v) => !(typeof v === 'number' && Number.isNaN(v)));
  const out: unknown[] = [];
  if (vals.length > 0) {
    const sorted = [...vals].sort((a, b) => cmp(kind, a, b));
    const min = sorted[0]!;
    const max = sorted[sorted.length - 1]!;
    out.push(min, max, sorted[sorted.length >> 1], sorted[Math.floor(rand() * sorted.length)]);
    if (kind === 'num') {
      const lo = typeof min === 'bigint' ? min - 1n : typeof min === 'number' ? min - 1 : Number(min) - 1;
      const hi = typeof max === 'bigint' ? max + 1n : typeof max === 'number' ? max + 1 : Number(max) + 1;
      out.push(lo, hi);
      const mid = sorted[sorted.length >> 1]!;
      if (typeof mid === 'number') out.push(mid + 0.5);
      if (typeof mid === 'bigint') out.push(String(mid) + '.5', Number(mid));
    } else if (kind === 'float') {
      out.push((min as number) - 1, (max as number) + 1, NaN);
    } else if (kind === 'str') {
      out.push('', (max as string) + 'z', (min as string).slice(0, 1));
    } else if (kind === 'bytes') {
      out.push(new Uint8Array(0), new Uint8Array([0xff, 0xff, 0xff]));
    }
  }
  if (kind === 'bool') out.push(true, false);
  if (kind === 'float' && vals.length === 0) out.push(0, NaN);
  return out;
}

const OPS = ['=', '!=', '<', '<=', '>', '>='] as const;

/** Single-leaf filters: every operator with every literal, in/not in, null tests. */
export function leafFilters(column: string, kind: Kind, lits: unknown[]): Filter[] {
  const out: Filter[] = [];
  for (const value of lits) for (const op of OPS) out.push({ column, op, value });
  out.push({ column, op: 'in', values: lits.slice(0, 3) }, { column, op: 'not in', values: lits.slice(1, 4) });
  out.push({ column, op: 'is null' }, { column, op: 'is not null' });
  out.push({ not: { column, op: '>', value: lits[0] } });
  void kind;
  return out;
}

/** Random and/or/not trees over the given leaf filters. */
export function compoundFilters(leaves: Filter[], count: number, rand: () => number): Filter[] {
  const pick = (): Filter => leaves[Math.floor(rand() * leaves.length)]!;
  const gen = (depth: number): Filter => {
    const r = rand();
    if (depth >= 2 || r < 0.35) return pick();
    if (r < 0.6) return { and: [gen(depth + 1), gen(depth + 1)] };
    if (r < 0.85) return { or: [gen(depth + 1), gen(depth + 1)] };
    return { not: gen(depth + 1) };
  };
  return Array.from({ length: count }, () => gen(0));
}

// ---------------------------------------------------------------- SQL

/** DuckDB SQL for a filter, or undefined when a literal has no simple SQL form (`sqlLiteral(col, undefined)` gives 'unknown column' for columns to leave out). */
export function toSql(f: Filter, sqlLiteral: (column: string, v: unknown) => string | undefined): string | undefined {
  if ('and' in f || 'or' in f) {
    const parts = ('and' in f ? f.and : (f as { or: readonly Filter[] }).or).map((p) => toSql(p, sqlLiteral));
    if (parts.some((p) => p === undefined)) return undefined;
    return `(${parts.join('and' in f ? ' AND ' : ' OR ')})`;
  }
  if ('not' in f) {
    const p = toSql(f.not, sqlLiteral);
    return p === undefined ? undefined : `(NOT ${p})`;
  }
  const col = typeof f.column === 'string' ? f.column : f.column.join('.');
  if (sqlLiteral(col, undefined) === 'unknown column') return undefined;
  if (f.op === 'is null' || f.op === 'is not null') return `(${col} ${f.op.toUpperCase()})`;
  if (f.op === 'in' || f.op === 'not in') {
    const vs = f.values.map((v) => sqlLiteral(col, v));
    if (vs.some((v) => v === undefined)) return undefined;
    return `(${col} ${f.op.toUpperCase()} (${vs.join(', ')}))`;
  }
  if (!('value' in f)) return undefined;
  const v = sqlLiteral(col, f.value);
  return v === undefined ? undefined : `(${col} ${f.op} ${v})`;
}
