/**
 * The page index (ColumnIndex + OffsetIndex) and bloom filters of a column
 * chunk: where they lie, decoding, and the checks that make a corrupt index a
 * CorruptFileError naming row group and column rather than wrong rows.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { CorruptFileError, withContext, type ErrorContext } from '../../errors.js';
import type { ValueOptions } from '../../schema/convert.js';
import type { LeafNode } from '../../schema/tree.js';
import { decodeBloomFilterHeader, decodeColumnIndex, decodeOffsetIndex, type ColumnChunk, type ColumnIndex, type OffsetIndex } from '../metadata/index.js';
import { statisticValue } from '../statistics.js';

/** One page as the page index describes it, bounds decoded to JS values. */
export interface PageIndexEntry {
  /** File offset of the page (its header). */
  offset: number;
  /** Bytes of the page, header included. */
  compressedSize: number;
  /** First row of the page within the row group. */
  firstRow: number;
  numRows: number;
  /** Every value of the page is null (undefined without a column index). */
  nullPage?: boolean;
  nullCount?: number;
  min?: unknown;
  max?: unknown;
}

export interface Range {
  start: number;
  end: number;
}

/** The file range of an index structure, checked to lie inside the file (between the magic and the footer). */
export function structRange(offset: number | undefined, length: number | undefined, fileSize: number, what: string, ctx: ErrorContext): Range | null {
  if (offset === undefined) return null;
  if (length === undefined) throw new CorruptFileError(`${what} has an offset but no length`, ctx);
  if (!(Number.isSafeInteger(offset) && Number.isSafeInteger(length) && offset >= 4 && length > 0 && offset + length <= fileSize - 8)) {
    throw new CorruptFileError(`${what} at ${offset} (${length} bytes) lies outside the ${fileSize}-byte file`, { ...ctx, offset });
  }
  return { start: offset, end: offset + length };
}

export function columnIndexRange(chunk: ColumnChunk, fileSize: number, ctx: ErrorContext): Range | null {
  return structRange(chunk.columnIndexOffset, chunk.columnIndexLength, fileSize, 'column index', ctx);
}

export function offsetIndexRange(chunk: ColumnChunk, fileSize: number, ctx: ErrorContext): Range | null {
  return structRange(chunk.offsetIndexOffset, chunk.offsetIndexLength, fileSize, 'offset index', ctx);
}

export function parseColumnIndex(bytes: Uint8Array, base: number, ctx: ErrorContext): ColumnIndex {
  return withContext({ ...ctx, offset: base }, () => decodeColumnIndex(new ByteCursor(bytes, 0, bytes.length, base)));
}

export function parseOffsetIndex(bytes: Uint8Array, base: number, ctx: ErrorContext): OffsetIndex {
  return withContext({ ...ctx, offset: base }, () => decodeOffsetIndex(new ByteCursor(bytes, 0, bytes.length, base)));
}

/**
 * Checks an offset index against its chunk: page locations inside the
 * chunk's bytes, in order, not overlapping; first row indexes starting at 0,
 * ascending, within the row group.
 */
export function checkOffsetIndex(oi: OffsetIndex, numRows: number, chunk: Range, ctx: ErrorContext): void {
  const locs = oi.pageLocations;
  if (locs.length === 0 && numRows > 0) throw new CorruptFileError('offset index lists no pages for a non-empty row group', ctx);
  let prevEnd = chunk.start;
  let prevRow = -1;
  locs.forEach((p, i) => {
    const where = { ...ctx, offset: p.offset };
    if (!(Number.isSafeInteger(p.offset) && Number.isSafeInteger(p.compressedPageSize) && p.compressedPageSize > 0)) {
      throw new CorruptFileError(`offset index page ${i} has offset ${p.offset} and size ${p.compressedPageSize}`, where);
    }
    if (p.offset < prevEnd || p.offset + p.compressedPageSize > chunk.end) {
      throw new CorruptFileError(`offset index page ${i} at ${p.offset} (${p.compressedPageSize} bytes) lies outside the column chunk (${chunk.start}..${chunk.end}) or overlaps the page before`, where);
    }
    if (!Number.isSafeInteger(p.firstRowIndex) || (i === 0 ? p.firstRowIndex !== 0 : p.firstRowIndex <= prevRow) || p.firstRowIndex >= Math.max(numRows, 1)) {
      throw new CorruptFileError(`offset index page ${i} has first row index ${p.firstRowIndex} (previous ${prevRow}, row group of ${numRows} rows)`, where);
    }
    prevEnd = p.offset + p.compressedPageSize;
    prevRow = p.firstRowIndex;
  });
  if (oi.unencodedByteArrayDataBytes !== undefined && oi.unencodedByteArrayDataBytes.length !== locs.length) {
    throw new CorruptFileError(`offset index has ${locs.length} pages but ${oi.unencodedByteArrayDataBytes.length} unencoded sizes`, ctx);
  }
}

/** Checks a column index's lists against each other and, when given, the offset index's page count. */
export function checkColumnIndex(ci: ColumnIndex, pages: number | undefined, ctx: ErrorContext): void {
  const n = ci.nullPages.length;
  const lists: [string, { length: number } | undefined][] = [
    ['min values', ci.minValues],
    ['max values', ci.maxValues],
    ['null counts', ci.nullCounts],
    ['NaN counts', ci.nanCounts],
  ];
  for (const [name, list] of lists) {
    if (list !== undefined && list.length !== n) throw new CorruptFileError(`column index has ${n} null-page flags but ${list.length} ${name}`, ctx);
  }
  if (pages !== undefined && n !== pages) throw new CorruptFileError(`column index has ${n} pages but the offset index has ${pages}`, ctx);
}

/** Per-page view joining both indexes (the column index may be absent). */
export function pageEntries(leaf: LeafNode, oi: OffsetIndex, ci: ColumnIndex | null, numRows: number, options: ValueOptions = {}): PageIndexEntry[] {
  const locs = oi.pageLocations;
  return locs.map((p, i) => {
    const end = i + 1 < locs.length ? locs[i + 1]!.firstRowIndex : numRows;
    const e: PageIndexEntry = { offset: p.offset, compressedSize: p.compressedPageSize, firstRow: p.firstRowIndex, numRows: end - p.firstRowIndex };
    if (ci) {
      e.nullPage = ci.nullPages[i]!;
      if (ci.nullCounts) e.nullCount = ci.nullCounts[i]!;
      if (!e.nullPage) {
        e.min = statisticValue(leaf, ci.minValues[i]!, options);
        e.max = statisticValue(leaf, ci.maxValues[i]!, options);
      }
    }
    return e;
  });
}

/** How much to read first when a bloom filter's length is not recorded: enough for any header. */
export const BLOOM_HEADER_GUESS = 256;

/** Header length and bitset size of a bloom filter whose first bytes are `bytes` (its length unknown). */
export function bloomFilterExtent(bytes: Uint8Array, base: number, ctx: ErrorContext): number {
  return withContext({ ...ctx, offset: base }, () => {
    const c = new ByteCursor(bytes, 0, bytes.length, base);
    const h = decodeBloomFilterHeader(c);
    if (!(Number.isSafeInteger(h.numBytes) && h.numBytes > 0)) throw new CorruptFileError(`bloom filter header says ${h.numBytes} bytes`);
    return c.pos + h.numBytes;
  });
}
