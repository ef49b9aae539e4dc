/**
 * One column chunk read page by page, each page on its own, so a damaged page
 * costs only what it must: its rows where the file says where rows start (an
 * offset index, a v2 page header's row count, or a leaf that is not
 * repeated, whose levels are its rows), else every row from it to the end
 * of the chunk. The intact pages come back as runs of neighbouring pages,
 * each decoded into levels and values over a known row span.
 *
 * A page that decodes can still be the wrong page: one overwritten by a
 * neighbour of the same size keeps a valid CRC, its own. So each page is
 * also held to what the file states about it apart from its bytes (its
 * offset index row span here; its column index entry, unencoded bytes and
 * the chunk's bounds in stated.ts), and the whole chunk to its value count
 * here and its Statistics and SizeStatistics there: a page that
 * contradicts them is lost. Where the file states none of these, such a
 * page cannot be told apart.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { loadCodec, type CodecName } from '../../codecs/registry.js';
import { ChecksumError, CorruptFileError, ParquetryError, withContext, type ErrorContext } from '../../errors.js';
import type { LeafNode } from '../../schema/tree.js';
import type { Source } from '../../io/source.js';
import { decodeColumnChunk, type ChunkOptions } from '../column-chunk.js';
import type { ColumnChunkData } from '../../shred/column-data.js';
import type { LeafClaims } from '../claims/claims.js';
import { decodeColumnIndex, decodeOffsetIndex, decodePageHeader, type ColumnChunk, type ColumnIndex, type ColumnMetaData, type OffsetIndex, type PageHeader } from '../metadata/index.js';
import type { ChunkLocator } from '../chunk-locator.js';
import type { Range } from '../filter/indexes.js';
import { described, type Loss } from '../../loss.js';
import { statedClaims } from './stated.js';
import { loadPageEncodings } from '../page-values.js';

/** Intact pages next to each other, decoded together: their levels and values hold exactly `rows`. */
export interface Run {
  rows: Range;
  data: ColumnChunkData;
}

export interface ChunkSalvage {
  runs: Run[];
  losses: Loss[];
}

/** A data page as found: where it lies, its header when readable, its rows when known before decoding. */
interface FoundPage {
  offset: number;
  end: number;
  header: PageHeader | null;
  rows: Range | null;
}

type Decode = Pick<ChunkOptions, 'verifyChecksums' | 'maxDecompressedBytes'>;

export interface ChunkPlace {
  source: Source;
  chunk: ColumnChunk;
  leaf: LeafNode;
  /** What the file states about the leaf's chunks, to hold its pages to (made only for a chunk with claims). */
  claims: () => LeafClaims;
  /** Why the rest of the footer contradicts the chunk's metadata (footer-claims.ts), or null. */
  conflict: (meta: ColumnMetaData) => string | null;
  rowGroup: number;
  numRows: number;
  /** The file's chunks, located with data up to its end (a file recovered without its footer has data there). */
  locator: ChunkLocator;
  ctx: ErrorContext;
}

