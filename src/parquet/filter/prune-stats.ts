/**
 * What statistics prove about a filter: for a set of rows summarised by
 * per-column statistics (a row group's chunk statistics, or one page's entry
 * in the column index), whether the filter can be true for some row and
 * whether it can be false. A set whose `canTrue` is false is skipped. The
 * answer is always an over-approximation: unknown or untrusted statistics
 * answer "can", so pruning never loses a matching row.
 *
 * Statistics are trusted only where parquet-format says they can be:
 * - min_value/max_value (and the page index) in the column's ColumnOrder:
 *   TYPE_ORDER (or IEEE_754_TOTAL_ORDER for floats); a file without
 *   column_orders gets the deprecated fields' treatment;
 * - the deprecated min/max only for types whose signed order is their
 *   logical order (boolean, signed ints, date, time, timestamp, decimals in
 *   INT32/INT64, float, double): never byte arrays, unsigned ints, binary
 *   decimals, INT96, FLOAT16;
 * - no order at all for INT96, INTERVAL, GEOMETRY/GEOGRAPHY;
 * - floats: bounds leave NaNs out, so unless nan_count says 0 a NaN may be
 *   there, and comparisons NaN satisfies (`>`, `>=`, `!=`, `not in`) cannot
 *   be pruned; a NaN bound is ignored, except that in IEEE_754_TOTAL_ORDER
 *   NaN bounds mean every non-null value is a NaN (the spec's rule), and so
 *   does a nan_count equal to the non-null count; zeros compare equal, as
 *   the filter's `-0 = 0` has it, so a zero bound's sign never matters;
 * - truncated binary bounds (is_*_value_exact false, and every page index
 *   bound of a byte array column) still bound the values but never prove
 *   that all values equal one;
 * - a missing null_count is unknown;
 * - `intersects` prunes by the chunk's GeospatialStatistics box only.
 */
import type { LeafNode } from '../../schema/tree.js';
import type { BoundingBox, ColumnMetaData, ColumnOrder, Statistics } from '../metadata/index.js';
import { compareD, type D, type Domain, type Lit } from './compare.js';
import type { BoundFilter, BoundLeaf } from './expression.js';
import { chunkMayMeet } from './intersects.js';

/** What is known about one column over a set of rows. */
export interface LeafStats {
  /** Trusted bounds over the non-null (non-NaN) values; absent when unknown. */
  min?: D;
  max?: D;
  /** The bounds are the actual extreme values (not truncated), so min = max proves every value equal. */
  exact: boolean;
  /** Null entries; undefined when unknown. */
  nullCount?: number;
  /** Every entry is null. */
  allNull: boolean;
  /** A NaN may be among the values (float columns whose NaN count is not known to be 0). */
  nanPossible: boolean;
  /** Every non-null value is a NaN (float columns). */
  onlyNaN?: boolean;
  /** GEOMETRY and GEOGRAPHY chunks: the GeospatialStatistics box (pages have none). */
  geoBox?: BoundingBox;
  /** For `=` and `in`: false when a bloom filter proves the literal absent. */
  mightContain?: (lit: Lit) => boolean;
}

export interface Possible {
  canTrue: boolean;
  canFalse: boolean;
}

const ANY: Possible = { canTrue: true, canFalse: true };

/** Bounds of this leaf can be trusted: min_value/max_value (`legacy` false) or the deprecated min/max (`legacy` true). */
export function boundsTrusted(leaf: LeafNode, domain: Domain, order: ColumnOrder | undefined, legacy: boolean, ordersPresent: boolean): boolean {
  if (!domain.ordered || domain.type === 'null') return false;
  const k = leaf.kind.kind;
  const lt = (leaf.element.logicalType as { type?: string } | undefined)?.type;
  if (k === 'int96' || k === 'interval' || lt === 'GEOMETRY' || lt === 'GEOGRAPHY') return false;
  if (!legacy && ordersPresent) {
    if (!order) return false;
    if (order.type === 'TYPE_ORDER') return true;
    return order.type === 'IEEE_754_TOTAL_ORDER' && domain.type === 'float';
  }
  // The deprecated fields (and min_value/max_value without a declared order): signed order only.
  switch (k) {
    case 'boolean':
    case 'date':
    case 'time':
    case 'timestamp':
    case 'float':
      return true;
    case 'int':
      return leaf.kind.kind === 'int' && leaf.kind.signed;
    case 'decimal':
      return leaf.physicalType === 'INT32' || leaf.physicalType === 'INT64';
    default:
      return false;
  }
}

