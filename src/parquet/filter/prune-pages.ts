/**
 * Page pruning with the page index. The row ranges of a row group where the
 * filter can be true come from each filter column's ColumnIndex (per-page
 * statistics) and OffsetIndex (where each page's rows start): the row group
 * is cut at every page boundary of every filter column, and each piece is
 * kept when the filter can be true given the statistics of the pages that
 * cover it. Every column read (projected or filter) then decodes only the
 * pages that overlap the kept ranges, and its decoded levels and values are
 * trimmed to exactly those ranges, so all columns line up row for row (a
 * page's rows are counted by repetition level 0, so nested columns line up
 * too).
 */
import { CorruptFileError } from '../../errors.js';
import { isByteArrays, type Values } from '../../encodings/types.js';
import type { LeafNode } from '../../schema/tree.js';
import type { ColumnChunkData } from '../../shred/column-data.js';
import type { ColumnIndex, ColumnOrder, OffsetIndex } from '../metadata/index.js';
import type { Domain } from './compare.js';
import type { BoundFilter } from './expression.js';
import type { Range } from './indexes.js';
import { boundsTrusted, possible, setBounds, type LeafStats } from './prune-stats.js';

export interface LeafPageIndex {
  leaf: LeafNode;
  domain: Domain;
  ci: ColumnIndex;
  oi: OffsetIndex;
  order: ColumnOrder | undefined;
  ordersPresent: boolean;
}

/**
 * Whether a column index is consistent enough to prune with. Some writers
 * emit placeholders (parquet-mr without statistics: every page "null" with
 * null count -1) or contradict themselves (an arrow-rs build marks every page
 * of a list column null while the chunk statistics have bounds); such an
 * index is ignored rather than trusted.
 */
export function usableColumnIndex(ci: ColumnIndex, oi: OffsetIndex, leaf: LeafNode, numRows: number, chunkHasValues: boolean): boolean {
  const locs = oi.pageLocations;
  let allNull = locs.length > 0;
  for (let i = 0; i < locs.length; i++) {
    const rows = (i + 1 < locs.length ? locs[i + 1]!.firstRowIndex : numRows) - locs[i]!.firstRowIndex;
    const nc = ci.nullCounts?.[i];
    if (nc !== undefined && !(nc >= 0)) return false;
    if (ci.nullPages[i]) {
      if (leaf.defLevel === 0) return false;
      if (nc !== undefined && leaf.repLevel === 0 && nc !== rows) return false;
    } else allNull = false;
  }
  return !(allNull && chunkHasValues);
}

/** LeafStats of page `i` from a column index. */
function pageStats(p: LeafPageIndex, i: number): LeafStats {
  const { ci, domain, leaf } = p;
  const s: LeafStats = { exact: false, allNull: ci.nullPages[i] === true, nanPossible: domain.type === 'float' };
  if (ci.nullCounts) s.nullCount = ci.nullCounts[i];
  if (domain.type === 'float' && ci.nanCounts && ci.nanCounts[i] === 0) s.nanPossible = false;
  if (!s.allNull && boundsTrusted(leaf, domain, p.order, false, p.ordersPresent)) {
    // Byte-array bounds in a page index may be truncated, with no flag to say so.
    const exact = domain.type !== 'bytes' && leaf.physicalType !== 'BYTE_ARRAY' && leaf.physicalType !== 'FIXED_LEN_BYTE_ARRAY';
    setBounds(s, domain, ci.minValues[i]!, ci.maxValues[i]!, exact, p.order?.type === 'IEEE_754_TOTAL_ORDER');
  }
  return s;
}

/** The row ranges of a row group of `numRows` rows where the filter can be true (sorted, disjoint, merged). */
export function matchingRanges(f: BoundFilter, numRows: number, indexes: LeafPageIndex[]): Range[] {
  const cuts = new Set<number>([0, numRows]);
  for (const p of indexes) for (const loc of p.oi.pageLocations) cuts.add(loc.firstRowIndex);
  const bounds = [...cuts].filter((x) => x <= numRows).sort((a, b) => a - b);
  const cursor = new Int32Array(indexes.length);
  const out: Range[] = [];
  const current = new Map<LeafNode, LeafStats>();
  for (let j = 0; j + 1 < bounds.length; j++) {
    const start = bounds[j]!;
    const end = bounds[j + 1]!;
    if (end <= start) continue;
    indexes.forEach((p, k) => {
      const locs = p.oi.pageLocations;
      let i = cursor[k]!;
      while (i + 1 < locs.length && locs[i + 1]!.firstRowIndex <= start) i++;
      cursor[k] = i;
      current.set(p.leaf, pageStats(p, i));
    });
    if (!possible(f, (leaf) => current.get(leaf)).canTrue) continue;
    const last = out[out.length - 1];
    if (last && last.end === start) last.end = end;
    else out.push({ start, end });
  }
  return out;
}

