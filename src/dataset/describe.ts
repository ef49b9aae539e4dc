/** What `parquetry meta DIR` shows of a dataset: files, row groups, rows, bytes, partitions. */
import type { Dataset } from './dataset.js';
import { partitionPairs, partitionText, type PartitionType } from './hive.js';

/** What `describeDataset` gives. */
export interface DatasetDescription {
  files: number;
  numRows: number;
  rowGroups: number;
  compressedBytes: number;
  uncompressedBytes: number;
  /** The `_metadata` planning read, if any. */
  metadataFile?: string;
  partitions: { name: string; type: PartitionType; distinct: number; nulls: number; values: string[] }[];
  skipped: { path: string; reason: string }[];
  perFile: { path: string; numRows: number; rowGroups: number; compressedBytes: number }[];
}

/** Partition values listed per column at most. */
const MAX_VALUES = 20;

/**
 * A dataset's numbers: files, rows, row groups, bytes and partition values (what `parquetry meta
 * DIR` prints).
 */
export async function describeDataset(ds: Dataset): Promise<DatasetDescription> {
  const stats = await ds.fileStats();
  const partitions = ds.partitionColumns.map(({ name, type }) => {
    // Distinct by value, shown as the path writes it: a DATE as 2024-01-02, not its days.
    const seen = new Map<string, string>();
    let nulls = 0;
    for (const f of ds.files) {
      const v = f.partitions[name];
      if (v === null || v === undefined) nulls++;
      else if (!seen.has(String(v))) seen.set(String(v), partitionText(new Map(partitionPairs(f.path)).get(name)!)!);
    }
    return { name, type, distinct: seen.size, nulls, values: [...seen.values()].slice(0, MAX_VALUES) };
  });
  const sum = (k: 'numRows' | 'rowGroups' | 'compressedBytes' | 'uncompressedBytes') => stats.reduce((n, f) => n + f[k], 0);
  return {
    files: stats.length,
    numRows: sum('numRows'),
    rowGroups: sum('rowGroups'),
    compressedBytes: sum('compressedBytes'),
    uncompressedBytes: sum('uncompressedBytes'),
    ...(ds.metadataFile ? { metadataFile: ds.metadataFile } : {}),
    partitions,
    skipped: ds.skipped,
    perFile: stats.map(({ path, numRows, rowGroups, compressedBytes }) => ({ path, numRows, rowGroups, compressedBytes })),
  };
}
