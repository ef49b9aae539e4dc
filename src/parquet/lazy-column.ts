/**
 * A column chunk read page by page as a read asks for rows: its pages are
 * fetched in order, only as far as the rows taken need, and decoded by a
 * ChunkStream fed page by page. A skip passes over whole pages of an
 * unrepeated leaf from their headers alone, their bodies never fetched; a
 * repeated leaf's rows are known only from its levels, so its skipped pages
 * are fetched and their levels read. Values passed over are never made.
 *
 * Bytes fetched: each fetch for a page reads ahead as many bytes as the
 * pages taken so far hold (none for the first), so a read fetches at most
 * twice the bytes of the pages that hold its rows, plus the headers of the
 * pages it passes over (HEADER_PROBE bytes each, more for a longer header).
 */
import { ByteCursor } from '../bytes/cursor.js';
import { CorruptFileError, withContext, type ErrorContext } from '../errors.js';
import type { LeafNode } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import { ChunkStream } from './chunk-stream.js';
import type { ChunkOptions } from './column-chunk.js';
import { decodePageHeader, type ColumnMetaData, type PageHeader } from './metadata/index.js';
import { loadPageEncodings, pageNeedsEncodings } from './page-values.js';

/** Bytes [start, end) of the file. */
export type ReadRange = (start: number, end: number) => Promise<Uint8Array>;

/** Bytes first read for a page header whose page is passed over: most headers without statistics fit. */
const HEADER_PROBE = 64;

/** The bytes of a chunk fetched so far that a read may still use: one window, moving forward. */
class ChunkWindow {
  private buf: Uint8Array = new Uint8Array(0);
  private at = 0;

  /** `whole`: the bytes are in memory, read at once (a window over them never copies). */
  constructor(private readonly read: ReadRange, private readonly end: number, private readonly whole: boolean) {}

  /** Bytes [from, to), fetching what the window lacks and `ahead` bytes past it (never past the chunk). */
  async get(from: number, to: number, ahead: number): Promise<Uint8Array> {
    const have = this.at + this.buf.length;
    if (from >= this.at && to <= have) return this.buf.subarray(from - this.at, to - this.at);
    const keep = from >= this.at && from < have ? this.buf.subarray(from - this.at) : new Uint8Array(0);
    const fetchFrom = from + keep.length;
    const got = await this.read(fetchFrom, this.whole ? this.end : Math.min(this.end, Math.max(to, fetchFrom + ahead)));
    let buf: Uint8Array = got;
    if (keep.length > 0) {
      buf = new Uint8Array(keep.length + got.length);
      buf.set(keep);
      buf.set(got, keep.length);
    }
    this.buf = buf;
    this.at = from;
    return buf.subarray(0, to - from);
  }
}

/** A data page's place, as an offset index gives it. */
export interface PageLocation {
  offset: number;
  firstRowIndex: number;
}

export interface LazyOptions {
  /** `read` answers from bytes already fetched: read them whole at once. */
  inMemory?: boolean;
  /** The chunk's offset index page locations (checked against the chunk: checkOffsetIndex). */
  pages?: readonly PageLocation[];
}

interface PageAt {
  header: PageHeader;
  /** The page's end (header and body). */
  end: number;
  /** A data page's levels, else 0. */
  levels: number;
}

export class LazyColumn {
  private readonly stream: ChunkStream;
  private readonly window: ChunkWindow;
  /** The next page's offset. */
  private pos: number;
  /** Levels of the data pages fed or passed: at the chunk's count, the chunk's pages are all given. */
  private levels = 0;
  /** Bytes of the pages fed so far: the read-ahead. */
  private used = 0;
  private probe = HEADER_PROBE;
  private done = false;
  private readonly repeated: boolean;

  /** Where the data pages start (an offset index, checked against the chunk), for an unrepeated leaf: pages passed over by these, not by their headers. */
  private readonly pages: readonly PageLocation[] | undefined;

  /** The chunk whose pages lie in bytes [start, end), read through `read`. */
  constructor(read: ReadRange, start: number, private readonly end: number, private readonly meta: ColumnMetaData, leaf: LeafNode, opts: ChunkOptions, private readonly ctx: ErrorContext, how: LazyOptions = {}) {
    this.stream = new ChunkStream(new Uint8Array(0), start, meta, leaf, opts, ctx, true);
    this.window = new ChunkWindow(read, end, how.inMemory ?? false);
    this.pos = start;
    this.repeated = leaf.repLevel > 0;
    this.pages = this.repeated ? undefined : how.pages;
  }

