/**
 * Checks what a file claims about its data against the data: every chunk's
 * Statistics (null_count, nan_count, distinct_count, min/max where a reader
 * may trust them, and is_*_value_exact), SizeStatistics (level histograms,
 * unencoded byte-array bytes), every page index (OffsetIndex page locations
 * and first_row_index against the page headers, unencoded bytes per page;
 * ColumnIndex null_pages, null_counts, nan_counts, min/max, boundary_order
 * and level histograms against each page's values) and every bloom filter
 * (each value of the chunk must be "might contain"). A claim that the data
 * contradicts is a lie: a reader trusting it would skip rows it should
 * return or count wrongly. Bounds looser than the data (truncated strings,
 * say) are not lies unless the file calls them exact.
 *
 * A chunk is read as reader.columns() gives it, in windows of rows when it
 * is large: what each claim is checked against is tallied window by window
 * (tally.ts), so memory follows the window, not the chunk.
 */
import { InvalidArgumentError, ParquetryError } from '../../errors.js';
import { isByteArrays } from '../../encodings/types.js';
import type { Source } from '../../io/source.js';
import type { GroupNode, LeafNode, SchemaNode } from '../../schema/tree.js';
import { canonicalValue } from '../../text/canonical.js';
import type { ColumnChunkData } from '../column-chunk.js';
import { compareD, domainOf, type D, type Domain } from '../filter/compare.js';
import { boundsTrusted, chunkLeafStats } from '../filter/prune-stats.js';
import type { ColumnChunk, ColumnIndex, ColumnOrder, OffsetIndex } from '../metadata/index.js';
import { chunkPages, type ChunkRef } from '../page-headers.js';
import { ParquetReader, type ColumnPath, type OpenOptions } from '../reader.js';
import { statisticValue } from '../statistics.js';
import { compareTotalOrder, floatBytes, floatOf } from '../float-order.js';
import { hex } from '../../schema/convert.js';
import { Tally, window } from './tally.js';
import { GeoCheck } from './wkb.js';

export type CheckedStructure = 'statistics' | 'size statistics' | 'column index' | 'offset index' | 'bloom filter';

/** A claim the data contradicts. */
export interface Lie {
  rowGroup: number;
  column: string;
  structure: CheckedStructure;
  /** Index of the page in the page index (column and offset index lies). */
  page?: number;
  /** The thrift field that lies: `max_value`, `null_count`, `first_row_index`, … */
  field: string;
  /** What the file says and what the data holds, as canonical JSON text (or a plain description). */
  stored: string;
  actual: string;
}

export interface CheckReport {
  /** Structures checked (present in the file and checkable). */
  checked: Record<CheckedStructure, number>;
  lies: Lie[];
}

export interface CheckOptions extends OpenOptions {
  /** Columns to check (default all). */
  columns?: readonly ColumnPath[];
}

/**
 * Checks one file (see the module comment), kept open for the caller to
 * close: a source, or a reader (`openParquet`'s follows column chunks'
 * `file_path` into the files they name).
 */
export async function checkStatistics(input: Source | ParquetReader, options: CheckOptions = {}): Promise<CheckReport> {
  const reader = input instanceof ParquetReader ? input : await ParquetReader.fromSource(input, options);
  const leaves = reader.selectLeaves(options.columns);
  const report: CheckReport = { checked: { statistics: 0, 'size statistics': 0, 'column index': 0, 'offset index': 0, 'bloom filter': 0 }, lies: [] };
  for (let rg = 0; rg < reader.metadata.rowGroups.length; rg++) {
    let check: ChunkCheck | undefined;
    for await (const batch of reader.columns({ columns: leaves.map((l) => l.path), rowGroups: [rg] })) {
      if (check?.leaf !== batch.leaf) {
        check?.finish();
        check = await ChunkCheck.start(reader, rg, batch.leaf, report);
      }
      check.add(batch.data);
    }
    check?.finish();
  }
  return report;
}

type LieAt = (structure: CheckedStructure, field: string, stored: string, actual: string, page?: number) => void;

/** One column chunk's claims, the data tallied as it comes, and the comparison at its end. */
class ChunkCheck {
  private readonly total: Tally;
  /** Per data page of the offset index, its entry count and tally; null when its locations do not lead to the chunk's pages. */
  private readonly pages: { entries: number; tally: Tally }[] | null;
  private page = 0;
  private pageUsed = 0;
  private readonly geo: GeoCheck | undefined;
  private bloomDone = false;
  private seen = new Set<number>();
  private seenIn: unknown;
  /** A float column in IEEE_754_TOTAL_ORDER: its bounds are checked in that order, NaN and zero signs included. */
  private readonly totalOrder: boolean;

