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
 * each other, and its bytes against every other chunk's (two chunks never
 * share bytes).
 */
import { annotationConflict } from '../../schema/logical.js';
import type { LeafNode, Schema, SchemaNode } from '../../schema/tree.js';
import type { Range } from '../filter/indexes.js';
import { chunkStart } from '../chunk-start.js';
import type { ColumnMetaData, FileMetaData } from '../metadata/index.js';

export class FooterClaims {
  /** Chunks (`rowGroup:column`) whose stated bytes overlap another's. */
  private readonly overlapping: Set<string>;

  constructor(private readonly schema: Schema, metadata: FileMetaData) {
    this.overlapping = overlappingChunks(metadata);
  }

  /** Why the footer contradicts itself about the chunk `meta` of `leaf` in row group `rg`, or null. */
  conflict(rg: number, leaf: LeafNode, meta: ColumnMetaData): string | null {
    if (this.overlapping.has(`${rg}:${leaf.columnIndex}`)) return 'the chunk\'s bytes overlap another chunk\'s';
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
  const groups = metadata.rowGroups;
  for (const leaf of schema.leaves) {
    for (const node of pathTo(schema, leaf)) {
      const conflict = annotationConflict(node.element, node.isLeaf ? node.physicalType : undefined);
      if (conflict) return `schema element ${JSON.stringify(node.path.join('.'))}: ${conflict}`;
    }
    const conflicts = groups.map((g) => {
      const m = g.columns[leaf.columnIndex]?.metaData;
      return m ? chunkConflict(leaf, m) : null;
    });
    if (groups.length > 0 && conflicts.every((c) => c !== null)) return conflicts[0]!;
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

/** The nodes from the root's child down to `leaf`. */
function pathTo(schema: Schema, leaf: LeafNode): SchemaNode[] {
  const out: SchemaNode[] = [];
  let node: SchemaNode = schema.root;
  for (const name of leaf.path) {
    if (node.isLeaf) break;
    const child: SchemaNode | undefined = node.children.find((c) => c.name === name);
    if (!child) break;
    out.push((node = child));
  }
  return out;
}

/**
 * The chunks (as `rowGroup:column` keys) whose stated bytes overlap
 * another chunk's: at least one of the two is described wrongly, and
 * nothing says which, so neither is read.
 */
function overlappingChunks(metadata: FileMetaData): Set<string> {
  const spans: { key: string; range: Range }[] = [];
  metadata.rowGroups.forEach((g, rg) => g.columns.forEach((c, col) => {
    const m = c.metaData;
    if (!m || !(m.totalCompressedSize > 0)) return;
    const start = chunkStart(m);
    spans.push({ key: `${rg}:${col}`, range: { start, end: start + m.totalCompressedSize } });
  }));
  spans.sort((a, b) => a.range.start - b.range.start);
  const out = new Set<string>();
  let reach: { key: string; range: Range } | undefined;
  for (const s of spans) {
    if (reach && s.range.start < reach.range.end) {
      out.add(reach.key).add(s.key);
    }
    if (!reach || s.range.end > reach.range.end) reach = s;
  }
  return out;
}