/** The pages of a column (by index) whose rows overlap `ranges`, and the row spans they cover (merged). */
export function pagesFor(oi: OffsetIndex, numRows: number, ranges: Range[]): { pages: number[]; covered: Range[] } {
  const locs = oi.pageLocations;
  const pages: number[] = [];
  const covered: Range[] = [];
  let r = 0;
  for (let i = 0; i < locs.length; i++) {
    const start = locs[i]!.firstRowIndex;
    const end = i + 1 < locs.length ? locs[i + 1]!.firstRowIndex : numRows;
    while (r < ranges.length && ranges[r]!.end <= start) r++;
    if (r >= ranges.length) break;
    if (ranges[r]!.start >= end) continue;
    pages.push(i);
    const last = covered[covered.length - 1];
    if (last && last.end === start) last.end = end;
    else covered.push({ start, end });
  }
  return { pages, covered };
}

/** Total rows in ranges. */
export function rangeRows(ranges: Range[]): number {
  let n = 0;
  for (const r of ranges) n += r.end - r.start;
  return n;
}

/**
 * Trims a column decoded over the row spans `covered` (in order) to the rows
 * in `ranges` (a subset): levels and values of the other rows are dropped.
 */
export function trimToRanges(c: ColumnChunkData, leaf: LeafNode, covered: Range[], ranges: Range[]): ColumnChunkData {
  const total = rangeRows(covered);
  const keepRows = rangeRows(ranges);
  const { def, rep } = c;
  const maxDef = leaf.defLevel;
  // Decoded row k is absolute row abs(k): walk covered spans alongside.
  let span = 0;
  let spanBase = 0; // decoded index of covered[span].start
  let range = 0;
  const keepEntry = new Uint8Array(c.length);
  let keptEntries = 0;
  let row = -1;
  let keep = false;
  for (let p = 0; p < c.length; p++) {
    if (rep === null || rep[p] === 0) {
      row++;
      while (span < covered.length && row - spanBase >= covered[span]!.end - covered[span]!.start) {
        spanBase += covered[span]!.end - covered[span]!.start;
        span++;
      }
      if (span >= covered.length) throw new CorruptFileError(`column holds more rows than its pages' ${total} (offset index)`);
      const abs = covered[span]!.start + (row - spanBase);
      while (range < ranges.length && ranges[range]!.end <= abs) range++;
      keep = range < ranges.length && ranges[range]!.start <= abs;
    } else if (row < 0) throw new CorruptFileError('column starts in the middle of a row');
    if (keep) {
      keepEntry[p] = 1;
      keptEntries++;
    }
  }
  if (row + 1 !== total) throw new CorruptFileError(`pages hold ${row + 1} rows but the offset index says ${total}`);
  if (keptEntries === c.length) return c;
  const newDef = def ? (def instanceof Uint16Array ? new Uint16Array(keptEntries) : new Uint8Array(keptEntries)) : null;
  const newRep = rep ? (rep instanceof Uint16Array ? new Uint16Array(keptEntries) : new Uint8Array(keptEntries)) : null;
  const keptValues = new Int32Array(c.valueCount);
  let k = 0;
  let nv = 0;
  let v = 0;
  for (let p = 0; p < c.length; p++) {
    const has = def === null || def[p] === maxDef;
    if (keepEntry[p]) {
      if (newDef) newDef[k] = def![p]!;
      if (newRep) newRep[k] = rep![p]!;
      k++;
      if (has) keptValues[nv++] = v;
    }
    if (has) v++;
  }
  const idx = keptValues.subarray(0, nv);
  void keepRows;
  return {
    def: newDef,
    rep: newRep,
    length: keptEntries,
    valueCount: nv,
    values: c.values ? gather(c.values, idx) : null,
    dictionary: c.dictionary,
    indices: c.indices ? gather(c.indices, idx) as Int32Array : null,
  };
}

/** values[idx[k]] for each k, in the same container type. */
export function gather(values: Values, idx: Int32Array): Values {
  if (isByteArrays(values)) {
    const { data, offsets } = values;
    let bytes = 0;
    for (let k = 0; k < idx.length; k++) bytes += offsets[idx[k]! + 1]! - offsets[idx[k]!]!;
    const out = new Uint8Array(bytes);
    const outOffsets = new Int32Array(idx.length + 1);
    let at = 0;
    for (let k = 0; k < idx.length; k++) {
      const s = offsets[idx[k]!]!;
      const e = offsets[idx[k]! + 1]!;
      out.set(data.subarray(s, e), at);
      at += e - s;
      outOffsets[k + 1] = at;
    }
    return { data: out, offsets: outOffsets };
  }
  const Ctor = values.constructor as new (n: number) => typeof values;
  const out = new Ctor(idx.length);
  for (let k = 0; k < idx.length; k++) (out as { [i: number]: unknown })[k] = values[idx[k]!];
  return out;
}
