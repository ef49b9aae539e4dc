import { ByteCursor } from '../bytes/cursor.js';
import type { Codec } from '../codecs/codec.js';
import { getCodec, type CodecName } from '../codecs/registry.js';
import { crc32 } from '../checksum/crc32.js';
import { ChecksumError, CorruptFileError, ParquetryError, UnsupportedError, withContext, type ErrorContext } from '../errors.js';
import type { LevelCheck } from '../encodings/rle.js';
import type { Values } from '../encodings/types.js';
import type { LeafNode } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import { decodePageHeader, type ColumnMetaData, type PageHeader } from './metadata/index.js';
import { ChunkValues } from './chunk-values.js';
import { checkByteArrayChunk, DEFAULT_MAX_PAGE_BYTES, PageBounds } from './page-bounds.js';
import { decodeLevels, decodeLevelsV2, decodeValues } from './page-values.js';

export interface ChunkOptions {
  /** Verify page CRC-32 checksums when a page has one (default true). */
  verifyChecksums: boolean;
  /**
   * Decode only these pieces of the chunk instead of `bytes` (page pruning):
   * runs of whole pages in file order, the dictionary page first if there is
   * one; `base` is the file offset of each piece's first byte.
   */
  pieces?: readonly { bytes: Uint8Array; base: number }[];
  /** With `pieces`: the level count of their data pages (in place of the chunk's num_values). */
  numValues?: number;
  /** Largest decompressed size a page may declare (default DEFAULT_MAX_PAGE_BYTES). */
  maxDecompressedBytes?: number;
  /** Where the first level buffers come from, for a consumer that hands them back (see LevelBuffers). */
  levels?: LevelBuffers;
}

/** Upper bound on one page's level count: far above any writer's page row limit, far below what breaks memory. */
const MAX_PAGE_VALUES = 1 << 28;

/**
 * Byte-wide level buffers a consumer hands back once it is done with a
 * chunk's levels (the Arrow path, once a batch is built: nothing built views
 * levels), handed out again to the next chunks' decoding instead of new
 * ones. Only buffers handed out here are taken back. Decoders write every
 * level they claim, so a buffer's old contents never show.
 */
export class LevelBuffers {
  private readonly free: Uint8Array[] = [];
  private readonly ours = new WeakSet<ArrayBufferLike>();

  take(n: number): Uint8Array {
    const i = this.free.findIndex((b) => b.length >= n);
    if (i >= 0) return this.free.splice(i, 1)[0]!;
    const buf = new Uint8Array(n);
    this.ours.add(buf.buffer);
    return buf;
  }

  give(levels: Uint8Array | Uint16Array | null): void {
    if (levels instanceof Uint8Array && this.ours.has(levels.buffer)) this.free.push(new Uint8Array(levels.buffer));
  }
}

/** A level buffer that grows as pages arrive (page counts are checked before they are trusted). */
export class Levels {
  buf: Uint8Array | Uint16Array;
  length = 0;
  constructor(private readonly wide: boolean, capacity: number, pool?: LevelBuffers) {
    this.buf = wide ? new Uint16Array(capacity) : pool ? pool.take(capacity) : new Uint8Array(capacity);
  }
  /** A view of room for `n` more levels, to decode into. */
  claim(n: number): Uint8Array | Uint16Array {
    if (this.length + n > this.buf.length) {
      const next = this.wide ? new Uint16Array(Math.max(this.length + n, this.buf.length * 2)) : new Uint8Array(Math.max(this.length + n, this.buf.length * 2));
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
    }
    const view = this.buf.subarray(this.length, this.length + n);
    this.length += n;
    return view;
  }
  fill(n: number, v: number): void {
    this.claim(n).fill(v);
  }
  result(): Uint8Array | Uint16Array {
    return this.buf.subarray(0, this.length);
  }
}

/*
 * Decoders inside a page see decompressed bytes, whose positions are not file
 * offsets: their errors are re-pointed at the page (onPage, below).
 */
/** A page as the walk finds it: header checked, body sliced; `ctx` locates it. */
export interface RawPage {
  header: PageHeader;
  body: Uint8Array;
  usize: number;
  ctx: ErrorContext;
}

/** What a walk keeps of a piece it has passed. */
const PASSED = { bytes: new Uint8Array(0), base: 0 };

/**
 * The pages of a column chunk in file order (or of the chosen pieces),
 * header by header: sizes checked against the bytes there. The walk ends at
 * the bytes' end or once the data pages taken hold `expected` levels (the
 * caller adds each page's count to `levels`), so bytes past the chunk's
 * value count (PARQUET-816 padding) are never decoded.
 */
