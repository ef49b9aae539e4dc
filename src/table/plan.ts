/** The record plan of a table's projection: what the canonical printer and a renderer's header walk, for any table. */
import { selectLeaves } from '../schema/select.js';
import type { ColumnPath, Schema } from '../schema/tree.js';
import { planRecord, type RecordPlan } from '../shred/plan.js';

export function tablePlan(table: { readonly schema: Schema }, columns?: readonly ColumnPath[]): RecordPlan {
  const keep = new Set(selectLeaves(table.schema, columns));
  return planRecord(table.schema.root, (l) => keep.has(l));
}
