import type { ColumnMetaData } from './metadata/index.js';

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
