/**
 * What a bloom filter hashes: xxHash64 of a value's PLAIN encoding (byte
 * arrays without their length prefix). `bloomHash` takes a value in the
 * reader's JS type (or anything the writer accepts for the column) and goes
 * through the writer's coercion, so a filter built by our writer and a probe
 * from the reader agree on every type.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { PhysicalType } from '../../encodings/types.js';
import { leafCoercer } from '../../schema/coerce.js';
import type { Coercer, PhysicalValue } from '../../schema/coerce.js';
import type { LeafNode } from '../../schema/tree.js';
import { xxhash64 } from './hash.js';

const scratch = new ArrayBuffer(8);
const scratchView = new DataView(scratch);
const scratch4 = new Uint8Array(scratch, 0, 4);
const scratch8 = new Uint8Array(scratch, 0, 8);
const scratch1 = new Uint8Array(scratch, 0, 1);

export function hashInt32(v: number): bigint {
  scratchView.setInt32(0, v, true);
  return xxhash64(scratch4);
}

export function hashInt64(v: bigint): bigint {
  scratchView.setBigInt64(0, BigInt.asIntN(64, v), true);
  return xxhash64(scratch8);
}

export function hashFloat(v: number): bigint {
  scratchView.setFloat32(0, v, true);
  return xxhash64(scratch4);
}

export function hashDouble(v: number): bigint {
  scratchView.setFloat64(0, v, true);
  return xxhash64(scratch8);
}

/** A BOOLEAN hashes as one byte, 0 or 1. */
export function hashBoolean(v: boolean): bigint {
  scratch1[0] = v ? 1 : 0;
  return xxhash64(scratch1);
}

/** The hash of a physical value (what a coercer gives) of a column of `type`. */
export function hashPhysical(type: PhysicalType, v: PhysicalValue): bigint {
  switch (type) {
    case 'INT32':
      return hashInt32(v as number);
    case 'INT64':
      return hashInt64(v as bigint);
    case 'FLOAT':
      return hashFloat(v as number);
    case 'DOUBLE':
      return hashDouble(v as number);
    case 'BOOLEAN':
      return hashBoolean(v as boolean);
    default:
      return xxhash64(v as Uint8Array);
  }
}

const coercers = new WeakMap<LeafNode, Coercer>();

/**
 * The bloom filter hash of `value` in column `leaf`. `value` is in the
 * reader's JS type for the column (bigint for INT64, string for STRING, an
 * exact decimal string for DECIMAL, days for DATE, the stored integer for
 * TIME and TIMESTAMP, Uint8Array for bytes...) or any other form the writer
 * accepts (an integral number for INT64, a Date for a timestamp).
 * Throws InvalidArgumentError when the value cannot be one of the column's.
 */
export function bloomHash(leaf: LeafNode, value: unknown): bigint {
  if (value === null || value === undefined) {
    throw new InvalidArgumentError(`a bloom filter holds no nulls; got ${String(value)}`, { column: leaf.path.join('.') });
  }
  let coerce = coercers.get(leaf);
  if (coerce === undefined) {
    coerce = leafCoercer(leaf);
    coercers.set(leaf, coerce);
  }
  return hashPhysical(leaf.physicalType, coerce(value));
}
