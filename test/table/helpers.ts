/** What the table tests share: a table's plan (for canonical rows), and all of a table's rows. */
import { tablePlan } from '../../src/table/plan.js';
import type { RecordPlan } from '../../src/shred/plan.js';
import type { ColumnPath } from '../../src/schema/tree.js';
import type { Table, TableReadOptions } from '../../src/node/index.js';
import { canonicalRow } from '../../src/node/entries/inspect.js';

export { tablePlan };


export async function allRows(table: Table, options: TableReadOptions = {}): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const r of table.rows(options)) rows.push(r);
  return rows;
}

/** The table's rows as canonical JSON lines (CANONICAL.md), each ending in a newline. */
export async function canonicalText(table: Table, options: TableReadOptions = {}): Promise<string> {
  const plan = tablePlan(table, options.columns);
  let out = '';
  for await (const r of table.rows(options)) out += canonicalRow(plan, r) + '\n';
  return out;
}

/** A table read as a `Dataset` is by test/dataset/helpers.ts's `assertAgrees`: a plan and rows. */
export function asRowSource(table: Table): { plan(columns?: readonly ColumnPath[]): RecordPlan; rows(o: TableReadOptions): AsyncIterable<Record<string, unknown>> } {
  return { plan: (columns) => tablePlan(table, columns), rows: (o) => table.rows(o) };
}
