/**
 * Row groups found without a footer or checkpoint: page headers walked from
 * the file's start under a schema (and codecs) the caller knows. Nothing in a
 * page header says which column it belongs to, so a row group is kept only
 * when the placement of its pages is proven:
 *
 * - Consistent: its pages split into one chunk per leaf, in leaf order, each
 *   an optional dictionary page then data pages that decode as that leaf's
 *   (levels, values, the chunk's dictionary) and start a row, every chunk
 *   holding the same rows.
 * - Unique, the cut included: no other split is consistent, and none that
 *   runs past the last readable page (a file cut short may continue any
 *   chunk there), so a split is never chosen because the pages that would
 *   have refuted it were cut off.
 * - Closed by content, not only by counts: the page after the row group
 *   cannot continue its last chunk but can begin the next row group (a
 *   page doubled in the last chunk passes for the last column's chunk and
 *   pushes that chunk out, where no row group begins), or the file's bytes end with its last
 *   page. Bytes after it that are no readable page (cut short, damaged,
 *   failing a CRC) may be one more page of that chunk, and a page doubled
 *   or dropped before them would then go unseen: there every boundary
 *   must be fixed by content (`closedAtDamage`). And (with two leaves or
 *   more) somewhere inside it a chunk's first page cannot continue the
 *   chunk before. Row
 *   counts alone would place the pages of a file with a page doubled or
 *   dropped (a CRC covers a page's bytes, not its place); with a boundary
 *   fixed by content on either side, such a page leaves two runs of chunks
 *   whose rows disagree.
 *
 * The first row group not proven ends the scan: what follows is reported as
 * lost from its first byte.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { sameBytes } from '../../bytes/same.js';
import { crc32 } from '../../checksum/crc32.js';
import { loadCodec, type CodecName } from '../../codecs/registry.js';
import { LimitError, ParquetryError } from '../../errors.js';
import type { Source } from '../../io/source.js';
import type { LeafNode, Schema } from '../../schema/tree.js';
import { decodeColumnChunk } from '../column-chunk.js';
import { decodePageHeader, type ColumnChunk, type ColumnMetaData, type FileMetaData, type PageHeader, type RowGroup } from '../metadata/index.js';
import { loadPageEncodings } from '../page-values.js';

/** Largest file scanned (it is held in memory while its headers are walked). */
const MAX_SCAN_BYTES = 1 << 30;
/** Splits of a row group's first chunk tried before the row group is given up (a one-column file's row groups end there). */
const MAX_SPLITS = 4096;

export interface ScanResult {
  metadata: FileMetaData;
  /** Where the proven row groups end, and why the scan went no further. */
  stop: { offset: number; reason: string };
}

/** A page whose header reads and whose bytes are all there (and match its CRC, when it has one). */
interface Page {
  offset: number;
  next: number;
  header: PageHeader;
}

/** A chunk as pages [first, end) of the page list, `dict` its dictionary page's index or -1. */
interface Chunk {
  first: number;
  end: number;
  dict: number;
  data: number;
  rows: number;
  levels: number;
}

type Step = 'page' | 'end' | 'foreign';

/** What a repeated leaf's data page that starts inside a row holds, for `rows` (a writer may split a row across pages). */
const MID_ROW = -1;

