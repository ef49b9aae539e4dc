/**
 * The draft dialect's columns and the Dremel schema tree they stand for.
 *
 * Every schema node but the root is a column, depth first. A group is a
 * column of type `null` (it holds no blocks); a leaf has the Trevni type of
 * its values. A column's name is its path, components joined by `.` (a `.`
 * or `\` inside a component escaped by `\`), so names are unique as the
 * format requires; `trevni.parent` names the enclosing group's column.
 * `trevni.maxDefinition` / `trevni.maxRepetition` (decimal text, as
 * cutting/trevni's `MetaData.set(key, long)` writes numbers; absent means 0,
 * as the draft says) are the node's levels, from which its repetition
 * follows: one more repetition level than its parent is REPEATED, one more
 * definition level only is OPTIONAL, neither is REQUIRED. `trevni.logical`
 * keeps a group's LIST or MAP annotation, so lists and maps read back as
 * such. Leaves: int and fixed32 are INT32, long and fixed64 INT64, float,
 * double, string (BYTE_ARRAY with STRING), bytes (BYTE_ARRAY); INT(32) and
 * INT(64) signed are plain INT32 and INT64. Parquet types with no such
 * column (BOOLEAN, INT96, FIXED_LEN_BYTE_ARRAY, other logical types) are
 * refused, naming the column.
 */
import { CorruptFileError, UnsupportedError } from '../../errors.js';
import { buildSchema, type GroupNode, type Schema, type SchemaElementLike, type SchemaNode } from '../../schema/tree.js';
import { DRAFT_KEY } from '../metadata.js';
import { KEY, metaGet, textBytes, type MetaEntry, type TrevniColumn, type TrevniType } from '../types.js';

/** The group annotation key. */
export const LOGICAL_KEY = 'trevni.logical';

const GROUP_ANNOTATIONS = new Set(['LIST', 'MAP', 'MAP_KEY_VALUE']);

/** A leaf column of a draft file: the Trevni column and its levels. */
export interface DraftLeaf {
  column: TrevniColumn;
  maxDef: number;
  maxRep: number;
}

const lenient = new TextDecoder('utf-8');

function escapeName(name: string): string {
  return name.replace(/[\\.]/g, (c) => `\\${c}`);
}

/** The last component of an escaped path. */
function lastComponent(path: string): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === '\\' && i + 1 < path.length) out += path[++i]!;
    else if (c === '.') out = '';
    else out += c;
  }
  return out;
}

function level(meta: readonly MetaEntry[], key: string, column: string): number {
  const e = meta.find((m) => m.key === key);
  if (e === undefined) return 0;
  const t = lenient.decode(e.value);
  const n = Number(t);
  // A level above 255 would need a schema deeper than any reader nests.
  if (!/^[0-9]{1,3}$/.test(t) || n > 255) throw new CorruptFileError(`${key} is ${JSON.stringify(t)}, not a level from 0 to 255`, { column, offset: e.offset });
  return n;
}

const PHYSICAL: Partial<Record<TrevniType, string>> = { int: 'INT32', fixed32: 'INT32', long: 'INT64', fixed64: 'INT64', float: 'FLOAT', double: 'DOUBLE', string: 'BYTE_ARRAY', bytes: 'BYTE_ARRAY' };

/** The schema tree of a draft file's columns, and its leaves (in the schema's leaf order) with their levels. */
export function draftSchema(columns: readonly TrevniColumn[]): { schema: Schema; leaves: DraftLeaf[] } {
  const levels = columns.map((c) => ({ def: level(c.metadata, DRAFT_KEY.maxDefinition, c.name), rep: level(c.metadata, DRAFT_KEY.maxRepetition, c.name) }));
  const elements = columns.map((c): SchemaElementLike => {
    const ctx = { column: c.name, offset: c.metadata[0]?.offset };
    const parent = c.parentIndex < 0 ? { def: 0, rep: 0 } : levels[c.parentIndex]!;
    const { def, rep } = levels[c.index]!;
    const dDef = def - parent.def;
    const dRep = rep - parent.rep;
    if (dDef < 0 || dDef > 1 || dRep < 0 || dRep > 1 || dRep > dDef) {
      throw new CorruptFileError(`levels (definition ${def}, repetition ${rep}) do not follow from its parent's (${parent.def}, ${parent.rep})`, ctx);
    }
    const repetitionType = dRep === 1 ? 'REPEATED' : dDef === 1 ? 'OPTIONAL' : 'REQUIRED';
    const name = lastComponent(c.name);
    if (c.type === 'null') {
      if (c.children.length === 0) throw new CorruptFileError('a group column (type null) with no child column', ctx);
      const logical = metaGet(c.metadata, LOGICAL_KEY);
      const annotation = logical === undefined ? undefined : lenient.decode(logical);
      if (annotation !== undefined && !GROUP_ANNOTATIONS.has(annotation)) throw new CorruptFileError(`unknown group annotation ${JSON.stringify(annotation)}`, ctx);
      return { name, repetitionType, numChildren: c.children.length, ...(annotation ? { convertedType: annotation } : {}) };
    }
    if (c.children.length > 0) throw new CorruptFileError(`a ${c.type} column is the parent of other columns; only groups (type null) are`, ctx);
    if (c.array) throw new CorruptFileError('trevni.array on a column of the Dremel dialect (its levels say what repeats)', ctx);
    return { name, repetitionType, type: PHYSICAL[c.type], ...(c.type === 'string' ? { convertedType: 'UTF8', logicalType: { type: 'STRING' } } : {}) };
  });
  // Depth first from the roots, as a footer lists them.
  const ordered: SchemaElementLike[] = [];
  const leafColumns: number[] = [];
  const visit = (i: number) => {
    ordered.push(elements[i]!);
    if (columns[i]!.type !== 'null') leafColumns.push(i);
    for (const k of columns[i]!.children) visit(k);
  };
  const roots = columns.filter((c) => c.parentIndex < 0).map((c) => c.index);
  for (const r of roots) visit(r);
  const schema = buildSchema([{ name: 'schema', numChildren: roots.length }, ...ordered]);
  const leaves = leafColumns.map((i) => ({ column: columns[i]!, maxDef: levels[i]!.def, maxRep: levels[i]!.rep }));
  return { schema, leaves };
}

