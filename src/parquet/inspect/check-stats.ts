/**
 * Checks what a file claims about its data against the data: every chunk's
 * Statistics (null_count, distinct_count, and min/max where a reader may
 * trust them), every page index (OffsetIndex page locations and
 * first_row_index against the page headers; ColumnIndex null_pages,
 * null_counts and min/max against each page's values) and every bloom
 * filter (each value of the chunk must be "might contain"). A claim that
 * the data contradicts is a lie: a reader trusting it would skip rows it
 * should return or count wrongly. Bounds looser than the data (truncated
 * strings, say) are not lies.
 */
import { InvalidArgumentError, ParquetryError } from '../../errors.js';
import { isByteArrays, type Values } from '../../encodings/types.js';
import type { Source } from '../../io/source.js';
import { valueReader } from '../../schema/convert.js';
import type { GroupNode, LeafNode, SchemaNode } from '../../schema/tree.js';
import { canonicalValue } from '../../text/canonical.js';
import type { ColumnChunkData } from '../column-chunk.js';
import { compareBytes, compareD, domainOf, type D, type Domain } from '../filter/compare.js';
import { boundsTrusted, chunkLeafStats } from '../filter/prune-stats.js';
import type { ColumnIndex, OffsetIndex } from '../metadata/index.js';
import { chunkPages, type ChunkRef } from '../page-headers.js';
import { ParquetReader, type ColumnPath, type OpenOptions } from '../reader.js';
import { statisticValue } from '../statistics.js';

export type CheckedStructure = 'statistics' | 'column index' | 'offset index' | 'bloom filter';

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

/** The non-null values of a decoded chunk: where the i-th lives in `vals`. */
interface ChunkValues {
  vals: Values;
  at: (i: number) => number;
  count: number;
}

function chunkValues(c: ColumnChunkData): ChunkValues {
  if (c.indices && c.dictionary) {
    const idx = c.indices;
    return { vals: c.dictionary, at: (i) => idx[i]!, count: c.valueCount };
  }
  return { vals: c.values!, at: (i) => i, count: c.valueCount };
}

/**
 * Compares the value at a position of `vals` with a domain value, and two
 * positions with each other; NaN (floats) reports as such, outside any order.
 */
function comparer(domain: Domain, vals: Values): { isNaN: (p: number) => boolean; withD: (p: number, d: D) => number; pair: (p: number, q: number) => number } {
  if (domain.type === 'bytes' && isByteArrays(vals)) {
    const { data, offsets } = vals;
    return {
      isNaN: () => false,
      withD: (p, d) => compareBytes(data, offsets[p]!, offsets[p + 1]!, d as Uint8Array),
      pair: (p, q) => compareBytes(data, offsets[p]!, offsets[p + 1]!, data.subarray(offsets[q]!, offsets[q + 1]!)),
    };
  }
  const read = domain.reader(vals);
  return {
    isNaN: (p) => Number.isNaN(read(p)),
    withD: (p, d) => compareD(read(p), d),
    pair: (p, q) => compareD(read(p), read(q)),
  };
}

/** The positions (in `vals`) of the least and greatest non-NaN values among values [from, to). */
function extremes(cmp: ReturnType<typeof comparer>, v: ChunkValues, from: number, to: number): { min: number; max: number } | null {
  let min = -1;
  let max = -1;
  for (let i = from; i < to; i++) {
    const p = v.at(i);
    if (cmp.isNaN(p)) continue;
    if (min < 0 || cmp.pair(p, min) < 0) min = p;
    if (max < 0 || cmp.pair(p, max) > 0) max = p;
  }
  return min < 0 ? null : { min, max };
}

/**
 * Checks one file (see the module comment), kept open for the caller to
 * close: a source, or a reader (`openParquet`'s follows column chunks'
 * `file_path` into the files they name).
 */
