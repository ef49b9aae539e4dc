/**
 * Shredded variants (parquet-format VariantShredding.md): a VARIANT group may
 * store parts of its value in typed Parquet columns (`typed_value`) next to
 * the encoded remainder (`value`). The record assembler reads the group as a
 * struct of its own fields and hands it here; this module puts the variant
 * back together, in the JS forms of decode.ts.
 */
import { CorruptFileError, withContext } from '../../errors.js';
import type { GroupNode, LeafNode, SchemaNode } from '../../schema/tree.js';
import { formatDate, formatTimestamp } from '../../schema/temporal-format.js';
import { compareUtf8 } from '../../bytes/utf8-checks.js';
import { parseDecimalText } from '../../schema/coerce.js';
import { parseUuid } from '../../schema/uuid.js';
import { VariantValue, type VariantType } from '../../schema/variant-value.js';
import {
  MAX_VARIANT_DEPTH, decodeVariantValue, exactInteger, formatVariantTime, parseVariantMetadata, variantBasicType, variantObject,
  type VariantMetadata,
} from './decode.js';

/** How one `value` / `typed_value` pair is laid out in the schema. */
export interface Pair {
  value: boolean;
  typed: Shape | undefined;
}

export type Shape =
  | { t: 'leaf'; leaf: LeafNode; convert: (v: unknown) => unknown; typed: (v: unknown) => unknown }
  | { t: 'array'; element: Pair }
  | { t: 'object'; fields: { name: string; pair: Pair }[]; names: Set<string> };

/** A shredded object field or array element that is not there at all (both columns null). */
const MISSING: unique symbol = Symbol('missing');

const shapes = new WeakMap<GroupNode, Pair>();

function where(node: SchemaNode): string {
  return node.path.join('.');
}

function isBinaryLeaf(node: SchemaNode): boolean {
  return node.isLeaf && node.physicalType === 'BYTE_ARRAY' && node.repetition !== 'REPEATED';
}

/** The typed_value leaf types VariantShredding.md allows, each with its conversions to the variant's JS form and to a typed value. */
function leafShape(leaf: LeafNode): Shape {
  return { ...plainLeafShape(leaf), typed: typedLeaf(leaf) };
}

/** A typed_value leaf's values as VariantValues, for the types whose JS form loses the variant type. */
function typedLeaf(leaf: LeafNode): (v: unknown) => unknown {
  const k = leaf.kind;
  switch (k.kind) {
    case 'float': return (v) => new VariantValue(leaf.physicalType === 'FLOAT' ? 'float' : 'double', v as number);
    case 'int':
      return k.bitWidth === 64 ? (v) => new VariantValue('int64', BigInt(v as bigint)) : (v) => new VariantValue(`int${k.bitWidth}` as VariantType, Number(v));
    case 'decimal': {
      const type = leaf.physicalType === 'INT32' ? 'decimal4' : leaf.physicalType === 'INT64' ? 'decimal8' : 'decimal16';
      return (v) => new VariantValue(type, BigInt(parseDecimalText(v as string, k.scale) as number | bigint), k.scale);
    }
    case 'uuid': return (v) => new VariantValue('uuid', parseUuid(v as string)!);
    case 'date': return (v) => new VariantValue('date', v as number);
    case 'time': return (v) => new VariantValue('time', BigInt(v as bigint));
    case 'timestamp': {
      const type = `timestamp${k.utc ? '' : '_ntz'}${k.unit === 'NANOS' ? '_nanos' : ''}` as VariantType;
      return (v) => new VariantValue(type, BigInt(v as bigint));
    }
    default: return (v) => v;
  }
}

