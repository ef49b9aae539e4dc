import type { RecordBatch, Schema as ArrowSchema, Table } from 'apache-arrow';
import type { ColumnChunkData } from '../parquet/column-chunk.js';
import { withContext, type ErrorContext } from '../errors.js';
import type { RecordPlan } from '../shred/plan.js';
import { fieldData, rowSlots, Scratch, type LeafSource } from './from-levels.js';
import { loadArrow, type ArrowModule } from './load.js';
import { planField } from './types.js';

/** One row group's decoded leaves, as a format reader hands them over. */
export interface ChunkGroup {
  rowGroup: number;
  /** Rows the chunks hold. */
  numRows: number;
  /** One per plan leaf. */
  chunks: ColumnChunkData[];
  /** The rows to keep (ascending indexes into the chunks' rows), or null for all. */
  rows: Int32Array | null;
  ctx: ErrorContext;
  /** Called once the batch is built: the chunks' levels are not read again (the reader may reuse their buffers). */
  release?(): void;
}

export interface ArrowPlan {
  plan: RecordPlan;
  /** Per plan leaf: whether it becomes a Dictionary vector. */
  dictionary: boolean[];
}

/** The Arrow schema of a plan. */
export function arrowSchema(a: ArrowModule, p: ArrowPlan, metadata?: Map<string, string>): ArrowSchema {
  return new a.Schema(p.plan.fields.map((f) => planField(a, f.name, f.plan, p.plan.leaves, p.dictionary)), metadata);
}

/** Record batches, one per chunk group. */
export async function* arrowBatches(p: ArrowPlan, groups: AsyncIterable<ChunkGroup>, metadata?: Map<string, string>): AsyncGenerator<RecordBatch> {
  const a = await loadArrow();
  const schema = arrowSchema(a, p, metadata);
  const scratch = new Scratch();
  for await (const g of groups) {
    const batch = withContext(g.ctx, () => batchOf(a, schema, p, g, g.rows, scratch));
    g.release?.();
    yield batch;
  }
}

function batchOf(a: ArrowModule, schema: ArrowSchema, p: ArrowPlan, g: ChunkGroup, rows: Int32Array | null, scratch: Scratch): RecordBatch {
  const sources: LeafSource[] = p.plan.leaves.map((leaf, i) => ({ leaf, chunk: g.chunks[i]!, dictionary: p.dictionary[i]! }));
  const all = (): Int32Array => scratch.all(g.numRows);
  const slots = sources.map((s) => withContext({ column: s.leaf.path.join('.') }, () => rowSlots(s.chunk, g.numRows, rows, all)));
  const length = rows ? rows.length : g.numRows;
  const children = p.plan.fields.map((f, i) => withContext({ column: f.name }, () => fieldData(a, schema.fields[i]!, f.plan, sources, slots, scratch)));
  const data = a.makeData({ type: new a.Struct(schema.fields), length, nullCount: 0, children });
  return new a.RecordBatch(schema, data);
}

/** All batches in one Table (an empty one, with the schema, when no row is selected). */
export async function arrowTable(p: ArrowPlan, groups: AsyncIterable<ChunkGroup>, metadata?: Map<string, string>): Promise<Table> {
  const a = await loadArrow();
  const batches: RecordBatch[] = [];
  for await (const b of arrowBatches(p, groups, metadata)) batches.push(b);
  return batches.length ? new a.Table(batches) : new a.Table(arrowSchema(a, p, metadata));
}