/** Reads one chunk page by page; never throws for what the file holds (a loss is reported instead). */
export async function salvageChunk(at: ChunkPlace, opts: Decode): Promise<ChunkSalvage> {
  const column = at.leaf.path.join('.');
  const whole = (bytes: Range, e: unknown, rows: Range = { start: 0, end: at.numRows }): ChunkSalvage => ({
    runs: [],
    losses: [{ rowGroup: at.rowGroup, column, bytes, rows, error: described(e) }],
  });
  let meta: ColumnMetaData;
  let range: Range;
  try {
    meta = at.locator.meta(at.chunk, at.ctx);
    const conflict = at.conflict(meta);
    if (conflict) throw new CorruptFileError(`the footer contradicts itself: ${conflict}`, { ...at.ctx, offset: meta.dataPageOffset });
    range = at.locator.locate(at.rowGroup, at.leaf);
    if (meta.codec !== 'UNCOMPRESSED' && meta.codec !== 'LZO') await loadCodec(meta.codec as CodecName);
    // A damaged footer's encoding lists are not to be trusted.
    await loadPageEncodings();
  } catch (e) {
    if (!(e instanceof ParquetryError)) throw e;
    return whole({ start: at.chunk.metaData?.dataPageOffset ?? 0, end: at.chunk.metaData?.dataPageOffset ?? 0 }, e);
  }
  const bytes = await at.source.read(range.start, range.end - range.start);
  const base = range.start;
  const oi = await offsetIndex(at, range);
  const size = Math.min(meta.totalCompressedSize, bytes.length);
  const found = oi ? pagesFromIndex(bytes, base, oi, at.numRows, size) : pagesByWalk(bytes, base, meta.numValues, size);
  // Pages found by walking headers that do not tile the chunk, or pages
  // where the offset index puts others: nothing shows that any page is
  // where the file says. Bytes missing or added before the chunk (or inside
  // it) shift it, and its pages are then pages of other rows (or another
  // column) that decode cleanly.
  if (found.error !== null) return whole({ start: base, end: range.end }, found.error);
  const dictEnd = found.pages[0]?.offset ?? found.stop;
  const dict = dictEnd > base ? { bytes: bytes.subarray(0, dictEnd - base), base } : null;
  const decode = (pieces: { bytes: Uint8Array; base: number }[], numValues: number): ColumnChunkData =>
    decodeColumnChunk(bytes, base, meta, at.leaf, { ...opts, pieces, numValues }, at.ctx);
  if (dict) {
    try {
      decode([dict], 0);
    } catch (e) {
      if (!(e instanceof ParquetryError)) throw e;
      return whole({ start: base, end: dictEnd }, e);
    }
  }
  const stated = statedClaims(at.leaf, at.claims, meta, await columnIndex(at, found.pages.length), oi?.unencodedByteArrayDataBytes, found.pages.length);
  const out: ChunkSalvage = { runs: [], losses: [] };
  const repeated = at.leaf.repLevel > 0;
  let row = 0;
  let levels = 0;
  /** Intact pages waiting to be decoded as one run. */
  let pending: { pages: FoundPage[]; values: number; rows: Range } | null = null;
  const flush = (): void => {
    if (!pending) return;
    const p = pending;
    pending = null;
    const piece = { bytes: bytes.subarray(p.pages[0]!.offset - base, p.pages[p.pages.length - 1]!.end - base), base: p.pages[0]!.offset };
    out.runs.push({ rows: p.rows, data: decode(dict ? [dict, piece] : [piece], p.values) });
  };
  const lose = (page: number, b: Range, rows: Range, e: unknown): void => {
    flush();
    out.losses.push({ rowGroup: at.rowGroup, column, page, bytes: b, rows, error: described(e) });
  };
  for (let i = 0; i < found.pages.length; i++) {
    const pg = found.pages[i]!;
    const known = pg.rows ?? knownRows(pg.header, repeated, row);
    const fail = (e: unknown): boolean => {
      if (known) {
        lose(i, { start: pg.offset, end: pg.end }, known, e);
        row = known.end;
        return false;
      }
      // Rows are not known to start at this page: the one in progress may continue into it, so it goes too
      // (its run keeps its levels; the loss leaves them unused).
      const from = repeated && row > 0 ? row - 1 : row;
      lose(i, { start: pg.offset, end: range.end }, { start: from, end: at.numRows }, e);
      return true;
    };
    if (!pg.header) {
      if (fail(pg.error)) return out;
      continue;
    }
    const n = (pg.header.dataPageHeader ?? pg.header.dataPageHeaderV2)!.numValues;
    let rows: number;
    let decoded = false;
    try {
      const data = decode(dict ? [dict, { bytes: bytes.subarray(pg.offset - base, pg.end - base), base: pg.offset }] : [{ bytes: bytes.subarray(pg.offset - base, pg.end - base), base: pg.offset }], n);
      decoded = true;
      rows = rowStarts(data);
      if (known && rows !== known.end - known.start) {
        throw new CorruptFileError(`page holds ${rows} rows but ${oi ? 'the offset index' : 'its header'} says ${known.end - known.start}`, { ...at.ctx, page: i, offset: pg.offset });
      }
      if (repeated && !oi && data.rep !== null && data.length > 0 && data.rep[0] !== 0 && !pending) {
        throw new CorruptFileError('page continues a row whose start was lost', { ...at.ctx, page: i, offset: pg.offset });
      }
      const wrong = stated?.page(i, data);
      if (wrong) throw new CorruptFileError(`page contradicts the file's ${wrong}`, { ...at.ctx, page: i, offset: pg.offset });
    } catch (e) {
      if (!(e instanceof ParquetryError)) throw e;
      // Bytes that pass their CRC are a page as its writer wrote it: one that does not decode as this column's is
      // another's, shifted in (no page of the chunk is then known to lie where the footer says), or the footer
      // describes the column wrongly (a repetition changed: its other pages decode, into other values).
      if (!decoded && opts.verifyChecksums && pg.header.crc !== undefined && !(e instanceof ChecksumError)) return whole({ start: base, end: range.end }, e);
      if (fail(e)) return out;
      continue;
    }
    const span = { start: row, end: row + rows };
    if (pending && pending.pages[pending.pages.length - 1]!.end === pg.offset) {
      pending.pages.push(pg);
      pending.values += n;
      pending.rows.end = span.end;
    } else {
      flush();
      pending = { pages: [pg], values: n, rows: span };
    }
    row = span.end;
    levels += n;
  }
  flush();
  // The pages must account for the chunk exactly. A header's row count is not
  // covered by the page CRC: when the counts disagree, the rows from the
  // first page lost on its header's word onwards cannot be placed.
  if (row !== at.numRows || (out.losses.length === 0 && levels !== meta.numValues)) {
    const e = new CorruptFileError(`the chunk's pages hold ${levels} values in ${row} rows, its metadata says ${meta.numValues} values in ${at.numRows} rows`, { ...at.ctx, offset: base });
    const first = oi ? undefined : out.losses[0];
    const cut = first ? first.rows.start : 0;
    out.runs = out.runs.filter((r) => r.rows.end <= cut);
    out.losses = out.losses.filter((l) => l.rows.start < cut);
    out.losses.push({ rowGroup: at.rowGroup, column, bytes: { start: first?.bytes.start ?? base, end: range.end }, rows: { start: cut, end: at.numRows }, error: described(e) });
    return out;
  }
  // Every page read: the chunk's totals must be what its metadata says, or some page is not the one written.
  const wrong = out.losses.length === 0 ? stated?.chunk() : null;
  if (wrong) {
    const e = new CorruptFileError(`the chunk's pages contradict its ${wrong}`, { ...at.ctx, offset: base });
    return whole({ start: base, end: range.end }, e);
  }
  return out;
}

