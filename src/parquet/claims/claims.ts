/**
 * What a file states about a column chunk's data apart from the data pages
 * themselves (chunk Statistics, SizeStatistics, and per page the column
 * index and the offset index's unencoded bytes), each tested against a
 * tally of the decoded data. Only claims parquet-format makes binding are
 * tested here: counts, and bounds under an order a reader may trust (the
 * filter layer's rules: truncated or deprecated bounds that are legitimately
 * loose never contradict values inside them; under IEEE_754_TOTAL_ORDER the
 * bounds' bit patterns, zero signs and NaN bounds included). `check-stats` reports what
 * contradicts them as lies; the salvage read loses the pages that do, since
 * a page overwritten by another of the same size keeps a valid CRC.
 */
import type { GroupNode, LeafNode, SchemaNode } from '../../schema/tree.js';
import { canonicalValue } from '../../text/canonical.js';
import { compareD, domainOf, type D, type Domain } from '../filter/compare.js';
import { boundsTrusted, chunkLeafStats } from '../filter/prune-stats.js';
import type { ColumnIndex, ColumnMetaData, ColumnOrder } from '../metadata/index.js';
import { compareTotalOrder, floatBytes, floatOf } from '../float-order.js';
import { hex } from '../../schema/convert.js';
import { statisticValue } from '../statistics.js';
import { Tally } from './tally.js';

export type ClaimStructure = 'statistics' | 'size statistics' | 'column index' | 'offset index';

/** A claim the data contradicts. */
export interface Contradiction {
  structure: ClaimStructure;
  /** The thrift field: `max_value`, `null_count`, … */
  field: string;
  /** What the file says and what the data holds, as canonical JSON text (or a plain description). */
  stored: string;
  actual: string;
  /** Index of the page in the page index (column and offset index claims, and chunk bounds a page's values break). */
  page?: number;
}

/**
 * Bounds the file states and the names of the fields holding them: as
 * domain values, or under IEEE_754_TOTAL_ORDER as their PLAIN bytes, which
 * that order compares (-0 below +0, NaNs by sign and payload).
 */
export type StatedBounds = { names: [string, string] } & ({ min: D; max: D } | { totalMin: Uint8Array; totalMax: Uint8Array });

/** A contradiction in the words `check-stats` prints it. */
export function contradictionText(c: Contradiction): string {
  return `${c.structure}${c.page === undefined ? '' : `, page ${c.page}`}, ${c.field} stored ${c.stored}, actual ${c.actual}`;
}

/** The claims about one leaf's chunks, and how its values compare. */
export class LeafClaims {
  readonly domain: Domain;
  /** The definition level at which the leaf's value slot exists (see elementSlotDef). */
  readonly slotDef: number;
  readonly order: ColumnOrder | undefined;
  /** A float column in IEEE_754_TOTAL_ORDER: its bounds hold in that order, NaN and zero signs included. */
  readonly totalOrder: boolean;
  private readonly ordersPresent: boolean;

  constructor(root: GroupNode, readonly leaf: LeafNode, columnOrders: readonly ColumnOrder[] | undefined) {
    this.domain = domainOf(leaf);
    this.order = columnOrders?.[leaf.columnIndex];
    this.slotDef = elementSlotDef(root, leaf);
    this.ordersPresent = columnOrders !== undefined;
    this.totalOrder = this.order?.type === 'IEEE_754_TOTAL_ORDER' && this.domain.type === 'float';
  }

  /** A tally of the leaf's values; with `distinct`, telling floats apart as the column order does. */
  tally(distinct = false): Tally {
    return new Tally(this.leaf, this.slotDef, distinct && (this.totalOrder ? 'bits' : 'value'));
  }

  /** The chunk statistics' trusted bounds; undefined when there are none. */
  chunkBounds(meta: ColumnMetaData): StatedBounds | undefined {
    const s = meta.statistics;
    if (!s) return undefined;
    const legacy = s.minValue === undefined || s.maxValue === undefined;
    if (this.totalOrder && !legacy) return this.totalBounds(['min_value', 'max_value'], s.minValue!, s.maxValue!);
    const known = chunkLeafStats(this.leaf, this.domain, s, meta.numValues, this.order, this.ordersPresent);
    if (known.min === undefined || known.max === undefined) return undefined;
    return { min: known.min, max: known.max, names: legacy ? ['min', 'max'] : ['min_value', 'max_value'] };
  }

  /** Total-order bounds from their bytes; undefined when either is not a float of the leaf's width. */
  private totalBounds(names: [string, string], min: Uint8Array | undefined, max: Uint8Array | undefined): StatedBounds | undefined {
    const width = this.leaf.physicalType === 'DOUBLE' ? 8 : this.leaf.physicalType === 'FLOAT' ? 4 : 2;
    if (min?.length !== width || max?.length !== width) return undefined;
    return { names, totalMin: min, totalMax: max };
  }

