import type { Data, DataType, Field, Vector } from './peer.js';
import { CorruptFileError } from '../errors.js';
import { isByteArrays, type ByteArrays, type Values } from '../encodings/types.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import type { LeafNode } from '../schema/tree.js';
import type { Plan } from '../shred/plan.js';
import type { ArrowModule } from './load.js';
import { int96Nanos, bigEndianSigned } from '../schema/convert.js';

/**
 * Column chunks to Arrow data, straight from levels and values (no row
 * objects). A "slot" is one instance of a field: the index of the level entry
 * where it starts in a leaf's level stream. Every field is built from the
 * slots of its first leaf (its levels speak for it); a list expands each
 * leaf's slots into its elements' slots, so every leaf below it gets the
 * slots of its own stream.
 */

/** Slots per plan leaf index (only those under the field being built are set). */
type Slots = Int32Array[];

/**
 * The top-level slots of a leaf: the entry where each selected row starts.
 * `rows` (ascending) selects rows; null keeps them all. `all` gives the
 * identity 0..numRows-1, which every unrepeated leaf of a batch shares.
 */
export function rowSlots(chunk: ColumnChunkData, numRows: number, rows: Int32Array | null, all: () => Int32Array): Int32Array {
  const rep = chunk.rep;
  if (!rep) {
    if (chunk.length !== numRows) throw new CorruptFileError(`column has ${chunk.length} entries for ${numRows} rows`);
    return rows ?? all();
  }
  const out = new Int32Array(rows ? rows.length : numRows);
  let row = -1;
  let n = 0;
  let want = 0;
  for (let e = 0; e < chunk.length; e++) {
    if (rep[e] !== 0) continue;
    row++;
    if (rows) {
      if (want < rows.length && rows[want] === row) {
        out[n++] = e;
        want++;
      }
    } else if (n < out.length) out[n++] = e;
  }
  if (row + 1 !== numRows) throw new CorruptFileError(`column has ${row + 1} rows where the row group has ${numRows}`);
  return out;
}

