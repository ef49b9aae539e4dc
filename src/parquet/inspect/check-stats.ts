/**
 * Checks what a file claims about its data against the data: every chunk's
 * Statistics (null_count, nan_count, distinct_count, min/max where a reader
 * may trust them, and is_*_value_exact), SizeStatistics (level histograms,
 * unencoded byte-array bytes), every page index (OffsetIndex page locations
 * and first_row_index against the page headers, unencoded bytes per page;
 * ColumnIndex null_pages, null_counts, nan_counts, min/max, boundary_order
 * and level histograms against each page's values) and every bloom filter
 * (each value of the chunk must be "might contain"). The claims binding on
 * the data are tested by the claims layer (../claims/claims.ts), which the
 * salvage read shares; the rest here. A claim that the data
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
import type { LeafNode } from '../../schema/tree.js';
import { LeafClaims, listText, type ClaimStructure, type Contradiction } from '../claims/claims.js';
import { Tally, window } from '../claims/tally.js';
import type { ColumnChunkData } from '../../shred/column-data.js';
import { compareD, type D } from '../filter/compare.js';
import type { ColumnChunk, ColumnIndex, OffsetIndex } from '../metadata/index.js';
import { chunkPages } from './page-headers.js';
import type { ChunkRef } from '../chunk-locator.js';
import { ParquetFile, type OpenOptions } from '../file.js';
import { ParquetReader } from '../reader.js';
import { type ColumnPath } from '../../schema/tree.js';
import { compareTotalOrder } from '../float-order.js';
import { GeoCheck } from './geo-check.js';

/** A structure of the file whose claims `checkStatistics` checks. */
export type CheckedStructure = ClaimStructure | 'bloom filter';

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

/** What `checkStatistics` checked, and the claims the data contradicts. */
export interface CheckReport {
  /** Structures checked (present in the file and checkable). */
  checked: Record<CheckedStructure, number>;
  lies: Lie[];
}

/** `checkStatistics`' options: the reader's, and the columns to check. */
export interface CheckOptions extends OpenOptions {
  /** Columns to check (default all). */
  columns?: readonly ColumnPath[];
}

/**
 * Checks one file (see the module comment), kept open for the caller to
 * close: a source, or an opened file (`openParquetFile`'s follows column
 * chunks' `file_path` into the files they name).
 */
