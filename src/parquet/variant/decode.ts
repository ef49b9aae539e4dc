/**
 * The Variant binary encoding (parquet-format VariantEncoding.md): metadata
 * (a dictionary of field names) and a self-describing value, decoded into
 * plain JS values:
 *
 * | variant type | JS value |
 * | --- | --- |
 * | null, boolean | `null`, `true` / `false` |
 * | int8, int16, int32, float, double | number |
 * | int64 | number when within ±(2^53-1), else bigint |
 * | decimal4/8/16 | exact string with `scale` digits after the point |
 * | date | `"YYYY-MM-DD"` |
 * | timestamp (micros / nanos) | ISO text with 6 / 9 digits, `Z` for the UTC kinds |
 * | time (micros) | `"HH:MM:SS.ffffff"` |
 * | string, binary, uuid | string, Uint8Array, lowercase uuid text |
 * | array, object | array, plain object with keys in UTF-8 byte order |
 *
 * Every length and offset is checked against the bytes before use, and each
 * nested value may only use the bytes between its offset and the next one,
 * so decoding work is bounded by the input size times the nesting limit.
 */
import { CorruptFileError, UnsupportedError } from '../../errors.js';
import { formatDecimal, formatUuid } from '../../schema/convert.js';
import { formatDate, formatTime, formatTimestamp } from '../../schema/temporal-format.js';
import { VariantValue, type VariantType } from '../../schema/variant-value.js';

/** Arrays and objects nested deeper than this are rejected: the decoder recurses once per level. */
export const MAX_VARIANT_DEPTH = 128;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MICROS_PER_DAY = 86_400_000_000n;

// fatal: a string that is not UTF-8 cannot be shown losslessly; ignoreBOM: a leading U+FEFF is data.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function corrupt(detail: string): CorruptFileError {
  return new CorruptFileError(`variant: ${detail}`);
}

/** Little-endian unsigned integer of 1 to 4 bytes; the caller has checked the bounds. */
function uintLE(b: Uint8Array, pos: number, size: number): number {
  let v = 0;
  for (let i = size - 1; i >= 0; i--) v = v * 256 + b[pos + i]!;
  return v;
}

function text(b: Uint8Array, start: number, end: number, what: string): string {
  try {
    return utf8.decode(b.subarray(start, end));
  } catch {
    throw corrupt(`${what} is not valid UTF-8`);
  }
}

/** int64 as a number when that is exact, else as a bigint. */
export function exactInteger(v: bigint): number | bigint {
  return v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : v;
}

/** A variant time (microseconds since midnight) as text; anything outside one day is not a time of day. */
export function formatVariantTime(micros: bigint): string {
  if (micros < 0n || micros >= MICROS_PER_DAY) throw corrupt(`time ${micros} is outside 00:00:00-23:59:59.999999`);
  return formatTime(micros, 'MICROS');
}

/** A parsed metadata dictionary. Field names are decoded on first use. */
export class VariantMetadata {
  readonly bytes: Uint8Array;
  /** Number of strings in the dictionary. */
  readonly size: number;
  /**
   * The strings are unique and in byte order: the writer's "sorted" flag, kept
   * only when parsing confirms it. The flag only promises a faster lookup and
   * some writers set it on unsorted strings (DuckDB 1.5.2; DuckDB and
   * hyparquet read those files), so a flag that lies is ignored, never trusted.
   */
  readonly sorted: boolean;
  /** Length of the metadata in `bytes`: header, offsets and strings. Anything after it is not metadata. */
  readonly byteLength: number;
  private readonly offsetSize: number;
  private readonly offsetsStart: number;
  private readonly stringsStart: number;
  private readonly names = new Map<number, string>();