/** 0, 1, ..., n - 1. */
function identityIndexes(n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/**
 * Arrays a batch needs only while it is built, kept for the next batch
 * rather than allocated per batch: the identity slots every unrepeated leaf
 * shares, and a leaf's value indexes, dead once its data is built (nothing
 * built views either).
 */
export class Scratch {
  private identity: Int32Array = new Int32Array(0);
  private indexes: Int32Array = new Int32Array(0);

  /** 0..n-1, read only. */
  all(n: number): Int32Array {
    if (this.identity.length < n) this.identity = identityIndexes(n);
    return this.identity.subarray(0, n);
  }

  /** Room for `n` value indexes, to be filled whole; valid until the next call. */
  valueIndexes(n: number): Int32Array {
    if (this.indexes.length < n) this.indexes = new Int32Array(n);
    return this.indexes.subarray(0, n);
  }
}

interface Validity {
  bitmap: Uint8Array | undefined;
  nullCount: number;
}

/** Validity of slots: present where the entry's definition level reaches `def`. */
function validity(chunk: ColumnChunkData, slots: Int32Array, def: number, nullable: boolean): Validity {
  const d = chunk.def;
  if (!nullable || !d) return { bitmap: undefined, nullCount: 0 };
  const bitmap = new Uint8Array((slots.length + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < slots.length; i++) {
    if (d[slots[i]!]! >= def) bitmap[i >> 3]! |= 1 << (i & 7);
    else nulls++;
  }
  return nulls ? { bitmap, nullCount: nulls } : { bitmap: undefined, nullCount: 0 };
}

/**
 * A list's element slots in one leaf's stream, and (for the list's own
 * leaf) the offsets: an element starts at the list's entry, and at every
 * later entry repeated at the list's level, until an entry repeated at a
 * lower level ends the list.
 */
function expand(chunk: ColumnChunkData, slots: Int32Array, elementDef: number, level: number, offsets: Int32Array | null): Int32Array {
  const d = chunk.def!;
  const r = chunk.rep!;
  let out: Int32Array = new Int32Array(Math.max(16, slots.length));
  let n = 0;
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i]!;
    if (d[s]! >= elementDef) {
      if (n === out.length) out = grow(out);
      out[n++] = s;
      for (let e = s + 1; e < chunk.length && r[e]! >= level; e++) {
        if (r[e] === level) {
          if (n === out.length) out = grow(out);
          out[n++] = e;
        }
      }
    }
    if (offsets) offsets[i + 1] = n;
  }
  return out.subarray(0, n);
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

export interface LeafSource {
  leaf: LeafNode;
  chunk: ColumnChunkData;
  /** Whether this leaf becomes a Dictionary vector (its field's type says so). */
  dictionary: boolean;
}

/** Builds the Arrow data of one planned field from its leaves' slots. */
export function fieldData(a: ArrowModule, field: Field, plan: Plan, sources: readonly LeafSource[], slots: Slots, scratch: Scratch): Data {
  const first = sources[plan.first]!.chunk;
  const own = slots[plan.first]!;
  switch (plan.t) {
    case 'leaf':
      return leafData(a, field.type, sources[plan.first]!, own, plan.def, plan.nullable, scratch);
    case 'struct':
    case 'variant': {
      const parts = plan.t === 'struct' ? plan : plan.parts;
      const { bitmap, nullCount } = validity(first, own, plan.def, plan.nullable);
      const children = parts.fields.map((f, i) => fieldData(a, field.type.children[i]!, f.plan, sources, slots, scratch));
      return a.makeData({ type: field.type, length: own.length, nullCount, nullBitmap: bitmap, children });
    }
    case 'list':
    case 'map': {
      const { bitmap, nullCount } = validity(first, own, plan.def, plan.nullable);
      const offsets = new Int32Array(own.length + 1);
      const inner: Slots = [];
      for (let j = plan.first; j < plan.first + plan.width; j++) {
        inner[j] = expand(sources[j]!.chunk, slots[j]!, plan.elementDef, plan.rep, j === plan.first ? offsets : null);
        if (inner[j]!.length !== inner[plan.first]!.length) {
          throw new CorruptFileError(`the levels of ${sources[j]!.leaf.path.join('.')} disagree with those of ${sources[plan.first]!.leaf.path.join('.')} on how many elements a list holds`);
        }
      }
      const childField = field.type.children[0]!;
      const child = plan.t === 'list' ? fieldData(a, childField, plan.element, sources, inner, scratch)
        : plan.valueName === undefined ? fieldData(a, childField, plan.entry.fields.find((f) => f.name === plan.keyName)!.plan, sources, inner, scratch)
          : mapEntries(a, childField, plan, sources, inner, scratch);
      return a.makeData({ type: field.type, length: own.length, nullCount, nullBitmap: bitmap, valueOffsets: offsets, child });
    }
  }
}

function mapEntries(a: ArrowModule, entries: Field, plan: Extract<Plan, { t: 'map' }>, sources: readonly LeafSource[], slots: Slots, scratch: Scratch): Data {
  const [keyField, valueField] = entries.type.children as [Field, Field];
  const keyPlan = plan.entry.fields.find((f) => f.name === plan.keyName)?.plan;
  const valuePlan = plan.entry.fields.find((f) => f.name === plan.valueName)?.plan;
  const length = slots[plan.first]!.length;
  const nullData = (t: DataType) => a.makeData({ type: t, length, nullCount: length }) as Data;
  const key = keyPlan ? fieldData(a, keyField, keyPlan, sources, slots, scratch) : nullData(keyField.type);
  const value = valuePlan ? fieldData(a, valueField, valuePlan, sources, slots, scratch) : nullData(valueField.type);
  return a.makeData({ type: entries.type, length, nullCount: 0, children: [key, value] });
}

/**
 * A leaf whose every level entry is a slot (not repeated, read whole), in one
 * pass over its levels: validity where the level reaches `nullDef` (-1: not
 * nullable), and value indexes, which stay null when every entry holds the
 * next value, so the chunk's values serve as they are.
 */
function flatLevels(chunk: ColumnChunkData, maxDef: number, nullDef: number, scratch: Scratch): Validity & { vi: Int32Array | null } {
  // The decoder counted the entries at the maximum level: when all are, no level needs a look.
  if (chunk.valueCount === chunk.length) return { bitmap: undefined, nullCount: 0, vi: null };
  const d = chunk.def!;
  const n = d.length;
  const vi = scratch.valueIndexes(n);
  const bitmap = nullDef >= 0 ? new Uint8Array((n + 7) >> 3) : undefined;
  let nulls = 0;
  for (let i = 0, v = 0; i < n; i++) {
    const x = d[i]!;
    vi[i] = x === maxDef ? v++ : -1;
    if (bitmap) {
      if (x >= nullDef) bitmap[i >> 3]! |= 1 << (i & 7);
      else nulls++;
    }
  }
  return nulls ? { bitmap, nullCount: nulls, vi } : { bitmap: undefined, nullCount: 0, vi };
}

type SpreadValues = Int32Array | BigInt64Array | Float32Array | Float64Array;

/** Whether a leaf's Arrow data is its dense values spread out as they are (numbers of Arrow's own width, not booleans or decimals). */
function spreads(leaf: LeafNode, values: Values): values is SpreadValues {
  const k = leaf.kind.kind;
  return (values instanceof Int32Array || values instanceof BigInt64Array || values instanceof Float32Array || values instanceof Float64Array)
    && k !== 'decimal' && k !== 'float16';
}

/**
 * A flat numeric leaf with nulls in one pass over its levels: each value
 * moved to its entry, and the validity built alongside, where flatLevels
 * then gather took two passes and an index array between them.
 */
function spreadFlat(a: ArrowModule, type: DataType, chunk: ColumnChunkData, values: SpreadValues, maxDef: number, nullDef: number): Data {
  const d = chunk.def!;
  const n = d.length;
  const out = new (values.constructor as new (n: number) => SpreadValues)(n);
  const bitmap = new Uint8Array(nullDef >= 0 ? (n + 7) >> 3 : 0);
  const nulls = spread(d, maxDef, nullDef, values, out, bitmap);
  const data = retype(out, type.ArrayType as TypedArrayCtor);
  return a.makeData({ type, length: n, nullCount: nulls, nullBitmap: nulls ? bitmap : undefined, data } as never) as Data;
}

/**
 * The loop of spreadFlat, on typed arrays and numbers alone: V8 compiles a
 * long loop on entry (OSR), and code after the loop that had never run
 * (property reads) deoptimized it at every call, back to the interpreter for
 * the rest of the work. Returns the null count (0 when `bitmap` is empty).
 */
function spread(d: Uint8Array | Uint16Array, maxDef: number, nullDef: number, values: SpreadValues, out: SpreadValues, bitmap: Uint8Array): number {
  let nulls = 0;
  const n = d.length;
  for (let i = 0, v = 0; i < n; i++) {
    const x = d[i]!;
    if (x === maxDef) out[i] = values[v++]!;
    if (bitmap.length) {
      if (x >= nullDef) bitmap[i >> 3]! |= 1 << (i & 7);
      else nulls++;
    }
  }
  return nulls;
}

/**
 * Per slot, the index of its value among the chunk's dense values (-1 for a
 * null): entries defined to the leaf's maximum level carry the values, in order.
 */
function valueIndexes(chunk: ColumnChunkData, slots: Int32Array, maxDef: number, scratch: Scratch): Int32Array | null {
  const d = chunk.def;
  if (!d) {
    // Every entry holds a value: the slot is the index, and identity needs no array.
    if (slots.length === chunk.length && (slots.length === 0 || slots[slots.length - 1] === slots.length - 1)) return null;
    return slots;
  }
  const out = scratch.valueIndexes(slots.length);
  let v = 0;
  let e = 0;
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i]!;
    for (; e < s; e++) if (d[e] === maxDef) v++;
    out[i] = d[s] === maxDef ? v : -1;
  }
  return out;
}

