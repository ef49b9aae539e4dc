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

function dataPages(pages: readonly EncodedPage[]): EncodedPage[] {
  return pages.filter((p) => p.type !== 'DICTIONARY_PAGE');
}

/**
 * The OffsetIndex of a chunk whose first page starts at file offset `base`.
 * first_row_index counts rows (records): pages start at record boundaries.
 */
export function buildOffsetIndex(leaf: LeafNode, pages: readonly EncodedPage[], base: number): OffsetIndex {
  const locations: PageLocation[] = [];
  const unencoded: number[] = [];
  let offset = base;
  for (const p of pages) {
    const size = p.header.length + p.body.length;
    if (p.type !== 'DICTIONARY_PAGE') {
      locations.push({ offset, compressedPageSize: size, firstRowIndex: p.firstRow });
      unencoded.push(p.unencodedBytes ?? 0);
    }
    offset += size;
  }
  const oi: OffsetIndex = { pageLocations: locations };
  if (leaf.physicalType === 'BYTE_ARRAY') oi.unencodedByteArrayDataBytes = unencoded;
  return oi;
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
  const nullPages: boolean[] = [];
  const minValues: Uint8Array[] = [];
  const maxValues: Uint8Array[] = [];
  const nullCounts: number[] = [];
  const repHist: number[] = [];
  const defHist: number[] = [];
  for (const p of data) {
    if (p.stats === undefined) return undefined;
    const isNull = p.nonNull === 0;
    nullPages.push(isNull);
    nullCounts.push(p.nullCount);
    if (isNull) {
      minValues.push(new Uint8Array(0));
      maxValues.push(new Uint8Array(0));
    } else {
      const b = p.stats.indexBounds(truncateLength);
      if (b === undefined) return undefined;
      minValues.push(b.min);
      maxValues.push(b.max);
    }
    for (const h of p.repHistogram ?? []) repHist.push(h);
    for (const h of p.defHistogram ?? []) defHist.push(h);
  }
  const ci: ColumnIndex = {
    nullPages,
    minValues,
    maxValues,
    boundaryOrder: boundaryOrder(nullPages, minValues, maxValues, compare),
    nullCounts,
  };
  if (isFloatColumn(leaf)) ci.nanCounts = data.map((p) => p.stats!.nanCount);
  if (leaf.repLevel > 0) ci.repetitionLevelHistograms = repHist;
  if (leaf.defLevel > 0) ci.definitionLevelHistograms = defHist;
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