export async function checkStatistics(input: Source | ParquetReader, options: CheckOptions = {}): Promise<CheckReport> {
  const reader = input instanceof ParquetReader ? input : await ParquetReader.fromSource(input, options);
  const leaves = reader.selectLeaves(options.columns);
  const report: CheckReport = { checked: { statistics: 0, 'column index': 0, 'offset index': 0, 'bloom filter': 0 }, lies: [] };
  const orders = reader.metadata.columnOrders;
  for (let rg = 0; rg < reader.metadata.rowGroups.length; rg++) {
    for await (const batch of reader.columns({ columns: leaves.map((l) => l.path), rowGroups: [rg] })) {
      const leaf = batch.leaf;
      const column = leaf.path.join('.');
      const lie = (structure: CheckedStructure, field: string, stored: string, actual: string, page?: number): void => {
        report.lies.push({ rowGroup: rg, column, structure, ...(page === undefined ? {} : { page }), field, stored, actual });
      };
      const c = batch.data;
      const v = chunkValues(c);
      const domain = domainOf(leaf);
      const cmp = comparer(domain, v.vals);
      const read = valueReader(leaf.kind, v.vals);
      const text = (p: number): string => canonicalValue(leaf.kind, read(p));
      const order = orders?.[leaf.columnIndex];
      const chunk = reader.metadata.rowGroups[rg]!.columns[leaf.columnIndex]!;
      const meta = chunk.metaData!;
      const slotDef = elementSlotDef(reader.schema.root, leaf);

      /** Bounds against values [from, to): a lie when a value lies outside them. */
      const checkBounds = (structure: CheckedStructure, names: [string, string], min: D, max: D, from: number, to: number, page?: number): void => {
        const ext = extremes(cmp, v, from, to);
        if (!ext) return;
        if (cmp.withD(ext.min, min) < 0) lie(structure, names[0], stat(leaf, min), text(ext.min), page);
        if (cmp.withD(ext.max, max) > 0) lie(structure, names[1], stat(leaf, max), text(ext.max), page);
      };

      const s = meta.statistics;
      if (s) {
        report.checked.statistics++;
        const nulls = nullRange(c, 0, c.length, slotDef, leaf.defLevel);
        if (s.nullCount !== undefined && !nulls.holds(s.nullCount)) lie('statistics', 'null_count', String(s.nullCount), nulls.text);
        if (s.distinctCount !== undefined) {
          const distinct = distinctCount(v, cmp);
          if (s.distinctCount !== distinct) lie('statistics', 'distinct_count', String(s.distinctCount), String(distinct));
        }
        const known = chunkLeafStats(leaf, domain, s, meta.numValues, order, orders !== undefined);
        const legacy = s.minValue === undefined || s.maxValue === undefined;
        if (known.min !== undefined && known.max !== undefined) checkBounds('statistics', legacy ? ['min', 'max'] : ['min_value', 'max_value'], known.min, known.max, 0, v.count);
      }

      let ci: ColumnIndex | null = null;
      let oi: OffsetIndex | null = null;
      try {
        [ci, oi] = await Promise.all([reader.readColumnIndex(rg, leaf.path), reader.readOffsetIndex(rg, leaf.path)]);
      } catch (e) {
        if (!(e instanceof ParquetryError)) throw e;
        lie(chunk.columnIndexOffset !== undefined ? 'column index' : 'offset index', 'page index', 'a readable page index', e.message);
      }
      if (oi) {
        report.checked['offset index']++;
        const pages = await pageSpans(reader, { rowGroup: rg, leaf, chunk, column }, oi, leaf, c, (field, stored, actual, page) => lie('offset index', field, stored, actual, page));
        if (ci && pages) {
          report.checked['column index']++;
          const trusted = boundsTrusted(leaf, domain, order, false, orders !== undefined);
          pages.forEach((p, i) => {
            const nullPage = p.entries > 0 && p.valueEnd === p.valueStart;
            if (ci!.nullPages[i] !== nullPage) lie('column index', 'null_pages', String(ci!.nullPages[i]), String(nullPage), i);
            const nulls = nullRange(c, p.entryStart, p.entryStart + p.entries, slotDef, leaf.defLevel);
            if (ci!.nullCounts && !nulls.holds(ci!.nullCounts[i]!)) lie('column index', 'null_counts', String(ci!.nullCounts[i]), nulls.text, i);
            if (!trusted || ci!.nullPages[i]) return;
            const min = domain.stat(ci!.minValues[i]!);
            const max = domain.stat(ci!.maxValues[i]!);
            if (min === undefined || max === undefined) return;
            checkBounds('column index', ['min_values', 'max_values'], min, max, p.valueStart, p.valueEnd, i);
          });
        }
      }

      const bf = await reader.readBloomFilter(rg, leaf.path);
      if (bf) {
        report.checked['bloom filter']++;
        const seen = new Set<number>();
        for (let i = 0; i < v.count; i++) {
          const p = v.at(i);
          if (seen.has(p)) continue;
          if (v.vals !== c.values) seen.add(p); // a dictionary entry is probed once
          let maybe: boolean;
          try {
            maybe = bf.mightContain(read(p));
          } catch (e) {
            if (e instanceof InvalidArgumentError) break; // a type the filter API cannot probe
            throw e;
          }
          if (!maybe) {
            lie('bloom filter', 'bitset', 'definitely absent', text(p));
            break;
          }
        }
      }
    }
  }
  return report;
}