/** Row groups of `schema` from offset 4 on, each leaf compressed with `codecOf(leaf)`. */
export async function scanRowGroups(source: Source, schema: Schema, elements: FileMetaData['schema'], codecOf: (leaf: LeafNode) => CodecName): Promise<ScanResult> {
  if (source.byteLength > MAX_SCAN_BYTES) throw new LimitError(`a page-header scan holds the file in memory: ${source.byteLength} bytes is more than ${MAX_SCAN_BYTES}`, { file: source.name });
  for (const leaf of schema.leaves) if (codecOf(leaf) !== 'UNCOMPRESSED') await loadCodec(codecOf(leaf));
  // A damaged footer's encoding lists are not to be trusted.
  await loadPageEncodings();
  const bytes = await source.read(0, source.byteLength);
  const walked = walkPages(bytes);
  const scan = new Scan(bytes, walked.pages, walked.end >= bytes.length, schema.leaves, codecOf);
  const rowGroups: RowGroup[] = [];
  let at = 0;
  let reason = walked.reason;
  while (schema.leaves.length > 0 && at < walked.pages.length) {
    const found = scan.rowGroupAt(at);
    if (typeof found === 'string') {
      reason = `row group ${rowGroups.length} not proven: ${found}`;
      break;
    }
    rowGroups.push(scan.rowGroup(found, rowGroups.length));
    at = found[found.length - 1]!.end;
  }
  const offset = at < walked.pages.length ? walked.pages[at]!.offset : walked.end;
  const numRows = rowGroups.reduce((n, g) => n + g.numRows, 0);
  return { metadata: { version: 1, schema: elements, numRows, rowGroups }, stop: { offset, reason } };
}

/** The pages one after another from offset 4, up to the first that cannot be read whole or fails its CRC. */
function walkPages(bytes: Uint8Array): { pages: Page[]; end: number; reason: string } {
  const pages: Page[] = [];
  let pos = 4;
  for (;;) {
    if (pos >= bytes.length) return { pages, end: pos, reason: 'the file ends there' };
    let header: PageHeader;
    let next: number;
    try {
      const cur = new ByteCursor(bytes, pos, bytes.length, 0);
      header = decodePageHeader(cur);
      const size = header.compressedPageSize;
      if (!(size >= 0 && header.uncompressedPageSize >= 0) || size > cur.remaining) return { pages, end: pos, reason: `the page at byte ${pos} runs past the end of the file` };
      next = cur.pos + size;
    } catch (e) {
      if (!(e instanceof ParquetryError)) throw e;
      return { pages, end: pos, reason: `no page header can be read at byte ${pos}` };
    }
    if (header.crc !== undefined && (crc32(bytes.subarray(next - header.compressedPageSize, next)) | 0) !== (header.crc | 0)) {
      return { pages, end: pos, reason: `the page at byte ${pos} fails its CRC` };
    }
    pages.push({ offset: pos, next, header });
    pos = next;
  }
}

class Scan {
  /** Rows of page p decoded as leaf l's with dictionary page d (-1: none): see `rows`. */
  private readonly cache = new Map<string, number | null>();

  /** `closedAtEnd`: the file's bytes end with the last page (see the module comment). */
  constructor(private readonly bytes: Uint8Array, private readonly pages: readonly Page[], private readonly closedAtEnd: boolean, private readonly leaves: readonly LeafNode[], private readonly codecOf: (leaf: LeafNode) => CodecName) {}

  /** The chunks of the row group starting at page `start` when their placement is proven (see the module comment), else why not. */
  rowGroupAt(start: number): Chunk[] | string {
    const n = this.leaves.length;
    const first = this.chunk(start);
    const found: Chunk[][] = [];
    for (let splits = 0; ; splits++) {
      // One column's chunk may end anywhere without changing a row: a long run of its pages makes several row groups.
      if (splits >= MAX_SPLITS) return n === 1 ? this.ofOne(first) : `more than ${MAX_SPLITS} ways to end its first chunk`;
      const s = this.step(first, 0);
      if (s === 'end') return n === 1 ? this.ofOne(first) : 'its first chunk could run on past the last readable page';
      if (s === 'foreign') break;
      if (n === 1) continue;
      const chain = [{ ...first }];
      for (let l = 1; l < n; l++) {
        const c = this.chunkOf(chain[l - 1]!.end, l, first.rows);
        if (c === 'open') return 'a split of its pages could run on past the last readable page';
        if (c === null) break;
        chain.push(c);
      }
      if (chain.length < n) continue;
      found.push(chain);
      if (found.length > 1) return 'its pages split into chunks of equal rows more than one way';
    }
    if (n === 1) return this.ofOne(first);
    const chain = found[0];
    if (!chain) return 'no split of its pages gives every column the same rows';
    const last = chain[n - 1]!;
    const closed = chain.slice(1).map((c, l) => !this.continues(chain[l]!, l, c.first));
    const open = last.end < this.pages.length ? this.continues(last, n - 1, last.end) || !this.startsRowGroup(last.end) : !this.closedAtEnd && !this.closedAtDamage(last, closed);
    if (open) return "the page after it could be one more of its last column's";
    // A chunk doubled in place can pass for the next column's (a dictionary of one type read as another's).
    if (chain.some((c, l) => l > 0 && this.sameBytes(chain[l - 1]!, c))) return 'a chunk holds the same bytes as the one before it';
    if (!closed.includes(true)) return "no chunk's first page differs from what the chunk before it could hold";
    return chain;
  }

