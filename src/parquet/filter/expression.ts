/**
 * The filter expression API: what `rows({ filter })` takes, and its binding
 * to a file's schema (each leaf comparison resolved to a column and its
 * literals normalised into the column's comparison domain, see compare.ts).
 *
 * Semantics (README "Filtering"): SQL three-valued logic. A comparison with a
 * null column value or a null literal is unknown, so neither it nor its `not`
 * matches; `is null` / `is not null` test nulls. A leaf under a list or map
 * holds several values per row: a comparison is true when at least one of the
 * row's non-null values satisfies it, false when the row has non-null values
 * and none does, unknown when it has none (so `not (x > 5)` means "has
 * values, all of them <= 5"); `is null` is true when the row has no non-null
 * value.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { LeafNode } from '../../schema/tree.js';
import type { ColumnPath } from '../reader.js';
import { domainOf, type D, type Domain, type Lit } from './compare.js';

export type ComparisonOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type Filter =
  | { column: ColumnPath; op: ComparisonOp; value: unknown }
  | { column: ColumnPath; op: 'in' | 'not in'; values: readonly unknown[] }
  | { column: ColumnPath; op: 'is null' | 'is not null' }
  | { and: readonly Filter[] }
  | { or: readonly Filter[] }
  | { not: Filter };

/** A leaf test bound to a column. */
export interface BoundLeaf {
  t: 'leaf';
  leaf: LeafNode;
  domain: Domain;
  op: ComparisonOp | 'in' | 'not in' | 'is null' | 'is not null';
  /** The literal of a comparison; the literals of `in` / `not in`. */
  lits: Lit[];
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
const MAX_DEPTH = 1000;

/**
 * Resolves a filter against a schema: `resolve` maps a column path to its
 * leaf or variant path (throwing for unknown or group paths).
 */
export function bindFilter(filter: Filter, resolve: (column: ColumnPath) => FilterColumn): BoundFilter {
  const domains = new Map<LeafNode, Domain>();
  const test = (f: Extract<Filter, { column: ColumnPath }>): BoundFilter => {
    const target = resolve(f.column);
    if (!('typed' in target)) return leafTest(f, target);
    const typed = leafTest(f, target.typed);
    if (!target.residual) return typed;
    const residual = target.residual;
    // The path is null when both columns are; a present value is in one of them.
    if (typed.op === 'is null') return { t: 'and', parts: [typed, leafTest(f, residual)] };
    if (typed.op === 'is not null') return { t: 'or', parts: [typed, leafTest(f, residual)] };
    return { t: 'either', parts: [typed, { ...typed, leaf: residual, residual: target.reader(typed.domain.big) }] };
  };
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
    return test(f);
  };
  const leafTest = (f: Extract<Filter, { column: ColumnPath }>, leaf: LeafNode): BoundLeaf => {
    let domain = domains.get(leaf);
    if (!domain) domains.set(leaf, (domain = domainOf(leaf)));
    const op = f.op;
    if (COMPARISONS.has(op)) {
      if (!('value' in f)) throw new InvalidArgumentError(`filter "${op}" on column ${leaf.path.join('.')} needs a "value"`);
      if (op !== '=' && op !== '!=' && !domain.ordered) {
        throw new InvalidArgumentError(`column ${leaf.path.join('.')} has no order: only =, !=, in, not in and null tests apply`, { column: leaf.path.join('.') });
      }
      return { t: 'leaf', leaf, domain, op: op as ComparisonOp, lits: [domain.literal((f as { value: unknown }).value)] };
    }
    if (op === 'in' || op === 'not in') {
      const values = (f as { values: readonly unknown[] }).values;
      if (!Array.isArray(values)) throw new InvalidArgumentError(`filter "${op}" on column ${leaf.path.join('.')} needs a "values" array`);
      return { t: 'leaf', leaf, domain, op, lits: values.map((v) => domain.literal(v)) };
    }
    if (op === 'is null' || op === 'is not null') return { t: 'leaf', leaf, domain, op, lits: [] };
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
