/**
 * The filter expression API: what `rows({ filter })` takes, and its binding
 * to a file's schema (each leaf comparison resolved to a column and its
 * literals normalised into the column's comparison domain, see compare.ts).
 *
 * Semantics (docs/filtering.md): SQL three-valued logic. A comparison with a
 * null column value or a null literal is unknown, so neither it nor its `not`
 * matches; `is null` / `is not null` test nulls. A leaf under a list or map
 * holds several values per row: a comparison is true when at least one of the
 * row's non-null values satisfies it, false when the row has non-null values
 * and none does, unknown when it has none (so `not (x > 5)` means "has
 * values, all of them <= 5"); `is null` is true when the row has no non-null
 * value. `intersects` is true when a GEOMETRY or GEOGRAPHY value's box
 * meets the query box (intersects.ts).
 */
import { InvalidArgumentError } from '../../errors.js';
import type { LeafNode } from '../../schema/tree.js';
import type { ColumnPath } from '../../schema/tree.js';
import { domainOf, type D, type Domain, type Lit } from './compare.js';
import { caseFreePrefix, compileLike, mapCase, prefixRange, textPredicate, type CaseMap, type TextPrefix } from './text.js';
import type { Edges } from '../../geo/bounds.js';
import { bindIntersects, type QueryBox } from './intersects.js';

/** The comparison operators of a filter leaf `{ column, op, value }`. */
export type ComparisonOp = '=' | '!=' | '<' | '<=' | '>' | '>=';
/** The pattern operators of a filter leaf on a text column: SQL LIKE and ILIKE, and their negations. */
export type LikeOp = 'like' | 'not like' | 'ilike' | 'not ilike';

/**
 * A filter. Leaves name a `column`; `transform` (text columns) compares
 * `lower(column)` or `upper(column)` instead, as DuckDB maps case (one code
 * point at a time). `like`/`ilike` patterns take `%` (any run) and `_` (one
 * character) and have no escape character unless `escape` gives one;
 * `ilike` compares both sides lowered. `starts_with` and `contains` test a
 * substring. A `value` of DATE/TIMESTAMP/TIMESTAMPTZ type is a
 * {@link TemporalLiteral}.
 */
export type Filter =
  | { column: ColumnPath; op: ComparisonOp; value: unknown; transform?: CaseMap }
  | { column: ColumnPath; op: 'in' | 'not in'; values: readonly unknown[]; transform?: CaseMap }
  | { column: ColumnPath; op: 'between' | 'not between'; low: unknown; high: unknown; transform?: CaseMap }
  | { column: ColumnPath; op: 'is distinct from' | 'is not distinct from'; value: unknown; transform?: CaseMap }
  | { column: ColumnPath; op: LikeOp; value: string | null; escape?: string; transform?: CaseMap }
  | { column: ColumnPath; op: 'starts_with' | 'contains'; value: string | null; transform?: CaseMap }
  | { column: ColumnPath; op: 'is null' | 'is not null' }
  | { column: ColumnPath; op: 'intersects'; box: QueryBox }
  | { and: readonly Filter[] }
  | { or: readonly Filter[] }
  | { not: Filter };

/**
 * SQL's typed literals: `DATE '2024-01-02'`, `TIMESTAMP '2024-01-02
 * 10:00:00.5'` (an offset in the text is ignored, digits past microseconds
 * dropped, as DuckDB does), `TIMESTAMPTZ '…+02'` (the offset applied; none
 * is UTC). They compare with DATE, TIMESTAMP (any unit) and INT96 columns
 * exactly, a date as its midnight, and with nothing else.
 */
export type TemporalLiteral = { date: string } | { timestamp: string } | { timestamptz: string };

/** A leaf test bound to a column. */
export interface BoundLeaf {
  t: 'leaf';
  leaf: LeafNode;
  domain: Domain;
  op: ComparisonOp | 'in' | 'not in' | 'is null' | 'is not null' | 'like' | 'ilike' | 'starts_with' | 'contains' | 'intersects';
  /** The literal of a comparison or text test; the literals of `in` / `not in`. */
  lits: Lit[];
  /** For text tests and transformed comparisons: the test of one decoded value (`in`: whether it is in the list). */
  text?: (s: string) => boolean;
  /** The byte range a text test's matches lie in (unbounded above without `hi`); `all` when every value in it matches. */
  prefix?: TextPrefix;
  /** `intersects`: the column's edges and the query box. */
  geo?: { edges: Edges; box: QueryBox };
  /**
   * Set when the column holds variant values (the residual `value` of a
   * shredded variant path): each value read into `domain` (the typed
   * column's), undefined when its type does not compare (then unknown).
   */
  residual?: (bytes: Uint8Array) => D | undefined;
}

