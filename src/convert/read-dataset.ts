/**
 * A dataset (a directory or glob of Parquet files, `dataset/dataset.ts`) as a
 * conversion's input: its rows in batches through the Dataset, so partition
 * columns arrive as ordinary columns of the output (a partitioned output
 * makes directories of them again), and `columns` projects as it does a file.
 */
import type { Dataset } from '../dataset/dataset.js';
import type { ColumnPath } from '../schema/tree.js';
import { projectSchema } from '../schema/project.js';
import type { SchemaElementLike } from '../schema/tree.js';
import { parquetInput, type ParquetInput } from './read-parquet.js';

export interface DatasetInput extends ParquetInput {
  /** The output's schema: the dataset's (files' columns, then partition columns), projected. */
  elements: SchemaElementLike[];
  /** Top-level column names (a CSV header). */
  columns: string[];
}

export function datasetInput(dataset: Dataset, columns?: readonly ColumnPath[]): DatasetInput {
  const plan = dataset.plan(columns);
  return Object.assign(parquetInput(dataset, columns), {
    elements: projectSchema(dataset.schema, plan.leaves),
    columns: plan.fields.map((f) => f.name),
  });
}
