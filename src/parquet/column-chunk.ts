import { ByteCursor } from '../bytes/cursor.js';
import { getCodec, type CodecName } from '../codecs/registry.js';
import { crc32 } from '../checksum/crc32.js';
import { ChecksumError, CorruptFileError, ParquetryError, UnsupportedError, withContext, type ErrorContext } from '../errors.js';
import type { Values } from '../encodings/types.js';
import type { LeafNode } from '../schema/tree.js';
import { decodePageHeader, type ColumnMetaData, type PageHeader } from './metadata/index.js';
import { ChunkValues } from './chunk-values.js';
import { checkByteArrayChunk, DEFAULT_MAX_PAGE_BYTES, PageBounds } from './page-bounds.js';
import { decodeLevels, decodeLevelsV2, decodeValues } from './page-values.js';

/** One column chunk, decoded: levels for every entry, values for the non-null ones. */
export interface ColumnChunkData {
  /** Definition levels, or null when the leaf's max definition level is 0. */
  def: Uint8Array | Uint16Array | null;
  /** Repetition levels, or null when the leaf is not repeated. */
  rep: Uint8Array | Uint16Array | null;
  /** Number of level entries (values and nulls). */
  length: number;
  /** Number of non-null values. */
  valueCount: number;
  /** Dense non-null values; null when the chunk is dictionary-encoded throughout (then see `dictionary`). */
  values: Values | null;
  dictionary: Values | null;
  /** Per non-null value, its index into `dictionary`. */
  indices: Int32Array | null;
}

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
  maxPageBytes?: number;
}

/** Upper bound on one page's level count: far above any writer's page row limit, far below what breaks memory. */
const MAX_PAGE_VALUES = 1 << 28;

