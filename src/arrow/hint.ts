import type { Data, DataType, Field, Schema as ArrowSchema } from './peer.js';
import { base64Bytes, toBase64 } from '../codecs/wasm-loading.js';
import { CorruptFileError, LimitError, UnsupportedError } from '../errors.js';
import type { Plan, RecordPlan } from '../shred/plan.js';
import type { ArrowModule } from './load.js';

/**
 * The Arrow schema a writer stores under `ARROW:schema` (arrow-rs, pyarrow,
 * parquetry): Parquet has no place for a time zone name, Large offsets, a
 * dictionary's index type, Date64 or durations, so readers take them from
 * it, as arrow-rs's `apply_hint` does. Reading applies it over the types
 * from Parquet (`hintedField`, then `castData` on each batch); writing
 * stores the part of the table's schema that reading can give back
 * (`storableSchema`).
 */

/** The key arrow-rs and pyarrow store the schema under. */
export const ARROW_SCHEMA_KEY = 'ARROW:schema';

/** The stored schema (base64 of an IPC schema message), or undefined when it cannot be read: the Parquet types then stand, as in arrow-rs. */
export function storedSchema(a: ArrowModule, text: string): ArrowSchema | undefined {
  try {
    return new a.MessageReader(base64Bytes(text)).readSchema() ?? undefined;
  } catch {
    return undefined;
  }
}

/** The text to store for `schema`: base64 of its IPC schema message, continuation marker and length first, as arrow-rs stores it. */
export function encodeSchema(a: ArrowModule, schema: ArrowSchema): string {
  const stream = a.tableToIPC(new a.Table(schema), 'stream');
  const length = new DataView(stream.buffer, stream.byteOffset).getInt32(4, true);
  return toBase64(stream.subarray(0, 8 + length));
}

/**
 * What a writer stores for a table's schema: the types reading gives back
 * through the stored schema (time zones, Large types and lists, dictionary
 * index types, Date64, durations, interval units, 256-bit decimals,
 * fixed-size lists of fixed-width values) as they are, and those it does
 * not as the types they read back as (views as Utf8 and Binary, a
 * dictionary of other than strings or bytes as its values, a fixed-size
 * list of other values as List), so every reader that applies it, arrow-rs
 * too, reads the same types. Two exceptions: MonthDayNano (see
 * `storableType`), and times and timestamps in seconds, stored as they are
 * over the milliseconds Parquet holds them in (a TIME or TIMESTAMP every
 * Parquet reader knows), which this reader gives back in seconds and
 * arrow-rs leaves in milliseconds (docs/decisions/arrow.md).
 */
export function storableSchema(a: ArrowModule, schema: ArrowSchema): ArrowSchema {
  return new a.Schema(schema.fields.map((f) => storableField(a, f)), schema.metadata);
}

function storableField(a: ArrowModule, f: Field): Field {
  const type = storableType(a, f.type);
  return type === f.type ? f : new a.Field(f.name, type, f.nullable, f.metadata);
}

function storableType(a: ArrowModule, t: DataType): DataType {
  const T = a.Type;
  const x = t as DataType & { unit: number; dictionary: DataType; indices: DataType; keysSorted: boolean };
  switch (t.typeId) {
    case T.Utf8View: return new a.Utf8();
    case T.BinaryView: return new a.Binary();
    case T.FixedSizeList: {
      const element = storableField(a, t.children[0]!);
      return fixedWidth(a, element.type) ? new a.FixedSizeList((t as DataType & { listSize: number }).listSize, element) : new a.List(element);
    }
    case T.List: return new a.List(storableField(a, t.children[0]!));
    case T.LargeList: return new a.LargeList(storableField(a, t.children[0]!));
    case T.Struct: return new a.Struct(t.children.map((c) => storableField(a, c)));
    case T.Map: return new a.Map_(storableField(a, t.children[0]!) as never, x.keysSorted);
    // arrow-rs refuses a MonthDayNano hint (not yet implemented); a type no hint rule takes leaves each reader its own INTERVAL type.
    case T.Interval: return x.unit === a.IntervalUnit.MONTH_DAY_NANO ? new a.FixedSizeBinary(12) : t;
    case T.Dictionary: {
      const value = storableType(a, x.dictionary);
      return isBytes(a, value) ? new a.Dictionary(value, x.indices as never) : value;
    }
    default: return t;
  }
}