function leafData(a: ArrowModule, type: DataType, src: LeafSource, slots: Int32Array, def: number, nullable: boolean, scratch: Scratch): Data {
  const { chunk, leaf } = src;
  const length = slots.length;
  if (type.typeId === a.Type.Null) return a.makeData({ type, length, nullCount: length }) as Data;
  const flat = !chunk.rep && chunk.def && slots.length === chunk.length;
  if (flat && !src.dictionary && !chunk.indices && chunk.valueCount !== chunk.length && spreads(leaf, chunk.values!)) {
    return spreadFlat(a, type, chunk, chunk.values as SpreadValues, leaf.defLevel, nullable ? def : -1);
  }
  const { bitmap, nullCount, vi } = flat
    ? flatLevels(chunk, leaf.defLevel, nullable ? def : -1, scratch)
    : { ...validity(chunk, slots, def, nullable), vi: valueIndexes(chunk, slots, leaf.defLevel, scratch) };
  if (src.dictionary) {
    const dictValues = chunk.indices ? chunk.dictionary! : chunk.values!;
    const indices = dictionaryIndices(chunk.indices, vi, length);
    const valueType = (type as unknown as { dictionary: DataType }).dictionary;
    const dictionary = a.makeVector(plainData(a, valueType, leaf, dictValues, null, countOf(dictValues), undefined, 0)) as Vector;
    return a.makeData({ type, length, nullCount, nullBitmap: bitmap, data: indices, dictionary } as never);
  }
  if (chunk.indices) {
    // A dictionary chunk read as plain values: index the dictionary through the chunk's indices.
    const through = new Int32Array(length);
    for (let i = 0; i < length; i++) {
      const v = vi ? vi[i]! : i;
      through[i] = v < 0 ? -1 : chunk.indices[v]!;
    }
    return plainData(a, type, leaf, chunk.dictionary!, through, length, bitmap, nullCount);
  }
  return plainData(a, type, leaf, chunk.values!, vi, length, bitmap, nullCount);
}

