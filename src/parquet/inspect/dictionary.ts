/**
 * The dictionaries of one column: per row group, the entries of the chunk's
 * dictionary page, in dictionary order, as the reader's values (lossless
 * defaults unless `options` say otherwise).
 */
import { valueReader, type ValueOptions } from '../../schema/convert.js';
import type { ParquetFile } from '../file.js';
import type { ColumnPath } from '../../schema/tree.js';
import { InvalidArgumentError } from '../../errors.js';

/** A column chunk's dictionary entries, as `columnDictionaries` gives them. */
export interface ChunkDictionary {
  rowGroup: number;
  column: string;
  /** The chunk has a dictionary page. */
  dictionary: boolean;
  /** Its entries (none without one). */
  values: unknown[];
}

/** The dictionary of `column` (one leaf) in each of `rowGroups` (default all). */
export async function columnDictionaries(file: ParquetFile, column: ColumnPath, rowGroups?: readonly number[], options: ValueOptions = {}): Promise<ChunkDictionary[]> {
  const leaves = file.selectLeaves([column]);
  if (leaves.length !== 1 || leaves[0]!.path.join('.') !== (typeof column === 'string' ? column : column.join('.'))) {
    throw new InvalidArgumentError(`"${typeof column === 'string' ? column : column.join('.')}" is a group: name one of its leaf columns (${leaves.map((l) => l.path.join('.')).join(', ')})`);
  }
  const leaf = leaves[0]!;
  const out: ChunkDictionary[] = [];
  for (const rg of rowGroups ?? file.metadata.rowGroups.map((_, i) => i)) {
    const dict = await file.readDictionary(rg, leaf.path);
    const values: unknown[] = [];
    if (dict) {
      const at = valueReader(leaf.kind, dict, options);
      const n = 'offsets' in dict ? dict.offsets.length - 1 : dict.length;
      for (let i = 0; i < n; i++) values.push(at(i));
    }
    out.push({ rowGroup: rg, column: leaf.path.join('.'), dictionary: dict !== null, values });
  }
  return out;
}