/**
 * Per plan leaf, the stored type for it (matched as `hintedField` matches),
 * or undefined: a leaf stored as other than a Dictionary is built plain even
 * from dictionary pages, as arrow-rs builds it.
 */
export function storedLeafTypes(a: ArrowModule, plan: RecordPlan, stored: ArrowSchema): (DataType | undefined)[] {
  const out: (DataType | undefined)[] = new Array(plan.leaves.length);
  const walk = (p: Plan, hint: DataType): void => {
    switch (p.t) {
      case 'leaf': out[p.first] = hint; return;
      case 'struct': case 'variant':
        if (hint.typeId !== a.Type.Struct) return;
        for (const f of (p.t === 'struct' ? p : p.parts).fields) {
          const h = hint.children.find((c) => c.name === f.name);
          if (h) walk(f.plan, h.type);
        }
        return;
      case 'list':
        if (hint.typeId === a.Type.List || hint.typeId === a.Type.LargeList || hint.typeId === a.Type.FixedSizeList) walk(p.element, hint.children[0]!.type);
        return;
      case 'map': {
        const entries = hint.typeId === a.Type.Map && p.valueName !== undefined ? hint.children[0]!.type.children : undefined;
        if (!entries) return;
        for (const f of p.entry.fields) {
          const h = entries[f.name === p.keyName ? 0 : 1];
          if (h) walk(f.plan, h.type);
        }
      }
    }
  };
  for (const f of plan.fields) {
    const h = stored.fields.find((x) => x.name === f.name);
    if (h) walk(f.plan, h.type);
  }
  return out;
}

/**
 * A field read from Parquet with the stored field's type applied where
 * arrow-rs applies it (same name and nullability; the stored field's
 * metadata in place of the file's). Struct children are matched by name,
 * list and map children by position.
 */
export function hintedField(a: ArrowModule, ours: Field, hint: Field, dictionary: boolean): Field {
  const type = hintedType(a, ours.type, hint.type, dictionary);
  // The stored field's metadata stands for the file's (its field id too), as in arrow-rs; our extension names stay.
  const kept = [...ours.metadata].filter(([k]) => k.startsWith('ARROW:extension:'));
  const same = kept.length === ours.metadata.size && hint.metadata.size === 0;
  const metadata = same ? ours.metadata : new Map([...kept, ...hint.metadata]);
  return type === ours.type && metadata === ours.metadata ? ours : new a.Field(ours.name, type, ours.nullable, metadata);
}

function hintedType(a: ArrowModule, ours: DataType, hint: DataType, dictionary: boolean): DataType {
  const T = a.Type;
  const children = (fields: Field[]) => {
    const out = fields.map((f, i) => {
      const h = ours.typeId === T.Struct ? hint.children.find((c) => c.name === f.name) : hint.children[i];
      return h ? hintedField(a, f, h, dictionary) : f;
    });
    return out.every((f, i) => f === fields[i]) ? undefined : out;
  };
  switch (ours.typeId) {
    case T.Struct: {
      if (hint.typeId !== T.Struct) return ours;
      const fields = children(ours.children);
      return fields ? new a.Struct(fields) : ours;
    }
    case T.List: {
      // A FixedSizeList hint of other than fixed-width values keeps the List; its element's hint still applies.
      if (hint.typeId !== T.List && hint.typeId !== T.LargeList && hint.typeId !== T.FixedSizeList) return ours;
      const fields = children(ours.children);
      const element = fields?.[0] ?? ours.children[0]!;
      if (hint.typeId === T.FixedSizeList && fixedWidth(a, element.type)) return new a.FixedSizeList((hint as DataType & { listSize: number }).listSize, element);
      if (hint.typeId === T.LargeList) return new a.LargeList(element);
      return fields ? new a.List(element) : ours;
    }
    case T.Map: {
      if (hint.typeId !== T.Map) return ours;
      const entries = ours.children[0]!;
      const hinted = hint.children[0] ? hintedField(a, entries, hint.children[0], dictionary) : entries;
      const sorted = (hint as unknown as { keysSorted: boolean }).keysSorted;
      return hinted === entries && sorted === (ours as unknown as { keysSorted: boolean }).keysSorted ? ours : new a.Map_(hinted as never, sorted);
    }
    default:
      return leafType(a, ours, hint, dictionary);
  }
}

