/**
 * SizeStatistics as stored: per column chunk, the unencoded byte-array bytes
 * and the repetition and definition level histograms from the chunk's
 * metadata, and per page those of the page index (ColumnIndex histograms,
 * OffsetIndex unencoded bytes), cut into one histogram per page.
 */
import { CorruptFileError } from '../../errors.js';
import type { ParquetFile } from '../file.js';
import { readsNoChunks } from '../chunk-locator.js';
import type { ColumnPath } from '../../schema/tree.js';

/** One page's size statistics, from the page index. */
export interface PageSizeStats {
  page: number;
  unencodedByteArrayDataBytes?: number;
  repetitionLevelHistogram?: number[];
  definitionLevelHistogram?: number[];
}

/** A column chunk's SizeStatistics, and its pages' from the page index. */
export interface ChunkSizeStats {
  rowGroup: number;
  column: string;
  /** The chunk has SizeStatistics in its metadata (the fields below come from it). */
  sizeStatistics: boolean;
  unencodedByteArrayDataBytes?: number;
  repetitionLevelHistogram?: number[];
  definitionLevelHistogram?: number[];
  /** Per page, from the page index; absent when the index has no size fields. */
  pages?: PageSizeStats[];
}

/** One histogram per page, from the page index's flat list of `pages` × `levels` counts. */
function perPage(flat: number[] | undefined, pages: number, levels: number, what: string, ctx: { rowGroup: number; column: string }): number[][] | undefined {
  if (!flat) return undefined;
  if (flat.length !== pages * levels) {
    throw new CorruptFileError(`column index has ${flat.length} ${what} histogram counts, not ${pages} pages × ${levels} levels`, ctx);
  }
  return Array.from({ length: pages }, (_, p) => flat.slice(p * levels, (p + 1) * levels));
}

/** The size statistics of the chunks of `columns` (default all) in `rowGroups` (default all). */
export async function sizeStatistics(file: ParquetFile, columns?: readonly ColumnPath[], rowGroups?: readonly number[]): Promise<ChunkSizeStats[]> {
  const leaves = file.selectLeaves(columns);
  const groups = rowGroups ?? file.metadata.rowGroups.map((_, i) => i);
  const out: ChunkSizeStats[] = [];
  for (const rg of groups) {
    for (const leaf of leaves) {
      const column = leaf.path.join('.');
      // Read first, as the file checks that the row group exists; a row group of no rows is not read (writers leave its offsets at 0).
      const group = file.metadata.rowGroups[rg];
      const [ci, oi] = group && readsNoChunks(group) ? [null, null] : await Promise.all([file.readColumnIndex(rg, leaf.path), file.readOffsetIndex(rg, leaf.path)]);
      const ss = group!.columns[leaf.columnIndex]!.metaData?.sizeStatistics;
      const s: ChunkSizeStats = { rowGroup: rg, column, sizeStatistics: ss !== undefined };
      if (ss?.unencodedByteArrayDataBytes !== undefined) s.unencodedByteArrayDataBytes = ss.unencodedByteArrayDataBytes;
      if (ss?.repetitionLevelHistogram) s.repetitionLevelHistogram = ss.repetitionLevelHistogram;
      if (ss?.definitionLevelHistogram) s.definitionLevelHistogram = ss.definitionLevelHistogram;
      const count = oi?.pageLocations.length ?? ci?.nullPages.length ?? 0;
      const ctx = { rowGroup: rg, column };
      const rep = perPage(ci?.repetitionLevelHistograms, count, leaf.repLevel + 1, 'repetition level', ctx);
      const def = perPage(ci?.definitionLevelHistograms, count, leaf.defLevel + 1, 'definition level', ctx);
      const bytes = oi?.unencodedByteArrayDataBytes;
      if (bytes && bytes.length !== count) throw new CorruptFileError(`offset index has ${bytes.length} unencoded byte counts for ${count} pages`, ctx);
      if (rep || def || bytes) {
        s.pages = Array.from({ length: count }, (_, page) => {
          const p: PageSizeStats = { page };
          if (bytes) p.unencodedByteArrayDataBytes = bytes[page];
          if (rep) p.repetitionLevelHistogram = rep[page];
          if (def) p.definitionLevelHistogram = def[page];
          return p;
        });
      }
      out.push(s);
    }
  }
  return out;
}
