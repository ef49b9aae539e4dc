/**
 * Writing a variant into its group (VariantShredding.md): the value is
 * encoded against one metadata dictionary of all its keys, and each part
 * that fits the group's `typed_value` shape goes there, the rest into
 * `value`. The result is the group as a struct of parts, in the JS forms
 * the record shredder and the leaf coercers take:
 *
 * - a primitive goes into a typed leaf only when its variant type is the
 *   leaf's, so reading it back (typed or not) gives the same value and type.
 *   A JS number or bigint has no variant type of its own: as an integer it
 *   goes into any signed integer column it fits, as an exact decimal into
 *   any DECIMAL of its scale and enough precision;
 * - an object into a shredded object: each shredded field into its own pair
 *   (both null when the field is missing), the other fields into `value` as
 *   an object of them;
 * - an array into a shredded array, element by element;
 * - anything else into `value`.
 */
import { InvalidArgumentError, ParquetryError } from '../../errors.js';
import type { GroupNode, LeafNode, SchemaNode } from '../../schema/tree.js';
import type { VariantWriter } from '../../shred/shred.js';
import { declaredVariants, type AnyField } from '../../schema/builder.js';
import { formatDecimal } from '../../schema/convert.js';
import { ExactNumber } from '../../schema/exact-number.js';
import { variantShape, type Pair } from './assemble.js';
import { VariantEncoder, isVariantObject, presentKeys, scalarOf, type Scalar, type VariantEncodeOptions } from './encode.js';

const NO: unique symbol = Symbol('no');

/** `loose`: the primitive is a JS number or bigint, whose integer or decimal width is not its own. */
type Take = (s: Scalar, loose: boolean) => unknown;

const takers = new WeakMap<LeafNode, Take>();

const INT_BITS: Record<string, number> = { int8: 8, int16: 16, int32: 32, int64: 64 };

/** What a typed leaf takes of a primitive, in the form its coercer takes, or NO. */
function taker(leaf: LeafNode): Take {
  let t = takers.get(leaf);
  if (t) return t;
  const k = leaf.kind;
  const typeIs = (type: string): Take => (s) => (s !== null && typeof s === 'object' && s.type === type ? s.value : NO);
  switch (k.kind) {
    case 'boolean':
      t = (s) => (typeof s === 'boolean' ? s : NO);
      break;
    case 'int': {
      const limit = 1n << BigInt(k.bitWidth - 1);
      t = (s, loose) => {
        if (s === null || typeof s !== 'object' || INT_BITS[s.type] === undefined) return NO;
        if (!loose) return INT_BITS[s.type] === k.bitWidth ? s.value : NO;
        const b = BigInt(s.value as number | bigint);
        return b >= -limit && b < limit ? s.value : NO;
      };
      break;
    }
    case 'float':
      t = typeIs(leaf.physicalType === 'FLOAT' ? 'float' : 'double');
      break;
    case 'decimal': {
      const limit = 10n ** BigInt(k.precision);
      // VariantShredding.md's table: decimal4 in INT32, decimal8 in INT64, decimal16 in binary.
      const own = leaf.physicalType === 'INT32' ? 'decimal4' : leaf.physicalType === 'INT64' ? 'decimal8' : 'decimal16';
      t = (s, loose) => {
        if (s === null || typeof s !== 'object' || !s.type.startsWith('decimal') || s.scale !== k.scale || (!loose && s.type !== own)) return NO;
        const u = s.value as bigint;
        return (u < 0n ? -u : u) < limit ? formatDecimal(u, s.scale) : NO;
      };
      break;
    }
    case 'date': t = typeIs('date'); break;
    case 'time': t = typeIs('time'); break;
    case 'timestamp': t = typeIs(`timestamp${k.utc ? '' : '_ntz'}${k.unit === 'NANOS' ? '_nanos' : ''}`); break;
    case 'string': t = typeIs('string'); break;
    case 'bytes': t = typeIs('binary'); break;
    case 'uuid': t = typeIs('uuid'); break;
    default: t = () => NO; // variantShape refuses every other kind
  }
  takers.set(leaf, t);
  return t;
}

interface Parts {
  value?: Uint8Array;
  typed_value?: unknown;
}

class Shredder {
  constructor(private readonly enc: VariantEncoder, private readonly options: VariantEncodeOptions, private readonly where: string) {}

  pair(v: unknown, pair: Pair, depth: number): Parts {
    const shape = pair.typed;
    if (shape?.t === 'object' && isVariantObject(v)) {
      const typed: Record<string, unknown> = {};
      for (const f of shape.fields) {
        const fv = Object.hasOwn(v, f.name) ? v[f.name] : undefined;
        // A missing field is both columns null: an empty group.
        typed[f.name] = fv === undefined ? {} : this.pair(fv, f.pair, depth + 1);
      }
      const rest = presentKeys(v).filter((k) => !shape.names.has(k));
      if (rest.length === 0) return { typed_value: typed };
      return { value: this.residual(() => this.enc.object(v, rest, depth), pair), typed_value: typed };
    }
    if (shape?.t === 'array' && Array.isArray(v)) {
      return { typed_value: v.map((e) => this.pair(e ?? null, shape.element, depth + 1)) };
    }
    if (shape?.t === 'leaf') {
      const s = scalarOf(v, this.options);
      if (s !== undefined) {
        const x = taker(shape.leaf)(s, typeof v === 'number' || typeof v === 'bigint' || v instanceof ExactNumber);
        if (x !== NO) return { typed_value: x };
      }
    }
    return { value: this.residual(() => this.enc.value(v, depth), pair) };
  }

  private residual(encode: () => Uint8Array, pair: Pair): Uint8Array {
    if (!pair.value) throw new InvalidArgumentError(`variant ${this.where}: a value does not fit the shredded typed_value, and its group has no value column to hold it`);
    return encode();
  }
}

/**
 * The parts (`metadata`, `value`, `typed_value`) of the VARIANT group `node`
 * for the JS value `v` (encode.ts says how JS values map to variant types).
 */
export function variantParts(v: unknown, node: GroupNode, options: VariantEncodeOptions = {}): Record<string, unknown> {
  const enc = new VariantEncoder(VariantEncoder.collectKeys(v), options);
  const parts = new Shredder(enc, options, node.path.join('.')).pair(v ?? null, variantShape(node), 0);
  return { metadata: enc.metadata, ...parts };
}

/**
 * The record shredder's VariantWriter for a schema: every VARIANT group's
 * shape is checked here, once, so a schema the spec does not allow fails
 * when the writer opens. `fields` are the declarations the schema came
 * from, if any: they hold each group's encoding options.
 */
export function variantWriter(root: GroupNode, fields: ReadonlyArray<readonly [string, AnyField]>): VariantWriter {
  const options = new Map([...declaredVariants(fields)].map(([p, s]) => [p, { exactDecimals: s.exactDecimals }]));
  const check = (n: SchemaNode): void => {
    if (n.isLeaf) return;
    if (n.kind !== 'variant') return n.children.forEach(check);
    try {
      variantShape(n);
    } catch (e) {
      if (e instanceof ParquetryError) throw new InvalidArgumentError(`invalid schema: ${e.message}`, { column: n.path.join('.') });
      throw e;
    }
  };
  check(root);
  return (v, node) => variantParts(v, node, options.get(node.path.join('.')));
}