/**
 * Per slot, its index into the dictionary (0 for a null): the chunk's own
 * indices when every slot holds the next value, else gathered through `vi`;
 * a plain chunk is its own dictionary, indexed by value position.
 */
function dictionaryIndices(chunkIndices: Int32Array | null, vi: Int32Array | null, length: number): Int32Array {
  if (!vi) {
    if (chunkIndices) return chunkIndices.subarray(0, length);
    return identityIndexes(length);
  }
  const out = new Int32Array(length);
  if (chunkIndices) {
    for (let i = 0; i < length; i++) {
      const v = vi[i]!;
      if (v >= 0) out[i] = chunkIndices[v]!;
    }
  } else {
    for (let i = 0; i < length; i++) {
      const v = vi[i]!;
      if (v >= 0) out[i] = v;
    }
  }
  return out;
}

function countOf(v: Values): number {
  return isByteArrays(v) ? v.offsets.length - 1 : v.length;
}

/**
 * Arrow data of `length` values taken from `values` at `idx` (-1: a null
 * slot, whose bytes are zero), or the first `length` values when `idx` is null.
 */
function plainData(a: ArrowModule, type: DataType, leaf: LeafNode, values: Values, idx: Int32Array | null, length: number, nullBitmap: Uint8Array | undefined, nullCount: number): Data {
  const base = { type, length, nullCount, nullBitmap };
  const k = leaf.kind;
  if (isByteArrays(values)) {
    switch (k.kind) {
      case 'decimal': return a.makeData({ ...base, data: decimalWords(values, idx, length, type) } as never);
      case 'int96': return a.makeData({ ...base, data: int96Data(values, idx, length) } as never);
      case 'interval': return a.makeData({ ...base, data: intervalWords(values, idx, length) } as never);
      case 'float16': return a.makeData({ ...base, data: new Uint16Array(fixedBytes(values, idx, length, 2).buffer) } as never);
      default:
        if (leaf.physicalType === 'FIXED_LEN_BYTE_ARRAY') return a.makeData({ ...base, data: fixedBytes(values, idx, length, leaf.typeLength!) } as never);
        return a.makeData({ ...base, ...variableBytes(values, idx, length) } as never);
    }
  }
  if (k.kind === 'boolean') return a.makeData({ ...base, data: packBits(values as Uint8Array, idx, length) } as never);
  if (k.kind === 'decimal') return a.makeData({ ...base, data: decimalWords(values, idx, length, type) } as never);
  const gathered = gather(values as Exclude<Values, ByteArrays>, idx, length);
  return a.makeData({ ...base, data: retype(gathered, type.ArrayType as TypedArrayCtor) } as never);
}

