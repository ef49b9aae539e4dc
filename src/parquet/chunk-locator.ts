/**
 * Where a column chunk's bytes lie, from the footer alone (no I/O): every
 * reader of chunk bytes (rows, columns, Arrow, filters, inspection,
 * salvage, encryption) locates chunks here, so each rule about them is
 * written once and every location is checked before a byte is fetched.
 */
import { CODEC_NAMES } from '../codecs/registry.js';
import { CorruptFileError, UnsupportedError, type ErrorContext } from '../errors.js';
import type { LeafNode } from '../schema/tree.js';
import type { FileDecryptor } from './crypto/decryptor.js';
import type { ColumnChunk, ColumnMetaData, FileMetaData, RowGroup } from './metadata/index.js';
import type { ByteRange } from '../io/coalesce.js';

/** A column chunk of a row group, as a selection of chunks names it. */
export interface ChunkRef {
  rowGroup: number;
  leaf: LeafNode;
  chunk: ColumnChunk;
  /** Dotted path of the leaf. */
  column: string;
}

/** A column chunk located by `ChunkLocator.locate`: its checked metadata and where its bytes lie. */
export interface ChunkLocation extends ChunkRef {
  meta: ColumnMetaData;
  /** File, row group and column, for errors about the chunk. */
  ctx: ErrorContext;
  /**
   * Where the file holding the chunk starts in the reader's bytes, when it is
   * another file (`file_path`, file-path.ts): its offset index's page
   * offsets count from there.
   */
  fileBase?: number;
  /** The chunk's bytes to fetch (dictionary page first, padding included): none in a row group of no rows. */
  start: number;
  end: number;
}

/**
 * A row group whose chunks are never read: one of no rows, whose chunks'
 * offsets writers leave at 0.
 */
export function readsNoChunks(rg: RowGroup): boolean {
  return rg.numRows === 0;
}

/**
 * The file offset of a column chunk's first page: its dictionary page when
 * one comes first, else its first data page. Writers that leave
 * dictionary_page_offset unset or 0 start at the data page offset (a page
 * walk from there finds a leading dictionary page).
 */
export function chunkStart(meta: ColumnMetaData): number {
  const dict = meta.dictionaryPageOffset;
  return dict !== undefined && dict > 0 && dict < meta.dataPageOffset ? dict : meta.dataPageOffset;
}

/**
 * A chunk's stated bytes [start, start + total_compressed_size), checked to
 * lie between the file's magic and `dataEnd` (where the footer's length and
 * magic begin).
 */
export function chunkBytes(meta: ColumnMetaData, dataEnd: number, ctx: ErrorContext): ByteRange {
  const start = chunkStart(meta);
  const len = meta.totalCompressedSize;
  if (!(Number.isSafeInteger(start) && start >= 4) || !(Number.isSafeInteger(len) && len >= 0) || start + len > dataEnd) {
    throw new CorruptFileError(`column chunk bytes ${start}..${start + len} lie outside the file's data (bytes 4..${dataEnd})`, { ...ctx, offset: start });
  }
  return { start, end: start + len };
}

/** The most a dictionary page header can take: what old parquet-mr left out of total_compressed_size. */
const DICTIONARY_HEADER_PADDING = 100;

/**
 * The bytes to read past a column chunk's total_compressed_size: parquet-mr
 * before 1.2.9 (and builds that do not say their version) left the
 * dictionary page header out of it (PARQUET-816), so their chunks are read
 * with that much extra; the page walk stops at the chunk's value count, so
 * the extra bytes are never decoded.
 */
export function chunkPadding(createdBy: string | undefined): number {
  if (!createdBy) return 0;
  const m = /^parquet-mr(?: version (\d+)\.(\d+)\.(\d+))?/.exec(createdBy);
  if (!m) return 0;
  if (m[1] === undefined) return DICTIONARY_HEADER_PADDING;
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const old = a < 1 || (a === 1 && (b < 2 || (b === 2 && c < 9)));
  return old ? DICTIONARY_HEADER_PADDING : 0;
}