  /** The chunk's Statistics (null and NaN counts, bounds) and SizeStatistics against the whole chunk's tally. */
  chunk(meta: ColumnMetaData, t: Tally): Contradiction[] {
    const out: Contradiction[] = [];
    const s = meta.statistics;
    if (s) {
      if (s.nullCount !== undefined && !t.nullsHold(s.nullCount)) out.push({ structure: 'statistics', field: 'null_count', stored: String(s.nullCount), actual: t.nullsText });
      if (s.nanCount !== undefined && s.nanCount !== t.nans) out.push({ structure: 'statistics', field: 'nan_count', stored: String(s.nanCount), actual: String(t.nans) });
      const b = this.chunkBounds(meta);
      if (b) out.push(...this.bounds('statistics', b, t));
    }
    const ss = meta.sizeStatistics;
    if (ss) {
      const at = (field: string, stored: number[] | number, actual: number[] | number) => out.push({ structure: 'size statistics', field, stored: listText(stored), actual: listText(actual) });
      // An empty histogram claims nothing: writers leave it so where the level is always 0.
      if (ss.repetitionLevelHistogram?.length && !same(ss.repetitionLevelHistogram, t.repHistogram)) at('repetition_level_histogram', ss.repetitionLevelHistogram, t.repHistogram);
      if (ss.definitionLevelHistogram?.length && !same(ss.definitionLevelHistogram, t.defHistogram)) at('definition_level_histogram', ss.definitionLevelHistogram, t.defHistogram);
      if (ss.unencodedByteArrayDataBytes !== undefined && this.leaf.physicalType === 'BYTE_ARRAY' && ss.unencodedByteArrayDataBytes !== t.byteArrayBytes) {
        at('unencoded_byte_array_data_bytes', ss.unencodedByteArrayDataBytes, t.byteArrayBytes);
      }
    }
    return out;
  }

  /** Whether the column index's min_values and max_values bind this leaf's values. */
  indexBoundsTrusted(): boolean {
    return boundsTrusted(this.leaf, this.domain, this.order, false, this.ordersPresent);
  }

  /**
   * Page `i` of `pages` against its column index entry (null_pages, null and
   * NaN counts, bounds when `trusted`, level histograms where their lists fit
   * `pages`) and its offset index unencoded bytes (when the list fits).
   */
  page(i: number, t: Tally, pages: number, ci: ColumnIndex | null, unencoded: readonly number[] | undefined, trusted: boolean): Contradiction[] {
    const out: Contradiction[] = [];
    const lie = (structure: ClaimStructure, field: string, stored: string, actual: string) => out.push({ structure, field, stored, actual, page: i });
    if (unencoded?.length === pages && this.leaf.physicalType === 'BYTE_ARRAY' && unencoded[i] !== t.byteArrayBytes) {
      lie('offset index', 'unencoded_byte_array_data_bytes', String(unencoded[i]), String(t.byteArrayBytes));
    }
    if (!ci) return out;
    const histogram = (field: string, flat: number[] | undefined, levels: number, actual: number[]) => {
      if (flat?.length !== pages * levels) return;
      const stored = flat.slice(i * levels, (i + 1) * levels);
      if (!same(stored, actual)) lie('column index', field, listText(stored), listText(actual));
    };
    histogram('repetition_level_histograms', ci.repetitionLevelHistograms, this.leaf.repLevel + 1, t.repHistogram);
    histogram('definition_level_histograms', ci.definitionLevelHistograms, this.leaf.defLevel + 1, t.defHistogram);
    const nullPage = t.entries > 0 && t.values === 0;
    if (ci.nullPages[i] !== nullPage) lie('column index', 'null_pages', String(ci.nullPages[i]), String(nullPage));
    if (ci.nullCounts && !t.nullsHold(ci.nullCounts[i]!)) lie('column index', 'null_counts', String(ci.nullCounts[i]), t.nullsText);
    if (ci.nanCounts && ci.nanCounts[i] !== t.nans) lie('column index', 'nan_counts', String(ci.nanCounts[i]), String(t.nans));
    if (!trusted || ci.nullPages[i]) return out;
    const b = this.pageBounds(ci, i);
    if (b) out.push(...this.bounds('column index', b, t, i));
    return out;
  }