  /** The next `rows` rows (see ChunkStream.take). */
  async take(rows: number): Promise<ColumnChunkData> {
    while (!this.stream.ready(rows) && (await this.feed()));
    return this.stream.take(rows);
  }

  /**
   * Passes over the next `rows` rows. Whole pages of an unrepeated leaf are
   * passed by their headers (or the offset index), their bodies never
   * fetched; a page the skip starts or ends in is fed, and the stream reads
   * its levels and passes its values over without making them. A repeated
   * leaf's rows are known only from its levels, so its pages are fed.
   */
  async skip(rows: number): Promise<void> {
    let done = this.stream.skip(rows);
    while (!done) {
      if (!this.repeated) await this.passPages();
      // The page the skip ends in (or a dictionary page, which those after need); with none left the stream reports the chunk short.
      if (this.stream.skipping) await this.feed();
      done = this.stream.skip(0);
    }
  }

  /** Passes over the data pages whose rows the stream's pending skip wholly covers, unread. */
  private async passPages(): Promise<void> {
    while (this.stream.pending > 0) {
      const left = this.stream.pending;
      if (this.jump(left) > 0) continue;
      const page = await this.peek(0);
      if (page === null || page.levels === 0 || page.levels > left) return;
      this.stream.passPage(page.levels);
      this.pos = page.end;
      this.levels += page.levels;
    }
  }

  /**
   * With page locations: passes over the pages before the one that holds
   * the row `left` rows on, unread, once the dictionary page (anything
   * before the first data page) has been fed. The rows passed over.
   */
  private jump(left: number): number {
    const pages = this.pages;
    if (!pages || pages.length === 0 || this.pos < pages[0]!.offset) return 0;
    const target = this.levels + left;
    let k = -1;
    for (let i = 0; i < pages.length && pages[i]!.firstRowIndex <= target; i++) k = i;
    const page = pages[k];
    if (!page || page.offset <= this.pos || page.firstRowIndex <= this.levels) return 0;
    const passed = page.firstRowIndex - this.levels;
    this.stream.passPage(passed);
    this.pos = page.offset;
    this.levels = page.firstRowIndex;
    return passed;
  }

  /** After the row group's last row: every page given, and none holds more (ChunkStream.finish). */
  async finish(): Promise<void> {
    while (await this.feed());
    this.stream.finish();
  }

  /** Feeds the next page to the stream; false at the chunk's end. */
  private async feed(): Promise<boolean> {
    const page = await this.peek(this.used);
    if (page === null) return false;
    // Its chunk's metadata may not list its encoding: the page's header is what it is in.
    if (pageNeedsEncodings(page.header)) await loadPageEncodings();
    const bytes = await this.window.get(this.pos, page.end, this.used);
    this.stream.feed(bytes, this.pos);
    this.used += page.end - this.pos;
    this.pos = page.end;
    this.levels += page.levels;
    return true;
  }

  /**
   * The next page's header, reading `ahead` bytes past it; null once the
   * chunk's pages are all given.
   */
  private async peek(ahead: number): Promise<PageAt | null> {
    if (this.done) return null;
    if (this.levels >= this.meta.numValues || this.pos >= this.end) return this.close();
    let probe = Math.min(this.probe, this.end - this.pos);
    for (;;) {
      const bytes = await this.window.get(this.pos, this.pos + probe, ahead);
      const c = new ByteCursor(bytes, 0, bytes.length, this.pos);
      let header: PageHeader | undefined;
      try {
        header = decodePageHeader(c);
      } catch (e) {
        if (this.pos + probe >= this.end) throw withContext({ ...this.ctx, offset: this.pos }, () => { throw e; });
      }
      if (header) {
        this.probe = Math.max(HEADER_PROBE, 2 * c.pos);
        const size = header.compressedPageSize;
        const end = this.pos + c.pos + size;
        if (!(size >= 0) || end > this.end) {
          throw new CorruptFileError(`page of ${size} bytes runs past the end of the column chunk (${this.end - this.pos - c.pos} bytes left)`, { ...this.ctx, offset: this.pos });
        }
        const levels = header.dataPageHeader?.numValues ?? header.dataPageHeaderV2?.numValues ?? 0;
        return { header, end, levels: levels >= 0 ? levels : 0 };
      }
      probe = Math.min(probe * 2, this.end - this.pos);
    }
  }

  private close(): null {
    this.done = true;
    this.stream.close();
    return null;
  }
}