/** The leaf rules of arrow-rs's `apply_hint`, less those whose types Arrow JS lacks (views, 32- and 64-bit decimals). */
function leafType(a: ArrowModule, ours: DataType, hint: DataType, dictionary: boolean): DataType {
  const T = a.Type;
  const h = hint as DataType & { unit: number; timezone?: string | null; bitWidth: number; dictionary: DataType; indices: DataType };
  const o = ours as DataType & { unit: number; timezone?: string | null; bitWidth: number; isSigned: boolean; dictionary: DataType };
  if (ours.typeId === T.Dictionary) {
    // A dictionary chunk read as one: the hint decides its value type (and index type, when it is a dictionary too).
    const value = leafType(a, o.dictionary, h.typeId === T.Dictionary ? h.dictionary : hint, false);
    const indices = h.typeId === T.Dictionary ? h.indices : (ours as DictionaryType).indices;
    // The same type kept as it is, so its data is not copied.
    if (value === o.dictionary && String(indices) === String((ours as DictionaryType).indices)) return ours;
    return new a.Dictionary(value, indices as never);
  }
  const plainInt = ours.typeId === T.Int && o.isSigned && (o.bitWidth === 32 || o.bitWidth === 64);
  switch (h.typeId) {
    case T.Dictionary: {
      const value = leafType(a, ours, h.dictionary, false);
      const same = String(value) === String(h.dictionary) && value.typeId === h.dictionary.typeId;
      return same && dictionary && isBytes(a, value) ? hint : value;
    }
    case T.Timestamp:
      if (plainInt) return hint;
      if (ours.typeId === T.Timestamp && o.unit === h.unit && h.timezone) return hint;
      // INT96, read as nanoseconds, in another unit.
      if (ours.typeId === T.Timestamp && o.unit === a.TimeUnit.NANOSECOND && !o.timezone) return hint;
      if (secondsOverMillis(a, o, h)) return hint;
      return ours;
    case T.Time: return (plainInt && o.bitWidth === h.bitWidth) || secondsOverMillis(a, o, h) ? hint : ours;
    case T.Duration: return plainInt && o.bitWidth === 64 ? hint : ours;
    case T.Date:
      if (h.unit !== a.DateUnit.MILLISECOND) return ours;
      return (plainInt && o.bitWidth === 64) || ours.typeId === T.Date ? hint : ours;
    case T.LargeUtf8: return ours.typeId === T.Utf8 || ours.typeId === T.Binary ? hint : ours;
    case T.Utf8: return ours.typeId === T.Binary ? hint : ours;
    case T.LargeBinary: return ours.typeId === T.Binary ? hint : ours;
    case T.Interval: return ours.typeId === T.Interval ? hint : ours;
    case T.Decimal: return ours.typeId === T.Decimal && o.bitWidth === 128 && h.bitWidth === 256 ? hint : ours;
    default: return ours;
  }
}

/**
 * Seconds stored over milliseconds, as writers store an Arrow time or
 * timestamp in seconds (Parquet has no such unit): our rule beyond
 * arrow-rs's, so a table's seconds come back as seconds.
 */
function secondsOverMillis(a: ArrowModule, ours: DataType & { unit: number }, hint: DataType & { unit: number }): boolean {
  return ours.typeId === hint.typeId && ours.unit === a.TimeUnit.MILLISECOND && hint.unit === a.TimeUnit.SECOND;
}