  private constructor(
    readonly leaf: LeafNode,
    private readonly chunk: ColumnChunk,
    private readonly domain: Domain,
    private readonly order: ColumnOrder | undefined,
    private readonly ordersPresent: boolean,
    private readonly lie: LieAt,
    private readonly report: CheckReport,
    slotDef: number,
    private readonly ci: ColumnIndex | null,
    private readonly oi: OffsetIndex | null,
    pageEntries: number[] | null,
    private readonly bloom: { mightContain(value: unknown): boolean } | null,
  ) {
    this.totalOrder = order?.type === 'IEEE_754_TOTAL_ORDER' && domain.type === 'float';
    this.total = new Tally(leaf, slotDef, chunk.metaData!.statistics?.distinctCount !== undefined && (this.totalOrder ? 'bits' : 'value'));
    this.pages = pageEntries && pageEntries.map((entries) => ({ entries, tally: new Tally(leaf, slotDef, false) }));
    const geo = chunk.metaData!.geospatialStatistics;
    // Degrees: far below any real coordinate's precision, far above a round trip's error.
    if (geo) this.geo = new GeoCheck(geo, (leaf.element.logicalType as { type?: string } | undefined)?.type === 'GEOGRAPHY' ? 1e-9 : 0);
  }

  static async start(reader: ParquetReader, rg: number, leaf: LeafNode, report: CheckReport): Promise<ChunkCheck> {
    const column = leaf.path.join('.');
    const lie: LieAt = (structure, field, stored, actual, page) => {
      report.lies.push({ rowGroup: rg, column, structure, ...(page === undefined ? {} : { page }), field, stored, actual });
    };
    const chunk = reader.metadata.rowGroups[rg]!.columns[leaf.columnIndex]!;
    let ci: ColumnIndex | null = null;
    let oi: OffsetIndex | null = null;
    try {
      [ci, oi] = await Promise.all([reader.readColumnIndex(rg, leaf.path), reader.readOffsetIndex(rg, leaf.path)]);
    } catch (e) {
      if (!(e instanceof ParquetryError)) throw e;
      lie(chunk.columnIndexOffset !== undefined ? 'column index' : 'offset index', 'page index', 'a readable page index', e.message);
    }
    const entries = oi && await pageEntries(reader, { rowGroup: rg, leaf, chunk, column }, oi, (field, stored, actual, page) => lie('offset index', field, stored, actual, page));
    const bloom = await reader.readBloomFilter(rg, leaf.path);
    const orders = reader.metadata.columnOrders;
    return new ChunkCheck(leaf, chunk, domainOf(leaf), orders?.[leaf.columnIndex], orders !== undefined, lie, report,
      elementSlotDef(reader.schema.root, leaf), ci, oi, entries, bloom);
  }

  /** The next window of the chunk's entries. */
  add(c: ColumnChunkData): void {
    const w = window(c, this.leaf, this.domain);
    this.total.add(w, 0, c.length, 0, c.valueCount);
    if (this.pages) {
      let e = 0;
      let v = 0;
      while (e < c.length) {
        const p = this.pages[this.page];
        if (!p) break; // the walk found these pages, so they hold the chunk's entries; should they not, the totals say so
        const n = Math.min(p.entries - this.pageUsed, c.length - e);
        let values = n;
        if (c.def) {
          values = 0;
          for (let k = e; k < e + n; k++) if (c.def[k] === this.leaf.defLevel) values++;
        }
        p.tally.add(w, e, e + n, v, v + values);
        e += n;
        v += values;
        this.pageUsed += n;
        if (this.pageUsed === p.entries) {
          this.page++;
          this.pageUsed = 0;
        }
      }
    }
    if (this.bloom && !this.bloomDone) this.probe(w);
    if (this.geo?.readable && isByteArrays(w.vals)) {
      const { data, offsets } = w.vals;
      for (let i = 0; i < c.valueCount; i++) {
        const p = w.at(i);
        this.geo.add(data.subarray(offsets[p]!, offsets[p + 1]!));
      }
    }
  }