function plainLeafShape(leaf: LeafNode): Omit<Extract<Shape, { t: 'leaf' }>, 'typed'> {
  const k = leaf.kind;
  const same = (v: unknown) => v;
  const byteArray = leaf.physicalType === 'BYTE_ARRAY';
  switch (k.kind) {
    case 'boolean':
    case 'float':
    case 'decimal':
    case 'uuid':
      return { t: 'leaf', leaf, convert: same };
    case 'string':
    case 'bytes':
      if (byteArray) return { t: 'leaf', leaf, convert: same };
      break;
    case 'int':
      if (k.signed) return { t: 'leaf', leaf, convert: k.bitWidth === 64 ? (v) => exactInteger(v as bigint) : same };
      break;
    case 'date':
      return { t: 'leaf', leaf, convert: (v) => formatDate(v as number) };
    case 'time':
      if (k.unit === 'MICROS' && !k.utc) return { t: 'leaf', leaf, convert: (v) => formatVariantTime(BigInt(v as bigint)) };
      break;
    case 'timestamp': {
      const { unit, utc } = k;
      if (unit !== 'MILLIS') return { t: 'leaf', leaf, convert: (v) => formatTimestamp(v as bigint, unit, utc) };
      break;
    }
  }
  const logical = leaf.element.logicalType?.type ?? leaf.element.convertedType;
  throw new CorruptFileError(`variant: unsupported shredded value type ${leaf.physicalType}${logical ? ` (${logical})` : ''} at ${where(leaf)}`);
}

/** The element group of a shredded array, found the way the record assembler finds it (LogicalTypes.md's LIST rules). */
function listElement(list: GroupNode): SchemaNode {
  const repeated = list.children.length === 1 ? list.children[0]! : undefined;
  if (!repeated || repeated.repetition !== 'REPEATED' || repeated.isLeaf) {
    throw new CorruptFileError(`variant: shredded array ${where(list)} is not a list of element groups`);
  }
  if (repeated.children.length > 1 || repeated.name === 'array' || repeated.name === `${list.name}_tuple`) return repeated;
  return repeated.children[0]!;
}

function typedShape(node: SchemaNode): Shape {
  if (node.isLeaf) return leafShape(node);
  if (node.kind === 'list') {
    const element = listElement(node);
    if (element.isLeaf || element.repetition === 'REPEATED') {
      throw new CorruptFileError(`variant: shredded array element ${where(element)} must be a group of value and typed_value`);
    }
    return { t: 'array', element: pairShape(element, false) };
  }
  if (node.kind !== 'struct') throw new CorruptFileError(`variant: ${where(node)} cannot be a shredded value (a ${node.kind} group)`);
  const fields = node.children.map((c) => {
    if (c.isLeaf || c.repetition === 'REPEATED') throw new CorruptFileError(`variant: shredded object field ${where(c)} must be a group of value and typed_value`);
    return { name: c.name, pair: pairShape(c, false) };
  });
  const names = new Set(fields.map((f) => f.name));
  if (names.size !== fields.length) throw new CorruptFileError(`variant: shredded object ${where(node)} names a field twice`);
  return { t: 'object', fields, names };
}

function pairShape(group: GroupNode, top: boolean): Pair {
  let value = false;
  let typed: Shape | undefined;
  let metadata = false;
  for (const c of group.children) {
    if (c.name === 'value' && isBinaryLeaf(c)) value = true;
    else if (c.name === 'metadata' && top && isBinaryLeaf(c)) metadata = true;
    else if (c.name === 'typed_value' && c.repetition !== 'REPEATED') typed = typedShape(c);
    else throw new CorruptFileError(`variant: unexpected field ${where(c)} (a variant group holds ${top ? 'metadata, ' : ''}value and typed_value)`);
  }
  if (top && !metadata) throw new CorruptFileError(`variant: ${where(group)} has no binary metadata field`);
  if (!value && !typed) throw new CorruptFileError(`variant: ${where(group)} has neither value nor typed_value`);
  return { value, typed };
}

/** The shredding layout of a VARIANT group, checked against VariantShredding.md (compiled once per node). */
export function variantShape(node: GroupNode): Pair {
  let pair = shapes.get(node);
  if (!pair) shapes.set(node, (pair = pairShape(node, true)));
  return pair;
}

function own(o: object, key: string): unknown {
  return Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

function binary(v: unknown, what: string): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new CorruptFileError(`variant: ${what} is not binary`);
  return v;
}