/** Whether a type's values are a typed array of a fixed stride per value (what `fixedSizeList` can pad): numbers, dates, times, decimals, fixed bytes. */
function fixedWidth(a: ArrowModule, t: DataType): boolean {
  const T = a.Type;
  return [T.Int, T.Float, T.Decimal, T.Date, T.Time, T.Timestamp, T.Duration, T.Interval, T.FixedSizeBinary].includes(t.typeId);
}

/** Most null slots the null lists of a FixedSizeList get when the values read are few (else 8 per value read). */
const MAX_NULL_SLOTS = 1 << 20;

/**
 * List data (a FixedSizeList element read from Parquet) as a FixedSizeList:
 * each list must hold the stored size; a null list, which holds no element
 * in Parquet, gets as many null elements, since Arrow keeps a slot for them.
 */
function fixedSizeList(a: ArrowModule, data: Data, to: DataType & { listSize: number }): Data {
  const size = to.listSize;
  const offsets = data.valueOffsets as Int32Array;
  const child = castData(a, data.children[0]!, to.children[0]!.type);
  let nullLists = 0;
  for (let i = 0; i < data.length; i++) {
    const n = offsets[i + 1]! - offsets[i]!;
    if (n === size) continue;
    if (n !== 0 || data.getValid(i)) throw new CorruptFileError(`list ${i} holds ${n} values where the stored Arrow schema gives a FixedSizeList of ${size}`);
    nullLists++;
  }
  // A null list's slots are backed by no byte of the file, and the stored size is any number: bounded.
  if (nullLists * size > Math.max(MAX_NULL_SLOTS, 8 * child.length)) {
    throw new LimitError(`the stored Arrow schema gives ${nullLists} null lists ${size} null slots each, more than the ${Math.max(MAX_NULL_SLOTS, 8 * child.length)} this read gives lists without values`);
  }
  let values: Data;
  if (!nullLists) values = child.slice(offsets[0]!, data.length * size);
  else {
    // Each list's values moved to its fixed place, a null list's places left null.
    const stride = child.stride;
    const src = child.values as Uint8Array;
    const out = new (src.constructor as Uint8ArrayConstructor)(data.length * size * stride);
    const valid = new Uint8Array((data.length * size + 7) >> 3);
    let nulls = 0;
    for (let i = 0; i < data.length; i++) {
      const start = offsets[i]!;
      const has = offsets[i + 1]! > start;
      if (has) out.set(src.subarray(start * stride, (start + size) * stride), i * size * stride);
      for (let k = 0; k < size; k++) {
        const at = i * size + k;
        if (has && child.getValid(start + k)) valid[at >> 3]! |= 1 << (at & 7);
        else nulls++;
      }
    }
    values = child.clone(child.type, 0, data.length * size, nulls, [undefined, out, valid] as never);
  }
  return a.makeData({ type: to, offset: 0, length: data.length, nullCount: data.nullCount, nullBitmap: data.nullBitmap, child: values } as never);
}

function isBytes(a: ArrowModule, t: DataType): boolean {
  return t.typeId === a.Type.Utf8 || t.typeId === a.Type.Binary || t.typeId === a.Type.LargeUtf8 || t.typeId === a.Type.LargeBinary;
}

/** Data built for the Parquet types as the hinted type `to` (`hintedField` made it, so every pair here is one it allows). */
export function castData(a: ArrowModule, data: Data, to: DataType): Data {
  const T = a.Type;
  const from = data.type as DataType;
  if (from === to) return data;
  switch (to.typeId) {
    case T.Struct: case T.List: case T.Map: {
      const children = data.children.map((c, i) => castData(a, c, to.children[i]!.type));
      return data.clone(to, data.offset, data.length, data.nullCount, data.buffers as never, children);
    }
    case T.LargeList: {
      const child = castData(a, data.children[0]!, to.children[0]!.type);
      const offsets = BigInt64Array.from(data.valueOffsets as Int32Array, BigInt);
      return data.clone(to, data.offset, data.length, data.nullCount, [offsets, undefined, data.nullBitmap] as never, [child]);
    }
    case T.FixedSizeList: return fixedSizeList(a, data, to as never);
    case T.Dictionary: return castDictionary(a, data, to as never);
    default: return castLeaf(a, data, to);
  }
}