  private probe(w: ReturnType<typeof window>): void {
    const dictionary = w.vals !== w.c.values;
    if (dictionary && this.seenIn !== w.vals) {
      this.seen = new Set();
      this.seenIn = w.vals;
    }
    for (let i = 0; i < w.c.valueCount; i++) {
      const p = w.at(i);
      if (dictionary) {
        if (this.seen.has(p)) continue; // a dictionary entry is probed once
        this.seen.add(p);
      }
      let maybe: boolean;
      try {
        maybe = this.bloom!.mightContain(w.value(p));
      } catch (e) {
        if (e instanceof InvalidArgumentError) return void (this.bloomDone = true); // a type the filter API cannot probe
        throw e;
      }
      if (!maybe) {
        this.lie('bloom filter', 'bitset', 'definitely absent', w.text(p));
        this.bloomDone = true;
        return;
      }
    }
  }

  /** Compares every claim with the tallies. */
  finish(): void {
    const { report, lie, leaf, total } = this;
    const meta = this.chunk.metaData!;
    const s = meta.statistics;
    if (s || this.geo) report.checked.statistics++;
    if (this.geo?.readable) {
      for (const [bound, { stored, actual }] of this.geo.outside) lie('statistics', `geospatial_statistics.bbox.${bound}`, stored, String(actual));
      for (const code of this.geo.unlisted) lie('statistics', 'geospatial_statistics.geospatial_types', listText(this.geo.stats.geospatialTypes!), `a geometry of type ${code}`);
    }
    if (s) {
      if (s.nullCount !== undefined && !total.nullsHold(s.nullCount)) lie('statistics', 'null_count', String(s.nullCount), total.nullsText);
      if (s.nanCount !== undefined && s.nanCount !== total.nans) lie('statistics', 'nan_count', String(s.nanCount), String(total.nans));
      if (s.distinctCount !== undefined && s.distinctCount !== total.distinct!.size) lie('statistics', 'distinct_count', String(s.distinctCount), String(total.distinct!.size));
      const known = chunkLeafStats(leaf, this.domain, s, meta.numValues, this.order, this.ordersPresent);
      const legacy = s.minValue === undefined || s.maxValue === undefined;
      if (this.totalOrder && !legacy) this.totalBounds('statistics', ['min_value', 'max_value'], s.minValue!, s.maxValue!, total);
      else if (known.min !== undefined && known.max !== undefined) {
        this.bounds('statistics', legacy ? ['min', 'max'] : ['min_value', 'max_value'], known.min, known.max, total);
        // Bounds that hold but are not the extremes, where the file calls them exact.
        if (!legacy && s.isMinValueExact && total.min !== undefined && compareD(total.min, known.min) > 0) lie('statistics', 'is_min_value_exact', `true (min_value ${stat(leaf, known.min)})`, total.minText);
        if (!legacy && s.isMaxValueExact && total.max !== undefined && compareD(total.max, known.max) < 0) lie('statistics', 'is_max_value_exact', `true (max_value ${stat(leaf, known.max)})`, total.maxText);
      }
    }
    const ss = meta.sizeStatistics;
    if (ss) {
      report.checked['size statistics']++;
      const at = (field: string, stored: number[] | number, actual: number[] | number) => lie('size statistics', field, listText(stored), listText(actual));
      // An empty histogram claims nothing: writers leave it so where the level is always 0.
      if (ss.repetitionLevelHistogram?.length && !same(ss.repetitionLevelHistogram, total.repHistogram)) at('repetition_level_histogram', ss.repetitionLevelHistogram, total.repHistogram);
      if (ss.definitionLevelHistogram?.length && !same(ss.definitionLevelHistogram, total.defHistogram)) at('definition_level_histogram', ss.definitionLevelHistogram, total.defHistogram);
      if (ss.unencodedByteArrayDataBytes !== undefined && leaf.physicalType === 'BYTE_ARRAY' && ss.unencodedByteArrayDataBytes !== total.byteArrayBytes) {
        at('unencoded_byte_array_data_bytes', ss.unencodedByteArrayDataBytes, total.byteArrayBytes);
      }
    }
    if (this.oi) {
      report.checked['offset index']++;
      if (this.pages) this.offsetIndex(this.oi, this.pages.map((p) => p.tally));
      if (this.ci && this.pages) {
        report.checked['column index']++;
        this.columnIndex(this.ci, this.pages.map((p) => p.tally));
      }
    }
    if (this.bloom) report.checked['bloom filter']++;
  }