export class PageWalk {
  levels = 0;
  page = 0;
  private cursor: ByteCursor;
  private readonly pieces: { bytes: Uint8Array; base: number }[];
  private piece = 0;

  constructor(bytes: Uint8Array, base: number, opts: ChunkOptions, readonly expected: number, private readonly ctx: ErrorContext) {
    this.pieces = opts.pieces ? [...opts.pieces] : [{ bytes, base }];
    const first = this.pieces[0];
    this.cursor = first ? new ByteCursor(first.bytes, 0, first.bytes.length, first.base) : new ByteCursor(new Uint8Array(0), 0, 0, base);
    if (!first) this.piece = -1;
  }

  /** More of the chunk's pages, whole, in file order after those given so far (a walk fed as pages are fetched: lazy-column.ts). */
  feed(bytes: Uint8Array, base: number): void {
    this.pieces.push({ bytes, base });
  }

  /**
   * Passes over a data page of `n` levels without its bytes (a page whose
   * rows a read skips): counted as `claim` counts, so the walk's totals
   * stay those of the chunk.
   */
  pass(n: number): void {
    this.claim(n);
    this.page++;
  }

  next(): RawPage | null {
    if (this.levels >= this.expected) return null;
    while (this.cursor.remaining <= 0) {
      const pieces = this.pieces;
      if (this.piece + 1 >= pieces.length) return null;
      // A walk fed page by page for a whole chunk would otherwise keep every page it has passed.
      if (this.piece >= 0) pieces[this.piece] = PASSED;
      const p = pieces[++this.piece]!;
      this.cursor = new ByteCursor(p.bytes, 0, p.bytes.length, p.base);
    }
    const cursor = this.cursor;
    const ctx = { ...this.ctx, page: this.page++, offset: cursor.fileOffset };
    return withContext(ctx, () => {
      const header: PageHeader = decodePageHeader(cursor);
      const size = header.compressedPageSize;
      const usize = header.uncompressedPageSize;
      if (!(size >= 0) || size > cursor.remaining) {
        throw new CorruptFileError(`page of ${size} bytes runs past the end of the column chunk (${cursor.remaining} bytes left)`);
      }
      if (!(usize >= 0)) throw new CorruptFileError(`page has negative uncompressed size ${usize}`);
      return { header, body: cursor.bytes(size), usize, ctx };
    });
  }

  /**
   * Counts a data page's `n` levels, refused before anything is decoded when
   * they exceed what the chunk has left: no buffer is sized by a count the
   * chunk's metadata does not back.
   */
  claim(n: number): void {
    if (n > this.expected - this.levels) {
      throw new CorruptFileError(`data page claims ${n} values but the column chunk has ${this.expected - this.levels} left of its ${this.expected}`);
    }
    this.levels += n;
  }

  /** The error when the pages end before the chunk's value count. */
  short(): CorruptFileError {
    return new CorruptFileError(`column chunk holds ${this.levels} values but its metadata says ${this.expected}`, this.ctx);
  }
}

/** Where a data page's levels and values go. `room` bounds the chunk's values still to come (sizes buffers). */
export interface PageSink {
  def: Levels | null;
  rep: Levels | null;
  values: ChunkValues;
  room: number;
}

/** The level and value sections of a data page, located and decompressed, not yet decoded. */
export interface DataPageParts {
  n: number;
  /** The page's levels: v1 sections at data[0..], or v2's raw sections in body. */
  v2: boolean;
  data: Uint8Array;
  /** v2: the level sections' sizes. */
  rl: number;
  dl: number;
  levelEncodings: { rep: string; def: string };
  encoding: string;
  /** v2: the nulls its header states. */
  numNulls: number | undefined;
  /** v2: the values section (decompressed); v1: null (values follow the levels in `data`). */
  section: Uint8Array | null;
  owned: boolean;
}

/**
 * Decodes a chunk's pages: CRC, decompression, the dictionary page, data
 * pages of both versions. Shared by the whole-chunk decode and the
 * streaming one (chunk-stream.ts).
 */
export class PageDecoder {
  dictionary: Values | null = null;
  readonly defCheck: LevelCheck | null;
  readonly repCheck: LevelCheck | null;
  private readonly codec: Codec | null;
  /** Only inflating needs bounds: an uncompressed page's bytes are in the file. */
  private readonly bounds: PageBounds | null;

