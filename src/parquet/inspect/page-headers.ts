/**
 * Page headers of column chunks, read straight from the file's bytes
 * (headers only: page bodies are skipped, never fetched beyond the header
 * window), for tools that show a file's layout (`parquetry pages`, the
 * viewer page). Every size and offset is checked against the chunk and the
 * file, so a broken file gives a located CorruptFileError, never a crash.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { CorruptFileError, InvalidArgumentError, ParquetryError, UnsupportedError, withContext, type ErrorContext } from '../../errors.js';
import type { Source } from '../../io/source.js';
import type { ValueOptions } from '../../schema/convert.js';
import type { LeafNode } from '../../schema/tree.js';
import type { FileDecryptor } from '../crypto/decryptor.js';
import { decodePageHeader, type ColumnChunk, type ColumnMetaData, type PageHeader } from '../metadata/index.js';
import type { ParquetFile } from '../file.js';
import type { ColumnPath } from '../../schema/tree.js';
import { decodeStatistics, type DecodedStatistics } from '../statistics.js';
import { readsNoChunks, type ChunkRef } from '../chunk-locator.js';

/** The column chunks a `--column` / `--row-group` selection names, row group by row group. */
export function selectChunks(file: ParquetFile, columns?: readonly ColumnPath[], rowGroup?: number): ChunkRef[] {
  const leaves = file.selectLeaves(columns && columns.length ? columns : undefined);
  const groups = file.metadata.rowGroups;
  if (rowGroup !== undefined && rowGroup >= groups.length) {
    throw new InvalidArgumentError(`row group ${rowGroup} does not exist (the file has ${groups.length})`, { file: file.name });
  }
  const out: ChunkRef[] = [];
  groups.forEach((rg, i) => {
    if (rowGroup !== undefined && i !== rowGroup) return;
    for (const leaf of leaves) out.push(file.locator.ref(i, leaf));
  });
  return out;
}

/** One page header of a chunk: its type, place, sizes, encoding, counts and statistics. */
export interface PageInfo {
  rowGroup: number;
  column: string;
  /** Index of the page in its chunk (0 = first, dictionary page included). */
  page: number;
  type: 'dictionary' | 'data v1' | 'data v2' | 'index' | string;
  offset: number;
  headerSize: number;
  compressedSize: number;
  uncompressedSize: number;
  encoding?: string;
  numValues?: number;
  /** v2 pages: from the header. */
  numNulls?: number;
  /** Rows the page holds: v2 from its header, v1 from the OffsetIndex (or the value count when the column is not repeated); null when unknown. */
  rows?: number | null;
  /** Where `rows` came from. */
  rowsFrom?: 'header' | 'offset index' | 'values';
  firstRow?: number;
  /** The page header's statistics, decoded to the column's values. */
  statistics?: DecodedStatistics;
  crc: boolean;
}

/**
 * A column chunk's page headers, walked from its bytes by `chunkPages` (what `parquetry pages`
 * prints).
 */
export interface ChunkPages {
  rowGroup: number;
  column: string;
  start: number;
  length: number;
  /**
   * Encrypted with a key the reader was given: each page header was
   * decrypted, `headerSize` and `compressedSize` are the stored modules'
   * (4-byte length included), `uncompressedSize` the plaintext's.
   */
  encrypted: boolean;
  /** Values in the chunk's metadata, to compare with the pages' sum. */
  numValues: number;
  pages: PageInfo[];
}

/** The most bytes a page header may take before we give up (a header holds statistics, so it can be big, but not this big). */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;
const WINDOW = 16 * 1024;
/**
 * Reads page headers of one chunk through a window of its bytes. A window
 * of `size` bytes is fetched at a header that lies outside the bytes held;
 * headers that follow inside it (small pages) cost no read, and a big
 * page's body is skipped after at most one window. A header cut off by the
 * window is fetched again with a window four times larger, up to the end of
 * the chunk (or MAX_HEADER_BYTES): only then is a failure the file's.
 */
