import { CorruptFileError, type ErrorContext } from '../errors.js';
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

/** A chunk's pages' bytes [start, end), from `chunkStart` and its stated size, checked to lie inside a file of `fileSize` bytes after its magic. */
export function chunkBytes(meta: ColumnMetaData, fileSize: number, ctx: ErrorContext): { start: number; end: number } {
  const start = chunkStart(meta);
  const len = meta.totalCompressedSize;
  if (!(start >= 4) || !(len >= 0) || start + len > fileSize) {
    throw new CorruptFileError(`column chunk bytes ${start}..${start + len} lie outside the ${fileSize}-byte file`, { ...ctx, offset: start });
  }
  return { start, end: start + len };
}
