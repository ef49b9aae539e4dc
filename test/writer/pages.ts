/**
 * The pages of a column chunk, read straight from the file's bytes: every
 * page header in order, so tests can see how the writer cut pages.
 */
import { readFileSync } from 'node:fs';
import { ByteCursor } from '../../src/bytes/cursor.js';
import { decodePageHeader, type ColumnMetaData, type PageHeader } from '../../src/parquet/metadata/index.js';

export interface PageInfo {
  offset: number;
  header: PageHeader;
}

/** The page headers of one column chunk (dictionary page included), walking from its first page to its total_compressed_size. */
export function chunkPages(file: Uint8Array, meta: ColumnMetaData): PageInfo[] {
  const start = meta.dictionaryPageOffset ?? meta.dataPageOffset;
  const end = start + meta.totalCompressedSize;
  const out: PageInfo[] = [];
  let pos = start;
  while (pos < end) {
    const c = new ByteCursor(file, pos, end);
    const header = decodePageHeader(c);
    out.push({ offset: pos, header });
    pos = c.pos + header.compressedPageSize;
  }
  if (pos !== end) throw new Error(`pages of ${meta.pathInSchema.join('.')} end at ${pos}, the chunk at ${end}`);
  return out;
}

export function fileBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(path));
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE, as parquet page checksums use it), written here so the check does not lean on the code under test. */
export function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * The layout of every column chunk, from the bytes: pages tile the chunk
 * exactly, a dictionary page comes first exactly when dictionary_page_offset
 * is set, data pages add up to num_values, encoding_stats count the pages,
 * and (when `checksums`) every page carries the CRC-32 of its bytes.
 * Returns the problems found.
 */
export function layoutProblems(file: Uint8Array, meta: { rowGroups: { columns: { metaData?: ColumnMetaData }[] }[] }, checksums: boolean): string[] {
  const problems: string[] = [];
  meta.rowGroups.forEach((g, gi) => {
    g.columns.forEach((c) => {
      const m = c.metaData!;
      const where = `row group ${gi}, column ${m.pathInSchema.join('.')}`;
      let pages: PageInfo[];
      try {
        pages = chunkPages(file, m);
      } catch (e) {
        problems.push(`${where}: ${(e as Error).message}`);
        return;
      }
      const dict = pages.filter((p) => p.header.type === 'DICTIONARY_PAGE');
      if ((m.dictionaryPageOffset !== undefined) !== (dict.length === 1 && pages[0]!.header.type === 'DICTIONARY_PAGE')) problems.push(`${where}: dictionary_page_offset ${m.dictionaryPageOffset} but pages ${pages.map((p) => p.header.type)}`);
      const firstData = pages.find((p) => p.header.type !== 'DICTIONARY_PAGE');
      if (firstData && firstData.offset !== m.dataPageOffset) problems.push(`${where}: data_page_offset ${m.dataPageOffset}, first data page at ${firstData.offset}`);
      const values = pages.reduce((n, p) => n + (p.header.dataPageHeader?.numValues ?? p.header.dataPageHeaderV2?.numValues ?? 0), 0);
      if (values !== m.numValues) problems.push(`${where}: pages hold ${values} values, num_values ${m.numValues}`);
      const counted = (m.encodingStats ?? []).reduce((n, s) => n + s.count, 0);
      if (counted !== pages.length) problems.push(`${where}: encoding_stats count ${counted} pages, the chunk has ${pages.length}`);
      if (checksums) {
        for (const p of pages) {
          const start = p.offset + (chunkHeaderLength(file, p));
          const body = file.subarray(start, start + p.header.compressedPageSize);
          if (p.header.crc === undefined) problems.push(`${where}: page at ${p.offset} has no crc`);
          else if ((p.header.crc >>> 0) !== crc32(body)) problems.push(`${where}: page at ${p.offset}: crc ${p.header.crc >>> 0}, its bytes have ${crc32(body)}`);
        }
      }
    });
  });
  return problems;
}

function chunkHeaderLength(file: Uint8Array, p: PageInfo): number {
  const c = new ByteCursor(file, p.offset, file.length);
  decodePageHeader(c);
  return c.pos - p.offset;
}