export async function checkStatistics(input: Source | ParquetFile, options: CheckOptions = {}): Promise<CheckReport> {
  const file = input instanceof ParquetFile ? input : await ParquetFile.fromSource(input, options);
  const reader = new ParquetReader(file);
  const leaves = file.selectLeaves(options.columns);
  const report: CheckReport = { checked: { statistics: 0, 'size statistics': 0, 'column index': 0, 'offset index': 0, 'bloom filter': 0 }, lies: [] };
  for (let rg = 0; rg < file.metadata.rowGroups.length; rg++) {
    let check: ChunkCheck | undefined;
    for await (const batch of reader.columns({ columns: leaves.map((l) => l.path), rowGroups: [rg] })) {
      if (check?.leaf !== batch.leaf) {
        check?.finish();
        check = await ChunkCheck.start(file, rg, batch.leaf, report);
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

  private constructor(
    private readonly claims: LeafClaims,
    private readonly chunk: ColumnChunk,
    private readonly lie: LieAt,
    private readonly report: CheckReport,
    private readonly ci: ColumnIndex | null,
    private readonly oi: OffsetIndex | null,
    pageEntries: number[] | null,
    private readonly bloom: { mightContain(value: unknown): boolean } | null,
  ) {
    this.total = claims.tally(chunk.metaData!.statistics?.distinctCount !== undefined);
    this.pages = pageEntries && pageEntries.map((entries) => ({ entries, tally: claims.tally() }));
    const geo = chunk.metaData!.geospatialStatistics;
    // Degrees: far below any real coordinate's precision, far above a round trip's error.
    if (geo) this.geo = new GeoCheck(geo, (claims.leaf.element.logicalType as { type?: string } | undefined)?.type === 'GEOGRAPHY' ? 1e-9 : 0);
  }

  get leaf(): LeafNode {
    return this.claims.leaf;
  }

  static async start(file: ParquetFile, rg: number, leaf: LeafNode, report: CheckReport): Promise<ChunkCheck> {
    const column = leaf.path.join('.');
    const lie: LieAt = (structure, field, stored, actual, page) => {
      report.lies.push({ rowGroup: rg, column, structure, ...(page === undefined ? {} : { page }), field, stored, actual });
    };
    const chunk = file.metadata.rowGroups[rg]!.columns[leaf.columnIndex]!;
    let ci: ColumnIndex | null = null;
    let oi: OffsetIndex | null = null;
    try {
      [ci, oi] = await Promise.all([file.readColumnIndex(rg, leaf.path), file.readOffsetIndex(rg, leaf.path)]);
    } catch (e) {
      if (!(e instanceof ParquetryError)) throw e;
      lie(chunk.columnIndexOffset !== undefined ? 'column index' : 'offset index', 'page index', 'a readable page index', e.message);
    }
    const entries = oi && await pageEntries(file, { rowGroup: rg, leaf, chunk, column }, oi, (field, stored, actual, page) => lie('offset index', field, stored, actual, page));
    const bloom = await file.readBloomFilter(rg, leaf.path);
    return new ChunkCheck(new LeafClaims(file.schema.root, leaf, file.metadata.columnOrders), chunk, lie, report, ci, oi, entries, bloom);
  }

  /** The next window of the chunk's entries. */
  add(c: ColumnChunkData): void {
    const w = window(c, this.leaf, this.claims.domain);
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

  /**
   * Compares every claim with the tallies: the binding ones through
   * LeafClaims, then those only this report judges (distinct_count, exact
   * bounds, boundary order, bloom filter, geospatial statistics).
   */
  finish(): void {
    const { report, lie, total, claims } = this;
    const meta = this.chunk.metaData!;
    const s = meta.statistics;
    const said = (cs: Contradiction[]) => cs.forEach((c) => lie(c.structure, c.field, c.stored, c.actual, c.page));
    if (s || this.geo) report.checked.statistics++;
    if (meta.sizeStatistics) report.checked['size statistics']++;
    if (this.geo?.readable) {
      for (const [bound, { stored, actual }] of this.geo.outside) lie('statistics', `geospatial_statistics.bbox.${bound}`, stored, String(actual));
      for (const code of this.geo.unlisted) lie('statistics', 'geospatial_statistics.geospatial_types', listText(this.geo.stats.geospatialTypes!), `a geometry of type ${code}`);
    }
    said(claims.chunk(meta, total));
    if (s) {
      if (s.distinctCount !== undefined && s.distinctCount !== total.distinct!.size) lie('statistics', 'distinct_count', String(s.distinctCount), String(total.distinct!.size));
      const b = claims.chunkBounds(meta);
      // Bounds that hold but are not the extremes, where the file calls them exact.
      if (b && 'min' in b && b.names[0] === 'min_value') {
        if (s.isMinValueExact && total.min !== undefined && compareD(total.min, b.min) > 0) lie('statistics', 'is_min_value_exact', `true (min_value ${claims.text(b.min)})`, total.minText);
        if (s.isMaxValueExact && total.max !== undefined && compareD(total.max, b.max) < 0) lie('statistics', 'is_max_value_exact', `true (max_value ${claims.text(b.max)})`, total.maxText);
      }
    }
    if (this.oi) {
      report.checked['offset index']++;
      const pages = this.pages?.map((p) => p.tally);
      if (pages) this.shapes(this.oi, this.ci, pages);
      if (pages) {
        const trusted = claims.indexBoundsTrusted();
        if (this.ci) report.checked['column index']++;
        pages.forEach((t, i) => said(claims.page(i, t, pages.length, this.ci, this.oi!.unencodedByteArrayDataBytes, trusted)));
        if (this.ci && trusted) this.boundaryOrder(this.ci);
      }
    }
    if (this.bloom) report.checked['bloom filter']++;
  }

  /** Row positions of the offset index, and page-index lists whose length does not fit the pages (LeafClaims.page passes them over). */
  private shapes(oi: OffsetIndex, ci: ColumnIndex | null, pages: Tally[]): void {
    let rows = 0;
    pages.forEach((t, i) => {
      const first = oi.pageLocations[i]!.firstRowIndex;
      if (first !== rows) this.lie('offset index', 'first_row_index', String(first), String(rows), i);
      rows += t.rows;
    });
    const bytes = oi.unencodedByteArrayDataBytes;
    if (bytes && this.leaf.physicalType === 'BYTE_ARRAY' && bytes.length !== pages.length) this.lie('offset index', 'unencoded_byte_array_data_bytes', `${bytes.length} pages`, `${pages.length} pages`);
    const histograms = (field: string, flat: number[] | undefined, levels: number) => {
      if (flat?.length && flat.length !== pages.length * levels) this.lie('column index', field, `${flat.length} counts`, `${pages.length} pages × ${levels} levels`);
    };
    histograms('repetition_level_histograms', ci?.repetitionLevelHistograms, this.leaf.repLevel + 1);
    histograms('definition_level_histograms', ci?.definitionLevelHistograms, this.leaf.defLevel + 1);
  }

  /** ASCENDING (DESCENDING): the non-null pages' min_values and max_values each never fall (rise); a reader searches them as sorted. */
  private boundaryOrder(ci: ColumnIndex): void {
    if (ci.boundaryOrder !== 'ASCENDING' && ci.boundaryOrder !== 'DESCENDING') return;
    const sign = ci.boundaryOrder === 'ASCENDING' ? 1 : -1;
    const { domain } = this.claims;
    let prev: { min: D; max: D; page: number } | undefined;
    for (let i = 0; i < ci.nullPages.length; i++) {
      if (ci.nullPages[i]) continue;
      const min = domain.stat(ci.minValues[i]!);
      const max = domain.stat(ci.maxValues[i]!);
      if (min === undefined || max === undefined) continue;
      // Total order sorts the bounds' bytes (NaNs and zeros included); other orders their values.
      const cmp = (a: D, b: D, ab: Uint8Array, bb: Uint8Array) => (this.claims.totalOrder ? compareTotalOrder(ab, bb) : compareD(a, b));
      if (prev && (sign * cmp(min, prev.min, ci.minValues[i]!, ci.minValues[prev.page]!) < 0 || sign * cmp(max, prev.max, ci.maxValues[i]!, ci.maxValues[prev.page]!) < 0)) {
        const bounds = (a: D, b: D) => `[${this.claims.text(a)}, ${this.claims.text(b)}]`;
        this.lie('column index', 'boundary_order', ci.boundaryOrder, `page ${i} ${bounds(min, max)} after page ${prev.page} ${bounds(prev.min, prev.max)}`, i);
        return;
      }
      prev = { min, max, page: i };
    }
  }
}

/**
 * Matches each location of the offset index with the chunk's pages as the
 * page-header walk finds them (encrypted headers decrypted): the i-th
 * location must be the i-th data page, of its stored size. Returns each
 * data page's entry count, or null when the locations do not lead to the
 * chunk's pages (the page index cannot then be matched with data).
 */
async function pageEntries(file: ParquetFile, ref: ChunkRef, oi: OffsetIndex, lie: (field: string, stored: string, actual: string, page: number) => void): Promise<number[] | null> {
  const walked = (await chunkPages(file, file.bytes, ref)).pages;
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