export class HeaderWindow {
  private buf: Uint8Array = new Uint8Array(0);
  private bufStart = 0;
  /** Bytes fetched so far. */
  fetched = 0;
  constructor(private readonly source: Source, private readonly limit: number, private readonly size = WINDOW) {}

  private async fill(pos: number, want: number): Promise<void> {
    const n = Math.min(want, this.limit - pos);
    this.bufStart = pos;
    this.buf = await this.source.read(pos, n);
    this.fetched += n;
  }

  /** The `n` bytes at `pos` (an encrypted header module), fetched with at least a window when not held. */
  async bytes(pos: number, n: number): Promise<Uint8Array> {
    if (pos + n > this.limit) throw new CorruptFileError(`${n} bytes at ${pos} run past the end of the column chunk at ${this.limit}`, { offset: pos });
    if (pos < this.bufStart || pos + n > this.bufStart + this.buf.length) await this.fill(pos, Math.max(n, this.size));
    return this.buf.subarray(pos - this.bufStart, pos - this.bufStart + n);
  }

  /** A module's length prefix at `pos`, checked against MAX_HEADER_BYTES when it is a header's. */
  async moduleLength(pos: number, header: boolean): Promise<number> {
    const b = await this.bytes(pos, 4);
    const n = new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true);
    if (header && n > MAX_HEADER_BYTES) throw new CorruptFileError(`encrypted page header module claims ${n} bytes (at most ${MAX_HEADER_BYTES})`, { offset: pos });
    return n;
  }

  async header(pos: number): Promise<{ header: PageHeader; size: number }> {
    let want = this.size;
    let fresh = false;
    if (pos < this.bufStart || pos >= this.bufStart + this.buf.length) {
      await this.fill(pos, want);
      fresh = true;
    }
    for (;;) {
      const cursor = new ByteCursor(this.buf, pos - this.bufStart, this.buf.length, this.bufStart);
      try {
        const header = decodePageHeader(cursor);
        return { header, size: cursor.fileOffset - pos };
      } catch (e) {
        const end = this.bufStart + this.buf.length;
        if (!(e instanceof CorruptFileError) || end >= this.limit || (fresh && want >= MAX_HEADER_BYTES)) throw e;
        if (fresh) want = Math.min(want * 4, MAX_HEADER_BYTES);
        await this.fill(pos, want);
        fresh = true;
      }
    }
  }
}

function pageType(t: PageHeader['type']): string {
  switch (t) {
    case 'DICTIONARY_PAGE': return 'dictionary';
    case 'DATA_PAGE': return 'data v1';
    case 'DATA_PAGE_V2': return 'data v2';
    case 'INDEX_PAGE': return 'index';
    default: return String(t);
  }
}

function checkCount(n: number | undefined, what: string): number {
  if (n === undefined || !Number.isSafeInteger(n) || n < 0) throw new CorruptFileError(`page header has ${what} ${n}`);
  return n;
}

/**
 * Walks one chunk's page headers through `source` (the file's own bytes),
 * fetching headers only, never page bodies beyond the header window.
 * Statistics are decoded with `values` (ISO text for temporal types unless
 * told otherwise).
 */
