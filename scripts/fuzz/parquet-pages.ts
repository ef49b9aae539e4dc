/**
 * Every page of a Parquet file located through its footer, each able to say
 * how many rows it holds decoded as any leaf's page: what tells a swap of
 * two pages that nothing in a file can detect (each decodes as the other's
 * column, with the same rows) from one recovery must notice. Shared by the
 * recovery sweep (test/recover) and the fuzz's recovery surface.
 */
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ParquetryError } from '../../src/errors.js';
import { loadCodec } from '../../src/codecs/registry.js';
import type { CodecName } from '../../src/codecs/codec.js';
import { ParquetFile } from '../../src/parquet/file.js';
import { decodeColumnChunk } from '../../src/parquet/column-chunk.js';
import { decodePageHeader, type ColumnMetaData } from '../../src/parquet/metadata/index.js';
import type { LeafNode } from '../../src/schema/tree.js';

export interface Page {
  start: number;
  end: number;
  rowGroup: number;
  column: number;
  dictionary: boolean;
  /** Whether the page's chunk has an offset index, which states each page's place, size and first row. */
  indexed: boolean;
  /** The page decoded alone as a page of `leaf`: its rows, or null when it does not decode so. */
  rowsAs: (leaf: number) => number | null;
}

/** Every page of every chunk, in file order. */
export async function pagesOf(bytes: Uint8Array): Promise<Page[]> {
  const { metadata, schema } = await ParquetFile.open(bytes);
  const pages: Page[] = [];
  const codec = (leaf: number) => metadata.rowGroups[0]!.columns[leaf]!.metaData!.codec;
  // Pages decode synchronously, through codecs loaded before.
  for (const g of metadata.rowGroups) for (const c of g.columns) await loadCodec(c.metaData!.codec as CodecName);
  // Each chunk's dictionary page: a page of indices decodes only after the dictionary of the column it is decoded as.
  const dictionaries = new Map<string, { bytes: Uint8Array; base: number }>();
  const rowsAs = (start: number, end: number, n: number, rowGroup: number) => (leaf: number): number | null => {
    try {
      const l: LeafNode = schema.leaves[leaf]!;
      const page = { bytes: bytes.subarray(start, end), base: start };
      const dictionary = dictionaries.get(`${rowGroup}:${leaf}`);
      const pieces = dictionary && dictionary.base !== start ? [dictionary, page] : [page];
      const d = decodeColumnChunk(page.bytes, start, { codec: codec(leaf), numValues: n } as ColumnMetaData, l, { verifyChecksums: true, pieces, numValues: n }, {});
      return d.rep ? d.rep.filter((r) => r === 0).length : d.length;
    } catch (e) {
      if (e instanceof ParquetryError) return null;
      throw e;
    }
  };
  metadata.rowGroups.forEach((g, rowGroup) => g.columns.forEach((c, column) => {
    const m = c.metaData!;
    const start = m.dictionaryPageOffset !== undefined && m.dictionaryPageOffset > 0 && m.dictionaryPageOffset < m.dataPageOffset ? m.dictionaryPageOffset : m.dataPageOffset;
    const cur = new ByteCursor(bytes, start, start + m.totalCompressedSize, 0);
    while (cur.remaining > 0) {
      const at = cur.pos;
      const h = decodePageHeader(cur);
      cur.skip(h.compressedPageSize);
      const dictionary = h.type === 'DICTIONARY_PAGE';
      if (dictionary) dictionaries.set(`${rowGroup}:${column}`, { bytes: bytes.subarray(at, cur.pos), base: at });
      pages.push({ start: at, end: cur.pos, rowGroup, column, dictionary, indexed: c.offsetIndexOffset !== undefined, rowsAs: rowsAs(at, cur.pos, (h.dataPageHeader ?? h.dataPageHeaderV2)?.numValues ?? 0, rowGroup) });
    }
  }));
  return pages.sort((a, b) => a.start - b.start);
}

/** Whether pages `a` and `b` each decode as the other's column with the same rows as their own: swapped, they make a file a writer could have written. */
export function interchangeable(a: Page, b: Page): boolean {
  const rows = a.rowsAs(a.column);
  return rows !== null && a.rowsAs(b.column) === rows && b.rowsAs(a.column) === rows && b.rowsAs(b.column) === rows;
}