type NumberArray = Int32Array | BigInt64Array | Float32Array | Float64Array | Uint8Array;
type TypedArrayCtor = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): ArrayLike<unknown>; new (src: ArrayLike<number>): ArrayLike<unknown>; BYTES_PER_ELEMENT: number; name: string };

function gather<T extends NumberArray>(values: T, idx: Int32Array | null, length: number): T {
  if (!idx) return values.subarray(0, length) as T;
  const out = new (values.constructor as { new (n: number): T })(length);
  for (let i = 0; i < length; i++) {
    const v = idx[i]!;
    if (v >= 0) out[i] = values[v]!;
  }
  return out;
}

/** The same integers in the array type Arrow wants: a view when the width matches, else a narrowing copy. */
function retype(src: NumberArray, Ctor: TypedArrayCtor): ArrayLike<unknown> {
  if (src.constructor === Ctor) return src;
  if (src.BYTES_PER_ELEMENT === Ctor.BYTES_PER_ELEMENT) return new Ctor(src.buffer, src.byteOffset, src.length);
  return new Ctor(src as ArrayLike<number>);
}

function packBits(values: Uint8Array, idx: Int32Array | null, length: number): Uint8Array {
  const out = new Uint8Array((length + 7) >> 3);
  if (!idx) {
    // Eight at a time without a branch per value (-v >>> 31 is 1 for any v in 1..255).
    let i = 0;
    for (const whole = length - 7; i < whole; i += 8) {
      out[i >> 3] = (-values[i]! >>> 31) | ((-values[i + 1]! >>> 31) << 1) | ((-values[i + 2]! >>> 31) << 2) | ((-values[i + 3]! >>> 31) << 3)
        | ((-values[i + 4]! >>> 31) << 4) | ((-values[i + 5]! >>> 31) << 5) | ((-values[i + 6]! >>> 31) << 6) | ((-values[i + 7]! >>> 31) << 7);
    }
    for (; i < length; i++) out[i >> 3]! |= (-values[i]! >>> 31) << (i & 7);
    return out;
  }
  for (let i = 0; i < length; i++) {
    const v = idx ? idx[i]! : i;
    if (v >= 0 && values[v]) out[i >> 3]! |= 1 << (i & 7);
  }
  return out;
}

function fixedBytes(values: ByteArrays, idx: Int32Array | null, length: number, width: number): Uint8Array {
  const out = new Uint8Array(length * width);
  for (let i = 0; i < length; i++) {
    const v = idx ? idx[i]! : i;
    if (v >= 0) out.set(values.data.subarray(values.offsets[v]!, values.offsets[v]! + width), i * width);
  }
  return out;
}