function struct(v: unknown, what: string): object {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) throw new CorruptFileError(`variant: ${what} is not a group`);
  return v;
}

/** One variant being put together: its metadata, and whether primitives come as VariantValues. */
interface Ctx {
  meta: VariantMetadata;
  typed: boolean;
}

/** VariantShredding.md's construct_variant: the value of one pair, or MISSING when both columns are null. */
function construct(ctx: Ctx, pair: Pair, parts: object, depth: number): unknown {
  const value = pair.value ? own(parts, 'value') ?? null : null;
  const typed = pair.typed ? own(parts, 'typed_value') ?? null : null;
  if (typed === null) return value === null ? MISSING : decodeVariantValue(ctx.meta, binary(value, 'value'), depth, ctx.typed);
  const shape = pair.typed!;
  if (shape.t === 'object') return shreddedObject(ctx, shape, typed, value, depth);
  if (value !== null) throw new CorruptFileError(`variant: both value and typed_value are set for a shredded ${shape.t === 'array' ? 'array' : 'primitive'}`);
  if (shape.t === 'leaf') return ctx.typed ? shape.typed(typed) : shape.convert(typed);
  if (!Array.isArray(typed)) throw new CorruptFileError('variant: shredded array is not a list');
  if (depth >= MAX_VARIANT_DEPTH) throw new CorruptFileError(`variant: value nests deeper than ${MAX_VARIANT_DEPTH} levels`);
  // The array encoding cannot leave an element out; a missing one reads as variant null.
  return typed.map((e) => {
    if (e === null || e === undefined) return null;
    const v = construct(ctx, shape.element, struct(e, 'shredded array element'), depth + 1);
    return v === MISSING ? null : v;
  });
}

function shreddedObject(
  ctx: Ctx,
  shape: Extract<Shape, { t: 'object' }>,
  typed: unknown,
  value: unknown,
  depth: number,
): Record<string, unknown> {
  if (depth >= MAX_VARIANT_DEPTH) throw new CorruptFileError(`variant: value nests deeper than ${MAX_VARIANT_DEPTH} levels`);
  const fieldsIn = struct(typed, 'shredded object');
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const f of shape.fields) {
    const parts = own(fieldsIn, f.name);
    // A required field group cannot be null; an optional one (seen in the wild) that is null means the field is missing.
    if (parts === null || parts === undefined) continue;
    const v = construct(ctx, f.pair, struct(parts, `shredded field ${f.name}`), depth + 1);
    if (v !== MISSING) {
      keys.push(f.name);
      values.push(v);
    }
  }
  if (value !== null) {
    const bytes = binary(value, 'value');
    if (variantBasicType(bytes) !== 2) throw new CorruptFileError('variant: value of a partially shredded object is not an object');
    const rest = decodeVariantValue(ctx.meta, bytes, depth, ctx.typed) as Record<string, unknown>;
    // A shredded field's columns are authoritative: the spec lets readers ignore the same key in the residual object.
    for (const k of Object.keys(rest)) {
      if (!shape.names.has(k)) {
        keys.push(k);
        values.push(rest[k]);
      }
    }
  }
  const order = keys.map((_, i) => i).sort((x, y) => compareUtf8(keys[x]!, keys[y]!));
  return variantObject(order.map((i) => keys[i]!), order.map((i) => values[i]));
}

/**
 * The value of a VARIANT group, shredded or not. `parts` holds the group's
 * fields as the record assembler read them (`metadata`, `value`, and
 * `typed_value` as nested structs, lists and leaf values in their lossless JS
 * forms); `node` is the group. A variant whose value and typed_value are both
 * null is a variant null. `typed`: primitives whose JS form loses their
 * variant type come as VariantValues, so writing them again keeps the type.
 */
export function assembleVariant(parts: Record<string, unknown>, node: GroupNode, typed = false): unknown {
  return withContext({ column: where(node) }, () => {
    const pair = variantShape(node);
    const meta = parseVariantMetadata(binary(own(parts, 'metadata'), 'metadata'));
    const v = construct({ meta, typed }, pair, parts, 0);
    return v === MISSING ? null : v;
  });
}