/** How a locator sees the file: its name, keys, where `file_path` chunks lie, and where its data ends. */
export interface LocatorOptions {
  name?: string;
  /** An encrypted file's keys: a chunk without its key is refused with a MissingKeyError naming the column. */
  decryptor?: FileDecryptor;
  /** Where an offset lies when chunks of other files are joined to this one (file-path.ts). */
  locateFile?: (offset: number) => { filePath?: string; offset: number };
  /** Where chunk data must end: default the file's size less its last 8 bytes (footer length and magic); a file recovered without a footer has data up to its end. */
  dataEnd?: number;
}

/** Column chunks of one file located from its metadata. */
export class ChunkLocator {
  /** The file's chunkPadding, worked out once: a regular expression run per chunk read was recompiled after every collection. */
  readonly padding: number;
  readonly dataEnd: number;

  constructor(readonly metadata: FileMetaData, readonly fileSize: number, private readonly options: LocatorOptions = {}) {
    this.padding = chunkPadding(metadata.createdBy);
    this.dataEnd = options.dataEnd ?? fileSize - 8;
  }

  /** The chunk of `leaf` in row group `rg`, named. */
  ref(rg: number, leaf: LeafNode): ChunkRef {
    return { rowGroup: rg, leaf, chunk: this.metadata.rowGroups[rg]!.columns[leaf.columnIndex]!, column: leaf.path.join('.') };
  }

  /**
   * The chunk of `leaf` in row group `rg`, located: its metadata (an
   * encrypted chunk's key present), codec and bytes checked, or a typed
   * error naming row group, column and offset. A chunk of a row group of no
   * rows has no bytes to fetch (`readsNoChunks`).
   */
  locate(rg: number, leaf: LeafNode): ChunkLocation {
    const ref = this.ref(rg, leaf);
    const ctx = { file: this.options.name, rowGroup: rg, column: ref.column };
    const meta = this.meta(ref.chunk, ctx);
    if (readsNoChunks(this.metadata.rowGroups[rg]!)) {
      const start = chunkStart(meta);
      return { ...ref, meta, ctx, start, end: start };
    }
    const { start, end } = chunkBytes(meta, this.dataEnd, ctx);
    const loc: ChunkLocation = { ...ref, meta, ctx, start, end: Math.min(end + this.padding, this.dataEnd) };
    const at = this.options.locateFile?.(meta.dataPageOffset);
    if (at?.filePath !== undefined) loc.fileBase = meta.dataPageOffset - at.offset;
    return loc;
  }

  /** A chunk's metadata, refusing what has no readable pages. */
  meta(chunk: ColumnChunk, ctx: ErrorContext): ColumnMetaData {
    if (chunk.filePath !== undefined) throw new UnsupportedError(`column chunk stored in another file (${chunk.filePath})`, ctx);
    // Throws a MissingKeyError naming the column when its key was not given.
    this.options.decryptor?.encrypted(chunk, ctx);
    const meta = chunk.metaData;
    if (!meta) throw new CorruptFileError('column chunk has no metadata', ctx);
    // The Thrift decoder reads a codec number outside the enum as UNKNOWN_<n>: a codec from a later format version, or damage.
    if (!(CODEC_NAMES as readonly string[]).includes(meta.codec)) {
      throw new UnsupportedError(`column chunk uses compression codec ${meta.codec.replace(/^UNKNOWN_/, '')}, which this reader does not know`, { ...ctx, offset: meta.dataPageOffset });
    }
    return meta;
  }
}

/** The bytes that hold a located chunk's dictionary page, when it has one before its data pages; else the whole chunk (a walk finds a leading dictionary page). */
export function dictionaryBytes(loc: ChunkLocation): ByteRange {
  return { start: loc.start, end: loc.start < loc.meta.dataPageOffset ? Math.min(loc.meta.dataPageOffset, loc.end) : loc.end };
}