function withValues(data: Data, to: DataType, values: ArrayLike<unknown>, valueOffsets?: ArrayLike<unknown>): Data {
  const buffers = data.buffers as unknown as unknown[];
  return data.clone(to, data.offset, data.length, data.nullCount, [valueOffsets ?? buffers[0], values, buffers[2], buffers[3]] as never);
}

function castLeaf(a: ArrowModule, data: Data, to: DataType): Data {
  const T = a.Type;
  const from = data.type as DataType & { unit: number };
  const t = to as DataType & { unit: number; bitWidth: number };
  const values = data.values as ArrayLike<number | bigint>;
  const n = data.length;
  switch (to.typeId) {
    case T.Timestamp: {
      if (values instanceof Int32Array) return withValues(data, to, BigInt64Array.from(values, BigInt));
      if (from.typeId !== T.Timestamp || from.unit === t.unit) return data.clone(to);
      if (from.unit === a.TimeUnit.MILLISECOND) return withValues(data, to, wholeSeconds(data, values as BigInt64Array, BigInt64Array));
      // INT96 nanoseconds to a coarser unit, rounding down as arrow-rs does.
      const per = [1_000_000_000n, 1_000_000n, 1000n][t.unit]!;
      const out = new BigInt64Array(n);
      for (let i = 0; i < n; i++) {
        const v = values[i] as bigint;
        out[i] = v >= 0n ? v / per : -((-v + per - 1n) / per);
      }
      return withValues(data, to, out);
    }
    case T.Time:
      return from.typeId === T.Time && from.unit === a.TimeUnit.MILLISECOND && t.unit === a.TimeUnit.SECOND ? withValues(data, to, wholeSeconds(data, values as Int32Array, Int32Array)) : data.clone(to);
    case T.Date: {
      if (from.typeId !== T.Date) return data.clone(to);
      const out = new BigInt64Array(n);
      for (let i = 0; i < n; i++) out[i] = BigInt(values[i] as number) * 86_400_000n;
      return withValues(data, to, out);
    }
    case T.LargeUtf8: case T.LargeBinary:
      return withValues(data, to, data.values, BigInt64Array.from(data.valueOffsets as Int32Array, BigInt));
    case T.Interval: return withValues(data, to, intervalWords(values as Int32Array, n, t.unit, a));
    case T.Decimal: {
      // 128-bit words to 256, the sign extended.
      const out = new Uint32Array(n * 8);
      for (let i = 0; i < n; i++) {
        for (let w = 0; w < 4; w++) out[i * 8 + w] = values[i * 4 + w] as number;
        if ((values[i * 4 + 3] as number) >>> 31) out.fill(0xffffffff, i * 8 + 4, i * 8 + 8);
      }
      return withValues(data, to, out);
    }
    default: return data.clone(to);
  }
}

/**
 * Milliseconds as the seconds the stored schema gives. A value with a part
 * of a second has no seconds value: the stored schema is not the data's,
 * and the value is refused rather than cut.
 */
function wholeSeconds<A extends Int32Array | BigInt64Array>(data: Data, values: A, Out: { new (n: number): A }): A {
  const out = new Out(data.length);
  const k = values instanceof BigInt64Array ? 1000n : 1000;
  for (let i = 0; i < data.length; i++) {
    if (!data.getValid(i)) continue;
    // Both sides the same kind, number or bigint, as the array's.
    const v = values[i] as number;
    if (v % (k as number)) throw new CorruptFileError(`value ${v} ms is not a whole second, where the stored Arrow schema gives seconds`);
    out[i] = v / (k as number);
  }
  return out;
}

