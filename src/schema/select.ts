/** Columns named by `ColumnPath`s, found in a schema tree: how every reader resolves `columns`. */
import { InvalidArgumentError, type ErrorContext } from '../errors.js';
import { leavesOf, type ColumnPath, type LeafNode, type Schema, type SchemaNode } from './tree.js';

function findNode(root: SchemaNode, path: readonly string[]): SchemaNode | undefined {
  let node: SchemaNode | undefined = root;
  for (const name of path) {
    if (!node || node.isLeaf) return undefined;
    node = node.children.find((c: SchemaNode) => c.name === name);
  }
  return node;
}

/** A node whose dotted path is exactly `dotted`, for names that themselves contain dots. */
function findDotted(node: SchemaNode, dotted: string): SchemaNode | undefined {
  if (node.path.length > 0 && node.path.join('.') === dotted) return node;
  if (node.isLeaf) return undefined;
  for (const c of node.children) {
    const hit = findDotted(c, dotted);
    if (hit) return hit;
  }
  return undefined;
}

/** The node a column path names: a dotted path, else a name holding dots; a name array as it is. */
export function findColumn(root: SchemaNode, p: ColumnPath): SchemaNode | undefined {
  return typeof p === 'string' ? findNode(root, p.split('.')) ?? findDotted(root, p) : findNode(root, p);
}

/**
 * For a path that names no column: the columns it may mean, a node whose
 * path differs only in case or a node whose own name it is (`city` for
 * `address.city`), as ` (did you mean "a.b"?)`; '' when there is none.
 */
function nearColumns(schema: Schema, name: string): string {
  const near: string[] = [];
  const walk = (node: SchemaNode): void => {
    if (node.path.length > 0) {
      const dotted = node.path.join('.');
      if (dotted.toLowerCase() === name.toLowerCase() || (node.path.length > 1 && node.name === name)) near.push(dotted);
    }
    if (!node.isLeaf) for (const c of node.children) walk(c);
  };
  walk(schema.root);
  if (near.length === 0 || near.length > 5) return '';
  return ` (did you mean ${near.map((n) => JSON.stringify(n)).join(' or ')}?)`;
}

/** Leaf columns selected by paths, in schema order (all leaves when `paths` is absent); an unknown path is an error. */
export function selectLeaves(schema: Schema, paths: readonly ColumnPath[] | undefined, ctx: ErrorContext = {}): LeafNode[] {
  if (!paths) return schema.leaves;
  // A string would be taken a letter at a time (`no column "i"` for 'id').
  if (!Array.isArray(paths)) {
    const given: unknown = paths;
    throw new InvalidArgumentError(typeof given === 'string'
      ? `columns must be an array of column paths, as ['${given}'], not the string ${JSON.stringify(given)}`
      : `columns must be an array of column paths, as ['a', 'b.c'], not ${String(given)}`);
  }
  const chosen = new Set<LeafNode>();
  for (const p of paths) {
    const node = findColumn(schema.root, p);
    if (!node) {
      const name = typeof p === 'string' ? p : p.join('.');
      throw new InvalidArgumentError(`no column "${name}" in the schema${nearColumns(schema, name)}`, ctx);
    }
    for (const l of leavesOf(node)) chosen.add(l);
  }
  return schema.leaves.filter((l) => chosen.has(l));
}

/** The leaf column a path names; an unknown path or a group is an InvalidArgumentError. */
export function selectLeaf(schema: Schema, column: ColumnPath, ctx: ErrorContext = {}): LeafNode {
  const name = typeof column === 'string' ? column : Array.isArray(column) ? column.join('.') : String(column);
  if (typeof column !== 'string' && !Array.isArray(column)) throw new InvalidArgumentError(`a column must be a dotted path or an array of names, got ${name}`);
  const leaves = selectLeaves(schema, [column], ctx);
  const same = (l: LeafNode): boolean => (typeof column === 'string' ? l.path.join('.') === column : l.path.length === column.length && l.path.every((x, i) => x === column[i]));
  const leaf = leaves.length === 1 && same(leaves[0]!) ? leaves[0]! : undefined;
  if (!leaf) throw new InvalidArgumentError(`column "${name}" is a group, not a leaf column`, { ...ctx, column: name });
  return leaf;
}
