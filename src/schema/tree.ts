import { CorruptFileError, InvalidArgumentError, withContext } from '../errors.js';
import type { PhysicalType } from '../encodings/types.js';
import { resolveGroupKind, resolveLeafKind, type GroupKind, type LeafKind, type LogicalTypeLike } from './logical.js';

export type Repetition = 'REQUIRED' | 'OPTIONAL' | 'REPEATED';

/** The fields of a Parquet SchemaElement this layer reads (a structural subset of the thrift type). */
export interface SchemaElementLike {
  name: string;
  type?: string;
  typeLength?: number;
  repetitionType?: string;
  numChildren?: number;
  convertedType?: string;
  scale?: number;
  precision?: number;
  fieldId?: number;
  logicalType?: LogicalTypeLike;
}

interface NodeBase {
  name: string;
  /** Names from the root's child down to this node. */
  path: string[];
  repetition: Repetition;
  /** Definition level at which this node is present (counts optional and repeated ancestors and itself). */
  defLevel: number;
  /** Repetition level of this node (counts repeated ancestors and itself). */
  repLevel: number;
  element: SchemaElementLike;
}

/** A leaf column: its physical type, what its bytes mean (`kind`), its path and its levels. */
export interface LeafNode extends NodeBase {
  isLeaf: true;
  physicalType: PhysicalType;
  typeLength?: number;
  kind: LeafKind;
  /** Position among the file's leaf columns (the order of column chunks). */
  columnIndex: number;
}

/** A group of the schema tree (the root, a struct, a LIST or a MAP) and its children. */
export interface GroupNode extends NodeBase {
  isLeaf: false;
  kind: GroupKind;
  children: SchemaNode[];
}

/** A node of the schema tree: a leaf column or a group. */
export type SchemaNode = LeafNode | GroupNode;

/**
 * A file's schema: the tree from the root, and its leaf columns in file order, each with its
 * definition and repetition levels.
 */
export interface Schema {
  root: GroupNode;
  /** Leaf columns in file order. */
  leaves: LeafNode[];
}

const PHYSICAL = new Set<string>(['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY']);
/** Deepest schema nesting read (Parquet schema trees, Avro schemas in Trevni files): deeper would only exhaust the stack. */
export const MAX_SCHEMA_DEPTH = 200;

/**
 * The same limit on values given to be written (records, JSON text, declared
 * types): no schema holds deeper structure, and every walk over them stays far
 * from the end of the stack. `what` is the value or the path to it.
 */
export function nestingLimitError(what: string): InvalidArgumentError {
  return new InvalidArgumentError(`${what} nests deeper than ${MAX_SCHEMA_DEPTH} levels, the nesting limit`);
}

/**
 * Builds the schema tree from the flattened, depth-first SchemaElement list of
 * a footer, computing each node's definition and repetition levels.
 */
export function buildSchema(elements: readonly SchemaElementLike[]): Schema {
  if (elements.length === 0) throw new CorruptFileError('schema is empty');
  let next = 0;
  const leaves: LeafNode[] = [];

  function build(parentPath: string[], parentDef: number, parentRep: number, depth: number, isRoot: boolean): SchemaNode {
    if (depth > MAX_SCHEMA_DEPTH) throw new CorruptFileError(`schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
    // A group's child count was checked against the elements left, but nested groups may have used them up.
    if (next >= elements.length) throw new CorruptFileError(`schema ends inside group "${parentPath.join('.')}": its children claim more elements than the list holds`);
    const el = elements[next++]!;
    const repetition = isRoot ? 'REQUIRED' : parseRepetition(el);
    const path = isRoot ? [] : [...parentPath, el.name];
    const defLevel = parentDef + (repetition === 'REQUIRED' ? 0 : 1);
    const repLevel = parentRep + (repetition === 'REPEATED' ? 1 : 0);
    const n = el.numChildren ?? 0;
    // The root is always a group, even when a writer leaves numChildren unset on an empty schema.
    if (isRoot || n > 0 || el.type === undefined) {
      if (n < 0 || n > elements.length - next) {
        throw new CorruptFileError(`schema element "${el.name}" claims ${n} children but only ${elements.length - next} elements follow`);
      }
      const children: SchemaNode[] = [];
      const names = new Set<string>();
      for (let i = 0; i < n; i++) {
        const child = build(path, defLevel, repLevel, depth + 1, false);
        // Rows are keyed by name and columns found by path: a second sibling of the same name could only shadow the first.
        if (names.has(child.name)) {
          throw new CorruptFileError(`${isRoot ? 'the schema has' : `group "${path.join('.')}" has`} two fields named "${child.name}"`, { column: child.path.join('.') });
        }
        names.add(child.name);
        children.push(child);
      }
      return { isLeaf: false, name: el.name, path, repetition, defLevel, repLevel, element: el, kind: resolveGroupKind(el.logicalType, el.convertedType), children };
    }
    if (!PHYSICAL.has(el.type)) throw new CorruptFileError(`schema element "${path.join('.')}" has unknown physical type ${el.type}`);
    const physicalType = el.type as PhysicalType;
    if (physicalType === 'FIXED_LEN_BYTE_ARRAY' && !(el.typeLength !== undefined && el.typeLength >= 0)) {
      throw new CorruptFileError(`FIXED_LEN_BYTE_ARRAY column "${path.join('.')}" has no valid type_length`);
    }
    const leaf: LeafNode = {
      isLeaf: true, name: el.name, path, repetition, defLevel, repLevel, element: el, physicalType,
      typeLength: physicalType === 'FIXED_LEN_BYTE_ARRAY' ? el.typeLength : physicalType === 'INT96' ? 12 : undefined,
      kind: withContext({ column: path.join('.') }, () => resolveLeafKind(physicalType, el.typeLength, el.logicalType, el.convertedType, el.scale, el.precision)),
      columnIndex: leaves.length,
    };
    leaves.push(leaf);
    return leaf;
  }

  const root = build([], 0, 0, 0, true) as GroupNode;
  if (next !== elements.length) {
    throw new CorruptFileError(`schema has ${elements.length - next} elements not reachable from the root`);
  }
  return { root, leaves };
}

function parseRepetition(el: SchemaElementLike): Repetition {
  const r = el.repetitionType;
  if (r === 'REQUIRED' || r === 'OPTIONAL' || r === 'REPEATED') return r;
  // Some writers omit it on non-root elements; parquet-java treats that as required... but
  // an absent repetition on a leaf is rare enough that we follow the spec's default.
  if (r === undefined) return 'REQUIRED';
  throw new CorruptFileError(`schema element "${el.name}" has unknown repetition ${r}`);
}

/** All leaves under a node, in file order. */
export function leavesOf(node: SchemaNode): LeafNode[] {
  const out: LeafNode[] = [];
  // Into one array: a spread of a group's leaves passes each on the stack, which a file's wide group overflows.
  const add = (n: SchemaNode): void => {
    if (n.isLeaf) out.push(n);
    else for (const c of n.children) add(c);
  };
  add(node);
  return out;
}

export function pathString(path: readonly string[]): string {
  return path.join('.');
}

/** A column by dotted path (`a.b.c`) or by its names (`['a', 'b.c']`). */
export type ColumnPath = string | readonly string[];
