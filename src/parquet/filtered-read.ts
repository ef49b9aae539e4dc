/**
 * A reader's reads under a filter: the filter bound to the file's columns,
 * each row group's parts that one scan reads, and the matching rows, pruned
 * as docs/filtering.md describes. Functions of the file, not the reader's
 * methods: reader.ts loads them on the first read with a filter, and the
 * Arrow path (chunk-groups.ts) with it; a browser read without either does
 * not load them.
 */
import { withContext } from '../errors.js';
import { findColumn, selectLeaf } from '../schema/select.js';
import type { ColumnPath, LeafNode, SchemaNode } from '../schema/tree.js';
import type { RecordPlan } from '../shred/plan.js';
import { loadOnce } from '../load-once.js';
import { decoding } from './chunk-reads.js';
import { rowGroupIndexes, type ParquetFile } from './file.js';
import { bindFilter, type BoundFilter, type Filter, type FilterColumn } from './filter/expression.js';
import { scanRowGroup, scanRowGroupUntil, type FilteredGroup } from './filter/scan.js';
import type { ReadOptions } from './read-options.js';
import { valueOptionsPerLeaf, variantAssembly } from './read-steps.js';

const variantFilter = loadOnce(() => import('./variant/filter.js'));

/** A filter bound to `file`'s columns (each must name a leaf). */
export async function bindFileFilter(file: ParquetFile, filter: Filter): Promise<BoundFilter> {
  const variants = hasVariant(file.schema.root) ? await variantFilter() : undefined;
  return withContext({ file: file.name }, () => bindFilter(filter, (c) => filterColumn(file, c, variants)));
}

/** A filter's column: a leaf, or else a path inside a shredded VARIANT (variant/filter.ts). */
function filterColumn(file: ParquetFile, column: ColumnPath, variants: typeof import('./variant/filter.js') | undefined): FilterColumn {
  const names: readonly string[] = typeof column === 'string' ? column.split('.') : Array.isArray(column) ? column : [];
  // A path the schema has as it is names that column (the physical columns of a variant included).
  if (variants && !findColumn(file.schema.root, names)) {
    let node: SchemaNode = file.schema.root;
    for (let i = 0; i < names.length && !node.isLeaf; i++) {
      const next: SchemaNode | undefined = node.children.find((c) => c.name === names[i]);
      if (!next) break;
      if (!next.isLeaf && next.kind === 'variant') {
        const { typed, residual } = variants.variantFilterTarget(next, names.slice(i + 1));
        return { typed, residual, reader: (big) => variants.residualReader(typed, big) };
      }
      node = next;
    }
  }
  return selectLeaf(file.schema, column, { file: file.name });
}

function hasVariant(n: SchemaNode): boolean {
  return !n.isLeaf && (n.kind === 'variant' || n.children.some(hasVariant));
}

/** A row group's parts under a filter: what one scan reads, or, to find at most `want` matching rows, windows until they match. */
export async function* filteredParts(file: ParquetFile, rg: number, filter: BoundFilter, leaves: LeafNode[], want: number): AsyncGenerator<FilteredGroup> {
  const indexes = await file.reads.indexes();
  if (want !== Infinity) {
    yield* scanRowGroupUntil(file.reads.host, indexes, rg, filter, leaves, want);
    return;
  }
  const got = await scanRowGroup(file.reads.host, indexes, rg, filter, leaves);
  if (got) yield got;
}

/** Rows of the selected row groups that match a filter. */
export async function* filteredBatches(file: ParquetFile, plan: RecordPlan, filter: BoundFilter, options: ReadOptions, batchSize: number, skip: number, left: number): AsyncGenerator<Record<string, unknown>[]> {
  const leafOptions = valueOptionsPerLeaf(plan, options);
  const [finishVariant, { leafColumn, RecordAssembler }] = await Promise.all([variantAssembly(plan, options.variants === 'typed'), decoding()]);
  for (const rg of rowGroupIndexes(file.metadata, options.rowGroups)) {
    if (left <= 0) return;
    const ctx = { file: file.name, rowGroup: rg };
    // With a limit, the row group is scanned a window at a time and left once enough rows match.
    for await (const got of filteredParts(file, rg, filter, plan.leaves, skip + left)) {
      if (left <= 0) break;
      if (got.selected.length <= skip) {
        skip -= got.selected.length;
        continue;
      }
      const { selected } = got;
      const cols = plan.leaves.map((leaf, i) => withContext({ ...ctx, column: leaf.path.join('.') }, () => leafColumn(leaf, got.columns[i]!, leafOptions[i]!)));
      const asm = new RecordAssembler(plan, cols, finishVariant);
      const end = Math.min(selected.length, skip + left);
      let at = 0; // rows the assembler has passed
      for (let k = skip; k < end; ) {
        const size = Math.min(batchSize, end - k);
        const batch = withContext(ctx, () => {
          const rows = new Array<Record<string, unknown>>(size);
          for (let j = 0; j < size; j++) {
            const row = selected[k + j]!;
            if (row > at) asm.skipRows(row - at);
            rows[j] = asm.readRow();
            at = row + 1;
          }
          return rows;
        });
        k += size;
        yield batch;
      }
      left -= end - skip;
      skip = 0;
    }
  }
}
