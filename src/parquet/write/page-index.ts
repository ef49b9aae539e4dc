/**
 * The page index of a column chunk the writer has encoded (parquet-format
 * PageIndex.md): the OffsetIndex (where each data page is, its first row,
 * its unencoded byte-array bytes) and the ColumnIndex (per-page bounds,
 * null pages and counts, boundary order, level histograms).
 */
import type { LeafNode } from '../../schema/tree.js';
import type { BoundaryOrder, ColumnIndex, OffsetIndex, PageLocation } from '../metadata/index.js';
import type { EncodedPage } from './column-writer.js';
import { boundsComparator, isFloatColumn, sortOrder, type FloatOrder } from './stats.js';

/** A null page's bounds: empty (shared: the thrift encoder only reads them). */
const NO_BOUND = new Uint8Array(0);

const isDictionary = (p: Pick<EncodedPage, 'type'>): boolean => p.type === 'DICTIONARY_PAGE';

/** A chunk's data pages: `pages` itself when none is a dictionary page (a wide table's chunks have a page each, copied for nothing). */
function dataPages<P extends Pick<EncodedPage, 'type'>>(pages: readonly P[]): readonly P[] {
  return pages.some(isDictionary) ? pages.filter((p) => !isDictionary(p)) : pages;
}

/** What is written of a page, and what its OffsetIndex entry is made of. */
export type PagePlace = Pick<EncodedPage, 'header' | 'body' | 'type' | 'firstRow' | 'unencodedBytes'>;

/**
 * The OffsetIndex of a chunk whose first page starts at file offset `base`.
 * first_row_index counts rows (records): pages start at record boundaries.
 */
export function buildOffsetIndex(leaf: LeafNode, pages: readonly PagePlace[], base: number): OffsetIndex {
  // Lists of their length: a list grown by push starts with room for 17, and a wide table's chunks have a page each.
  let n = pages.length;
  for (const p of pages) if (isDictionary(p)) n--;
  const locations = new Array<PageLocation>(n);
  const unencoded = leaf.physicalType === 'BYTE_ARRAY' ? new Array<number>(n) : undefined;
  let offset = base;
  let k = 0;
  for (const p of pages) {
    const size = p.header.length + p.body.length;
    if (!isDictionary(p)) {
      locations[k] = { offset, compressedPageSize: size, firstRowIndex: p.firstRow };
      if (unencoded) unencoded[k] = p.unencodedBytes ?? 0;
      k++;
    }
    offset += size;
  }
  const oi: OffsetIndex = { pageLocations: locations };
  if (unencoded) oi.unencodedByteArrayDataBytes = unencoded;
  return oi;
}

function copyInto(to: number[], at: number, from: readonly number[]): void {
  for (let i = 0; i < from.length; i++) to[at + i] = from[i]!;
}

/**
 * The ColumnIndex of a chunk, or undefined when it cannot have one: the
 * column has no statistics (turned off, or a type without a sort order), or
 * a page holds values but no bounds (only NaNs in TYPE_ORDER, where the
 * spec says to drop the index; total order bounds it by its NaNs).
 * Binary bounds longer than `truncateLength` are cut, the max rounded up.
 * Float columns get each page's NaN count.
 */
export function buildColumnIndex(leaf: LeafNode, pages: readonly EncodedPage[], truncateLength: number, floatOrder: FloatOrder): ColumnIndex | undefined {
  const compare = boundsComparator(leaf, floatOrder);
  if (compare === undefined || sortOrder(leaf) === 'none') return undefined;
  const data = dataPages(pages);
  const n = data.length;
  const nullPages = new Array<boolean>(n);
  const minValues = new Array<Uint8Array>(n);
  const maxValues = new Array<Uint8Array>(n);
  const nullCounts = new Array<number>(n);
  const repHist = leaf.repLevel > 0 ? new Array<number>(n * (leaf.repLevel + 1)) : undefined;
  const defHist = leaf.defLevel > 0 ? new Array<number>(n * (leaf.defLevel + 1)) : undefined;
  for (let k = 0; k < n; k++) {
    const p = data[k]!;
    if (p.stats === undefined) return undefined;
    const isNull = p.nonNull === 0;
    nullPages[k] = isNull;
    nullCounts[k] = p.nullCount;
    if (isNull) {
      minValues[k] = NO_BOUND;
      maxValues[k] = NO_BOUND;
    } else {
      const b = p.stats.indexBounds(truncateLength);
      if (b === undefined) return undefined;
      minValues[k] = b.min;
      maxValues[k] = b.max;
    }
    // Every data page has its histograms where the column has levels (pageFacts).
    if (repHist) copyInto(repHist, k * (leaf.repLevel + 1), p.repHistogram!);
    if (defHist) copyInto(defHist, k * (leaf.defLevel + 1), p.defHistogram!);
  }
  const ci: ColumnIndex = {
    nullPages,
    minValues,
    maxValues,
    boundaryOrder: boundaryOrder(nullPages, minValues, maxValues, compare),
    nullCounts,
  };
  if (isFloatColumn(leaf)) ci.nanCounts = data.map((p) => p.stats!.nanCount);
  if (repHist) ci.repetitionLevelHistograms = repHist;
  if (defHist) ci.definitionLevelHistograms = defHist;
  return ci;
}

/**
 * ASCENDING when the non-null pages' mins and maxes both never decrease,
 * DESCENDING when both never increase, else UNORDERED (null pages are
 * skipped, as parquet-java does; fewer than two bounded pages are ASCENDING).
 */
export function boundaryOrder(
  nullPages: readonly boolean[], mins: readonly Uint8Array[], maxes: readonly Uint8Array[], compare: (a: Uint8Array, b: Uint8Array) => number,
): BoundaryOrder {
  let ascending = true;
  let descending = true;
  let prev = -1;
  for (let i = 0; i < nullPages.length; i++) {
    if (nullPages[i]) continue;
    if (prev >= 0) {
      const cmin = compare(mins[prev]!, mins[i]!);
      const cmax = compare(maxes[prev]!, maxes[i]!);
      if (cmin > 0 || cmax > 0) ascending = false;
      if (cmin < 0 || cmax < 0) descending = false;
      if (!ascending && !descending) return 'UNORDERED';
    }
    prev = i;
  }
  return ascending ? 'ASCENDING' : 'DESCENDING';
}