  constructor(bytes: Uint8Array) {
    if (bytes.length === 0) throw corrupt('metadata is empty');
    const header = bytes[0]!;
    const version = header & 0x0f;
    if (version === 0) throw corrupt('metadata has version 0');
    if (version !== 1) throw new UnsupportedError(`variant metadata version ${version} (only version 1 is known)`);
    const offsetSize = (header >> 6) + 1;
    if (bytes.length < 1 + offsetSize) throw corrupt(`metadata of ${bytes.length} bytes ends inside its dictionary size`);
    const size = uintLE(bytes, 1, offsetSize);
    const offsetsStart = 1 + offsetSize;
    const stringsStart = offsetsStart + (size + 1) * offsetSize;
    if (stringsStart > bytes.length) {
      throw corrupt(`metadata claims ${size} dictionary strings but its ${bytes.length} bytes cannot hold their offsets`);
    }
    let prev = uintLE(bytes, offsetsStart, offsetSize);
    if (prev !== 0) throw corrupt(`metadata's first string offset is ${prev}, not 0`);
    for (let i = 1; i <= size; i++) {
      const off = uintLE(bytes, offsetsStart + i * offsetSize, offsetSize);
      if (off < prev) throw corrupt(`metadata string offset ${i} (${off}) is below the one before it (${prev})`);
      prev = off;
    }
    if (stringsStart + prev > bytes.length) {
      throw corrupt(`metadata strings end at byte ${stringsStart + prev}, past the ${bytes.length} bytes given`);
    }
    this.bytes = bytes;
    this.size = size;
    this.byteLength = stringsStart + prev;
    this.offsetSize = offsetSize;
    this.offsetsStart = offsetsStart;
    this.stringsStart = stringsStart;
    let sorted = (header & 0x10) !== 0;
    for (let i = 1; sorted && i < size; i++) sorted = this.compare(i - 1, i) < 0;
    this.sorted = sorted;
  }

  private start(id: number): number {
    return this.stringsStart + uintLE(this.bytes, this.offsetsStart + id * this.offsetSize, this.offsetSize);
  }

  /** The field name with dictionary id `id`. */
  name(id: number): string {
    let s = this.names.get(id);
    if (s === undefined) {
      if (!(id >= 0 && id < this.size)) throw corrupt(`field id ${id} is outside the dictionary of ${this.size} strings`);
      s = text(this.bytes, this.start(id), this.start(id + 1), `dictionary string ${id}`);
      this.names.set(id, s);
    }
    return s;
  }

  /** Orders two dictionary strings by their UTF-8 bytes. */
  compare(a: number, b: number): number {
    if (a === b) return 0;
    const bytes = this.bytes;
    let i = this.start(a);
    const ie = this.start(a + 1);
    let j = this.start(b);
    const je = this.start(b + 1);
    for (; i < ie && j < je; i++, j++) if (bytes[i] !== bytes[j]) return bytes[i]! - bytes[j]!;
    return ie - i - (je - j);
  }
}

/** Builds a plain object from entries already in key order; `__proto__` becomes an own key, not a prototype. */
export function variantObject(keys: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k === '__proto__') Object.defineProperty(o, k, { value: values[i], enumerable: true, writable: true, configurable: true });
    else o[k] = values[i];
  }
  return o;
}

/**
 * For each offset, the end of the bytes its value may use: the next larger
 * offset, or `total` for the largest. Values must not share a start, which
 * would let a small input expand into exponential work.
 */
function valueEnds(offsets: readonly number[], total: number, what: string): number[] {
  const n = offsets.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => offsets[x]! - offsets[y]!);
  const ends = new Array<number>(n);
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    const next = k + 1 < n ? offsets[order[k + 1]!]! : total;
    if (next === offsets[i]) throw corrupt(`${what} ${i} starts at the same offset (${next}) as another value`);
    ends[i] = next;
  }
  return ends;
}

/** Primitive type ids whose JS form loses the variant type, with the type a typed decode names. */
const TYPED: Record<number, VariantType> = {
  3: 'int8', 4: 'int16', 5: 'int32', 6: 'int64', 7: 'double', 8: 'decimal4', 9: 'decimal8', 10: 'decimal16', 11: 'date',
  12: 'timestamp', 13: 'timestamp_ntz', 14: 'float', 17: 'time', 18: 'timestamp_nanos', 19: 'timestamp_ntz_nanos', 20: 'uuid',
};

class Decoder {
  private readonly view: DataView;

  /** `typed`: primitives in TYPED as VariantValues (see value.ts) rather than their plain JS forms. */
  constructor(private readonly meta: VariantMetadata, private readonly b: Uint8Array, private readonly typed = false) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  private need(pos: number, n: number, end: number, what: string): void {
    if (pos + n > end) throw corrupt(`${what} at value byte ${pos} needs ${n} bytes but only ${Math.max(0, end - pos)} remain`);
  }

  /** The value starting at `pos`, which may use bytes up to `end`. */
  value(pos: number, end: number, depth: number): unknown {
    this.need(pos, 1, end, 'value header');
    const header = this.b[pos]!;
    switch (header & 3) {
      case 0: return this.typed && TYPED[header >> 2] ? this.typedPrimitive(header >> 2, pos + 1, end) : this.primitive(header >> 2, pos + 1, end);
      case 1: {
        const len = header >> 2;
        this.need(pos + 1, len, end, 'short string');
        return text(this.b, pos + 1, pos + 1 + len, `short string at value byte ${pos}`);
      }
      case 2: return this.object(header >> 2, pos, end, depth);
      default: return this.array(header >> 2, pos, end, depth);
    }
  }

