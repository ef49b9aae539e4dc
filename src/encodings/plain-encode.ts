/**
 * PLAIN encoding (plain.ts decodes), and the fixed-width values to
 * little-endian bytes that BYTE_STREAM_SPLIT's encoder shares.
 */
import type { ByteWriter } from '../bytes/writer.js';
import { InvalidArgumentError } from '../errors.js';
import { LITTLE_ENDIAN, RangeCopier } from './bits.js';
import { packLsb } from './bit-pack.js';
import { fixedWidth, reverseEach } from './plain.js';
import { isByteArrays, type PhysicalType, type Values } from './types.js';

/**
 * The little-endian bytes of fixed-width `values` of `type` (INT32, INT64,
 * INT96, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY): a view on little-endian
 * hosts, a copy otherwise. Checks the container and every value's width.
 */
export function fixedWidthBytes(type: PhysicalType, values: Values, typeLength?: number): Uint8Array {
  if (type === 'FIXED_LEN_BYTE_ARRAY' && !(typeLength !== undefined && Number.isInteger(typeLength) && typeLength >= 1)) {
    throw new InvalidArgumentError(`FIXED_LEN_BYTE_ARRAY needs a positive type length, not ${typeLength}`);
  }
  const width = fixedWidth(type, typeLength);
  if (width === 0 || !matches(type, values)) throw mismatch(type, values);
  if (isByteArrays(values)) {
    const n = values.offsets.length - 1;
    const { data, offsets } = values;
    for (let i = 0; i < n; i++) {
      if (offsets[i + 1]! - offsets[i]! !== width) {
        throw new InvalidArgumentError(`${type} value ${i} has ${offsets[i + 1]! - offsets[i]!} bytes, not ${width}`);
      }
    }
    return data.subarray(offsets[0], offsets[n]);
  }
  const view = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (LITTLE_ENDIAN) return view;
  const copy = view.slice();
  reverseEach(copy, width);
  return copy;
}

function matches(type: PhysicalType, v: Values): boolean {
  switch (type) {
    case 'INT32':
      return v instanceof Int32Array;
    case 'FLOAT':
      return v instanceof Float32Array;
    case 'INT64':
      return v instanceof BigInt64Array;
    case 'DOUBLE':
      return v instanceof Float64Array;
    case 'BOOLEAN':
      return v instanceof Uint8Array;
    default:
      return isByteArrays(v);
  }
}

function mismatch(type: PhysicalType, v: Values): InvalidArgumentError {
  return new InvalidArgumentError(`${type} values cannot be taken from a ${isByteArrays(v) ? 'ByteArrays' : v.constructor.name} here`);
}

/** Appends `values` of `type` PLAIN-encoded. The container must match the type (see types.ts). */
export function encodePlain(w: ByteWriter, type: PhysicalType, values: Values, typeLength?: number): void {
  if (type === 'BOOLEAN') {
    if (!(values instanceof Uint8Array)) throw mismatch(type, values);
    const bytes = new Uint8Array(Math.ceil(values.length / 8));
    packLsb(values, 0, values.length, 1, bytes, 0);
    w.bytes(bytes);
  } else if (type === 'BYTE_ARRAY') {
    if (!isByteArrays(values)) throw mismatch(type, values);
    const { data, offsets } = values;
    const n = offsets.length - 1;
    for (let i = 0; i < n; i++) {
      if (offsets[i + 1]! < offsets[i]!) throw new InvalidArgumentError(`ByteArrays offsets decrease at value ${i}`);
    }
    // Straight into the writer's buffer: a length prefix, then the bytes, per value.
    const out = claim(w, offsets[n]! - offsets[0]! + 4 * n);
    const prefixes = new DataView(out.buffer, out.byteOffset, out.byteLength);
    const copier = new RangeCopier(out, data);
    for (let i = 0, p = 0; i < n; i++) {
      const s = offsets[i]!;
      const len = offsets[i + 1]! - s;
      prefixes.setInt32(p, len, true);
      copier.copy(p + 4, s, len);
      p += 4 + len;
    }
  } else {
    w.bytes(fixedWidthBytes(type, values, typeLength));
  }
}

/** `n` bytes appended to `w`, handed out to be filled in place (valid until the next write to `w`). */
function claim(w: ByteWriter, n: number): Uint8Array {
  w.reserve(n);
  const at = w.length;
  w.length += n;
  return w.finish().subarray(at);
}
