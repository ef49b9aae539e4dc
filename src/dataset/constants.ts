/**
 * Filters over columns that are constant in a file: its partition values,
 * and the columns it lacks (null under `unionByName`). Each test of such a
 * column is decided by the filter layer's statistics pruning (prune-stats.ts)
 * on one exact value, in SQL's three-valued logic; what is left is the
 * filter the file's own reader applies. A file whose filter is false or
 * unknown is pruned before it is opened.
 */
import type { ColumnPath } from '../schema/tree.js';
import { bindFilter, type Filter } from '../parquet/filter/expression.js';
import { possible, type LeafStats } from '../parquet/filter/prune-stats.js';
import type { LeafNode, Schema } from '../schema/tree.js';
import { InvalidArgumentError } from '../errors.js';
import type { PartitionValue } from './hive.js';
import { leafByPath } from './schema.js';

const FALSE = 0;
const TRUE = 1;
const UNKNOWN = 2;
type Truth = typeof FALSE | typeof TRUE | typeof UNKNOWN;

/** What is left of a filter in one file: decided, or a filter over the file's own columns. */
export type Residual = Truth | Filter;

const UTF8 = new TextEncoder();

/** Statistics of a column holding one value (null: every row null). */
export function constantStats(leaf: LeafNode, value: PartitionValue): LeafStats {
  if (value === null) return { exact: false, allNull: true, nullCount: 1, nanPossible: false };
  if (typeof value === 'number' && Number.isNaN(value)) return { exact: false, allNull: false, nullCount: 0, nanPossible: true };
  const d = typeof value === 'string' ? UTF8.encode(value) : leaf.physicalType === 'INT64' ? BigInt(value) : Number(value);
  return { min: d, max: d, exact: true, allNull: false, nullCount: 0, nanPossible: false };
}

/** The resolver filters on a dataset bind with: a leaf of its schema, else an InvalidArgumentError. */
export function datasetLeaf(schema: Schema): (column: ColumnPath) => LeafNode {
  return (column) => {
    const leaf = leafByPath(schema, column);
    if (!leaf) throw new InvalidArgumentError(`no column "${typeof column === 'string' ? column : column.join('.')}" in the dataset (filters name leaf columns)`);
    return leaf;
  };
}

/**
 * The filter left once the constant columns are decided. `constant` gives a
 * column's statistics when it is constant in the file. A column not in
 * `schema` is an error, or with `others: 'open'` left open (a schema of the
 * partition columns alone, before any file's columns are known).
 */
export function residual(filter: Filter, schema: Schema, constant: (leaf: LeafNode) => LeafStats | undefined, others: 'error' | 'open' = 'error'): Residual {
  const resolve = datasetLeaf(schema);
  const walk = (f: Filter): Residual => {
    if ('and' in f || 'or' in f) {
      const isAnd = 'and' in f;
      const parts = (isAnd ? (f as { and: readonly Filter[] }).and : (f as { or: readonly Filter[] }).or).map(walk);
      const [decisive, neutral]: [Truth, Truth] = isAnd ? [FALSE, TRUE] : [TRUE, FALSE];
      if (parts.includes(decisive)) return decisive;
      const open = parts.filter((p): p is Filter => typeof p === 'object');
      const unknown = parts.includes(UNKNOWN);
      if (open.length === 0) return unknown ? UNKNOWN : neutral;
      if (unknown) open.push(unknownOver(open[0]!));
      return open.length === 1 ? open[0]! : isAnd ? { and: open } : { or: open };
    }
    if ('not' in f) {
      const p = walk(f.not);
      return p === TRUE ? FALSE : p === FALSE ? TRUE : p === UNKNOWN ? UNKNOWN : { not: p };
    }
    if (others === 'open' && !leafByPath(schema, f.column)) return f;
    const leaf = resolve(f.column);
    const stats = constant(leaf);
    if (!stats) return f;
    const p = possible(bindFilter(f, resolve), () => stats);
    return p.canTrue ? (p.canFalse ? f : TRUE) : p.canFalse ? FALSE : UNKNOWN;
  };
  return walk(filter);
}

/** A test that is unknown in every row (a comparison with null), over a column `f` reads. */
function unknownOver(f: Filter): Filter {
  let g = f;
  while (!('column' in g)) g = 'not' in g ? g.not : ('and' in g ? g.and : (g as { or: readonly Filter[] }).or)[0]!;
  return { column: g.column, op: '=', value: null };
}

/** Whether rows can match: false when the filter is decided false or unknown for every row. */
export function canMatch(r: Residual): boolean {
  return r !== FALSE && r !== UNKNOWN;
}

/** The filter the file's reader applies, or undefined when every row matches. */
export function fileFilter(r: Residual): Filter | undefined {
  return typeof r === 'object' ? r : undefined;
}