  /**
   * A row group whose pages end at bytes that are no readable page: a page
   * doubled or dropped inside it would shift later chunks unseen, unless
   * every chunk's first page is one the chunk before cannot hold; and a
   * dropped one would let its last chunk take in the next row group's first
   * pages, unless none of them after its first could be a page of the first
   * leaf (the next row group's first page, a dictionary page aside).
   */
  private closedAtDamage(last: Chunk, closed: boolean[]): boolean {
    if (closed.includes(false)) return false;
    for (let p = last.first + (last.dict >= 0 ? 2 : 1); p < last.end; p++) if (this.rows(0, -1, p) !== null) return false;
    return true;
  }

  /**
   * Whether the pages from p on can begin a row group: its first data page
   * (after a dictionary page) starts a row of the first leaf. A page doubled
   * in the last chunk can pass for the last column's chunk, pushing that
   * chunk's own pages out, where no row group can start.
   */
  private startsRowGroup(p: number): boolean {
    const dict = this.pages[p]!.header.type === 'DICTIONARY_PAGE' ? p : -1;
    const data = dict >= 0 ? p + 1 : p;
    if (data >= this.pages.length) return true;
    const rows = this.rows(0, dict, data);
    return rows !== null && rows !== MID_ROW;
  }

  private sameBytes(a: Chunk, b: Chunk): boolean {
    const span = (c: Chunk) => this.bytes.subarray(this.pages[c.first]!.offset, this.pages[c.end - 1]!.next);
    return sameBytes(span(a), span(b));
  }

  rowGroup(chunks: Chunk[], ordinal: number): RowGroup {
    const start = this.pages[chunks[0]!.first]!.offset;
    const end = this.pages[chunks[chunks.length - 1]!.end - 1]!.next;
    const columns = chunks.map((c, l) => this.columnChunk(c, this.leaves[l]!));
    return {
      columns,
      totalByteSize: columns.reduce((s, c) => s + c.metaData!.totalUncompressedSize, 0),
      numRows: chunks[0]!.rows,
      fileOffset: start,
      totalCompressedSize: end - start,
      ordinal,
    };
  }

  /**
   * A one-column file: every page is its column's whatever the row groups,
   * so the pages up to the first that cannot be one are kept; but when the
   * column is repeated and the page after could go on with the last row
   * (or was cut), that row may be incomplete, and its page goes.
   */
  private ofOne(c: Chunk): Chunk[] | string {
    const open = c.end >= this.pages.length || this.continues(c, 0, c.end);
    if (this.leaves[0]!.repLevel === 0 || !open) return c.data > 0 ? [c] : 'its first page is not one of its column';
    if (c.data < 2) return 'its last row could go on in the page after it';
    const kept = this.chunk(c.first);
    while (kept.end < c.end - 1) this.step(kept, 0);
    return [kept];
  }

  private chunk(start: number): Chunk {
    return { first: start, end: start, dict: -1, data: 0, rows: 0, levels: 0 };
  }

  /** Leaf l's chunk from page `start` holding exactly `rows` rows; null when none does, 'open' when the pages run out first. */
  private chunkOf(start: number, l: number, rows: number): Chunk | null | 'open' {
    const c = this.chunk(start);
    while (c.rows < rows) {
      const s = this.step(c, l);
      if (s === 'end') return 'open';
      if (s === 'foreign') return null;
    }
    return c.rows === rows ? c : null;
  }

