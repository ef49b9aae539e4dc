/**
 * Filters on paths inside a shredded VARIANT (`payload.a.b`): the path is
 * followed through the shredded objects to a typed leaf
 * (`payload.typed_value.a.typed_value.b.typed_value`), whose statistics
 * prune; beside it, the pair's `value` column holds the values at that path
 * that are not of the leaf's type. VariantShredding.md keeps a shredded
 * field out of every residual `value` above it, so these two columns hold
 * every value the path has.
 *
 * A residual value is compared when it is of the leaf's type class:
 * integers of any width with an integer column, decimals of the column's
 * scale (and integers) with a DECIMAL one, float or double with a float
 * column, and for the other types the same type. Any other value (a string
 * under an integer column, an object) is unknown to the comparison: it
 * matches neither the test nor its `not`.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { GroupNode, LeafNode, SchemaNode } from '../../schema/tree.js';
import { decodeVariantValue, parseVariantMetadata, variantBasicType } from './decode.js';
import { VariantValue } from '../../schema/variant-value.js';

export interface VariantFilterTarget {
  /** The typed_value leaf at the path. */
  typed: LeafNode;
  /** The `value` column of the same pair, when the schema has one. */
  residual?: LeafNode;
}

function child(g: GroupNode, name: string): SchemaNode | undefined {
  return g.children.find((c) => c.name === name);
}

/**
 * The columns of the path `names` (after the variant group's own name)
 * inside the VARIANT group `node`; a path that is not shredded down to a
 * primitive is an InvalidArgumentError.
 */
export function variantFilterTarget(node: GroupNode, names: readonly string[]): VariantFilterTarget {
  const where = () => [...node.path, ...names].join('.');
  let pair: GroupNode = node;
  for (const name of names) {
    const typed = child(pair, 'typed_value');
    const next = typed && !typed.isLeaf && typed.kind === 'struct' ? child(typed, name) : undefined;
    if (!next || next.isLeaf) {
      throw new InvalidArgumentError(`variant path ${where()} is not shredded (its field ${name} has no typed_value column): filters on a variant take shredded paths`, { column: where() });
    }
    pair = next;
  }
  const typed = child(pair, 'typed_value');
  if (!typed?.isLeaf) throw new InvalidArgumentError(`variant path ${where()} is not shredded as a primitive: filters on a variant compare primitives`, { column: where() });
  const residual = child(pair, 'value');
  return residual?.isLeaf ? { typed, residual } : { typed };
}

const EMPTY_METADATA = parseVariantMetadata(Uint8Array.of(1, 0, 0));
const utf8 = new TextEncoder();
const INT_TYPES = new Set(['int8', 'int16', 'int32', 'int64']);

/**
 * Reads a residual value (variant bytes) as a value of the typed leaf's
 * comparison domain (compare.ts: bigints when `big`, else numbers; bytes),
 * or undefined when its type does not compare with the leaf's.
 */
export function residualReader(leaf: LeafNode, big: boolean): (bytes: Uint8Array) => number | bigint | Uint8Array | undefined {
  const num = (x: number | bigint) => (big ? BigInt(x) : Number(x));
  const k = leaf.kind;
  const own = k.kind === 'timestamp' ? `timestamp${k.utc ? '' : '_ntz'}${k.unit === 'NANOS' ? '_nanos' : ''}` : k.kind;
  const of = (s: unknown): number | bigint | Uint8Array | undefined => {
    switch (k.kind) {
      case 'boolean': return typeof s === 'boolean' ? (s ? 1 : 0) : undefined;
      case 'string': return typeof s === 'string' ? utf8.encode(s) : undefined;
      case 'bytes': return s instanceof Uint8Array ? s : undefined;
    }
    if (!(s instanceof VariantValue)) return undefined;
    const v = s.value as number | bigint;
    switch (k.kind) {
      case 'int': return INT_TYPES.has(s.type) ? num(v) : undefined;
      case 'decimal':
        if (INT_TYPES.has(s.type)) return num(BigInt(v) * 10n ** BigInt(k.scale));
        return s.type.startsWith('decimal') && s.scale === k.scale ? num(v) : undefined;
      case 'float': return s.type === 'float' || s.type === 'double' ? (v as number) : undefined;
      case 'uuid': return s.type === 'uuid' ? (s.value as Uint8Array) : undefined;
      case 'time': return s.type === 'time' && k.unit === 'MICROS' ? num(v) : undefined;
      default: return s.type === own ? num(v) : undefined;
    }
  };
  return (bytes) => {
    // Objects and arrays compare with no primitive: only primitives are decoded (they need no dictionary).
    const basic = variantBasicType(bytes);
    return basic === 2 || basic === 3 ? undefined : of(decodeVariantValue(EMPTY_METADATA, bytes, 0, true));
  };
}
