/**
 * A column chunk's dictionary page alone: its entries as stored (PLAIN
 * values), without reading the chunk's data pages when the dictionary page
 * lies before data_page_offset, as writers put it.
 */
import { ByteCursor } from '../bytes/cursor.js';
import { crc32 } from '../checksum/crc32.js';
import { getCodec, loadDecompressor, type CodecName } from '../codecs/registry.js';
import { ChecksumError, CorruptFileError, UnsupportedError, withContext, type ErrorContext } from '../errors.js';
import type { Values } from '../encodings/types.js';
import type { Source } from '../io/source.js';
import type { ByteRange } from '../io/coalesce.js';
import { decodePageHeader } from './metadata/index.js';
import type { ChunkOptions } from './column-chunk.js';
import type { ChunkLocation } from './chunk-locator.js';
import { DEFAULT_MAX_PAGE_BYTES, PageBounds } from './page-bounds.js';
import { decodeValues } from './page-values.js';

export type DictionaryPageOptions = Pick<ChunkOptions, 'verifyChecksums' | 'maxDecompressedBytes'>;

/**
 * The entries of the chunk's dictionary page, or null when its first page
 * is not one. `range` holds the page in `source` (`ChunkLocator.dictionaryBytes`).
 */
export async function readDictionaryPage(
  source: Source, range: ByteRange, { meta, leaf, ctx }: Pick<ChunkLocation, 'meta' | 'leaf' | 'ctx'>, opts: DictionaryPageOptions,
): Promise<Values | null> {
  const { end } = range;
  const codecName = meta.codec as string;
  if (codecName === 'LZO') throw new UnsupportedError('LZO compression is not supported', ctx);
  if (codecName !== 'UNCOMPRESSED') await loadDecompressor(codecName as CodecName);
  const bytes = await source.read(range.start, end - range.start);
  const cursor = new ByteCursor(bytes, 0, bytes.length, range.start);
  return withContext({ ...ctx, page: 0, offset: range.start }, () => {
    const header = decodePageHeader(cursor);
    if (header.type !== 'DICTIONARY_PAGE') return null;
    const h = header.dictionaryPageHeader;
    if (!h) throw new CorruptFileError('dictionary page without a dictionary page header');
    if (h.encoding !== 'PLAIN' && h.encoding !== 'PLAIN_DICTIONARY') throw new UnsupportedError(`dictionary page encoding ${h.encoding}`);
    const size = header.compressedPageSize;
    if (!(size >= 0) || size > cursor.remaining) throw new CorruptFileError(`page of ${size} bytes runs past the end of the column chunk (${cursor.remaining} bytes left)`);
    const body = cursor.bytes(size);
    if (opts.verifyChecksums && header.crc !== undefined && (crc32(body) | 0) !== (header.crc | 0)) {
      throw new ChecksumError(`page CRC-32 mismatch: stored ${(header.crc >>> 0).toString(16)}, computed ${crc32(body).toString(16)}`);
    }
    const usize = header.uncompressedPageSize;
    let data = body;
    if (codecName !== 'UNCOMPRESSED') {
      new PageBounds(leaf, opts.maxDecompressedBytes ?? DEFAULT_MAX_PAGE_BYTES).checkDictionaryPage(h.numValues, usize);
      data = getCodec(codecName as CodecName).decompress(body, usize);
    } else if (body.length !== usize) throw new CorruptFileError(`uncompressed page holds ${body.length} bytes but its header says ${usize}`);
    return decodeValues('PLAIN', leaf, data, 0, data.length, h.numValues);
  });
}
