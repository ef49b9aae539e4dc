/**
 * JS values to the Variant binary encoding (parquet-format VariantEncoding.md),
 * the inverse of decode.ts:
 *
 * | JS value | variant type |
 * | --- | --- |
 * | `null` (and `undefined` in an array) | null |
 * | boolean | boolean |
 * | integer number within ±(2^53-1) (not -0) | the smallest of int8, int16, int32, int64 |
 * | other number | double; with `exactDecimals`, a finite one is the decimal of its shortest text when that fits 38 digits |
 * | bigint | the smallest int type; beyond int64, decimal16 (scale 0) |
 * | string | string (short string under 64 bytes) |
 * | Uint8Array, ArrayBuffer, other views | binary |
 * | Date | timestamp (micros, UTC) |
 * | array | array |
 * | plain object | object (keys whose value is `undefined` are left out, as JSON does) |
 * | `variant.*(...)` | the type named |
 *
 * The metadata dictionary holds every key of the value, sorted by UTF-8 bytes
 * (so its `sorted` flag is set; an empty one is `01 00`, as the spec's examples
 * write it), and each object's fields are listed in key order.
 */
import { InvalidArgumentError } from '../../errors.js';
import { ExactNumber } from '../../schema/exact-number.js';
import { compareUtf8 } from '../../bytes/utf8-checks.js';
import { INT64_MAX, INT64_MIN, bytes, decimal, decimalWidth, parseDecimal, variant } from '../../schema/variant-builders.js';
import { VariantValue, type VariantType } from '../../schema/variant-value.js';
import { MAX_VARIANT_DEPTH } from './decode.js';

/** VariantEncoding.md's primitive type ids. */
const TYPE_ID: Record<VariantType, number> = {
  int8: 3, int16: 4, int32: 5, int64: 6, double: 7, decimal4: 8, decimal8: 9, decimal16: 10, date: 11,
  timestamp: 12, timestamp_ntz: 13, float: 14, binary: 15, string: 16, time: 17, timestamp_nanos: 18, timestamp_ntz_nanos: 19, uuid: 20,
};

export interface VariantEncodeOptions {
  /** Numbers that are not integers as the decimal of their shortest text (when it fits 38 digits) rather than double. */
  exactDecimals?: boolean;
}

/** What a JS value is to the encoder: a primitive, or a container to walk. */
export type Scalar = null | boolean | VariantValue;

/** The variant primitive of a JS value that is not an array or object; undefined when it is one of those. */
export function scalarOf(v: unknown, options: VariantEncodeOptions): Scalar | undefined {
  switch (typeof v) {
    case 'boolean': return v;
    case 'string': return new VariantValue('string', v);
    case 'number': return numberValue(v, options);
    case 'bigint': return v >= INT64_MIN && v <= INT64_MAX ? smallestInt(v) : decimal(v, undefined);
    case 'undefined': return null;
    case 'object':
      if (v === null) return null;
      if (v instanceof VariantValue) return v;
      if (v instanceof ExactNumber) return exactNumber(v, options);
      if (v instanceof Date) return variant.timestamp(v);
      if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return new VariantValue('binary', bytes('binary', v));
      return undefined;
    default:
      throw new InvalidArgumentError(`a variant cannot hold a ${typeof v}`);
  }
}

function smallestInt(v: bigint): VariantValue {
  const n = Number(v);
  if (n >= -0x80 && n < 0x80) return new VariantValue('int8', n);
  if (n >= -0x8000 && n < 0x8000) return new VariantValue('int16', n);
  if (n >= -0x8000_0000 && n < 0x8000_0000) return new VariantValue('int32', n);
  return new VariantValue('int64', v);
}

function numberValue(n: number, options: VariantEncodeOptions): VariantValue {
  // -0 and integers past 2^53 stay doubles: as int64 they would read back as 0 and as bigints.
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return smallestInt(BigInt(n));
  if (options.exactDecimals && Number.isFinite(n) && !Object.is(n, -0)) {
    const d = parseDecimal(String(n));
    if (d && decimalWidth(d.unscaled)) return decimal(String(n), undefined);
  }
  return new VariantValue('double', n);
}