  /** Page `i`'s column index bounds; undefined when they are missing or not of the leaf's type. */
  pageBounds(ci: ColumnIndex, i: number): StatedBounds | undefined {
    const names: [string, string] = ['min_values', 'max_values'];
    if (this.totalOrder) return this.totalBounds(names, ci.minValues[i], ci.maxValues[i]);
    const min = ci.minValues[i] && this.domain.stat(ci.minValues[i]);
    const max = ci.maxValues[i] && this.domain.stat(ci.maxValues[i]);
    return min === undefined || max === undefined ? undefined : { names, min, max };
  }

  /**
   * Bounds against a tally's extremes: contradicted when a value lies
   * outside them. `part`: the tally is of part of what the bounds cover (a
   * page under its chunk's statistics), so under total order its NaNs are
   * held to them only where the bounds are NaNs themselves (an all-NaN page
   * of a chunk with numbers is bounded by its numbers).
   */
  bounds(structure: ClaimStructure, b: StatedBounds, t: Tally, page?: number, part = false): Contradiction[] {
    const out: Contradiction[] = [];
    const at = page === undefined ? {} : { page };
    const [minName, maxName] = b.names;
    if ('min' in b) {
      if (t.min !== undefined && compareD(t.min, b.min) < 0) out.push({ structure, field: minName, stored: this.text(b.min), actual: t.minText, ...at });
      if (t.max !== undefined && compareD(t.max, b.max) > 0) out.push({ structure, field: maxName, stored: this.text(b.max), actual: t.maxText, ...at });
      return out;
    }
    // The set's least and greatest value that is not NaN (-0 below +0), or of an all-NaN set its least and greatest NaN (the spec's rule).
    const width = b.totalMin.length;
    let lo: Uint8Array | undefined;
    let hi: Uint8Array | undefined;
    let loText = t.minText;
    let hiText = t.maxText;
    if (t.min !== undefined) {
      // The tally compares zeros as equal; which ones it saw decides the total-order extremes.
      lo = floatBytes(t.min === 0 ? (t.zeros & 1 ? -0 : 0) : (t.min as number), width);
      hi = floatBytes(t.max === 0 ? (t.zeros & 2 ? 0 : -0) : (t.max as number), width);
      if (t.min === 0) loText = t.zeros & 1 ? '-0' : '0';
      if (t.max === 0) hiText = t.zeros & 2 ? '0' : '-0';
    } else if (t.nanLo && !(part && !Number.isNaN(floatOf(b.totalMin)) && !Number.isNaN(floatOf(b.totalMax)))) {
      [lo, hi] = [t.nanLo, t.nanHi!];
      loText = totalText(lo);
      hiText = totalText(hi);
    }
    if (lo && compareTotalOrder(b.totalMin, lo) > 0) out.push({ structure, field: minName, stored: totalText(b.totalMin), actual: loText, ...at });
    if (hi && compareTotalOrder(b.totalMax, hi) < 0) out.push({ structure, field: maxName, stored: totalText(b.totalMax), actual: hiText, ...at });
    return out;
  }

  /** A domain value (a statistics bound) as text. */
  text(d: D): string {
    if (d instanceof Uint8Array) return canonicalValue(this.leaf.kind, statisticValue(this.leaf, d));
    return typeof d === 'bigint' ? d.toString() : String(d);
  }
}

/** PLAIN float bytes as text, a NaN with its bits and a zero with its sign. */
function totalText(b: Uint8Array): string {
  const v = floatOf(b);
  return Number.isNaN(v) ? `NaN (0x${hex(b)})` : Object.is(v, -0) ? '-0' : String(v);
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
export const listText = (v: number[] | number) => (typeof v === 'number' ? String(v) : `[${v.join(', ')}]`);

/** Each leaf's slot level (elementSlotDef), found in one pass per schema: a search down each leaf's path would cost leaves × width on a wide schema. */
const slotDefs = new WeakMap<GroupNode, Map<LeafNode, number>>();

/**
 * The definition level at which a leaf's value slot exists: below it an
 * entry is an empty or null list (or map), not a null value. Writers count
 * nulls both ways (parquet-java every entry below the leaf's level, Arrow
 * only null values in existing slots), so either count is honest.
 */
function elementSlotDef(root: GroupNode, leaf: LeafNode): number {
  let levels = slotDefs.get(root);
  if (!levels) {
    const found = new Map<LeafNode, number>();
    // The slot is at the deepest repeated node on the path (the leaf itself when repeated), else level 0.
    const walk = (node: SchemaNode, slot: number): void => {
      const s = node.repetition === 'REPEATED' ? node.defLevel : slot;
      if (node.isLeaf) found.set(node, s);
      else for (const c of node.children) walk(c, s);
    };
    for (const c of root.children) walk(c, 0);
    slotDefs.set(root, (levels = found));
  }
  return levels.get(leaf)!;
}
