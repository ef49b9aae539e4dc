/**
 * Rewrites an uncompressed file of v1 data pages so that every page's
 * levels are BIT_PACKED (the deprecated level encoding no writer of ours
 * makes): same values, same rows, a new footer. Pages lose their CRCs; the
 * file must have no page index or bloom filters, whose offsets would move.
 */
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { encodeBitPacked } from '../../src/encodings/bit-packed.js';
import { bitWidth, decodeRleHybridPrefixed } from '../../src/encodings/rle.js';
import { decodeFileMetaDataAt, decodePageHeader } from '../../src/parquet/metadata/codec.js';
import { encodeFileMetaData, encodePageHeader } from '../../src/parquet/metadata/encode.js';
import { openParquet } from '../../src/node/index.js';

export async function withBitPackedLevels(file: Uint8Array): Promise<Uint8Array> {
  const { schema } = await openParquet(file);
  const footerLength = new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);
  const meta = decodeFileMetaDataAt(new ByteCursor(file, file.length - 8 - footerLength, file.length - 8));
  const out = new ByteWriter();
  out.bytes(file.subarray(0, 4));
  for (const rg of meta.rowGroups) {
    rg.fileOffset = out.length;
    rg.totalCompressedSize = 0;
    rg.columns.forEach((chunk, j) => {
      const m = chunk.metaData!;
      const leaf = schema.leaves[j]!;
      const start = m.dictionaryPageOffset ?? m.dataPageOffset;
      const c = new ByteCursor(file, start, start + m.totalCompressedSize);
      const at = out.length;
      chunk.fileOffset = at;
      let first = true;
      while (c.pos < c.end) {
        const h = decodePageHeader(c);
        let body = file.subarray(c.pos, c.pos + h.compressedPageSize);
        c.pos += h.compressedPageSize;
        if (h.type === 'DICTIONARY_PAGE') m.dictionaryPageOffset = out.length;
        else if (first) {
          m.dataPageOffset = out.length;
          first = false;
        }
        const d = h.dataPageHeader;
        if (d) {
          const levels = new ByteCursor(body);
          const w = new ByteWriter();
          for (const [max, field] of [[leaf.repLevel, 'repetitionLevelEncoding'], [leaf.defLevel, 'definitionLevelEncoding']] as const) {
            if (max === 0) continue;
            const values = new Uint16Array(d.numValues);
            decodeRleHybridPrefixed(levels, bitWidth(max), d.numValues, values);
            encodeBitPacked(w, values, bitWidth(max));
            d[field] = 'BIT_PACKED';
            if (!m.encodings.includes('BIT_PACKED')) m.encodings.push('BIT_PACKED');
          }
          w.bytes(body.subarray(levels.pos));
          body = w.finish().slice();
          h.uncompressedPageSize = h.compressedPageSize = body.length;
        }
        delete h.crc;
        encodePageHeader(h, out);
        out.bytes(body);
      }
      m.totalCompressedSize = m.totalUncompressedSize = out.length - at;
      rg.totalCompressedSize! += m.totalCompressedSize;
    });
  }
  const footer = new ByteWriter();
  encodeFileMetaData(meta, footer);
  const f = footer.finish();
  out.bytes(f);
  out.u32le(f.length);
  out.bytes(Uint8Array.from([0x50, 0x41, 0x52, 0x31]));
  return out.finish().slice();
}
