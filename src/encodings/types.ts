/**
 * The value containers decoders produce and encoders consume: the internal
 * currency of the library (see ARCHITECTURE.md). Numbers live in typed arrays;
 * byte strings in one data buffer plus offsets, the Arrow layout.
 */

export type PhysicalType =
  | 'BOOLEAN'
  | 'INT32'
  | 'INT64'
  | 'INT96'
  | 'FLOAT'
  | 'DOUBLE'
  | 'BYTE_ARRAY'
  | 'FIXED_LEN_BYTE_ARRAY';

/** Variable- or fixed-width byte strings: value i is data[offsets[i] .. offsets[i + 1]). */
export interface ByteArrays {
  data: Uint8Array;
  /** length = count + 1, offsets[0] = 0 is not required (a view may start later). */
  offsets: Int32Array;
}

/**
 * Decoded values of one physical type, densely packed (nulls are not
 * represented here; definition levels say where they are).
 * BOOLEAN: Uint8Array of 0/1. INT32: Int32Array. INT64: BigInt64Array.
 * FLOAT: Float32Array. DOUBLE: Float64Array.
 * BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96 (12 bytes each): ByteArrays.
 */
export type Values = Uint8Array | Int32Array | BigInt64Array | Float32Array | Float64Array | ByteArrays;

export function isByteArrays(v: Values): v is ByteArrays {
  return (v as ByteArrays).offsets !== undefined;
}

export function valueCount(v: Values): number {
  return isByteArrays(v) ? v.offsets.length - 1 : v.length;
}

/**
 * Where small unsigned integers land when decoded: levels (Uint8Array or
 * Uint16Array, by max level), dictionary indices (Int32Array), or full 32-bit
 * values (Uint32Array).
 */
export type IntegerArray = Uint8Array | Uint16Array | Int32Array | Uint32Array;

/** A page's values, read or passed over `n` at a time (a page's selected rows start or end inside it). */
export interface ValueStream {
  /** The next `n` values; the caller asks for no more than the page holds. */
  read(n: number): Values;
  /** Passes over the next `n` values without making them. */
  skip(n: number): void;
}