/**
 * Offsets and bytes: when the value indexes are consecutive (a plain chunk
 * read whole or a run of it), the chunk's own byte buffer is shared and only
 * offsets are made; otherwise (values skipped by a filter, or a dictionary
 * read through its indices) the bytes are copied in slot order, since an
 * Arrow value ends where the next one starts.
 */
function variableBytes(values: ByteArrays, idx: Int32Array | null, length: number): { valueOffsets: Int32Array; data: Uint8Array } {
  const src = values.offsets;
  if (!idx) return { valueOffsets: src.subarray(0, length + 1), data: values.data };
  const valueOffsets = new Int32Array(length + 1);
  let consecutive = true;
  for (let i = 0, last = -1; i < length; i++) {
    const v = idx[i]!;
    if (v >= 0) {
      if (last >= 0 && v !== last + 1) consecutive = false;
      last = v;
    }
  }
  if (consecutive) {
    let at = 0;
    for (let i = 0; i < length; i++) if (idx[i]! >= 0) { at = src[idx[i]!]!; break; }
    valueOffsets[0] = at;
    for (let i = 0; i < length; i++) {
      const v = idx[i]!;
      valueOffsets[i + 1] = v >= 0 ? src[v + 1]! : valueOffsets[i]!;
    }
    return { valueOffsets, data: values.data };
  }
  let total = 0;
  for (let i = 0; i < length; i++) {
    const v = idx[i]!;
    if (v >= 0) total += src[v + 1]! - src[v]!;
    valueOffsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0; i < length; i++) {
    const v = idx[i]!;
    if (v >= 0) data.set(values.data.subarray(src[v]!, src[v + 1]!), valueOffsets[i]!);
  }
  return { valueOffsets, data };
}

/** INT96 (Spark's wrapping arithmetic, as the row reader) as 64-bit nanoseconds. */
function int96Data(values: ByteArrays, idx: Int32Array | null, length: number): BigInt64Array {
  const out = new BigInt64Array(length);
  for (let i = 0; i < length; i++) {
    const v = idx ? idx[i]! : i;
    if (v >= 0) out[i] = BigInt.asIntN(64, int96Nanos(values.data, values.offsets[v]!));
  }
  return out;
}

/** Decimals as Arrow's little-endian two's-complement words (128 or 256 bits). */
function decimalWords(values: Values, idx: Int32Array | null, length: number, type: DataType): Uint32Array {
  const words = (type as unknown as { bitWidth: number }).bitWidth / 32;
  const out = new Uint32Array(length * words);
  for (let i = 0; i < length; i++) {
    const v = idx ? idx[i]! : i;
    if (v < 0) continue;
    let x: bigint;
    if (isByteArrays(values)) x = bigEndianSigned(values.data, values.offsets[v]!, values.offsets[v + 1]!);
    else x = BigInt((values as Int32Array | BigInt64Array)[v]!);
    for (let w = 0; w < words; w++) {
      out[i * words + w] = Number(BigInt.asUintN(32, x));
      x >>= 32n;
    }
  }
  return out;
}

/** INTERVAL (three little-endian uint32: months, days, milliseconds) as Arrow MonthDayNano words. */
function intervalWords(values: ByteArrays, idx: Int32Array | null, length: number): Int32Array {
  const out = new Int32Array(length * 4);
  const nanos = new BigInt64Array(1);
  const words = new Int32Array(nanos.buffer);
  for (let i = 0; i < length; i++) {
    const v = idx ? idx[i]! : i;
    if (v < 0) continue;
    const dv = new DataView(values.data.buffer, values.data.byteOffset + values.offsets[v]!, 12);
    out[i * 4] = dv.getUint32(0, true);
    out[i * 4 + 1] = dv.getUint32(4, true);
    nanos[0] = BigInt(dv.getUint32(8, true)) * 1_000_000n;
    out[i * 4 + 2] = words[0]!;
    out[i * 4 + 3] = words[1]!;
  }
  return out;
}
