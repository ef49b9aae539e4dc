/**
 * What a footer states twice, held against itself before a salvage read
 * trusts it. Zeroed or changed bytes inside a footer often still decode:
 * a name or a string turns into another, a varint into 0 (PLAIN, BOOLEAN,
 * REQUIRED, UTF8). Page bytes prove a chunk's offsets, sizes, codec and
 * counts (chunk-salvage.ts), but not what its values mean: the schema
 * alone says that, and a schema that lies turns intact pages into rows the
 * file never held. So a chunk is read only where the footer agrees with
 * itself about it: the schema's path and physical type against the
 * chunk's own, each element on the path's two type annotations against
 * each other, and its first page against every other chunk's (two chunks
 * never share one).
 */
import { fromConverted, fromLogical, resolveGroupKind, type LeafKind, type LogicalTypeLike } from '../../schema/logical.js';
import type { PhysicalType } from '../../encodings/types.js';
import type { LeafNode, Schema, SchemaNode } from '../../schema/tree.js';
import { chunkStart } from '../chunk-locator.js';
import type { ColumnMetaData, FileMetaData } from '../metadata/index.js';

export class FooterClaims {
  /** Chunks (`rowGroup:column`) stated to start where another does. */
  private readonly shared: Set<string>;

  constructor(private readonly schema: Schema, metadata: FileMetaData) {
    this.shared = sharedStarts(metadata);
  }

  /** Why the footer contradicts itself about the chunk `meta` of `leaf` in row group `rg`, or null. */
  conflict(rg: number, leaf: LeafNode, meta: ColumnMetaData): string | null {
    if (this.shared.has(`${rg}:${leaf.columnIndex}`)) return 'another chunk is stated to start at its first page';
    return chunkConflict(leaf, meta);
  }
}

/**
 * Why the footer's schema cannot be believed, or null: two annotations of
 * one element disagree, or a leaf disagrees with its chunk in every row
 * group (a chunk that disagrees in some only is the one in doubt, and is
 * lost alone).
 */
export function schemaRefuted(schema: Schema, metadata: FileMetaData): string | null {
  // Every node once, without recursion: a wide or deep schema costs its size.
  const stack: SchemaNode[] = [...schema.root.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const conflict = annotationConflict(node.element, node.isLeaf ? node.physicalType : undefined);
    if (conflict) return `schema element ${JSON.stringify(node.path.join('.'))}: ${conflict}`;
    if (!node.isLeaf) for (const c of node.children) stack.push(c);
  }
  const groups = metadata.rowGroups;
  if (groups.length === 0) return null;
  for (const leaf of schema.leaves) {
    let first: string | null = null;
    for (const g of groups) {
      const m = g.columns[leaf.columnIndex]?.metaData;
      const conflict = m ? chunkConflict(leaf, m) : null;
      if (conflict === null) {
        first = null;
        break;
      }
      first ??= conflict;
    }
    if (first !== null) return first;
  }
  return null;
}

function chunkConflict(leaf: LeafNode, meta: ColumnMetaData): string | null {
  const path = meta.pathInSchema;
  if (path.length !== leaf.path.length || path.some((p, i) => p !== leaf.path[i])) {
    return `the schema names the column ${JSON.stringify(leaf.path.join('.'))} but its chunk says ${JSON.stringify(path.join('.'))}`;
  }
  if (meta.type !== leaf.physicalType) return `the schema gives the column type ${leaf.physicalType} but its chunk says ${meta.type}`;
  return null;
}

/**
 * The chunks (as `rowGroup:column` keys) that start where another does.
 * Bytes a chunk's description gets wrong otherwise show in its own pages
 * (they do not tile its range, or do not add up to its counts), which
 * cost no other chunk anything; but two chunks stated on the same pages
 * both read cleanly, and nothing says which is described wrongly, so
 * neither is read. Empty chunks and row groups (offsets writers leave at
 * 0) are not compared.
 */
function sharedStarts(metadata: FileMetaData): Set<string> {
  const first = new Map<number, string>();
  const out = new Set<string>();
  metadata.rowGroups.forEach((g, rg) => g.columns.forEach((c, col) => {
    const m = c.metaData;
    if (!m || !(m.totalCompressedSize > 0) || !(g.numRows > 0)) return;
    const key = `${rg}:${col}`;
    const start = chunkStart(m);
    const earlier = first.get(start);
    if (earlier === undefined) first.set(start, key);
    else out.add(earlier).add(key);
  }));
  return out;
}

/**
 * Why an element's logical type and its converted type, both given and both
 * known here, mean different things; null when they agree or either is
 * absent or unknown. Time zones aside: writers give a local TIME or
 * TIMESTAMP the converted type too. A footer damaged in one of them still
 * decodes, into the other's meaning, so recovery holds them to each other.
 */
function annotationConflict(el: { logicalType?: LogicalTypeLike; convertedType?: string; scale?: number; precision?: number }, physical: PhysicalType | undefined): string | null {
  const { logicalType: lt, convertedType: ct } = el;
  if (!lt || !ct) return null;
  if (physical === undefined) {
    const a = resolveGroupKind(lt, undefined);
    return a !== 'struct' && a !== resolveGroupKind(undefined, ct) ? `its logical type ${lt.type} and converted type ${ct} disagree` : null;
  }
  const a = fromLogical(lt, physical);
  const b = fromConverted(ct, el.scale, el.precision);
  if (!a || !b) return null;
  const key = (k: LeafKind) => JSON.stringify({ ...k, utc: undefined });
  return key(a) !== key(b) ? `its logical type ${lt.type} and converted type ${ct} disagree` : null;
}