  /** Bounds against a tally's extremes: a lie when a value lies outside them. */
  private bounds(structure: CheckedStructure, names: [string, string], min: D, max: D, t: Tally, page?: number): void {
    if (t.min !== undefined && compareD(t.min, min) < 0) this.lie(structure, names[0], stat(this.leaf, min), t.minText, page);
    if (t.max !== undefined && compareD(t.max, max) > 0) this.lie(structure, names[1], stat(this.leaf, max), t.maxText, page);
  }

  /**
   * Bounds in IEEE 754 total order: they must hold the least and greatest
   * value that is not NaN (-0 below +0), or of an all-NaN set its least and
   * greatest NaN (the spec's rule; a NaN bound otherwise says nothing of the
   * numbers, so a reader of the order would skip them).
   */
  private totalBounds(structure: CheckedStructure, names: [string, string], minB: Uint8Array, maxB: Uint8Array, t: Tally, page?: number): void {
    const width = this.leaf.physicalType === 'DOUBLE' ? 8 : this.leaf.physicalType === 'FLOAT' ? 4 : 2;
    if (minB.length !== width || maxB.length !== width) return;
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
    } else if (t.nanLo) {
      [lo, hi] = [t.nanLo, t.nanHi!];
      loText = `NaN (0x${hex(lo)})`;
      hiText = `NaN (0x${hex(hi)})`;
    }
    const text = (b: Uint8Array) => {
      const v = floatOf(b);
      return Number.isNaN(v) ? `NaN (0x${hex(b)})` : Object.is(v, -0) ? '-0' : String(v);
    };
    if (lo && compareTotalOrder(minB, lo) > 0) this.lie(structure, names[0], text(minB), loText, page);
    if (hi && compareTotalOrder(maxB, hi) < 0) this.lie(structure, names[1], text(maxB), hiText, page);
  }

  private offsetIndex(oi: OffsetIndex, pages: Tally[]): void {
    let rows = 0;
    pages.forEach((t, i) => {
      const first = oi.pageLocations[i]!.firstRowIndex;
      if (first !== rows) this.lie('offset index', 'first_row_index', String(first), String(rows), i);
      rows += t.rows;
    });
    const bytes = oi.unencodedByteArrayDataBytes;
    if (bytes && this.leaf.physicalType === 'BYTE_ARRAY') {
      if (bytes.length !== pages.length) this.lie('offset index', 'unencoded_byte_array_data_bytes', `${bytes.length} pages`, `${pages.length} pages`);
      else pages.forEach((t, i) => {
        if (bytes[i] !== t.byteArrayBytes) this.lie('offset index', 'unencoded_byte_array_data_bytes', String(bytes[i]), String(t.byteArrayBytes), i);
      });
    }
  }

  private columnIndex(ci: ColumnIndex, pages: Tally[]): void {
    const { leaf, domain } = this;
    const trusted = boundsTrusted(leaf, domain, this.order, false, this.ordersPresent);
    const histograms = (field: string, flat: number[] | undefined, levels: number, of: (t: Tally) => number[]) => {
      if (!flat?.length) return;
      if (flat.length !== pages.length * levels) {
        this.lie('column index', field, `${flat.length} counts`, `${pages.length} pages × ${levels} levels`);
        return;
      }
      pages.forEach((t, i) => {
        const stored = flat.slice(i * levels, (i + 1) * levels);
        if (!same(stored, of(t))) this.lie('column index', field, listText(stored), listText(of(t)), i);
      });
    };
    histograms('repetition_level_histograms', ci.repetitionLevelHistograms, leaf.repLevel + 1, (t) => t.repHistogram);
    histograms('definition_level_histograms', ci.definitionLevelHistograms, leaf.defLevel + 1, (t) => t.defHistogram);
    pages.forEach((t, i) => {
      const nullPage = t.entries > 0 && t.values === 0;
      if (ci.nullPages[i] !== nullPage) this.lie('column index', 'null_pages', String(ci.nullPages[i]), String(nullPage), i);
      if (ci.nullCounts && !t.nullsHold(ci.nullCounts[i]!)) this.lie('column index', 'null_counts', String(ci.nullCounts[i]), t.nullsText, i);
      if (ci.nanCounts && ci.nanCounts[i] !== t.nans) this.lie('column index', 'nan_counts', String(ci.nanCounts[i]), String(t.nans), i);
      if (!trusted || ci.nullPages[i]) return;
      if (this.totalOrder) return this.totalBounds('column index', ['min_values', 'max_values'], ci.minValues[i]!, ci.maxValues[i]!, t, i);
      const min = domain.stat(ci.minValues[i]!);
      const max = domain.stat(ci.maxValues[i]!);
      if (min === undefined || max === undefined) return;
      this.bounds('column index', ['min_values', 'max_values'], min, max, t, i);
    });
    if (trusted) this.boundaryOrder(ci);
  }

  /** ASCENDING (DESCENDING): the non-null pages' min_values and max_values each never fall (rise); a reader searches them as sorted. */
  private boundaryOrder(ci: ColumnIndex): void {
    if (ci.boundaryOrder !== 'ASCENDING' && ci.boundaryOrder !== 'DESCENDING') return;
    const sign = ci.boundaryOrder === 'ASCENDING' ? 1 : -1;
    let prev: { min: D; max: D; page: number } | undefined;
    for (let i = 0; i < ci.nullPages.length; i++) {
      if (ci.nullPages[i]) continue;
      const min = this.domain.stat(ci.minValues[i]!);
      const max = this.domain.stat(ci.maxValues[i]!);
      if (min === undefined || max === undefined) continue;
      // Total order sorts the bounds' bytes (NaNs and zeros included); other orders their values.
      const cmp = (a: D, b: D, ab: Uint8Array, bb: Uint8Array) => (this.totalOrder ? compareTotalOrder(ab, bb) : compareD(a, b));
      if (prev && (sign * cmp(min, prev.min, ci.minValues[i]!, ci.minValues[prev.page]!) < 0 || sign * cmp(max, prev.max, ci.maxValues[i]!, ci.maxValues[prev.page]!) < 0)) {
        const bounds = (a: D, b: D) => `[${stat(this.leaf, a)}, ${stat(this.leaf, b)}]`;
        this.lie('column index', 'boundary_order', ci.boundaryOrder, `page ${i} ${bounds(min, max)} after page ${prev.page} ${bounds(prev.min, prev.max)}`, i);
        return;
      }
      prev = { min, max, page: i };
    }
  }
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const listText = (v: number[] | number) => (typeof v === 'number' ? String(v) : `[${v.join(', ')}]`);

