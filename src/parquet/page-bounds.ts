/**
 * How many bytes a page may declare decompressed, checked from its header
 * before anything is inflated. A codec stops at the declared size, so these
 * bounds are what keeps a small compressed page that inflates honestly to a
 * gigabyte (a decompression bomb with a true size claim) from being inflated.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { DEFAULT_MAX_INFLATED, MAX_BLOCK_SIZE } from '../codecs/codec.js';
import { CorruptFileError, LimitError } from '../errors.js';
import { fixedWidth } from '../encodings/plain.js';
import type { LeafNode } from '../schema/tree.js';
import { decodePageHeader, type PageHeader } from './metadata/index.js';

/** The default of the reader's `maxDecompressedBytes`. */
export const DEFAULT_MAX_PAGE_BYTES = DEFAULT_MAX_INFLATED;

/**
 * Most bytes one level takes in any level encoding: an RLE run of one (a
 * varint header of up to 5 bytes and a value of up to 2).
 */
const LEVEL_BYTES = 7;

/**
 * Most bytes beyond a fixed-width value's own that any encoding spends on
 * it: a dictionary index alone in an RLE run (5 + 4), a DELTA_BINARY_PACKED
 * delta (up to 8), DELTA_BYTE_ARRAY's two length deltas for a
 * FIXED_LEN_BYTE_ARRAY.
 */
const VALUE_OVERHEAD = 16;

/**
 * Bytes a page may hold beyond what its values need: level length prefixes,
 * encoding headers, and DELTA_BINARY_PACKED's padding of its last miniblock
 * (a miniblock's values times 64 bits, whatever few values it holds).
 */
const PAGE_SLACK = 2 ** 20;

/** The largest decompressed size each page of one leaf may declare. */
export class PageBounds {
  /** Most bytes a level entry and its value take; 0 for byte arrays, whose values have no bound. */
  private readonly entryBytes: number;
  private readonly width: number;

  constructor(private readonly leaf: LeafNode, private readonly maxDecompressedBytes: number) {
    // BOOLEAN has no width of its own: one byte covers PLAIN's bit and RLE's value byte. A
    // FIXED_LEN_BYTE_ARRAY's length is checked where its values are decoded, with their page.
    const type = leaf.physicalType;
    this.width = type === 'BOOLEAN' ? 1 : type === 'FIXED_LEN_BYTE_ARRAY' ? Math.max(leaf.typeLength ?? 0, 0) : fixedWidth(type);
    const levels = (leaf.defLevel > 0 ? LEVEL_BYTES : 0) + (leaf.repLevel > 0 ? LEVEL_BYTES : 0);
    this.entryBytes = this.width > 0 ? levels + this.width + VALUE_OVERHEAD : 0;
  }

  /** Throws unless a data page of `numValues` level entries can fill `size` decompressed bytes. */
  checkDataPage(numValues: number, size: number): void {
    this.check(size, this.entryBytes * numValues, numValues === 1 ? 'one value' : `${numValues} values`);
  }

  /** Throws unless a (PLAIN) dictionary page of `numValues` entries can fill `size` decompressed bytes. */
  checkDictionaryPage(numValues: number, size: number): void {
    this.check(size, this.width * numValues, `a dictionary of ${numValues} ${numValues === 1 ? 'entry' : 'entries'}`);
  }

  /** A claim its values cannot fill is corrupt; only a plausible one meets the caller's limit. */
  private check(size: number, valuesBound: number, what: string): void {
    if (this.width > 0 && size > valuesBound + PAGE_SLACK) {
      throw new CorruptFileError(`page declares ${size} bytes decompressed, more than ${what} of ${this.leaf.physicalType} can take`);
    }
    if (size > this.maxDecompressedBytes) {
      throw new LimitError(`page declares ${size} bytes decompressed, more than the reader's maxDecompressedBytes (${this.maxDecompressedBytes})`);
    }
  }
}

/** Pages whose values are byte arrays themselves, not indices into a dictionary. */
function holdsByteArrays(header: PageHeader): boolean {
  if (header.type === 'DICTIONARY_PAGE') return true;
  const encoding = header.dataPageHeader?.encoding ?? header.dataPageHeaderV2?.encoding;
  return encoding !== undefined && encoding !== 'PLAIN_DICTIONARY' && encoding !== 'RLE_DICTIONARY';
}

/**
 * Refuses a BYTE_ARRAY chunk whose pages of byte arrays (dictionary
 * included) declare more than one vector holds, from their headers alone:
 * the chunk would end in that LimitError anyway, after inflating gigabytes.
 * Walks the headers of `pieces` up to `numValues` levels, as the page walk
 * does; a header it cannot read ends the walk quietly, since the page walk
 * reports it with its place.
 */
export function checkByteArrayChunk(pieces: readonly { bytes: Uint8Array; base: number }[], numValues: number): void {
  let total = 0;
  let levels = 0;
  for (const { bytes, base } of pieces) {
    const cursor = new ByteCursor(bytes, 0, bytes.length, base);
    while (cursor.remaining > 0 && levels < numValues) {
      let header: PageHeader;
      try {
        header = decodePageHeader(cursor);
      } catch {
        return;
      }
      const size = header.compressedPageSize;
      if (!(size >= 0) || size > cursor.remaining) return;
      cursor.skip(size);
      levels += header.dataPageHeader?.numValues ?? header.dataPageHeaderV2?.numValues ?? 0;
      if (holdsByteArrays(header) && header.uncompressedPageSize > 0) total += header.uncompressedPageSize;
    }
  }
  if (total > MAX_BLOCK_SIZE) {
    throw new LimitError(`column chunk's pages of byte arrays declare ${total} bytes decompressed, more than the 2 GiB one vector can hold`);
  }
}
