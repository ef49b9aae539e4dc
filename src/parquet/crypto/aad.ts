/**
 * Module AADs (Encryption.md section 4.4): file AAD (prefix + the file's
 * unique part), then the module type and, except for the footer, the row
 * group and column ordinals, and for data pages and their headers the page
 * ordinal, each a little-endian 2-byte short.
 */
import { concatBytes } from '../../bytes/concat.js';
import { CorruptFileError, type ErrorContext } from '../../errors.js';

export const ModuleType = {
  FOOTER: 0,
  COLUMN_META_DATA: 1,
  DATA_PAGE: 2,
  DICTIONARY_PAGE: 3,
  DATA_PAGE_HEADER: 4,
  DICTIONARY_PAGE_HEADER: 5,
  COLUMN_INDEX: 6,
  OFFSET_INDEX: 7,
  BLOOM_FILTER_HEADER: 8,
  BLOOM_FILTER_BITSET: 9,
} as const;
export type ModuleType = (typeof ModuleType)[keyof typeof ModuleType];

/** Ordinals are stored as signed shorts: a file with more row groups, columns or pages cannot be encrypted. */
const MAX_ORDINAL = 0x7fff;

/** The AAD of one module; `page` only for data pages and data page headers. */
export function moduleAad(fileAad: Uint8Array, type: ModuleType, rowGroup = -1, column = -1, page = -1, ctx: ErrorContext = {}): Uint8Array {
  if (type === ModuleType.FOOTER) return concatBytes([fileAad, Uint8Array.of(type)]);
  const withPage = type === ModuleType.DATA_PAGE || type === ModuleType.DATA_PAGE_HEADER;
  const out = new Uint8Array(fileAad.length + (withPage ? 7 : 5));
  out.set(fileAad);
  const dv = new DataView(out.buffer);
  let at = fileAad.length;
  out[at++] = type;
  for (const [what, v] of [['row group', rowGroup], ['column', column], ...(withPage ? [['page', page]] : [])] as [string, number][]) {
    if (!(v >= 0 && v <= MAX_ORDINAL)) throw new CorruptFileError(`${what} ordinal ${v} does not fit the encryption AAD (at most ${MAX_ORDINAL})`, ctx);
    dv.setInt16(at, v, true);
    at += 2;
  }
  return out;
}
