/**
 * A leaf's entries for a run of rows, handed to a column writer whole (the
 * columnar twin of LeafSink's entry-by-entry calls): levels as arrays, and
 * the present entries' values in the form their source holds them.
 */
export interface LeafEntries {
  /** Entries (levels) in the run. */
  n: number;
  /** Repetition levels, one per entry; null when all are 0. */
  rep: Uint16Array | null;
  /** Definition levels, one per entry; null when every entry is present (at the leaf's maximum). */
  def: Uint16Array | null;
  /** The values of the present entries, in order. */
  values: PresentValues;
}

/**
 * - `typed`: values already in the column's storage (Int32Array for INT32,
 *   BigInt64Array for INT64, Float32/64Array, Uint8Array of 0/1 for BOOLEAN)
 *   and valid for its type as they are (the caller checked `stores()`);
 * - `bytes`: byte strings data[starts[i]..ends[i]) of a BYTE_ARRAY column
 *   that takes any bytes (text as UTF-8, plain binary);
 * - `indexed`: entries[indices[i]], each entry looked up once for a dictionary;
 * - `any`: JS values, each through the column's coercer as `value()` takes them.
 */
export type PresentValues =
  | { t: 'typed'; values: Int32Array | BigInt64Array | Float32Array | Float64Array | Uint8Array }
  | { t: 'bytes'; data: Uint8Array; starts: Int32Array; ends: Int32Array }
  | { t: 'indexed'; entries: PresentValues; size: number; indices: Int32Array }
  | { t: 'any'; values: unknown[] };