export type BoundFilter =
  | BoundLeaf
  | { t: 'and'; parts: BoundFilter[] }
  | { t: 'or'; parts: BoundFilter[] }
  | { t: 'not'; part: BoundFilter }
  /** A variant path's test: the first part's result where it is known (its column has the value), else the second's. */
  | { t: 'either'; parts: [BoundFilter, BoundFilter] };

/** What a filter's column names: a leaf column, or a path inside a shredded variant (see variant/filter.ts). */
export type FilterColumn =
  | LeafNode
  | { typed: LeafNode; residual?: LeafNode; reader(big: boolean): (bytes: Uint8Array) => D | undefined };

const COMPARISONS = new Set(['=', '!=', '<', '<=', '>', '>=']);
const TEXT_OPS = new Set(['like', 'not like', 'ilike', 'not ilike', 'starts_with', 'contains']);
type LeafFilter = Extract<Filter, { column: ColumnPath }>;
const MAX_DEPTH = 1000;

/**
 * Resolves a filter against a schema: `resolve` maps a column path to its
 * leaf or variant path (throwing for unknown or group paths).
 */
export function bindFilter(filter: Filter, resolve: (column: ColumnPath) => FilterColumn): BoundFilter {
  const domains = new Map<LeafNode, Domain>();
  const bind = (f: Filter, depth: number): BoundFilter => {
    if (depth > MAX_DEPTH) throw new InvalidArgumentError(`filter nests deeper than ${MAX_DEPTH} levels`);
    if (f === null || typeof f !== 'object') throw new InvalidArgumentError(`a filter must be an object, got ${String(f)}`);
    const keys = Object.keys(f);
    if ('and' in f || 'or' in f) {
      const key = 'and' in f ? 'and' : 'or';
      const parts = (f as { and: readonly Filter[] }).and ?? (f as { or: readonly Filter[] }).or;
      if (!Array.isArray(parts) || keys.length !== 1) throw new InvalidArgumentError(`a filter "${key}" takes an array of filters and nothing else`);
      return { t: key, parts: parts.map((p) => bind(p, depth + 1)) };
    }
    if ('not' in f) {
      if (keys.length !== 1) throw new InvalidArgumentError('a filter "not" takes one filter and nothing else');
      return { t: 'not', part: bind(f.not, depth + 1) };
    }
    if (!('column' in f) || !('op' in f)) throw new InvalidArgumentError(`a filter needs "column" and "op", or "and", "or", "not"; got keys ${keys.join(', ')}`);
    return bindLeaf(f);
  };
  const bindLeaf = (f: LeafFilter): BoundFilter => {
    const target = resolve(f.column);
    return 'typed' in target ? bindVariant(f, target) : bindOn(f, target);
  };
  /**
   * A test on a variant path: on its typed column, and on the pair's residual
   * `value` column for the values of other types. Forms made of several
   * tests (BETWEEN, IS DISTINCT FROM) bind each part through bindLeaf.
   */
  const bindVariant = (f: LeafFilter, target: Exclude<FilterColumn, LeafNode>): BoundFilter => {
    const typed = bindOn(f, target.typed);
    const residual = target.residual;
    if (!residual || typed.t !== 'leaf' || typed.op === 'intersects') return typed;
    // The path is null when both columns are; a present value is in one of them.
    if (typed.op === 'is null') return { t: 'and', parts: [typed, bindOn(f, residual)] };
    if (typed.op === 'is not null') return { t: 'or', parts: [typed, bindOn(f, residual)] };
    // A text test takes strings, and a string column's residual values are never strings: unknown.
    const read = typed.text || typed.prefix ? () => undefined : target.reader(typed.domain.big);
    return { t: 'either', parts: [typed, { t: 'leaf', leaf: residual, domain: typed.domain, op: typed.op, lits: typed.lits, residual: read }] };
  };
  const bindOn = (f: LeafFilter, leaf: LeafNode): BoundFilter => {
    let domain = domains.get(leaf);
    if (!domain) domains.set(leaf, (domain = domainOf(leaf)));
    const name = leaf.path.join('.');
    const op = f.op;
    const transform = 'transform' in f ? f.transform : undefined;
    if (transform !== undefined || TEXT_OPS.has(op)) {
      if (transform !== undefined && transform !== 'lower' && transform !== 'upper') throw new InvalidArgumentError(`unknown filter transform ${JSON.stringify(transform)} (lower or upper)`);
      if (leaf.kind.kind !== 'string') {
        throw new InvalidArgumentError(`${transform ? `${transform}()` : op.toUpperCase()} takes a text column; ${name} is not one`, { column: name });
      }
    }
    const need = (key: string): unknown => {
      if (!(key in f)) throw new InvalidArgumentError(`filter "${op}" on column ${name} needs a "${key}"`);
      return (f as Record<string, unknown>)[key];
    };
    const bound = (o: BoundLeaf['op'], lits: Lit[], text?: (s: string) => boolean, prefix?: TextPrefix): BoundLeaf => ({ t: 'leaf', leaf, domain, op: o, lits, ...(text ? { text } : {}), ...(prefix ? { prefix } : {}) });
    if (op === 'between' || op === 'not between') {
      const range: BoundFilter = { t: 'and', parts: [bindLeaf({ column: f.column, op: '>=', value: need('low'), transform }), bindLeaf({ column: f.column, op: '<=', value: need('high'), transform })] };
      return op === 'between' ? range : { t: 'not', part: range };
    }
    if (op === 'is distinct from' || op === 'is not distinct from') {
      const value = need('value');
      const same: BoundFilter =
        value === null || value === undefined
          ? bindLeaf({ column: f.column, op: 'is null' })
          : { t: 'and', parts: [bindLeaf({ column: f.column, op: '=', value, transform }), bindLeaf({ column: f.column, op: 'is not null' })] };
      return op === 'is not distinct from' ? same : { t: 'not', part: same };
    }
    if (TEXT_OPS.has(op)) {
      const value = need('value');
      if (value !== null && value !== undefined && typeof value !== 'string') throw new InvalidArgumentError(`filter "${op}" on column ${name} takes a string, got ${typeof value}`, { column: name });
      const lit = domain.literal(value);
      if (typeof value !== 'string') return bound(op.replace('not ', '') as BoundLeaf['op'], [lit]);
      if (op === 'starts_with' || op === 'contains') {
        return bound(op, [lit], textPredicate(op, value, transform), op === 'starts_with' && !transform ? prefixRange(value, true) : undefined);
      }
      const insensitive = op === 'ilike' || op === 'not ilike';
      const escape = (f as { escape?: unknown }).escape;
      if (escape !== undefined && typeof escape !== 'string') throw new InvalidArgumentError(`a LIKE escape must be a string, got ${typeof escape}`);
      const pattern = compileLike(insensitive ? mapCase(value, 'lower') : value, escape);
      let prefix: TextPrefix | undefined;
      if (!transform) {
        const p = insensitive ? caseFreePrefix(pattern.prefix) : pattern.prefix;
        prefix = prefixRange(p, pattern.prefixOnly && p === pattern.prefix);
      }
      const like = bound(insensitive ? 'ilike' : 'like', [lit], textPredicate(insensitive ? 'ilike' : 'like', pattern, transform), prefix);
      return op.startsWith('not ') ? { t: 'not', part: like } : like;
    }
    if (COMPARISONS.has(op)) {
      const value = need('value');
      if (op !== '=' && op !== '!=' && !domain.ordered) {
        throw new InvalidArgumentError(`column ${name} has no order: only =, !=, in, not in and null tests apply`, { column: name });
      }
      const lit = domain.literal(value);
      return bound(op as ComparisonOp, [lit], transform && lit.k === 'val' ? textPredicate(op as ComparisonOp, lit.lo as Uint8Array, transform) : undefined);
    }
    if (op === 'in' || op === 'not in') {
      const values = (f as { values: readonly unknown[] }).values;
      if (!Array.isArray(values)) throw new InvalidArgumentError(`filter "${op}" on column ${name} needs a "values" array`);
      const lits = values.map((v) => domain.literal(v));
      const set = lits.flatMap((l) => (l.k === 'val' ? [l.lo as Uint8Array] : []));
      return bound(op, lits, transform ? textPredicate('in', set, transform) : undefined);
    }
    if (op === 'is null' || op === 'is not null') return bound(op, []);
    if (op === 'intersects') return { ...bound(op, []), geo: bindIntersects(leaf, (f as { box?: unknown }).box) };
    throw new InvalidArgumentError(`unknown filter operator ${JSON.stringify(op)}`);
  };
  return bind(filter, 0);
}

/** The distinct leaves a bound filter tests, in first-use order. */
export function filterLeaves(f: BoundFilter, out: LeafNode[] = []): LeafNode[] {
  switch (f.t) {
    case 'leaf':
      if (!out.includes(f.leaf)) out.push(f.leaf);
      break;
    case 'not':
      filterLeaves(f.part, out);
      break;
    default: // and, or, either
      for (const p of f.parts) filterLeaves(p, out);
  }
  return out;
}

/** Each leaf a bound filter tests, with its comparison domain (a residual variant column's own: its statistics bound variant bytes). */
export function filterDomains(f: BoundFilter, out = new Map<LeafNode, Domain>()): Map<LeafNode, Domain> {
  if (f.t === 'leaf') out.set(f.leaf, f.residual ? domainOf(f.leaf) : f.domain);
  else if (f.t === 'not') filterDomains(f.part, out);
  else for (const p of f.parts) filterDomains(p, out);
  return out;
}