export async function chunkPages(file: ParquetFile, source: Source, c: ChunkRef, window = WINDOW, values: ValueOptions = { temporal: 'iso' }): Promise<ChunkPages> {
  const { meta, ctx, start, end: limit } = file.locator.locate(c.rowGroup, c.leaf);
  // Header modules of an encrypted chunk are decrypted with its key.
  const decryptor = file.decryptor?.encrypted(c.chunk, ctx) ? file.decryptor : undefined;
  const length = meta.totalCompressedSize;
  if (readsNoChunks(file.metadata.rowGroups[c.rowGroup]!)) {
    return { rowGroup: c.rowGroup, column: c.column, start, length, encrypted: decryptor !== undefined, numValues: meta.numValues, pages: [] };
  }
  const end = start + length;
  const index = await file.readOffsetIndex(c.rowGroup, c.leaf.path);
  const locations = new Map((index?.pageLocations ?? []).map((p, i, all) => [p.offset, { first: p.firstRowIndex, next: all[i + 1]?.firstRowIndex }]));
  const groupRows = file.metadata.rowGroups[c.rowGroup]!.numRows;
  const pages: PageInfo[] = [];
  let pos = start;
  let nextRow: number | undefined = 0;
  const headers = new HeaderWindow(source, limit, window);
  /**
   * An encrypted page: its header module decrypted, and the page module's
   * stored size from its length (DuckDB's headers give the plaintext's).
   */
  const sealed = async (d: FileDecryptor, pos: number, page: number, pageCtx: ErrorContext): Promise<{ header: PageHeader; size: number; stored: number }> => {
    const n = await headers.moduleLength(pos, true);
    const ordinal = pages[0]?.type === 'dictionary' ? page - 1 : page;
    const header = await d.decryptPageHeader(c.chunk, meta, await headers.bytes(pos + 4, n), page, ordinal, pageCtx);
    return { header, size: 4 + n, stored: 4 + (await headers.moduleLength(pos + 4 + n, false)) };
  };
  while (pos < end) {
    const page = pages.length;
    const pageCtx = { ...ctx, page, offset: pos };
    const got: { header: PageHeader; size: number; stored?: number } = await (decryptor ? sealed(decryptor, pos, page, pageCtx) : headers.header(pos)).catch((e: unknown) => {
      throw e instanceof ParquetryError ? e.within(pageCtx) : e;
    });
    const { header, size, stored } = got;
    const info = withContext(pageCtx, () => {
      const csize = stored ?? checkCount(header.compressedPageSize, 'compressed size');
      const usize = checkCount(header.uncompressedPageSize, 'uncompressed size');
      if (pos + size + csize > limit) {
        throw new CorruptFileError(`page of ${size} + ${csize} bytes runs past the end of the column chunk at ${end}`);
      }
      const p: PageInfo = {
        rowGroup: c.rowGroup, column: c.column, page, type: pageType(header.type), offset: pos,
        headerSize: size, compressedSize: csize, uncompressedSize: usize, crc: header.crc !== undefined,
      };
      let stats;
      if (header.type === 'DICTIONARY_PAGE') {
        const h = header.dictionaryPageHeader;
        if (!h) throw new CorruptFileError('dictionary page without a dictionary page header');
        p.encoding = h.encoding;
        p.numValues = checkCount(h.numValues, 'value count');
      } else if (header.type === 'DATA_PAGE') {
        const h = header.dataPageHeader;
        if (!h) throw new CorruptFileError('data page without a data page header');
        p.encoding = h.encoding;
        p.numValues = checkCount(h.numValues, 'value count');
        stats = h.statistics;
        const loc = locations.get(pos);
        if (loc) {
          p.firstRow = loc.first;
          p.rows = (loc.next ?? groupRows) - loc.first;
          p.rowsFrom = 'offset index';
        } else if (c.leaf.repLevel === 0) {
          p.rows = p.numValues;
          p.rowsFrom = 'values';
        } else p.rows = null;
      } else if (header.type === 'DATA_PAGE_V2') {
        const h = header.dataPageHeaderV2;
        if (!h) throw new CorruptFileError('data page v2 without a data page v2 header');
        p.encoding = h.encoding;
        p.numValues = checkCount(h.numValues, 'value count');
        p.numNulls = checkCount(h.numNulls, 'null count');
        p.rows = checkCount(h.numRows, 'row count');
        p.rowsFrom = 'header';
        const loc = locations.get(pos);
        if (loc) p.firstRow = loc.first;
        stats = h.statistics;
      }
      if (p.rows !== undefined) {
        if (p.firstRow === undefined && nextRow !== undefined) p.firstRow = nextRow;
        nextRow = p.rows === null || p.firstRow === undefined ? undefined : p.firstRow + p.rows;
      }
      if (stats) p.statistics = decodeStatistics(c.leaf, stats, values);
      return p;
    });
    pages.push(info);
    pos += size + info.compressedSize;
  }
  return { rowGroup: c.rowGroup, column: c.column, start, length, encrypted: decryptor !== undefined, numValues: meta.numValues, pages };
}