  private primitive(type: number, p: number, end: number): unknown {
    const v = this.view;
    switch (type) {
      case 0: return null;
      case 1: return true;
      case 2: return false;
      case 3: this.need(p, 1, end, 'int8'); return v.getInt8(p);
      case 4: this.need(p, 2, end, 'int16'); return v.getInt16(p, true);
      case 5: this.need(p, 4, end, 'int32'); return v.getInt32(p, true);
      case 6: this.need(p, 8, end, 'int64'); return exactInteger(v.getBigInt64(p, true));
      case 7: this.need(p, 8, end, 'double'); return v.getFloat64(p, true);
      case 8: return this.decimal(p, 4, end);
      case 9: return this.decimal(p, 8, end);
      case 10: return this.decimal(p, 16, end);
      case 11: this.need(p, 4, end, 'date'); return formatDate(v.getInt32(p, true));
      case 12: this.need(p, 8, end, 'timestamp'); return formatTimestamp(v.getBigInt64(p, true), 'MICROS', true);
      case 13: this.need(p, 8, end, 'timestamp_ntz'); return formatTimestamp(v.getBigInt64(p, true), 'MICROS', false);
      case 14: this.need(p, 4, end, 'float'); return v.getFloat32(p, true);
      case 15: {
        const len = this.length(p, end, 'binary');
        // A copy, never a view: the caller may reuse its buffer (and Buffer#slice would not copy).
        return new Uint8Array(this.b.subarray(p + 4, p + 4 + len));
      }
      case 16: {
        const len = this.length(p, end, 'string');
        return text(this.b, p + 4, p + 4 + len, `string at value byte ${p - 1}`);
      }
      case 17: this.need(p, 8, end, 'time'); return formatVariantTime(v.getBigInt64(p, true));
      case 18: this.need(p, 8, end, 'timestamp_nanos'); return formatTimestamp(v.getBigInt64(p, true), 'NANOS', true);
      case 19: this.need(p, 8, end, 'timestamp_ntz_nanos'); return formatTimestamp(v.getBigInt64(p, true), 'NANOS', false);
      case 20: this.need(p, 16, end, 'uuid'); return formatUuid(this.b, p);
      default:
        // The spec lets new primitive types appear without a version change: a valid value this decoder does not know.
        throw new UnsupportedError(`variant primitive type ${type} at value byte ${p - 1}`);
    }
  }

  /** A primitive as a VariantValue: checked as `primitive` checks it, then read raw. */
  private typedPrimitive(type: number, p: number, end: number): VariantValue {
    const plain = this.primitive(type, p, end);
    const v = this.view;
    const t = TYPED[type]!;
    switch (t) {
      case 'int64': case 'time': case 'timestamp': case 'timestamp_ntz': case 'timestamp_nanos': case 'timestamp_ntz_nanos':
        return new VariantValue(t, v.getBigInt64(p, true));
      case 'date': return new VariantValue(t, v.getInt32(p, true));
      case 'decimal4': return new VariantValue(t, BigInt(v.getInt32(p + 1, true)), this.b[p]!);
      case 'decimal8': return new VariantValue(t, v.getBigInt64(p + 1, true), this.b[p]!);
      case 'decimal16': return new VariantValue(t, (v.getBigInt64(p + 9, true) << 64n) | v.getBigUint64(p + 1, true), this.b[p]!);
      case 'uuid': return new VariantValue(t, new Uint8Array(this.b.subarray(p, p + 16)));
      default: return new VariantValue(t, plain as number);
    }
  }

  /** The 4-byte length of a binary or string, checked against the bytes that follow it. */
  private length(p: number, end: number, what: string): number {
    this.need(p, 4, end, `${what} length`);
    const len = this.view.getUint32(p, true);
    this.need(p + 4, len, end, what);
    return len;
  }

  private decimal(p: number, width: 4 | 8 | 16, end: number): string {
    this.need(p, 1 + width, end, `decimal${width}`);
    const scale = this.b[p]!;
    if (scale > 38) throw corrupt(`decimal scale ${scale} at value byte ${p - 1} is above 38`);
    const v = this.view;
    const unscaled =
      width === 4 ? BigInt(v.getInt32(p + 1, true))
      : width === 8 ? v.getBigInt64(p + 1, true)
      : (v.getBigInt64(p + 9, true) << 64n) | v.getBigUint64(p + 1, true);
    return formatDecimal(unscaled, scale);
  }

  /** Reads `count` little-endian integers of `size` bytes from `p`. */
  private uints(p: number, count: number, size: number): number[] {
    const out = new Array<number>(count);
    for (let i = 0; i < count; i++) out[i] = uintLE(this.b, p + i * size, size);
    return out;
  }