  constructor(readonly leaf: LeafNode, codecName: string, private readonly opts: ChunkOptions, private readonly ctx: ErrorContext) {
    if (codecName === 'LZO') throw new UnsupportedError('LZO compression is not supported', ctx);
    this.codec = codecName === 'UNCOMPRESSED' ? null : getCodec(codecName as CodecName);
    this.bounds = this.codec ? new PageBounds(leaf, opts.maxDecompressedBytes ?? DEFAULT_MAX_PAGE_BYTES) : null;
    this.defCheck = leaf.defLevel > 0 ? { max: leaf.defLevel, what: 'definition' } : null;
    this.repCheck = leaf.repLevel > 0 ? { max: leaf.repLevel, what: 'repetition' } : null;
  }

  /** A compressed byte-array chunk whose pages of byte arrays declare more than one vector holds is refused from its headers (see checkByteArrayChunk). */
  checkChunk(bytes: Uint8Array, base: number, expected: number): void {
    if (this.codec && this.leaf.physicalType === 'BYTE_ARRAY') {
      withContext({ ...this.ctx, offset: base }, () => checkByteArrayChunk(this.opts.pieces ?? [{ bytes, base }], expected));
    }
  }

  private decompress(data: Uint8Array, size: number): Uint8Array {
    if (this.codec === null) {
      if (data.length !== size) throw new CorruptFileError(`uncompressed page holds ${data.length} bytes but its header says ${size}`);
      return data;
    }
    return this.codec.decompress(data, size);
  }

  /**
   * A page's checksum, and a dictionary page's entries (kept in
   * `dictionary`); for a data page, its parts, else null (index pages and
   * page types from the future carry nothing we need).
   */
  open(p: RawPage): DataPageParts | null {
    const { header, body } = p;
    if (this.opts.verifyChecksums && header.crc !== undefined && (crc32(body) | 0) !== (header.crc | 0)) {
      throw new ChecksumError(`page CRC-32 mismatch: stored ${(header.crc >>> 0).toString(16)}, computed ${crc32(body).toString(16)}`);
    }
    const c = this.check(p);
    if (!c) return null;
    const inflated = c.size < 0 ? c.input : this.decompress(c.input, c.size);
    if (header.type === 'DICTIONARY_PAGE') {
      this.dictionary = decodeValues('PLAIN', this.leaf, inflated, 0, inflated.length, header.dictionaryPageHeader!.numValues);
      return null;
    }
    if (header.type === 'DATA_PAGE') {
      const h = header.dataPageHeader!;
      return {
        n: c.n, v2: false, data: inflated, rl: 0, dl: 0, levelEncodings: { rep: h.repetitionLevelEncoding, def: h.definitionLevelEncoding },
        encoding: h.encoding, numNulls: undefined, section: null, owned: inflated.buffer !== body.buffer,
      };
    }
    const h = header.dataPageHeaderV2!;
    return {
      n: c.n, v2: true, data: body, rl: h.repetitionLevelsByteLength, dl: h.definitionLevelsByteLength, levelEncodings: { rep: 'RLE', def: 'RLE' },
      encoding: h.encoding, numNulls: h.numNulls, section: inflated, owned: inflated.buffer !== body.buffer,
    };
  }

  /**
   * A page's header checked against its sizes and bounds, before anything
   * is inflated: the bytes its values come from (`size` their inflated
   * length, -1 when a v2 page stores them as they are) and its level count; null
   * for pages that carry nothing we need.
   */
  check(p: RawPage): { input: Uint8Array; size: number; n: number } | null {
    const { header, body, usize } = p;
    switch (header.type) {
      case 'DICTIONARY_PAGE': {
        const h = header.dictionaryPageHeader;
        if (!h) throw new CorruptFileError('dictionary page without a dictionary page header');
        if (this.dictionary !== null) throw new CorruptFileError('column chunk has a second dictionary page');
        if (h.encoding !== 'PLAIN' && h.encoding !== 'PLAIN_DICTIONARY') throw new UnsupportedError(`dictionary page encoding ${h.encoding}`);
        this.bounds?.checkDictionaryPage(h.numValues, usize);
        return { input: body, size: usize, n: 0 };
      }
      case 'DATA_PAGE': {
        const h = header.dataPageHeader;
        if (!h) throw new CorruptFileError('data page without a data page header');
        const n = checkPageValues(h.numValues);
        this.bounds?.checkDataPage(n, usize);
        return { input: body, size: usize, n };
      }
      case 'DATA_PAGE_V2': {
        const h = header.dataPageHeaderV2;
        if (!h) throw new CorruptFileError('data page v2 without its header');
        const n = checkPageValues(h.numValues);
        this.bounds?.checkDataPage(n, usize);
        const rl = h.repetitionLevelsByteLength;
        const dl = h.definitionLevelsByteLength;
        if (!(rl >= 0 && dl >= 0) || rl + dl > body.length) {
          throw new CorruptFileError(`level sections (${rl} + ${dl} bytes) exceed the ${body.length}-byte page`);
        }
        const raw = body.subarray(rl + dl);
        // Some writers store an empty values section for all-null pages, even with a codec.
        return { input: raw, size: h.isCompressed === false || raw.length === 0 ? -1 : usize - rl - dl, n };
      }
      default:
        return null;
    }
  }

