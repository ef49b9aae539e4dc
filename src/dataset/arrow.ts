/**
 * A dataset's rows as Arrow (docs/datasets.md, "Datasets: reading"): each file's Arrow
 * batch (from `ParquetReader.arrowBatches`) made the dataset's, with the
 * partition columns, the columns a file lacks and integer casts filled in,
 * so every batch of a dataset has one schema.
 */
import type { Data, DataType, RecordBatch, Schema as ArrowSchema } from '../arrow/peer.js';
import { arrowSchema } from '../arrow/batches.js';
import type { ArrowModule } from '../arrow/load.js';
import type { RecordPlan } from '../shred/plan.js';
import type { PartitionColumn, PartitionValue } from './hive.js';

/** Where one field of the dataset's rows comes from in one file. */
export type FieldSource =
  | { name: string; partition: number }
  | { name: string; missing: true }
  /** The file's column, each value cast to the dataset's integer width when `cast` is set. */
  | { name: string; cast?: (v: unknown) => unknown };

/**
 * The Arrow schema of a dataset projection. A VARCHAR partition column is
 * `Dictionary<Int32, Utf8>` (as pyarrow's datasets give partition strings):
 * one value per file, so a batch holds it once, not once per row.
 */
export function datasetArrowSchema(a: ArrowModule, plan: RecordPlan, partitions: readonly PartitionColumn[]): ArrowSchema {
  const strings = new Set(partitions.filter((c) => c.type === 'VARCHAR').map((c) => c.name));
  return arrowSchema(a, { plan, dictionary: plan.leaves.map((l) => l.path.length === 1 && strings.has(l.path[0]!)) });
}

/** One batch of the dataset's schema from a file's batch (undefined when only constant columns are read). */
export function datasetBatch(a: ArrowModule, schema: ArrowSchema, sources: readonly FieldSource[], partitions: readonly PartitionValue[], length: number, file: RecordBatch | undefined): RecordBatch {
  const children = sources.map((s, i) => {
    const type = schema.fields[i]!.type as DataType;
    if ('partition' in s) return constantData(a, type, partitions[s.partition]!, length);
    if ('missing' in s) return a.vectorFromArray(new Array(length).fill(null), type).data[0]!;
    const k = file!.schema.fields.findIndex((f) => f.name === s.name);
    const data = file!.data.children[k]!;
    if (!s.cast) return data;
    // Another width than the dataset's (rare: files that disagree): value by value, each checked.
    const values = [...a.makeVector(data)].map((v) => s.cast!(v));
    return a.vectorFromArray(values, type).data[0]!;
  });
  const data = a.makeData({ type: new a.Struct(schema.fields), length, nullCount: 0, children: children as Data[] });
  return new a.RecordBatch(schema, data);
}

/** A partition value repeated `length` times, as its column's Arrow type stores it. */
function constantData(a: ArrowModule, type: DataType, value: PartitionValue, length: number): Data {
  if (value === null) return a.makeData({ type, length, nullCount: length, nullBitmap: new Uint8Array(Math.ceil(length / 8)), ...(a.DataType.isDictionary(type) ? { data: new Int32Array(length), dictionary: a.vectorFromArray([] as string[], new a.Utf8()) } : { data: new (type.ArrayType as Int32ArrayConstructor)(length) }) } as never);
  if (a.DataType.isDictionary(type)) return a.makeData({ type, length, nullCount: 0, data: new Int32Array(length), dictionary: a.vectorFromArray([value as string], new a.Utf8()) });
  const values = new (type.ArrayType as { new (n: number): { fill(v: unknown): unknown } })(length);
  values.fill(value);
  return a.makeData({ type, length, nullCount: 0, data: values } as never);
}
