/**
 * The encodings a data page can use, dispatched by name: one place that maps
 * a page header's encoding to the decoder in src/encodings. PLAIN, RLE
 * booleans and dictionary indices are here; the others are in
 * page-encodings.ts, loaded on first use (`loadPageEncodings`).
 */
import { ByteCursor } from '../bytes/cursor.js';
import { CorruptFileError, UnsupportedError } from '../errors.js';
import { BitPackedStream } from '../encodings/bit-packed.js';
import { decodePlain } from '../encodings/plain.js';
import { bitWidth, decodeRleBooleans, decodeRleHybrid, decodeRleHybridPrefixed, type LevelCheck } from '../encodings/rle.js';
import { valueCount, type Values } from '../encodings/types.js';
import { loadOnce } from '../load-once.js';
import type { LeafNode } from '../schema/tree.js';
import type { PageHeader } from './metadata/index.js';

/** The encodings page-encodings.ts decodes. */
export const OTHERS = new Set(['DELTA_BINARY_PACKED', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT', 'ALP']);
let others: typeof import('./page-encodings.js') | undefined;

/** Loads page-encodings.ts, once: its decoders are then used synchronously, as page decoding is. */
export const loadPageEncodings = loadOnce(async () => {
  others = await import('./page-encodings.js');
});

/**
 * Whether decoding pages in `encodings` (a chunk's list, or a page's one)
 * needs page-encodings.ts. A chunk that lists none (its metadata says what
 * it holds only there) is taken to need it.
 */
export function needsPageEncodings(encodings: readonly string[]): boolean {
  return !others && (encodings.length === 0 || encodings.some((e) => OTHERS.has(e)));
}

/** Whether decoding the page of `header` needs page-encodings.ts, not loaded yet. */
export function pageNeedsEncodings(header: PageHeader): boolean {
  const e = header.dataPageHeader?.encoding ?? header.dataPageHeaderV2?.encoding;
  return !others && e !== undefined && OTHERS.has(e);
}

/**
 * A page in an encoding of page-encodings.ts before they are loaded: its
 * chunk's metadata did not list it (reads load them for a chunk that does,
 * and page by page for a page that uses one). `withPageEncodings` loads them
 * and decodes again; anywhere else it is the CorruptFileError it says.
 */
class UnlistedEncoding extends CorruptFileError {}

export function otherEncodings(encoding: string): typeof import('./page-encodings.js') {
  if (!others) throw new UnlistedEncoding(`a data page in ${encoding}, an encoding its column chunk's metadata does not list`);
  return others;
}

/** Runs `decode` (of whole chunks, in memory), again once page-encodings.ts is loaded when a page turned out to need it. */
export async function withPageEncodings<T>(decode: () => T): Promise<T> {
  try {
    return decode();
  } catch (e) {
    if (!(e instanceof UnlistedEncoding)) throw e;
    await loadPageEncodings();
    return decode();
  }
}

/** Decodes `count` values of `leaf`'s type from data[pos..end) in the given encoding (`owned`: see decodePlain). */
export function decodeValues(encoding: string, leaf: LeafNode, data: Uint8Array, pos: number, end: number, count: number, owned = false): Values {
  const c = new ByteCursor(data, pos, end);
  const type = leaf.physicalType;
  let out: Values;
  if (encoding === 'PLAIN') {
    out = decodePlain(c, type, count, leaf.typeLength, owned);
  } else if (encoding === 'RLE') {
    if (type !== 'BOOLEAN') throw new UnsupportedError(`RLE encoding for ${type} values`);
    out = decodeRleBooleans(c, count);
  } else if (OTHERS.has(encoding)) {
    out = otherEncodings(encoding).decodeOther(encoding, leaf, c, count);
  } else {
    throw new UnsupportedError(`value encoding ${encoding}`);
  }
  if (valueCount(out) !== count) throw new CorruptFileError(`page decoded ${valueCount(out)} values where its levels define ${count}`);
  return out;
}

/**
 * Data page v1 levels at `c.pos`: RLE with a 4-byte length prefix, or the
 * deprecated BIT_PACKED; leaves `c.pos` after them. Every level is checked
 * against `check.max`; returns how many equal it.
 */
export function decodeLevels(encoding: string, c: ByteCursor, check: LevelCheck, count: number, out: Uint8Array | Uint16Array): number {
  const width = bitWidth(check.max);
  if (encoding === 'RLE') return decodeRleHybridPrefixed(c, width, count, out, 0, check);
  if (encoding !== 'BIT_PACKED') throw new UnsupportedError(`level encoding ${encoding}`);
  return new BitPackedStream(c, width, count).read(count, out, 0, check);
}

/** Data page v2 levels: RLE without a length prefix, in data[start..end). Checked and counted as decodeLevels does. */
export function decodeLevelsV2(data: Uint8Array, start: number, end: number, check: LevelCheck, count: number, out: Uint8Array | Uint16Array): number {
  return decodeRleHybrid(new ByteCursor(data, start, end), bitWidth(check.max), count, out, 0, check);
}