/** A domain value (a statistics bound) as text. */
function stat(leaf: LeafNode, d: D): string {
  if (d instanceof Uint8Array) return canonicalValue(leaf.kind, statisticValue(leaf, d));
  return typeof d === 'bigint' ? d.toString() : String(d);
}

/**
 * The definition level at which a leaf's value slot exists: below it an
 * entry is an empty or null list (or map), not a null value. Writers count
 * nulls both ways (parquet-java every entry below the leaf's level, Arrow
 * only null values in existing slots), so either count is honest.
 */
function elementSlotDef(root: GroupNode, leaf: LeafNode): number {
  let node: SchemaNode = root;
  let slot = 0;
  for (const name of leaf.path) {
    node = (node as GroupNode).children.find((c) => c.name === name)!;
    if (node.repetition === 'REPEATED') slot = node.defLevel;
  }
  return leaf.repetition === 'REPEATED' ? leaf.defLevel : slot;
}

/**
 * Matches each location of the offset index with the chunk's pages as the
 * page-header walk finds them (encrypted headers decrypted): the i-th
 * location must be the i-th data page, of its stored size. Returns each
 * data page's entry count, or null when the locations do not lead to the
 * chunk's pages (the page index cannot then be matched with data).
 */
async function pageEntries(reader: ParquetReader, ref: ChunkRef, oi: OffsetIndex, lie: (field: string, stored: string, actual: string, page: number) => void): Promise<number[] | null> {
  const walked = (await chunkPages(reader, reader.bytes, ref)).pages;
  const data = walked.filter((p) => p.type === 'data v1' || p.type === 'data v2');
  const locs = oi.pageLocations;
  for (let i = 0; i < locs.length; i++) {
    const loc = locs[i]!;
    const page = data[i];
    if (page?.offset !== loc.offset) {
      const there = walked.find((p) => p.offset === loc.offset);
      const actual = there ? `a ${there.type} page` : page ? `data page ${i} at ${page.offset}` : `${data.length} data pages`;
      lie('page_locations', `data page ${i} at ${loc.offset}`, actual, i);
      return null;
    }
    const size = page.headerSize + page.compressedSize;
    if (size !== loc.compressedPageSize) lie('page_locations', `compressed_page_size ${loc.compressedPageSize}`, `${size} (header and body)`, i);
  }
  if (locs.length !== data.length) {
    lie('page_locations', `${locs.length} pages`, `${data.length} data pages`, Math.min(locs.length, data.length));
    return null;
  }
  return data.map((p) => p.numValues!);
}