/** LeafStats from a chunk's Statistics (undefined statistics: nothing known). */
export function chunkLeafStats(
  leaf: LeafNode,
  domain: Domain,
  s: Statistics | undefined,
  numValues: number,
  order: ColumnOrder | undefined,
  ordersPresent: boolean,
): LeafStats {
  const out: LeafStats = { exact: false, allNull: false, nanPossible: domain.type === 'float' };
  if (!s) return out;
  if (s.nullCount !== undefined && s.nullCount >= 0) {
    out.nullCount = s.nullCount;
    out.allNull = numValues > 0 && s.nullCount >= numValues;
  }
  if (domain.type === 'float' && s.nanCount === 0) out.nanPossible = false;
  // A flat column's num_values counts its rows, so NaNs and nulls making up all of them leave no number.
  if (domain.type === 'float' && leaf.repLevel === 0 && s.nanCount !== undefined && out.nullCount !== undefined && s.nanCount > 0 && s.nanCount + out.nullCount === numValues) {
    out.onlyNaN = true;
  }
  const legacy = s.minValue === undefined || s.maxValue === undefined;
  const minB = legacy ? s.min : s.minValue;
  const maxB = legacy ? s.max : s.maxValue;
  if (minB === undefined || maxB === undefined) return out;
  if (!boundsTrusted(leaf, domain, order, legacy, ordersPresent)) return out;
  setBounds(out, domain, minB, maxB, legacy ? true : s.isMinValueExact !== false && s.isMaxValueExact !== false, !legacy && order?.type === 'IEEE_754_TOTAL_ORDER');
  return out;
}

/**
 * Each leaf's statistics over one row group, from its chunks' metadata
 * (`meta`); `domains` are the filter's (see scan.ts). A dataset prunes
 * files and row groups with these from footers or `_metadata` alone.
 */
export function rowGroupStats(domains: ReadonlyMap<LeafNode, Domain>, meta: (leaf: LeafNode) => ColumnMetaData, orders: readonly ColumnOrder[] | undefined): Map<LeafNode, LeafStats> {
  const stats = new Map<LeafNode, LeafStats>();
  for (const [leaf, domain] of domains) {
    const m = meta(leaf);
    const s = chunkLeafStats(leaf, domain, m.statistics, m.numValues, orders?.[leaf.columnIndex], orders !== undefined);
    if (m.geospatialStatistics?.bbox) s.geoBox = m.geospatialStatistics.bbox;
    stats.set(leaf, s);
  }
  return stats;
}

/**
 * Decodes and checks bounds into `out` (left unknown when they do not decode,
 * are NaN or are out of order). In total order (`total`) a NaN bound says
 * the values are all NaN.
 */
export function setBounds(out: LeafStats, domain: Domain, minB: Uint8Array, maxB: Uint8Array, exact: boolean, total = false): void {
  const min = domain.stat(minB);
  const max = domain.stat(maxB);
  if (min === undefined || max === undefined) return;
  const nanMin = typeof min === 'number' && Number.isNaN(min);
  const nanMax = typeof max === 'number' && Number.isNaN(max);
  if (nanMin || nanMax) {
    if (total && domain.type === 'float') out.onlyNaN = true;
    return;
  }
  if (compareD(min, max) > 0) return;
  out.min = min;
  out.max = max;
  out.exact = exact;
}

/** Can the leaf test be true / false for some row of the set? */
function leafPossible(b: BoundLeaf, s: LeafStats | undefined, repeated: boolean): Possible {
  if (!s) return ANY;
  const op = b.op;
  if (op === 'is null' || op === 'is not null') {
    const isNullTrue = s.allNull || repeated || s.nullCount === undefined || s.nullCount > 0;
    const isNullFalse = !s.allNull;
    return op === 'is null' ? { canTrue: isNullTrue, canFalse: isNullFalse } : { canTrue: isNullFalse, canFalse: isNullTrue };
  }
  if (s.allNull || b.domain.type === 'null') return { canTrue: false, canFalse: false };
  // Variant values: their statistics bound encodings, not values of the domain.
  if (b.residual) return ANY;
  if (b.geo) return { canTrue: chunkMayMeet(s.geoBox, b.geo.edges, b.geo.box), canFalse: true };
  if (b.text) return textPossible(b, s);
  if (s.onlyNaN && op !== 'in' && op !== 'not in') {
    const lit = b.lits[0]!;
    if (lit.k === 'null') return { canTrue: false, canFalse: false };
    // Every value is NaN: the test has one answer (NaN equals NaN and is above every number).
    const isNaN = lit.k === 'nan';
    const t = op === '>=' || (isNaN ? op === '=' || op === '<=' : op === '!=' || op === '>');
    return { canTrue: t, canFalse: !t };
  }
  if (op === 'in' || op === 'not in') {
    let canTrue = false;
    let allMatch = false;
    const hasNull = b.lits.some((l) => l.k === 'null');
    for (const l of b.lits) {
      const p = eqPossible(l, s);
      if (p.canTrue) canTrue = true;
      if (!p.canFalse) allMatch = true;
    }
    const inP: Possible = { canTrue, canFalse: !hasNull && !allMatch };
    return op === 'in' ? inP : { canTrue: inP.canFalse, canFalse: inP.canTrue };
  }
  const lit = b.lits[0]!;
  if (lit.k === 'null') return { canTrue: false, canFalse: false };
  if (op === '=') return eqPossible(lit, s);
  if (op === '!=') {
    const p = eqPossible(lit, s, false);
    return { canTrue: p.canFalse, canFalse: p.canTrue };
  }
  const nan = s.nanPossible;
  if (lit.k === 'nan') {
    switch (op) {
      case '<': return { canTrue: true, canFalse: nan };
      case '<=': return { canTrue: true, canFalse: false };
      case '>': return { canTrue: false, canFalse: true };
      default: return { canTrue: nan, canFalse: true };
    }
  }
  if (lit.k !== 'val' || s.min === undefined || s.max === undefined) return ANY;
  const { min, max } = s;
  switch (op) {
    case '<': return { canTrue: compareD(min, lit.hi) < 0, canFalse: nan || compareD(max, lit.hi) >= 0 };
    case '<=': return { canTrue: compareD(min, lit.lo) <= 0, canFalse: nan || compareD(max, lit.lo) > 0 };
    case '>': return { canTrue: nan || compareD(max, lit.lo) > 0, canFalse: compareD(min, lit.lo) <= 0 };
    default: return { canTrue: nan || compareD(max, lit.hi) >= 0, canFalse: compareD(min, lit.hi) < 0 };
  }
}

