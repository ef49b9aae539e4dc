/**
 * Which options make a conversion's output a dataset: read before anything
 * is written, so a job that writes one file loads none of the dataset
 * writer (write.ts).
 */
import type { DatasetWriteOptions } from './write.js';

/** The options that shape a dataset rather than its files: any of them makes a conversion's output a dataset. */
export type DatasetLayout = Pick<DatasetWriteOptions, 'partitionBy' | 'maxRowsPerFile' | 'maxBytesPerFile' | 'fileName' | 'maxOpenFiles'>;

const LAYOUT_KEYS = ['partitionBy', 'maxRowsPerFile', 'maxBytesPerFile', 'fileName', 'maxOpenFiles'] as const;

/** The dataset layout among `options`, or undefined when none is given. */
export function datasetLayout(options: DatasetLayout): DatasetLayout | undefined {
  const layout: DatasetLayout = {};
  for (const k of LAYOUT_KEYS) if (options[k] !== undefined) (layout as Record<string, unknown>)[k] = options[k];
  return Object.keys(layout).length ? layout : undefined;
}
