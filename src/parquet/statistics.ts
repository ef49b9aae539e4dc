import { ByteCursor } from '../bytes/cursor.js';
import { decodePlain } from '../encodings/plain.js';
import { valueReader, type ValueOptions } from '../schema/convert.js';
import type { LeafNode } from '../schema/tree.js';
import type { Statistics } from './metadata/index.js';

/**
 * One statistics bound (min or max) as a JS value of the leaf's type. Bounds
 * are PLAIN-encoded single values, except that byte arrays carry no length
 * prefix. Returns undefined for bytes that do not decode as the column type.
 */
export function statisticValue(leaf: LeafNode, bytes: Uint8Array, options: ValueOptions = {}): unknown {
  try {
    if (leaf.physicalType === 'BYTE_ARRAY' || leaf.physicalType === 'FIXED_LEN_BYTE_ARRAY') {
      return valueReader(leaf.kind, { data: bytes, offsets: Int32Array.of(0, bytes.length) }, options)(0);
    }
    const values = decodePlain(new ByteCursor(bytes), leaf.physicalType, 1, leaf.typeLength);
    return valueReader(leaf.kind, values, options)(0);
  } catch {
    return undefined;
  }
}

/** A chunk's or page's Statistics with the bounds decoded to the reader's JS values. */
export interface DecodedStatistics {
  min?: unknown;
  max?: unknown;
  nullCount?: number;
  distinctCount?: number;
  /** True when the bounds come from the deprecated min/max fields (signed order; unreliable for some types). */
  legacy?: boolean;
  isMinExact?: boolean;
  isMaxExact?: boolean;
}

/** Statistics with the bounds decoded, preferring min_value/max_value over the deprecated fields. */
export function decodeStatistics(leaf: LeafNode, s: Statistics, options: ValueOptions = {}): DecodedStatistics {
  const out: DecodedStatistics = {};
  const min = s.minValue ?? s.min;
  const max = s.maxValue ?? s.max;
  if (min !== undefined) out.min = statisticValue(leaf, min, options);
  if (max !== undefined) out.max = statisticValue(leaf, max, options);
  if (s.minValue === undefined && s.maxValue === undefined && (min !== undefined || max !== undefined)) out.legacy = true;
  if (s.nullCount !== undefined) out.nullCount = s.nullCount;
  if (s.distinctCount !== undefined) out.distinctCount = s.distinctCount;
  if (s.isMinValueExact !== undefined) out.isMinExact = s.isMinValueExact;
  if (s.isMaxValueExact !== undefined) out.isMaxExact = s.isMaxValueExact;
  return out;
}