  /**
   * The shared layout of arrays and objects after the header byte: element
   * count, `idSize`-byte field ids (objects only), then count + 1 offsets
   * relative to the first value. Returns where the values start and where
   * each one may end.
   */
  private layout(pos: number, end: number, depth: number, large: boolean, idSize: number, offsetSize: number, what: string) {
    if (depth >= MAX_VARIANT_DEPTH) throw corrupt(`${what} at value byte ${pos} nests deeper than ${MAX_VARIANT_DEPTH} levels`);
    const countSize = large ? 4 : 1;
    this.need(pos + 1, countSize, end, `${what} size`);
    const count = uintLE(this.b, pos + 1, countSize);
    const idsStart = pos + 1 + countSize;
    const offsetsStart = idsStart + count * idSize;
    // Checked before anything is allocated: `count` may be up to 2^32 - 1.
    this.need(idsStart, count * idSize + (count + 1) * offsetSize, end, `${what} of ${count} elements`);
    const dataStart = offsetsStart + (count + 1) * offsetSize;
    const offsets = this.uints(offsetsStart, count, offsetSize);
    const total = uintLE(this.b, offsetsStart + count * offsetSize, offsetSize);
    this.need(dataStart, total, end, `values of ${what}`);
    for (let i = 0; i < count; i++) {
      if (offsets[i]! >= total) throw corrupt(`${what} at value byte ${pos}: value ${i} starts at ${offsets[i]}, not before the end (${total})`);
    }
    return { count, idsStart, dataStart, offsets, ends: valueEnds(offsets, total, `${what} at value byte ${pos}: value`) };
  }

  private array(h: number, pos: number, end: number, depth: number): unknown[] {
    const { count, dataStart, offsets, ends } = this.layout(pos, end, depth, (h & 4) !== 0, 0, (h & 3) + 1, 'array');
    const out = new Array<unknown>(count);
    for (let i = 0; i < count; i++) out[i] = this.value(dataStart + offsets[i]!, dataStart + ends[i]!, depth + 1);
    return out;
  }

  private object(h: number, pos: number, end: number, depth: number): Record<string, unknown> {
    const idSize = ((h >> 2) & 3) + 1;
    const { count, idsStart, dataStart, offsets, ends } = this.layout(pos, end, depth, (h & 16) !== 0, idSize, (h & 3) + 1, 'object');
    const meta = this.meta;
    const ids = this.uints(idsStart, count, idSize);
    for (const id of ids) {
      if (id >= meta.size) throw corrupt(`object at value byte ${pos} uses field id ${id}, outside the dictionary of ${meta.size} strings`);
    }
    // Writers must list fields in key order; a sort that is a no-op on such input also accepts those that did not.
    const byKey = (x: number, y: number) => (meta.sorted ? ids[x]! - ids[y]! : meta.compare(ids[x]!, ids[y]!));
    const order = Array.from({ length: count }, (_, i) => i).sort(byKey);
    const keys = new Array<string>(count);
    const values = new Array<unknown>(count);
    for (let k = 0; k < count; k++) {
      const i = order[k]!;
      if (k > 0 && byKey(order[k - 1]!, i) === 0) throw corrupt(`object at value byte ${pos} has the key "${meta.name(ids[i]!)}" twice`);
      keys[k] = meta.name(ids[i]!);
      values[k] = this.value(dataStart + offsets[i]!, dataStart + ends[i]!, depth + 1);
    }
    return variantObject(keys, values);
  }
}

/** Parses and checks variant metadata bytes. */
export function parseVariantMetadata(metadata: Uint8Array): VariantMetadata {
  return new VariantMetadata(metadata);
}

/** Basic type of an encoded value (0 primitive, 1 short string, 2 object, 3 array), from its first byte. */
export function variantBasicType(value: Uint8Array): number {
  if (value.length === 0) throw corrupt('value is empty');
  return value[0]! & 3;
}

/**
 * Decodes one value against already-parsed metadata. `depth` is the nesting
 * level the value sits at, for values that are parts of a larger one
 * (shredded variants).
 */
export function decodeVariantValue(meta: VariantMetadata, value: Uint8Array, depth = 0, typed = false): unknown {
  return new Decoder(meta, value, typed).value(0, value.length, depth);
}

/** Decodes a variant from its metadata and value bytes into a plain JS value (see the table above). */
export function decodeVariant(metadata: Uint8Array, value: Uint8Array): unknown {
  return decodeVariantValue(parseVariantMetadata(metadata), value);
}