  /** Decodes a whole data page into `sink`; returns how many of its levels hold values. */
  decode(d: DataPageParts, sink: PageSink): number {
    const { n } = d;
    let present: number;
    if (d.v2) {
      if (sink.rep) decodeLevelsV2(d.data, 0, d.rl, this.repCheck!, n, sink.rep.claim(n));
      present = sink.def ? decodeLevelsV2(d.data, d.rl, d.rl + d.dl, this.defCheck!, n, sink.def.claim(n)) : n;
      checkNulls(d, n - present);
      sink.values.add(d.encoding, d.section!, 0, d.section!.length, present, sink.room, this.dictionary !== null, d.owned);
    } else {
      const c = new ByteCursor(d.data);
      if (sink.rep) decodeLevels(d.levelEncodings.rep, c, this.repCheck!, n, sink.rep.claim(n));
      present = sink.def ? decodeLevels(d.levelEncodings.def, c, this.defCheck!, n, sink.def.claim(n)) : n;
      sink.values.add(d.encoding, d.data, c.pos, d.data.length, present, sink.room, this.dictionary !== null, d.owned);
    }
    return present;
  }
}

function checkPageValues(n: number): number {
  if (!(n >= 0) || n > MAX_PAGE_VALUES) throw new CorruptFileError(`data page claims ${n} values`);
  return n;
}

/** A v2 page's stated null count against its levels. */
export function checkNulls(d: DataPageParts, nulls: number): void {
  if (d.numNulls !== undefined && d.numNulls !== nulls) {
    throw new CorruptFileError(`data page v2 says ${d.numNulls} nulls but its levels hold ${nulls}`);
  }
}

/** Runs `fn` on a page: errors located at the page (see relocateErrors). */
export function onPage<T>(p: RawPage, fn: () => T): T {
  return withContext(p.ctx, () => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof ParquetryError) delete e.context.offset;
      throw e;
    }
  });
}

/** A first level buffer never larger than this, whatever the metadata claims: it grows as pages really arrive. */
const MAX_INITIAL_LEVELS = 1 << 20;

/**
 * Decodes every page of a column chunk. `bytes` holds the chunk (from its
 * first page header); `base` is the file offset of `bytes[0]`.
 */
export function decodeColumnChunk(
  bytes: Uint8Array,
  base: number,
  meta: ColumnMetaData,
  leaf: LeafNode,
  opts: ChunkOptions,
  ctx: ErrorContext,
): ColumnChunkData {
  const expected = opts.pieces ? opts.numValues ?? 0 : meta.numValues;
  const dec = new PageDecoder(leaf, meta.codec as string, opts, ctx);
  dec.checkChunk(bytes, base, expected);
  const walk = new PageWalk(bytes, base, opts, expected, ctx);
  const initial = Math.min(Math.max(expected, 0), MAX_INITIAL_LEVELS);
  const sink: PageSink = {
    def: dec.defCheck ? new Levels(leaf.defLevel > 255, initial, opts.levels) : null,
    rep: dec.repCheck ? new Levels(leaf.repLevel > 255, initial, opts.levels) : null,
    values: new ChunkValues(leaf),
    room: 0,
  };
  let definedCount = 0;
  for (let p = walk.next(); p !== null; p = walk.next()) {
    const page = p;
    onPage(page, () => {
      const d = dec.open(page);
      if (!d) return;
      sink.room = expected - walk.levels;
      walk.claim(d.n);
      definedCount += dec.decode(d, sink);
    });
  }
  if (walk.levels < expected) throw walk.short();
  if (!sink.def && !sink.rep && walk.levels !== definedCount) throw new CorruptFileError('value count does not match level count', ctx);
  return withContext(ctx, () => ({
    def: sink.def ? sink.def.result() : null,
    rep: sink.rep ? sink.rep.result() : null,
    length: walk.levels,
    valueCount: definedCount,
    ...sink.values.finish(dec.dictionary),
  }));
}
