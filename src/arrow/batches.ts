import type { RecordBatch, Schema as ArrowSchema, Table } from './peer.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import { withContext, type ErrorContext } from '../errors.js';
import type { RecordPlan } from '../shred/plan.js';
import { fieldData, rowSlots, Scratch, type LeafSource } from './from-levels.js';
import { loadArrow, type ArrowModule } from './load.js';
import { ARROW_SCHEMA_KEY, castData, hintedField, storedLeafTypes, storedSchema } from './hint.js';
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
  /**
   * Whether the Arrow schema a writer stored in the metadata (`hint.ts`) is
   * applied over the Parquet types, and with it its Dictionary types.
   */
  stored?: { dictionary: boolean };
}

/** The Arrow schema of a plan, with the stored schema applied; `metadata` is the file's key-value metadata. */
export function arrowSchema(a: ArrowModule, p: ArrowPlan, metadata?: Map<string, string>): ArrowSchema {
  return schemas(a, p, metadata).schema;
}

/**
 * The schema built from the Parquet types, and the one given (the stored
 * schema applied), with the dictionary flags the build takes. An applied
 * stored schema is not kept in the metadata, and its own metadata fills in
 * keys the file lacks, as arrow-rs does.
 */
function schemas(a: ArrowModule, p: ArrowPlan, metadata?: Map<string, string>): { built: ArrowSchema; schema: ArrowSchema; dictionary: boolean[] } {
  const text = metadata?.get(ARROW_SCHEMA_KEY);
  const stored = text !== undefined && p.stored ? storedSchema(a, text) : undefined;
  let meta = metadata;
  if (text !== undefined && p.stored) {
    meta = new Map([...(stored?.metadata ?? []), ...metadata!]);
    meta.delete(ARROW_SCHEMA_KEY);
  }
  let dictionary = p.dictionary;
  if (stored) {
    const types = storedLeafTypes(a, p.plan, stored);
    dictionary = dictionary.map((d, i) => d && (types[i] === undefined || types[i]!.typeId === a.Type.Dictionary));
  }
  const built = new a.Schema(p.plan.fields.map((f) => planField(a, f.name, f.plan, p.plan.leaves, dictionary)), meta?.size ? meta : undefined);
  if (!stored) return { built, schema: built, dictionary };
  const fields = built.fields.map((f) => {
    const h = stored.fields.find((x) => x.name === f.name);
    return h ? hintedField(a, f, h, p.stored!.dictionary) : f;
  });
  return { built, schema: fields.every((f, i) => f === built.fields[i]) ? built : new a.Schema(fields, built.metadata), dictionary };
}

/** Record batches, one per chunk group. */
export async function* arrowBatches(p: ArrowPlan, groups: AsyncIterable<ChunkGroup>, metadata?: Map<string, string>): AsyncGenerator<RecordBatch> {
  const a = await loadArrow();
  const { built, schema, dictionary } = schemas(a, p, metadata);
  const scratch = new Scratch();
  for await (const g of groups) {
    const batch = withContext(g.ctx, () => batchOf(a, built, schema, p.plan, dictionary, g, g.rows, scratch));
    g.release?.();
    yield batch;
  }
}

/** One batch, built for the Parquet types (`built`), then cast to the stored schema's where they differ. */
function batchOf(a: ArrowModule, built: ArrowSchema, schema: ArrowSchema, plan: RecordPlan, dictionary: boolean[], g: ChunkGroup, rows: Int32Array | null, scratch: Scratch): RecordBatch {
  const sources: LeafSource[] = plan.leaves.map((leaf, i) => ({ leaf, chunk: g.chunks[i]!, dictionary: dictionary[i]! }));
  const all = (): Int32Array => scratch.all(g.numRows);
  const slots = sources.map((s) => withContext({ column: s.leaf.path.join('.') }, () => rowSlots(s.chunk, g.numRows, rows, all)));
  const length = rows ? rows.length : g.numRows;
  const children = plan.fields.map((f, i) => withContext({ column: f.name }, () => {
    const data = fieldData(a, built.fields[i]!, f.plan, sources, slots, scratch);
    return built.fields[i] === schema.fields[i] ? data : castData(a, data, schema.fields[i]!.type);
  }));
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