/** A domain value (a statistics bound) as text. */
function stat(leaf: LeafNode, d: D): string {
  if (d instanceof Uint8Array) return canonicalValue(leaf.kind, statisticValue(leaf, d));
  return typeof d === 'bigint' ? d.toString() : String(d);
}

function distinctCount(v: ChunkValues, cmp: ReturnType<typeof comparer>): number {
  const keys = new Set<unknown>();
  const vals = v.vals;
  if (isByteArrays(vals)) {
    const dec = new TextDecoder('latin1');
    for (let i = 0; i < v.count; i++) {
      const p = v.at(i);
      keys.add(dec.decode(vals.data.subarray(vals.offsets[p]!, vals.offsets[p + 1]!)));
    }
  } else {
    for (let i = 0; i < v.count; i++) {
      const p = v.at(i);
      keys.add(cmp.isNaN(p) ? NaN : (vals as ArrayLike<number | bigint>)[p]);
    }
  }
  return keys.size;
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

/** The null counts a writer may honestly give for level entries [from, to). */
function nullRange(c: ColumnChunkData, from: number, to: number, slotDef: number, maxDef: number): { holds: (n: number) => boolean; text: string } {
  let all = 0;
  let inSlots = 0;
  if (c.def) {
    for (let k = from; k < to; k++) {
      const d = c.def[k]!;
      if (d < maxDef) {
        all++;
        if (d >= slotDef) inSlots++;
      }
    }
  }
  return { holds: (n) => n >= inSlots && n <= all, text: inSlots === all ? String(all) : `${inSlots} (null values) or ${all} (null entries)` };
}

/** Where one page of the offset index lies in the decoded chunk. */
interface PageSpan {
  /** Level entries of the page: [entryStart, entryStart + entries) of the chunk's. */
  entryStart: number;
  entries: number;
  /** Its non-null values: [valueStart, valueEnd) of the chunk's values. */
  valueStart: number;
  valueEnd: number;
}

/**
 * Checks each location of the offset index against the chunk's pages as the
 * page-header walk finds them (encrypted headers decrypted): the i-th
 * location must be the i-th data page, of its stored size, and its
 * first_row_index the rows before it. Returns where each page's entries and
 * values lie, or null when the locations do not lead to the chunk's pages
 * (the column index cannot then be matched with data).
 */
async function pageSpans(
  reader: ParquetReader, ref: ChunkRef, oi: OffsetIndex, leaf: LeafNode, c: ColumnChunkData,
  lie: (field: string, stored: string, actual: string, page: number) => void,
): Promise<PageSpan[] | null> {
  const walked = (await chunkPages(reader, reader.bytes, ref)).pages;
  const data = walked.filter((p) => p.type === 'data v1' || p.type === 'data v2');
  const spans: PageSpan[] = [];
  let entry = 0;
  let value = 0;
  let rows = 0;
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
    const entries = page.numValues!;
    if (entry + entries > c.length) {
      lie('page_locations', `${locs.length} pages`, `pages past the chunk's ${c.length} values`, i);
      return null;
    }
    if (loc.firstRowIndex !== rows) lie('first_row_index', String(loc.firstRowIndex), String(rows), i);
    let values = entries;
    if (c.def) {
      values = 0;
      for (let k = entry; k < entry + entries; k++) if (c.def[k] === leaf.defLevel) values++;
    }
    if (c.rep) {
      for (let k = entry; k < entry + entries; k++) if (c.rep[k] === 0) rows++;
    } else rows += entries;
    spans.push({ entryStart: entry, entries, valueStart: value, valueEnd: value + values });
    entry += entries;
    value += values;
  }
  if (locs.length !== data.length) {
    lie('page_locations', `${locs.length} pages`, `${data.length} data pages`, Math.min(locs.length, data.length));
    return null;
  }
  return spans;
}