/** A JSON number kept as its text: exact as an integer or (with `exactDecimals`) a decimal where one holds it, else the nearest double. */
function exactNumber(x: ExactNumber, options: VariantEncodeOptions): VariantValue {
  const d = parseDecimal(x.text);
  if (d && d.scale === 0 && d.unscaled >= INT64_MIN && d.unscaled <= INT64_MAX) return smallestInt(d.unscaled);
  if (d && (d.scale === 0 || options.exactDecimals) && decimalWidth(d.unscaled)) return new VariantValue(decimalWidth(d.unscaled)!, d.unscaled, d.scale);
  return new VariantValue('double', Number(x.text));
}

/** Own enumerable keys of an object whose values are not undefined. */
export function presentKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined);
}

export function isVariantObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && scalarOf(v, {}) === undefined && !(v instanceof Map);
}

const utf8 = new TextEncoder();

/** Little-endian unsigned `size`-byte integer into `out` at `pos`. */
function putUint(out: Uint8Array, pos: number, v: number, size: number): void {
  for (let i = 0; i < size; i++, v = Math.floor(v / 256)) out[pos + i] = v & 0xff;
}

function sizeFor(max: number): number {
  return max < 0x100 ? 1 : max < 0x10000 ? 2 : max < 0x1000000 ? 3 : 4;
}

/**
 * Encodes values against one metadata dictionary: make it from every key the
 * values hold (`collectKeys`), then encode each value (or part of one, for
 * shredding) with `value`.
 */
export class VariantEncoder {
  readonly metadata: Uint8Array;
  private readonly ids = new Map<string, number>();

  constructor(keys: Iterable<string>, private readonly options: VariantEncodeOptions = {}) {
    const sorted = [...new Set(keys)].sort(compareUtf8);
    const encoded = sorted.map((k) => utf8.encode(k));
    sorted.forEach((k, i) => this.ids.set(k, i));
    const total = encoded.reduce((s, b) => s + b.length, 0);
    const size = sizeFor(Math.max(total, sorted.length));
    const out = new Uint8Array(1 + size * (sorted.length + 2) + total);
    out[0] = 1 | (sorted.length > 0 ? 0x10 : 0) | ((size - 1) << 6);
    putUint(out, 1, sorted.length, size);
    let off = 0;
    encoded.forEach((b, i) => {
      putUint(out, 1 + size * (i + 1), off, size);
      out.set(b, 1 + size * (sorted.length + 2) + off);
      off += b.length;
    });
    putUint(out, 1 + size * (sorted.length + 1), off, size);
    this.metadata = out;
  }

  /** Every object key in `v`, at any depth. */
  static collectKeys(v: unknown, out: Set<string> = new Set(), depth = 0): Set<string> {
    if (depth > MAX_VARIANT_DEPTH) throw new InvalidArgumentError(`a variant value nests deeper than ${MAX_VARIANT_DEPTH} levels`);
    if (Array.isArray(v)) for (const e of v) VariantEncoder.collectKeys(e, out, depth + 1);
    else if (isVariantObject(v)) {
      for (const k of presentKeys(v)) {
        out.add(k);
        VariantEncoder.collectKeys(v[k], out, depth + 1);
      }
    }
    return out;
  }

  /** The encoded value of `v`. */
  value(v: unknown, depth = 0): Uint8Array {
    if (depth > MAX_VARIANT_DEPTH) throw new InvalidArgumentError(`a variant value nests deeper than ${MAX_VARIANT_DEPTH} levels`);
    if (Array.isArray(v)) return this.container(v.map((e) => this.value(e, depth + 1)), undefined);
    const s = scalarOf(v, this.options);
    if (s !== undefined) return primitive(s);
    if (!isVariantObject(v)) throw new InvalidArgumentError('a variant cannot hold a Map: give a plain object');
    return this.object(v, presentKeys(v), depth);
  }

  /** An object of the given keys of `o` (a partially shredded object's rest). */
  object(o: Record<string, unknown>, keys: string[], depth: number): Uint8Array {
    const sorted = [...keys].sort(compareUtf8);
    const ids = sorted.map((k) => {
      const id = this.ids.get(k);
      if (id === undefined) throw new InvalidArgumentError(`variant key ${JSON.stringify(k)} is not in the metadata`);
      return id;
    });
    return this.container(sorted.map((k) => this.value(o[k], depth + 1)), ids);
  }

