/**
 * `parquetry/dataset` in Node: the portable entry's, with `openDataset`
 * taking directories and globs, and datasets and summary files written to
 * directories.
 *
 * @module parquetry/dataset (Node)
 */
import { registerNodeCodecs } from '../codecs.js';

registerNodeCodecs();

export * from '../../entries/dataset.js';
// These take the place of the portable `openDataset`.
export { openDataset, nodeFileSystem, type NodeDatasetOptions } from '../dataset.js';
export { writeSummaryFiles, type SummaryOptions, type SummaryResult } from '../dataset-summary.js';
export { writeDataset, type WriteDatasetOptions, type WriteDatasetResult } from '../dataset-write.js';