/** Rows a page holds by its header, when they can be known before it is decoded. */
function knownRows(h: PageHeader | null, repeated: boolean, row: number): Range | null {
  if (!h) return null;
  if (h.dataPageHeaderV2) return { start: row, end: row + h.dataPageHeaderV2.numRows };
  if (!repeated && h.dataPageHeader) return { start: row, end: row + h.dataPageHeader.numValues };
  return null;
}

function rowStarts(c: ColumnChunkData): number {
  if (c.rep === null) return c.length;
  let n = 0;
  for (let i = 0; i < c.length; i++) if (c.rep[i] === 0) n++;
  return n;
}

interface Found {
  pages: (FoundPage & { error?: unknown })[];
  /** Where finding pages stopped (the chunk's end when every page was found). */
  stop: number;
  /** Why it stopped early, or null. */
  error: unknown;
}

/**
 * Data pages by their headers, one after another: a header that cannot be
 * read ends the walk, and so do pages that hold the chunk's values before
 * its `size` bytes end (a page of another column or row shifted in can
 * complete the count).
 */
function pagesByWalk(bytes: Uint8Array, base: number, numValues: number, size: number): Found {
  const pages: FoundPage[] = [];
  const c = new ByteCursor(bytes, 0, bytes.length, base);
  let levels = 0;
  while (c.remaining > 0 && levels < numValues) {
    const offset = c.fileOffset;
    let header: PageHeader;
    try {
      header = decodePageHeader(c);
      const size = header.compressedPageSize;
      if (!(size >= 0) || size > c.remaining) throw new CorruptFileError(`page of ${size} bytes runs past the end of the column chunk (${c.remaining} bytes left)`, { offset });
      c.skip(size);
    } catch (e) {
      if (!(e instanceof ParquetryError)) throw e;
      return { pages, stop: offset, error: e };
    }
    const data = header.dataPageHeader ?? header.dataPageHeaderV2;
    if (!data) {
      if (header.type === 'DICTIONARY_PAGE' && pages.length > 0) return { pages, stop: offset, error: new CorruptFileError('dictionary page after data pages', { offset }) };
      continue;
    }
    levels += data.numValues;
    pages.push({ offset, end: c.fileOffset, header, rows: null });
  }
  if (c.fileOffset < base + size) return { pages, stop: c.fileOffset, error: new CorruptFileError(`the pages hold the chunk's ${numValues} values ${base + size - c.fileOffset} bytes before its end`, { offset: c.fileOffset }) };
  return { pages, stop: c.fileOffset, error: null };
}

/**
 * Data pages where the offset index puts them: a damaged header loses that
 * page alone, but a header that reads and states another size than the
 * index is another page's, moved there: the chunk's bytes were shifted
 * (a page added or removed), and the pages are returned with that error.
 */