/**
 * A text test (LIKE, starts_with, contains, a comparison of lower/upper):
 * decided on the one value exact bounds may prove, else bounded by its
 * prefix range (truncated bounds still bound the values).
 */
function textPossible(b: BoundLeaf, s: LeafStats): Possible {
  const { min, max } = s;
  if (!(min instanceof Uint8Array) || !(max instanceof Uint8Array)) return ANY;
  if (s.exact && compareD(min, max) === 0) {
    const hit = b.text!(new TextDecoder().decode(min));
    if (b.op !== 'in' && b.op !== 'not in') return { canTrue: hit, canFalse: !hit };
    // A miss is unknown, not false, when the list holds a null.
    const sure = !b.lits.some((l) => l.k === 'null');
    return b.op === 'in' ? { canTrue: hit, canFalse: !hit && sure } : { canTrue: !hit && sure, canFalse: hit };
  }
  const p = b.prefix;
  if (!p) return ANY;
  const canTrue = compareD(max, p.lo) >= 0 && (p.hi === undefined || compareD(min, p.hi) < 0);
  const allIn = p.all && compareD(min, p.lo) >= 0 && p.hi !== undefined && compareD(max, p.hi) < 0;
  return { canTrue, canFalse: !allIn };
}

/** `=` one literal; `bloom` false when the caller must not use a bloom filter (a negated test). */
function eqPossible(lit: Lit, s: LeafStats, bloom = true): Possible {
  if (lit.k === 'null') return { canTrue: false, canFalse: false };
  if (s.onlyNaN) return { canTrue: lit.k === 'nan', canFalse: lit.k !== 'nan' };
  if (lit.k === 'nan') return { canTrue: s.nanPossible, canFalse: true };
  if (!lit.exact) return { canTrue: false, canFalse: true };
  let canTrue = true;
  let canFalse = true;
  if (s.min !== undefined && s.max !== undefined) {
    canTrue = compareD(s.min, lit.lo) <= 0 && compareD(s.max, lit.lo) >= 0;
    if (s.exact && !s.nanPossible && compareD(s.min, lit.lo) === 0 && compareD(s.max, lit.lo) === 0) canFalse = false;
  }
  if (canTrue && bloom && s.mightContain && !s.mightContain(lit)) canTrue = false;
  return { canTrue, canFalse };
}

/** Can the filter be true / false for some row of a set, given each column's statistics over it? */
export function possible(f: BoundFilter, stats: (leaf: LeafNode) => LeafStats | undefined): Possible {
  switch (f.t) {
    case 'leaf':
      return leafPossible(f, stats(f.leaf), f.leaf.repLevel > 0);
    case 'not': {
      const p = possible(f.part, stats);
      return { canTrue: p.canFalse, canFalse: p.canTrue };
    }
    case 'and': {
      let canTrue = true;
      let canFalse = false;
      for (const part of f.parts) {
        const p = possible(part, stats);
        canTrue &&= p.canTrue;
        canFalse ||= p.canFalse;
      }
      return { canTrue, canFalse };
    }
    case 'or': {
      let canTrue = false;
      let canFalse = true;
      for (const part of f.parts) {
        const p = possible(part, stats);
        canTrue ||= p.canTrue;
        canFalse &&= p.canFalse;
      }
      return { canTrue, canFalse };
    }
    case 'either': {
      // Each row takes one part's answer: any answer either part can give.
      const [a, b] = f.parts.map((part) => possible(part, stats)) as [Possible, Possible];
      return { canTrue: a.canTrue || b.canTrue, canFalse: a.canFalse || b.canFalse };
    }
  }
}

/** Leaves whose `=` / `in` tests a bloom filter could refute (outside any `not`). */
export function bloomCandidates(f: BoundFilter, out = new Set<LeafNode>(), negated = false): Set<LeafNode> {
  switch (f.t) {
    case 'leaf':
      if (!negated && !f.text && !f.residual && (f.op === '=' || f.op === 'in') && f.lits.some((l) => l.k === 'val' && l.exact)) out.add(f.leaf);
      break;
    case 'not':
      bloomCandidates(f.part, out, !negated);
      break;
    default:
      for (const p of f.parts) bloomCandidates(p, out, negated);
  }
  return out;
}
