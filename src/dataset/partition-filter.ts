/**
 * A filter decided on Hive partition values alone: which files a read keeps
 * before any is opened, and which directories a walk descends into before
 * anything under them is listed (discover.ts), decided on their
 * `key=value` names.
 */
import { ParquetryError } from '../errors.js';
import type { Filter } from '../parquet/filter/expression.js';
import { buildSchema } from '../schema/tree.js';
import { joinPath } from '../io/paths.js';
import type { DirectoryPruner } from './discover.js';
import { canMatch, constantStats, residual } from './constants.js';
import { castPartition, partitionElement, partitionPairs, partitionText, valueType, type PartitionColumn, type PartitionType, type PartitionValue } from './hive.js';

/** Whether rows with these partition values can match `filter` (its tests of other columns left open). */
export function keepsPartitions(filter: Filter, columns: readonly PartitionColumn[], values: readonly PartitionValue[]): boolean {
  const schema = buildSchema([{ name: 'schema', numChildren: columns.length }, ...columns.map(partitionElement)]);
  return canMatch(residual(filter, schema, (leaf) => constantStats(leaf, values[columns.findIndex((c) => c.name === leaf.path[0])]!), 'open'));
}

/** Most typings of a directory's keys tried (two a key); past it the directory is kept. */
const MAX_TYPINGS = 256;

/** A walk's pruning by the filter's tests of partition keys. */
export function directoryPruner(filter: Filter, given: Readonly<Record<string, PartitionType>>): DirectoryPruner {
  const named = filterColumns(filter);
  return {
    names: (name) => {
      const eq = name.indexOf('=');
      return eq > 0 && named.has(name.slice(0, eq));
    },
    keeps: (dir) => keepsDirectory(filter, given, dir),
  };
}

/** The top-level columns a filter tests. */
function filterColumns(f: Filter, out = new Set<string>()): Set<string> {
  if ('and' in f) for (const g of f.and) filterColumns(g, out);
  else if ('or' in f) for (const g of f.or) filterColumns(g, out);
  else if ('not' in f) filterColumns(f.not, out);
  else if (typeof f.column === 'string') out.add(f.column).add(f.column.split('.')[0]!);
  else out.add(f.column[0]!);
  return out;
}

/**
 * Whether a directory may hold rows `filter` keeps, by the `key=value`
 * names on its path. A key's type is not known until its values are listed
 * (hive.ts: DuckDB's rule over them), but it can only be the type its value
 * asks for alone or VARCHAR (or the type given): a directory is ruled out
 * only when the filter is false or unknown under every such typing, so no
 * typing the listing ends with would have read rows from it.
 */
function keepsDirectory(filter: Filter, given: Readonly<Record<string, PartitionType>>, dir: string): boolean {
  {
    const keys: { name: string; typings: { type: PartitionType; value: PartitionValue }[] }[] = [];
    for (const [name, raw] of partitionPairs(joinPath(dir, '_'))) {
      const text = partitionText(raw);
      const types = new Set<PartitionType>(given[name] ? [given[name]] : text === null ? ['VARCHAR'] : [valueType(raw), 'VARCHAR']);
      const typings: { type: PartitionType; value: PartitionValue }[] = [];
      for (const type of types) {
        const value = text === null ? null : castPartition(text, type);
        // A value its type cannot hold: the read names it (hive.ts), so it is not ruled out here.
        if (value === undefined) return true;
        typings.push({ type, value });
      }
      keys.push({ name, typings });
    }
    if (keys.length === 0) return true;
    const count = keys.reduce((n, k) => n * k.typings.length, 1);
    if (count > MAX_TYPINGS) return true;
    for (let i = 0; i < count; i++) {
      let rest = i;
      const picked = keys.map((k) => {
        const t = k.typings[rest % k.typings.length]!;
        rest = Math.floor(rest / k.typings.length);
        return t;
      });
      try {
        if (keepsPartitions(filter, keys.map((k, j) => ({ name: k.name, type: picked[j]!.type })), picked.map((t) => t.value))) return true;
      } catch (e) {
        // A filter that does not bind under this typing fails every read under it: no rows come from here.
        if (!(e instanceof ParquetryError)) throw e;
      }
    }
    return false;
  }
}