/** A level buffer that grows as pages arrive (page counts are checked before they are trusted). */
class Levels {
  buf: Uint8Array | Uint16Array;
  length = 0;
  constructor(private readonly wide: boolean, capacity: number) {
    this.buf = wide ? new Uint16Array(capacity) : new Uint8Array(capacity);
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

/**
 * Decoders inside a page see decompressed bytes, whose positions are not file
 * offsets: their errors are re-pointed at the page (the caller adds its offset).
 */
function relocateErrors(fn: () => void): void {
  try {
    fn();
  } catch (e) {
    if (e instanceof ParquetryError) delete e.context.offset;
    throw e;
  }
}

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
  const maxDef = leaf.defLevel;
  const maxRep = leaf.repLevel;
  const expected = opts.pieces ? opts.numValues ?? 0 : meta.numValues;
  const codecName = meta.codec as string;
  if (codecName === 'LZO') throw new UnsupportedError('LZO compression is not supported', ctx);
  const codec = codecName === 'UNCOMPRESSED' ? null : getCodec(codecName as CodecName);
  // Only inflating needs bounds: an uncompressed page's bytes are in the file.
  const bounds = codec ? new PageBounds(leaf, opts.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES) : null;
  if (codec && leaf.physicalType === 'BYTE_ARRAY') withContext({ ...ctx, offset: base }, () => checkByteArrayChunk(opts.pieces ?? [{ bytes, base }], expected));
  let cursor = new ByteCursor(bytes, 0, bytes.length, base);
  const initial = Math.min(Math.max(expected, 0), MAX_PAGE_VALUES);
  const def = maxDef > 0 ? new Levels(maxDef > 255, initial) : null;
  const rep = maxRep > 0 ? new Levels(maxRep > 255, initial) : null;
  const defCheck = def ? { max: maxDef, what: 'definition' } : null;
  const repCheck = rep ? { max: maxRep, what: 'repetition' } : null;
  let levelCount = 0;
  let definedCount = 0;
  let dictionary: Values | null = null;
  const values = new ChunkValues(leaf);
  let page = 0;

  const decompress = (data: Uint8Array, size: number): Uint8Array => {
    if (codec === null) {
      if (data.length !== size) throw new CorruptFileError(`uncompressed page holds ${data.length} bytes but its header says ${size}`);
      return data;
    }
    return codec.decompress(data, size);
  };

  // One pass per piece when decoding chosen pages (body left at its old indentation).
  for (const piece of opts.pieces ?? [null]) {
  if (piece) cursor = new ByteCursor(piece.bytes, 0, piece.bytes.length, piece.base);
  while (cursor.remaining > 0 && levelCount < expected) {
    const pageCtx = { ...ctx, page, offset: cursor.fileOffset };
    withContext(pageCtx, () => {
      const header: PageHeader = decodePageHeader(cursor);
      const size = header.compressedPageSize;
      const usize = header.uncompressedPageSize;
      if (!(size >= 0) || size > cursor.remaining) {
        throw new CorruptFileError(`page of ${size} bytes runs past the end of the column chunk (${cursor.remaining} bytes left)`);
      }
      if (!(usize >= 0)) throw new CorruptFileError(`page has negative uncompressed size ${usize}`);
      const body = cursor.bytes(size);
      relocateErrors(() => decodePage(header, body, usize));
    });
    page++;
  }
  }

  function decodePage(header: PageHeader, body: Uint8Array, usize: number): void {
    if (opts.verifyChecksums && header.crc !== undefined && (crc32(body) | 0) !== (header.crc | 0)) {
      throw new ChecksumError(`page CRC-32 mismatch: stored ${(header.crc >>> 0).toString(16)}, computed ${crc32(body).toString(16)}`);
    }
    switch (header.type) {
      case 'DICTIONARY_PAGE': {
        const h = header.dictionaryPageHeader;
        if (!h) throw new CorruptFileError('dictionary page without a dictionary page header');
        if (dictionary !== null) throw new CorruptFileError('column chunk has a second dictionary page');
        if (h.encoding !== 'PLAIN' && h.encoding !== 'PLAIN_DICTIONARY') throw new UnsupportedError(`dictionary page encoding ${h.encoding}`);
        bounds?.checkDictionaryPage(h.numValues, usize);
        const data = decompress(body, usize);
        dictionary = decodeValues('PLAIN', leaf, data, 0, data.length, h.numValues);
        break;
      }
      case 'DATA_PAGE': {
        const h = header.dataPageHeader;
        if (!h) throw new CorruptFileError('data page without a data page header');
        const n = h.numValues;
        if (!(n >= 0) || n > MAX_PAGE_VALUES) throw new CorruptFileError(`data page claims ${n} values`);
        bounds?.checkDataPage(n, usize);
        const data = decompress(body, usize);
        const c = new ByteCursor(data);
        if (rep) decodeLevels(h.repetitionLevelEncoding, c, repCheck!, n, rep.claim(n));
        const present = def ? decodeLevels(h.definitionLevelEncoding, c, defCheck!, n, def.claim(n)) : n;
        const pos = c.pos;
        readValues(h.encoding, data, pos, data.length, present, data.buffer !== body.buffer);
        levelCount += n;
        definedCount += present;
        break;
      }
      case 'DATA_PAGE_V2': {
        const h = header.dataPageHeaderV2;
        if (!h) throw new CorruptFileError('data page v2 without its header');
        const n = h.numValues;
        if (!(n >= 0) || n > MAX_PAGE_VALUES) throw new CorruptFileError(`data page claims ${n} values`);
        bounds?.checkDataPage(n, usize);
        const rl = h.repetitionLevelsByteLength;
        const dl = h.definitionLevelsByteLength;
        if (!(rl >= 0 && dl >= 0) || rl + dl > body.length) {
          throw new CorruptFileError(`level sections (${rl} + ${dl} bytes) exceed the ${body.length}-byte page`);
        }
        if (rep) decodeLevelsV2(body, 0, rl, repCheck!, n, rep.claim(n));
        const present = def ? decodeLevelsV2(body, rl, rl + dl, defCheck!, n, def.claim(n)) : n;
        if (h.numNulls !== undefined && h.numNulls !== n - present) {
          throw new CorruptFileError(`data page v2 says ${h.numNulls} nulls but its levels hold ${n - present}`);
        }
        const section = body.subarray(rl + dl);
        const valuesSize = usize - rl - dl;
        // Some writers store an empty values section for all-null pages, even with a codec.
        const data = h.isCompressed === false || section.length === 0 ? section : decompress(section, valuesSize);
        readValues(h.encoding, data, 0, data.length, present, data.buffer !== body.buffer);
        levelCount += n;
        definedCount += present;
        break;
      }
      default:
        break; // index pages and page types from the future carry nothing we need
    }
  }

  function readValues(encoding: string, data: Uint8Array, pos: number, end: number, count: number, owned: boolean): void {
    values.add(encoding, data, pos, end, count, expected - levelCount, dictionary !== null, owned);
  }

  if (levelCount < expected) {
    throw new CorruptFileError(`column chunk holds ${levelCount} values but its metadata says ${expected}`, ctx);
  }
  if (!def && !rep && levelCount !== definedCount) throw new CorruptFileError('value count does not match level count', ctx);

  return withContext(ctx, () => {
    const out: ColumnChunkData = {
      def: def ? def.result() : null,
      rep: rep ? rep.result() : null,
      length: levelCount,
      valueCount: definedCount,
      values: null,
      dictionary: null,
      indices: null,
    };
    Object.assign(out, values.finish(dictionary));
    return out;
  });
}
