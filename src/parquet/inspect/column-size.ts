/**
 * Bytes per leaf column, summed over the row groups from the chunks'
 * metadata (total_compressed_size, total_uncompressed_size: pages with
 * their headers, as the writer recorded them), with each column's share of
 * the file's column bytes.
 */
import type { FileMetaData } from '../metadata/index.js';
import type { Schema } from '../../schema/tree.js';

/** A leaf column's bytes over all row groups, and its share of the file's column bytes. */
export interface ColumnSize {
  /** Leaf path, dotted. */
  column: string;
  compressed: number;
  uncompressed: number;
  /** compressed / all columns' compressed bytes (0 when the file has none). */
  compressedShare: number;
  uncompressedShare: number;
}

/** Each leaf column's bytes in file order. */
export function columnSizes(metadata: FileMetaData, schema: Schema): ColumnSize[] {
  const sizes = schema.leaves.map((leaf) => ({ column: leaf.path.join('.'), compressed: 0, uncompressed: 0, compressedShare: 0, uncompressedShare: 0 }));
  for (const rg of metadata.rowGroups) {
    rg.columns.forEach((chunk, i) => {
      sizes[i]!.compressed += chunk.metaData?.totalCompressedSize ?? 0;
      sizes[i]!.uncompressed += chunk.metaData?.totalUncompressedSize ?? 0;
    });
  }
  let compressed = 0;
  let uncompressed = 0;
  for (const s of sizes) {
    compressed += s.compressed;
    uncompressed += s.uncompressed;
  }
  for (const s of sizes) {
    s.compressedShare = compressed > 0 ? s.compressed / compressed : 0;
    s.uncompressedShare = uncompressed > 0 ? s.uncompressed / uncompressed : 0;
  }
  return sizes;
}
