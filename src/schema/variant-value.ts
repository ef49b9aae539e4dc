/**
 * Typed variant primitives (parquet-format VariantEncoding.md) for the types
 * JavaScript has no form of its own for: what the `variant.*` helpers
 * (variant-builders.ts) make, what the VARIANT encoder takes, and what a
 * typed read gives back. A module of its own, with no imports: the root
 * exports the class, so every app importing the root loads this module.
 */
/** The variant primitive types a `VariantValue` can hold. */
export type VariantType =
  | 'int8' | 'int16' | 'int32' | 'int64' | 'float' | 'double' | 'decimal4' | 'decimal8' | 'decimal16'
  | 'date' | 'time' | 'timestamp' | 'timestamp_ntz' | 'timestamp_nanos' | 'timestamp_ntz_nanos'
  | 'uuid' | 'binary' | 'string';

/**
 * One typed variant primitive. `value` is: a number for int8/16/32, float,
 * double and date (days since 1970-01-01); a bigint for int64, time
 * (microseconds since midnight), timestamps (micro- or nanoseconds since the
 * epoch) and decimals (the unscaled integer, with `scale`); bytes for uuid
 * and binary; a string for string. Make them with the `variant` helpers.
 */
export class VariantValue {
  /** @internal Use the `variant` helpers, which check the value. */
  constructor(readonly type: VariantType, readonly value: number | bigint | string | Uint8Array, readonly scale = 0) {}
}
