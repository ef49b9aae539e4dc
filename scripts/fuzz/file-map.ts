/**
 * Where a file's interesting bytes lie, for mutations to aim at: a Parquet
 * file's footer, chunks and pages (from its footer and page headers), a
 * Trevni file's header and column starts.
 */
import { ByteCursor } from '../../src/bytes/cursor.js';
import { decodeFileMetaData, decodePageHeader } from '../../src/parquet/metadata/index.js';
import { parseHeader } from '../../src/trevni/metadata.js';
import type { FileMap, Span } from './mutate.js';

/** Chunks and pages of a Parquet file, from its footer and page headers; as much as decodes. */
export function parquetMap(b: Uint8Array): FileMap {
  const size = b.length;
  const footerLength = size >= 8 ? new DataView(b.buffer, b.byteOffset, size).getUint32(size - 8, true) : 0;
  const map: FileMap = { size, footerStart: Math.max(0, size - 8 - footerLength), footerEnd: Math.max(0, size - 8), chunkStarts: [], chunks: [], pages: [], chunkPages: [] };
  try {
    const meta = decodeFileMetaData(b.subarray(map.footerStart, map.footerEnd));
    for (const g of meta.rowGroups) {
      for (const c of g.columns) {
        const m = c.metaData;
        if (!m) continue;
        const start = Math.min(m.dataPageOffset, m.dictionaryPageOffset && m.dictionaryPageOffset > 0 ? m.dictionaryPageOffset : Infinity);
        const end = Math.min(start + m.totalCompressedSize, map.footerStart);
        map.chunkStarts.push(m.dataPageOffset);
        if (m.dictionaryPageOffset) map.chunkStarts.push(m.dictionaryPageOffset);
        map.chunks!.push({ start, end });
        const pages: Span[] = [];
        for (let at = start; at < end && map.pages!.length < 4096;) {
          const cur = new ByteCursor(b, at, end, 0);
          const h = decodePageHeader(cur);
          const pageEnd = cur.pos + h.compressedPageSize;
          if (h.compressedPageSize < 0 || pageEnd > end) break;
          pages.push({ start: at, end: pageEnd });
          at = pageEnd;
        }
        map.pages!.push(...pages);
        map.chunkPages!.push(pages);
      }
    }
  } catch {
    // A bad_data file may not decode: its footer and random places are still fair game.
  }
  return map;
}

/** A Trevni file's header plays the footer's part; its column starts are the chunk starts. */
export function trevniMap(b: Uint8Array): FileMap {
  try {
    const h = parseHeader(new ByteCursor(b, 0, b.length, 0), b.length);
    return { size: b.length, footerStart: 0, footerEnd: h.headerLength, chunkStarts: h.columns.map((c) => c.start) };
  } catch {
    return { size: b.length, footerStart: 0, footerEnd: Math.min(b.length, 64), chunkStarts: [] };
  }
}
