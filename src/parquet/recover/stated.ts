/**
 * What the file states about one column chunk's pages apart from their
 * bytes, held against each page as the salvage read decodes it
 * (chunk-salvage.ts) and against the chunk's totals once every page is
 * read: a page overwritten by a same-size neighbour keeps a valid CRC, and
 * only these claims can tell it (../claims/ says which count).
 */
import type { LeafNode } from '../../schema/tree.js';
import { contradictionText, type Contradiction, type LeafClaims } from '../claims/claims.js';
import { window, type Tally } from '../claims/tally.js';
import type { ColumnChunkData } from '../../shred/column-data.js';
import type { ColumnIndex, ColumnMetaData } from '../metadata/index.js';

export interface StatedClaims {
  /** Why page `i` (decoded as `data`) cannot be the page written there, or null. */
  page(i: number, data: ColumnChunkData): string | null;
  /** Why the chunk's pages, every one read, cannot be the chunk written, or null. */
  chunk(): string | null;
}

/**
 * The claims about a chunk of `pages` data pages; null when the file states
 * nothing to hold them to (no statistics, size statistics or page index
 * entries), so a chunk without claims costs no tally.
 */
export function statedClaims(leaf: LeafNode, claimsOf: () => LeafClaims, meta: ColumnMetaData, ci: ColumnIndex | null, unencoded: readonly number[] | undefined, pages: number): StatedClaims | null {
  if (!meta.statistics && !meta.sizeStatistics && !ci && !unencoded) return null;
  const claims = claimsOf();
  const trusted = claims.indexBoundsTrusted();
  const bounds = claims.chunkBounds(meta);
  const total: Tally = claims.tally();
  const first = (cs: Contradiction[]) => (cs[0] ? contradictionText(cs[0]) : null);
  return {
    page(i, data) {
      const w = window(data, leaf, claims.domain);
      const t = claims.tally();
      t.add(w, 0, data.length, 0, data.valueCount);
      total.absorb(t);
      const wrong = claims.page(i, t, pages, ci, unencoded, trusted);
      if (bounds) wrong.push(...claims.bounds('statistics', bounds, t, i, true));
      return first(wrong);
    },
    chunk: () => first(claims.chunk(meta, total)),
  };
}