  /** An array (no ids) or an object (ids in key order) of encoded values. */
  private container(values: Uint8Array[], ids: number[] | undefined): Uint8Array {
    const n = values.length;
    const total = values.reduce((s, b) => s + b.length, 0);
    const large = n > 0xff;
    const offSize = sizeFor(total);
    const idSize = ids ? sizeFor(Math.max(0, this.ids.size - 1)) : 0;
    const countSize = large ? 4 : 1;
    const head = 1 + countSize + n * idSize + (n + 1) * offSize;
    const out = new Uint8Array(head + total);
    out[0] = ids
      ? 2 | (((offSize - 1) | ((idSize - 1) << 2) | (large ? 16 : 0)) << 2)
      : 3 | (((offSize - 1) | (large ? 4 : 0)) << 2);
    putUint(out, 1, n, countSize);
    let p = 1 + countSize;
    if (ids) for (const id of ids) (putUint(out, p, id, idSize), (p += idSize));
    let off = 0;
    for (const b of values) {
      putUint(out, p, off, offSize);
      p += offSize;
      off += b.length;
    }
    putUint(out, p, off, offSize);
    p = head;
    for (const b of values) {
      out.set(b, p);
      p += b.length;
    }
    return out;
  }
}

function header(type: number, payload: number): Uint8Array {
  const out = new Uint8Array(1 + payload);
  out[0] = type << 2;
  return out;
}

/** The encoding of one primitive. */
export function primitive(s: Scalar): Uint8Array {
  if (s === null) return Uint8Array.of(0);
  if (typeof s === 'boolean') return Uint8Array.of(s ? 4 : 8);
  const id = TYPE_ID[s.type];
  const v = s.value;
  switch (s.type) {
    case 'string': {
      const b = utf8.encode(v as string);
      if (b.length < 64) {
        const out = new Uint8Array(1 + b.length);
        out[0] = (b.length << 2) | 1;
        out.set(b, 1);
        return out;
      }
      return sized(id, b);
    }
    case 'binary': return sized(id, v as Uint8Array);
    case 'uuid': {
      const out = header(id, 16);
      out.set(v as Uint8Array, 1);
      return out;
    }
    case 'int8': { const o = header(id, 1); new DataView(o.buffer).setInt8(1, v as number); return o; }
    case 'int16': { const o = header(id, 2); new DataView(o.buffer).setInt16(1, v as number, true); return o; }
    case 'int32': case 'date': { const o = header(id, 4); new DataView(o.buffer).setInt32(1, v as number, true); return o; }
    case 'float': { const o = header(id, 4); new DataView(o.buffer).setFloat32(1, v as number, true); return o; }
    case 'double': { const o = header(id, 8); new DataView(o.buffer).setFloat64(1, v as number, true); return o; }
    case 'decimal4': case 'decimal8': case 'decimal16': {
      const width = s.type === 'decimal4' ? 4 : s.type === 'decimal8' ? 8 : 16;
      const o = header(id, 1 + width);
      o[1] = s.scale;
      let u = BigInt.asUintN(width * 8, v as bigint);
      for (let i = 0; i < width; i++, u >>= 8n) o[2 + i] = Number(u & 0xffn);
      return o;
    }
    default: { // int64, time, timestamps
      const o = header(id, 8);
      new DataView(o.buffer).setBigInt64(1, v as bigint, true);
      return o;
    }
  }
}

function sized(id: number, b: Uint8Array): Uint8Array {
  const out = header(id, 4 + b.length);
  new DataView(out.buffer).setUint32(1, b.length, true);
  out.set(b, 5);
  return out;
}

/** The metadata and value of one JS value (see the table above). */
export function encodeVariant(v: unknown, options: VariantEncodeOptions = {}): { metadata: Uint8Array; value: Uint8Array } {
  const enc = new VariantEncoder(VariantEncoder.collectKeys(v), options);
  return { metadata: enc.metadata, value: enc.value(v) };
}
