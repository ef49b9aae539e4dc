/**
 * A schema cut down to some of its leaves, as flat schema elements a writer
 * takes: the kept leaves and every group above one, in file order, each
 * group's `numChildren` recounted; groups left with no leaf go. What a
 * projected read returns fits it, so a file can be rewritten with fewer
 * columns (parquet-java's `prune`, the other way round).
 */
import type { LeafNode, Schema, SchemaElementLike, SchemaNode } from './tree.js';

export function projectSchema(schema: Schema, keep: readonly LeafNode[]): SchemaElementLike[] {
  const kept = new Set(keep);
  const walk = (node: SchemaNode): SchemaElementLike[] => {
    if (node.isLeaf) return kept.has(node) ? [node.element] : [];
    const children = node.children.map(walk).filter((c) => c.length > 0);
    if (children.length === 0) return [];
    return [{ ...node.element, numChildren: children.length }, ...children.flat()];
  };
  const root = walk(schema.root);
  return root.length > 0 ? root : [{ ...schema.root.element, numChildren: 0 }];
}
