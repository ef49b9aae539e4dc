/**
 * How a leaf of any schema tree is written to RedElm, whose seven types are
 * int32, int64, boolean, float, double, string and binary. Values are first
 * coerced as the Parquet writer coerces them (schema/coerce.ts), then:
 *
 * | leaf | RedElm |
 * | --- | --- |
 * | INT(8/16/32, signed), UINT(8/16), DATE (days), TIME(MILLIS) | int32 |
 * | UINT(32), INT64, TIME(MICROS/NANOS), TIMESTAMP (its unit's count) | int64 |
 * | UINT(64) | int64 (a value above 2^63-1 is an error naming the column) |
 * | INT96 | int64, nanoseconds since the epoch |
 * | FLOAT16 | float |
 * | DECIMAL | string, the exact decimal text |
 * | UUID | string, `xxxxxxxx-xxxx-…` |
 * | FIXED_LEN_BYTE_ARRAY, INTERVAL (its 12 bytes), BSON, GEOMETRY, … | binary |
 *
 * The null type (UNKNOWN) has no RedElm form, nor has a VARIANT group: refused.
 */
import { InvalidArgumentError } from '../errors.js';
import { bigEndianSigned, float16, formatDecimal, formatUuid, int96Nanos } from '../schema/convert.js';
import { leafCoercer, utf8Encode, type PhysicalValue } from '../schema/coerce.js';
import type { LeafNode } from '../schema/tree.js';
import type { RedElmType } from './metadata.js';

export interface RedElmLeaf {
  type: RedElmType;
  /** A record's value to the value the section stores (numbers, bigints, booleans, bytes). */
  convert: (v: unknown) => PhysicalValue;
}

const INT64_MAX = 2n ** 63n - 1n;

/** The RedElm type a leaf is written as, or undefined when it has none. */
export function redElmLeafType(leaf: LeafNode): RedElmType | undefined {
  const k = leaf.kind;
  switch (k.kind) {
    case 'boolean': return 'BOOLEAN';
    case 'int': return k.bitWidth < 32 || (k.bitWidth === 32 && k.signed) ? 'INT32' : 'INT64';
    case 'float': return leaf.physicalType === 'FLOAT' ? 'FLOAT' : 'DOUBLE';
    case 'float16': return 'FLOAT';
    case 'string':
    case 'uuid':
    case 'decimal': return 'STRING';
    case 'bytes':
    case 'interval': return 'BINARY';
    case 'date': return 'INT32';
    case 'time': return leaf.physicalType === 'INT32' ? 'INT32' : 'INT64';
    case 'timestamp':
    case 'int96': return 'INT64';
    case 'null': return undefined;
  }
}

/** The type and conversion of `leaf`; undefined when RedElm has no type for it. */
export function redElmLeaf(leaf: LeafNode, onReplaced?: () => void): RedElmLeaf | undefined {
  const type = redElmLeafType(leaf);
  if (type === undefined) return undefined;
  const coerce = leafCoercer(leaf, onReplaced);
  const k = leaf.kind;
  const column = leaf.path.join('.');
  switch (k.kind) {
    case 'int':
      if (k.bitWidth === 32 && !k.signed) return { type, convert: (v) => BigInt((coerce(v) as number) >>> 0) };
      if (k.bitWidth === 64 && !k.signed) {
        return {
          type,
          convert: (v) => {
            const u = BigInt.asUintN(64, coerce(v) as bigint);
            if (u > INT64_MAX) throw new InvalidArgumentError(`column ${column}: UINT_64 value ${u} is above RedElm's int64 maximum`, { column });
            return u;
          },
        };
      }
      return { type, convert: coerce };
    case 'time': return { type, convert: coerce };
    case 'float16': return { type, convert: (v) => { const b = coerce(v) as Uint8Array; return float16(b[0]!, b[1]!); } };
    case 'uuid': return { type, convert: (v) => utf8Encode(formatUuid(coerce(v) as Uint8Array, 0)) };
    case 'decimal': {
      const unscaled = (p: PhysicalValue): bigint => (p instanceof Uint8Array ? bigEndianSigned(p, 0, p.length) : BigInt(p as number | bigint));
      return { type, convert: (v) => utf8Encode(formatDecimal(unscaled(coerce(v)), k.scale)) };
    }
    case 'int96': return {
      type,
      convert: (v) => {
        const n = int96Nanos(coerce(v) as Uint8Array, 0);
        if (n !== BigInt.asIntN(64, n)) throw new InvalidArgumentError(`column ${column}: INT96 timestamp ${n} ns is outside int64`, { column });
        return n;
      },
    };
    case 'timestamp': return { type, convert: (v) => BigInt(coerce(v) as bigint) };
    default: return { type, convert: coerce };
  }
}