/** MonthDayNano words (as `from-levels.ts` builds INTERVAL) in another interval unit: months alone, or days and milliseconds. */
function intervalWords(words: Int32Array, n: number, unit: number, a: ArrowModule): Int32Array {
  if (unit === a.IntervalUnit.MONTH_DAY_NANO) return words;
  if (unit === a.IntervalUnit.YEAR_MONTH) return Int32Array.from({ length: n }, (_, i) => words[i * 4]!);
  const out = new Int32Array(n * 2);
  for (let i = 0; i < n; i++) {
    out[i * 2] = words[i * 4 + 1]!;
    out[i * 2 + 1] = Number((BigInt(words[i * 4 + 3]!) * 2n ** 32n + BigInt(words[i * 4 + 2]! >>> 0)) / 1_000_000n);
  }
  return out;
}

type DictionaryType = DataType & { indices: DataType & { bitWidth: number; isSigned: boolean }; dictionary: DataType };

/**
 * A Dictionary of the stored index type. A chunk that was plain is its own
 * dictionary (`from-levels.ts`); when that outgrows a narrow index type, its
 * repeated values are merged first.
 */
function castDictionary(a: ArrowModule, data: Data, to: DictionaryType): Data {
  // A column read plain (its chunks were not all dictionary-encoded): each value its own entry.
  const plain = data.type.typeId !== a.Type.Dictionary;
  let indices = plain ? Int32Array.from({ length: data.length }, (_, i) => i) : data.values as Int32Array;
  let dictionary = plain ? data.clone(data.type, data.offset, data.length, 0, [data.valueOffsets, data.values] as never) : data.dictionary!.data[0]!;
  const max = to.indices.bitWidth >= 32 ? 0x7fffffff : 2 ** (to.indices.bitWidth - (to.indices.isSigned ? 1 : 0)) - 1;
  if (dictionary.length - 1 > max) ({ indices, dictionary } = merged(a, indices, dictionary));
  if (dictionary.length - 1 > max) {
    throw new UnsupportedError(`the stored Arrow schema gives this column ${String(to.indices)} dictionary indices, but a row group has ${dictionary.length} distinct values`);
  }
  const valueType = to.dictionary;
  const values = a.makeVector(dictionary.type === valueType ? dictionary : castLeaf(a, dictionary, valueType));
  const Indices = to.indices.ArrayType as unknown as { from(v: ArrayLike<number>, f?: (x: number) => unknown): ArrayLike<unknown> };
  const typed = to.indices.bitWidth === 64 ? Indices.from(indices, BigInt) : Indices.from(indices);
  return a.makeData({ type: to as never, offset: 0, length: data.length, nullCount: data.nullCount, nullBitmap: data.nullBitmap, data: typed as never, dictionary: values as never });
}

/** The dictionary with each distinct byte string once, and the indices renumbered to it. */
function merged(a: ArrowModule, indices: Int32Array, dictionary: Data): { indices: Int32Array; dictionary: Data } {
  const offsets = dictionary.valueOffsets as Int32Array;
  const bytes = dictionary.values as Uint8Array;
  // latin1 maps each byte to its own code point, so equal keys are equal bytes.
  const text = new TextDecoder('latin1');
  const seen = new Map<string, number>();
  const renumber = new Int32Array(dictionary.length);
  const kept: number[] = [];
  for (let i = 0; i < dictionary.length; i++) {
    const key = text.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!));
    let k = seen.get(key);
    if (k === undefined) {
      k = kept.push(i) - 1;
      seen.set(key, k);
    }
    renumber[i] = k;
  }
  const newOffsets = new Int32Array(kept.length + 1);
  for (let k = 0; k < kept.length; k++) newOffsets[k + 1] = newOffsets[k]! + offsets[kept[k]! + 1]! - offsets[kept[k]!]!;
  const newBytes = new Uint8Array(newOffsets[kept.length]!);
  for (let k = 0; k < kept.length; k++) newBytes.set(bytes.subarray(offsets[kept[k]!]!, offsets[kept[k]! + 1]!), newOffsets[k]!);
  return {
    indices: indices.map((i) => renumber[i]!),
    dictionary: a.makeData({ type: dictionary.type as never, length: kept.length, nullCount: 0, valueOffsets: newOffsets, data: newBytes }),
  };
}
