/**
 * Dictionary decoding's last step: gathering dictionary entries by index
 * into a dense container of the dictionary's own type. The dictionary page
 * itself is PLAIN (see plain.ts) and the indices RLE (see rle.ts).
 */
import { CorruptFileError, LimitError } from '../errors.js';
import { RangeCopier } from './bits.js';
import { MAX_BYTE_ARRAY_DATA } from './plain.js';
import { isByteArrays, valueCount, type ByteArrays, type Values } from './types.js';

function badIndex(i: number, index: number, size: number): CorruptFileError {
  return new CorruptFileError(`dictionary index ${index} at position ${i} is out of range for a dictionary of ${size} values`);
}

/**
 * `dict[indices[i]]` for every i, in a new container of the same type as
 * `dict`. Any index outside the dictionary is corrupt input. Numbers are
 * copied as 32-bit words, so INT64 makes no BigInts and floats keep their
 * exact bits (NaN payloads included).
 */
export function take(dict: Values, indices: Int32Array): Values {
  if (isByteArrays(dict)) return takeBytes(dict, indices);
  const n = indices.length;
  if (dict instanceof Uint8Array) {
    const out = new Uint8Array(n);
    const size = dict.length;
    for (let i = 0; i < n; i++) {
      const k = indices[i]!;
      if (k >>> 0 >= size) throw badIndex(i, k, size);
      out[i] = dict[k]!;
    }
    return out;
  }
  const size = dict.length;
  const wide = dict.BYTES_PER_ELEMENT === 8;
  const src = new Int32Array(dict.buffer, dict.byteOffset, wide ? size * 2 : size);
  const words = new Int32Array(wide ? n * 2 : n);
  if (wide) gather64(src, size, indices, words);
  else gather32(src, size, indices, words);
  if (dict instanceof Int32Array) return words;
  if (dict instanceof Float32Array) return new Float32Array(words.buffer);
  if (dict instanceof Float64Array) return new Float64Array(words.buffer);
  return new BigInt64Array(words.buffer);
}

function gather32(src: Int32Array, size: number, indices: Int32Array, out: Int32Array): void {
  for (let i = 0, n = indices.length; i < n; i++) {
    const k = indices[i]!;
    if (k >>> 0 >= size) throw badIndex(i, k, size);
    out[i] = src[k]!;
  }
}

function gather64(src: Int32Array, size: number, indices: Int32Array, out: Int32Array): void {
  for (let i = 0, n = indices.length; i < n; i++) {
    const k = indices[i]!;
    if (k >>> 0 >= size) throw badIndex(i, k, size);
    out[2 * i] = src[2 * k]!;
    out[2 * i + 1] = src[2 * k + 1]!;
  }
}

/**
 * Offsets first (checking every index and the total size), then one copy
 * per value into a buffer of exactly that size. A short dictionary repeated
 * many times can make a large result, so the total is bounded before it is
 * allocated.
 */
function takeBytes(dict: ByteArrays, indices: Int32Array): ByteArrays {
  const { data, offsets: src } = dict;
  const size = valueCount(dict);
  const n = indices.length;
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const k = indices[i]!;
    if (k >>> 0 >= size) throw badIndex(i, k, size);
    total += src[k + 1]! - src[k]!;
    if (total > MAX_BYTE_ARRAY_DATA) throw new LimitError(`dictionary values add up past the 2 GiB limit at position ${i}`);
    offsets[i + 1] = total;
  }
  const out = new Uint8Array(total);
  const copier = new RangeCopier(out, data);
  for (let i = 0; i < n; i++) {
    const k = indices[i]!;
    copier.copy(offsets[i]!, src[k]!, src[k + 1]! - src[k]!);
  }
  return { data: out, offsets };
}