function pagesFromIndex(bytes: Uint8Array, base: number, oi: OffsetIndex, numRows: number, size: number): Found {
  const locs = oi.pageLocations;
  let shifted: unknown = null;
  // Pages lie one after another to the chunk's end: bytes between or after them were added (a page doubled in place
  // leaves the index's next entry on its copy, of the same size).
  const last = locs[locs.length - 1]!;
  const gap = locs.findIndex((l, i) => i + 1 < locs.length && locs[i + 1]!.offset !== l.offset + l.compressedPageSize);
  if (gap >= 0 || last.offset + last.compressedPageSize !== base + size) {
    shifted = new CorruptFileError(`the offset index's pages do not fill the chunk's bytes (${gap >= 0 ? `bytes after page ${gap}` : `bytes after its last page`}): the chunk's pages are not where it puts them`, { offset: base });
  }
  const pages: (FoundPage & { error?: unknown })[] = locs.map((l, i) => {
    const rows = { start: l.firstRowIndex, end: locs[i + 1]?.firstRowIndex ?? numRows };
    const page = { offset: l.offset, end: l.offset + l.compressedPageSize, header: null as PageHeader | null, rows };
    try {
      const c = new ByteCursor(bytes, l.offset - base, page.end - base, base);
      const header = decodePageHeader(c);
      if (header.compressedPageSize !== page.end - c.fileOffset) {
        shifted ??= new CorruptFileError(`the page at ${l.offset} is of ${header.compressedPageSize} bytes, the offset index says ${page.end - c.fileOffset}: the chunk's pages are not where it puts them`, { offset: l.offset });
        throw shifted;
      }
      if (!header.dataPageHeader && !header.dataPageHeaderV2) throw new CorruptFileError(`offset index points at a ${header.type} page`, { offset: l.offset });
      page.header = header;
      return page;
    } catch (e) {
      if (!(e instanceof ParquetryError)) throw e;
      return { ...page, error: e };
    }
  });
  return { pages, stop: base + bytes.length, error: shifted };
}

/** The chunk's offset index when it is present and consistent with the chunk; else null (pages are then found by walking). */
function offsetIndex(at: ChunkPlace, range: Range): Promise<OffsetIndex | null> {
  return readIndex(at, at.chunk.offsetIndexOffset, at.chunk.offsetIndexLength, decodeOffsetIndex, (oi) => {
    const locs = oi.pageLocations;
    if (locs.length === 0 || locs[0]!.firstRowIndex !== 0) return false;
    for (let i = 0; i < locs.length; i++) {
      const l = locs[i]!;
      const next = locs[i + 1];
      if (!(l.offset >= range.start && l.compressedPageSize > 0 && l.offset + l.compressedPageSize <= range.end)) return false;
      if (next && !(next.offset >= l.offset + l.compressedPageSize && next.firstRowIndex > l.firstRowIndex)) return false;
      if (!next && !(l.firstRowIndex < at.numRows)) return false;
    }
    return true;
  });
}

/**
 * The chunk's column index when it is present, readable, has an entry per
 * data page found and no negative count; else null (nothing to hold pages
 * to). parquet-mr 1.13 wrote indexes of null_counts -1 and every page
 * null over pages of values (parquet-testing's datapage_v1-*-checksum
 * files): a placeholder that states nothing about the pages, not damage.
 */
function columnIndex(at: ChunkPlace, pages: number): Promise<ColumnIndex | null> {
  return readIndex(at, at.chunk.columnIndexOffset, at.chunk.columnIndexLength, decodeColumnIndex, (ci) => {
    const fits = (l: unknown[] | undefined) => l === undefined || l.length === pages;
    const counts = (l: number[] | undefined) => fits(l) && !l?.some((n) => n < 0);
    return ci.nullPages.length === pages && fits(ci.minValues) && fits(ci.maxValues) && counts(ci.nullCounts) && counts(ci.nanCounts);
  });
}

/** A page index structure at `off` when it lies in the file, decodes and is `usable`; else null. */
async function readIndex<T>(at: ChunkPlace, off: number | undefined, len: number | undefined, decode: (c: ByteCursor) => T, usable: (x: T) => boolean): Promise<T | null> {
  if (off === undefined || len === undefined || !(off >= 4 && len > 0 && off + len <= at.source.byteLength)) return null;
  try {
    const bytes = await at.source.read(off, len);
    const x = withContext({ ...at.ctx, offset: off }, () => decode(new ByteCursor(bytes, 0, bytes.length, off)));
    return usable(x) ? x : null;
  } catch (e) {
    if (e instanceof ParquetryError) return null;
    throw e;
  }
}