  /** Adds the next data page (and a dictionary page leading the chunk) to `c` when it is one of leaf l's. */
  private step(c: Chunk, l: number): Step {
    let p = this.pages[c.end];
    if (!p) return 'end';
    if (p.header.type === 'DICTIONARY_PAGE') {
      // A dictionary page leads its chunk; it is checked with the data pages it serves.
      if (c.end !== c.first) return 'foreign';
      c.dict = c.end++;
      p = this.pages[c.end];
      if (!p) return 'end';
    }
    const rows = this.rows(l, c.dict, c.end);
    if (rows === null || rows === MID_ROW) return 'foreign';
    c.rows += rows;
    c.levels += dataHeader(p.header)!.numValues;
    c.data++;
    c.end++;
    return 'page';
  }

  /** Whether page p could be one more data page of chunk c (of leaf l), even one going on with its last row. */
  private continues(c: Chunk, l: number, p: number): boolean {
    return this.pages[p]!.header.type !== 'DICTIONARY_PAGE' && this.rows(l, c.dict, p) !== null;
  }

  /** Data page p's rows as leaf l's (with dictionary page d), decoded once: MID_ROW when it starts inside a row, null when it is not a page of that leaf. */
  private rows(l: number, d: number, p: number): number | null {
    const key = `${l}:${d}:${p}`;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    const rows = this.decode(l, d, p);
    this.cache.set(key, rows);
    return rows;
  }

  private decode(l: number, d: number, p: number): number | null {
    const leaf = this.leaves[l]!;
    const page = this.pages[p]!;
    const data = dataHeader(page.header);
    if (!data) return null;
    const n = data.numValues;
    const piece = { bytes: this.bytes.subarray(page.offset, page.next), base: page.offset };
    const dict = d >= 0 ? { bytes: this.bytes.subarray(this.pages[d]!.offset, this.pages[d]!.next), base: this.pages[d]!.offset } : null;
    try {
      const meta = { codec: this.codecOf(leaf), numValues: n } as ColumnMetaData;
      const c = decodeColumnChunk(piece.bytes, page.offset, meta, leaf, { verifyChecksums: true, pieces: dict ? [dict, piece] : [piece], numValues: n }, {});
      if (c.rep === null) return n > 0 ? n : null;
      if (c.length === 0) return null;
      // A page that goes on with a row cannot be placed without the page before it, nor can a chunk end before it.
      if (c.rep[0] !== 0) return MID_ROW;
      let rows = 0;
      for (let i = 0; i < c.length; i++) if (c.rep[i] === 0) rows++;
      if (page.header.dataPageHeaderV2 && page.header.dataPageHeaderV2.numRows !== rows) return null;
      return rows;
    } catch (e) {
      if (e instanceof ParquetryError) return null;
      throw e;
    }
  }

  private columnChunk(c: Chunk, leaf: LeafNode): ColumnChunk {
    const pages = this.pages.slice(c.first, c.end);
    const start = pages[0]!.offset;
    const firstData = pages[c.dict >= 0 ? 1 : 0]!.offset;
    const meta: ColumnMetaData = {
      type: leaf.physicalType as ColumnMetaData['type'],
      encodings: [],
      pathInSchema: leaf.path,
      codec: this.codecOf(leaf) as ColumnMetaData['codec'],
      numValues: c.levels,
      totalUncompressedSize: pages.reduce((s, p) => s + (p.next - p.offset) - p.header.compressedPageSize + p.header.uncompressedPageSize, 0),
      totalCompressedSize: pages[pages.length - 1]!.next - start,
      dataPageOffset: firstData,
    };
    if (c.dict >= 0) meta.dictionaryPageOffset = start;
    return { fileOffset: start, metaData: meta };
  }
}

function dataHeader(h: PageHeader): { numValues: number } | undefined {
  return h.dataPageHeader ?? h.dataPageHeaderV2;
}