/** What the draft writer writes for each schema node: a column's metadata, and for leaves the Trevni type. */
export interface DraftColumnSpec {
  name: string;
  type: TrevniType;
  metadata: MetaEntry[];
  /** The leaf's position in the schema's leaves, or -1 for a group. */
  leaf: number;
  maxDef: number;
  maxRep: number;
}

function leafType(node: SchemaNode & { isLeaf: true }): TrevniType {
  const e = node.element;
  const k = node.kind;
  switch (node.physicalType) {
    // Plain, or annotated as what they are anyway (INT(32, signed), INT(64, signed)).
    case 'INT32': if (k.kind === 'int' && k.signed && k.bitWidth === 32) return 'int'; break;
    case 'INT64': if (k.kind === 'int' && k.signed && k.bitWidth === 64) return 'long'; break;
    case 'FLOAT': if (k.kind === 'float') return 'float'; break;
    case 'DOUBLE': if (k.kind === 'float') return 'double'; break;
    case 'BYTE_ARRAY': {
      const logical = e.logicalType?.type;
      if (k.kind === 'bytes' && logical === undefined && e.convertedType === undefined) return 'bytes';
      // STRING only: ENUM and JSON would come back as plain STRING.
      if (k.kind === 'string' && (logical ?? 'STRING') === 'STRING' && (e.convertedType ?? 'UTF8') === 'UTF8') return 'string';
    }
  }
  const what = e.logicalType?.type ?? e.convertedType ?? node.physicalType;
  throw new UnsupportedError(`the Trevni draft dialect has no ${what} column (its types: int, long, float, double, string, bytes)`, { column: node.path.join('.') });
}

/** The draft columns of a schema, depth first; refuses what the dialect cannot hold. */
export function draftColumns(schema: Schema): DraftColumnSpec[] {
  const out: DraftColumnSpec[] = [];
  const walk = (node: SchemaNode, parent: string | null) => {
    const name = node.path.map(escapeName).join('.');
    const metadata: MetaEntry[] = [
      { key: KEY.name, value: textBytes(name) },
      { key: KEY.type, value: textBytes(node.isLeaf ? leafType(node) : 'null') },
    ];
    if (parent !== null) metadata.push({ key: KEY.parent, value: textBytes(parent) });
    metadata.push({ key: DRAFT_KEY.maxRepetition, value: textBytes(String(node.repLevel)) }, { key: DRAFT_KEY.maxDefinition, value: textBytes(String(node.defLevel)) });
    if (node.isLeaf) {
      out.push({ name, type: leafType(node), metadata, leaf: node.columnIndex, maxDef: node.defLevel, maxRep: node.repLevel });
      return;
    }
    // A group is a null-typed column with children; one with none would read as neither (the reader refuses it).
    if ((node as GroupNode).children.length === 0) throw new UnsupportedError('the Trevni draft dialect has no group of no fields', { column: node.path.join('.') });
    const annotation = node.element.logicalType?.type ?? node.element.convertedType;
    if (annotation !== undefined) {
      if (!GROUP_ANNOTATIONS.has(annotation)) throw new UnsupportedError(`the Trevni draft dialect has no ${annotation} group`, { column: node.path.join('.') });
      metadata.push({ key: LOGICAL_KEY, value: textBytes(annotation) });
    }
    out.push({ name, type: 'null', metadata, leaf: -1, maxDef: node.defLevel, maxRep: node.repLevel });
    for (const child of (node as GroupNode).children) walk(child, name);
  };
  for (const child of schema.root.children) walk(child, null);
  return out;
}
