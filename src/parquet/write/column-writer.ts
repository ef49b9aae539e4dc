import { typedArray } from '../../bytes/small-arrays.js';
import { ByteWriter } from '../../bytes/writer.js';
import { crc32 } from '../../checksum/crc32.js';
import type { Codec } from '../../codecs/registry.js';
import { ColumnOptionsError, InvalidArgumentError, ParquetryError } from '../../errors.js';
import { encodeAlp } from '../../encodings/alp.js';
import { encodeByteStreamSplit } from '../../encodings/byte-stream-split.js';
import { encodeDeltaInt32, encodeDeltaInt64 } from '../../encodings/delta-binary-packed.js';
import { encodeDeltaByteArray } from '../../encodings/delta-byte-array.js';
import { encodeDeltaLengthByteArray } from '../../encodings/delta-length-byte-array.js';
import { encodePlain } from '../../encodings/plain-encode.js';
import { bitWidth } from '../../encodings/rle.js';
import { encodeDictionaryIndices, encodeRleBooleans, encodeRleHybrid, encodeRleHybridPrefixed } from '../../encodings/rle-encode.js';
import { take } from '../../encodings/dictionary.js';
import type { ByteArrays, Values } from '../../encodings/types.js';
import { isWellFormed, ValuesBuilder } from '../../encodings/values-builder.js';
import { ByteStringSet } from '../../encodings/byte-string-set.js';
import { NumberSet } from '../../encodings/number-set.js';
import { leafCoercer } from '../../schema/coerce.js';
import type { LeafNode } from '../../schema/tree.js';
import type { LeafSink } from '../../shred/shred.js';
import type { LeafEntries, PresentValues } from '../../shred/entries.js';
import { type ColumnMetaData, type Encoding, type PageEncodingStats, type PageHeader } from '../metadata/index.js';
import { encodePageHeader } from '../metadata/encode.js';

import { BloomBuilder, type BloomBuilderOptions } from '../bloom/builder.js';
import type { SplitBlockBloomFilter } from '../bloom/filter.js';
import { distinctCount, StatsBuilder, type FloatOrder } from './stats.js';
import { geospatialStatistics } from './geo-stats.js';
import { GeoBounder, type Edges } from '../../geo/bounds.js';
import { geoEdges } from '../../schema/logical.js';

type DataPageHeader = NonNullable<PageHeader['dataPageHeader']>;
type DataPageHeaderV2 = NonNullable<PageHeader['dataPageHeaderV2']>;

/** Value encodings a user can choose per column (RLE_DICTIONARY is the `dictionary` option). */
export type ValueEncoding = 'PLAIN' | 'DELTA_BINARY_PACKED' | 'DELTA_LENGTH_BYTE_ARRAY' | 'DELTA_BYTE_ARRAY' | 'BYTE_STREAM_SPLIT' | 'RLE' | 'ALP';

export interface ColumnOptions {
  codec: Codec | null;
  codecName: string;
  level?: number;
  /** Try dictionary encoding first (falls back to `encoding` when the dictionary grows past `dictionaryPageSize` or does not pay). */
  dictionary: boolean;
  encoding: ValueEncoding;
  pageSize: number;
  pageRowLimit: number;
  dictionaryPageSize: number;
  pageVersion: 1 | 2;
  checksums: boolean;
  statistics: boolean;
  statisticsTruncateLength: number;
  /** The column order of float columns' statistics (other columns ignore it). */
  floatOrder: FloatOrder;
  /** Build a bloom filter per chunk (needs `await loadBloomHasher()` before the first value). */
  bloom?: BloomBuilderOptions;
}

/** A finished page: its encoded header and (compressed) body, and what the page index will need. */
export interface EncodedPage {
  header: Uint8Array;
  body: Uint8Array;
  type: 'DATA_PAGE' | 'DATA_PAGE_V2' | 'DICTIONARY_PAGE';
  encoding: Encoding;
  numRows: number;
  firstRow: number;
  stats?: StatsBuilder;
  /** Level entries (values and nulls) and non-null values of a data page. */
  numValues: number;
  nonNull: number;
  nullCount: number;
  /** BYTE_ARRAY: bytes of the page's values without length prefixes. */
  unencodedBytes?: number;
  /** Counts of each repetition / definition level (when the column's maximum is above 0). */
  repHistogram?: number[];
  defHistogram?: number[];
}

/** A column chunk ready to be written: pages in order, and its metadata with offsets relative to the chunk start. */
export interface EncodedChunk {
  pages: EncodedPage[];
  meta: ColumnMetaData;
  byteLength: number;
  /** The chunk's bloom filter, when the column has one. */
  bloom?: SplitBlockBloomFilter;
}

/**
 * Entries a column's level and index buffers take at their first entry; they
 * double as they fill. Until then they share one empty array (and the value
 * builders allocate nothing), so a table of 100,000 columns and one row takes
 * memory for its data, not for 100,000 columns of empty buffers.
 */
const INITIAL_ENTRIES = 16;
const NO_LEVELS = new Uint8Array(0);
const NO_WIDE_LEVELS = new Uint16Array(0);
const NO_INDICES = new Int32Array(0);

class Levels {
  buf: Uint8Array | Uint16Array;
  length = 0;
  constructor(wide: boolean) {
    this.buf = wide ? NO_WIDE_LEVELS : NO_LEVELS;
  }
  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = typedArray(this.buf.constructor as Uint8ArrayConstructor, Math.max(INITIAL_ENTRIES, this.buf.length * 2));
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }
  /** `n` copies of `v`. */
  pushRepeat(v: number, n: number): void {
    if (this.length + n > this.buf.length) {
      const next = typedArray(this.buf.constructor as Uint8ArrayConstructor, Math.max(INITIAL_ENTRIES, this.length + n, this.buf.length * 2));
      next.set(this.buf);
      this.buf = next;
    }
    this.buf.fill(v, this.length, this.length + n);
    this.length += n;
  }
  /** The first `n` levels of `src`. */
  pushAll(src: Uint16Array, n: number): void {
    if (this.length + n > this.buf.length) {
      const next = typedArray(this.buf.constructor as Uint8ArrayConstructor, Math.max(INITIAL_ENTRIES, this.length + n, this.buf.length * 2));
      next.set(this.buf);
      this.buf = next;
    }
    this.buf.set(n === src.length ? src : src.subarray(0, n), this.length);
    this.length += n;
  }
  view(): Uint8Array | Uint16Array {
    return this.buf.subarray(0, this.length);
  }
}

/** Dictionary indices of the page being filled: a growable Int32Array (a JS array of numbers would be boxed and copied for encoding). */
class Indices {
  buf = NO_INDICES;
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = typedArray(Int32Array, Math.max(INITIAL_ENTRIES, this.buf.length * 2));
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }
  view(): Int32Array {
    return this.buf.subarray(0, this.length);
  }
}

/**
 * One scratch buffer for the raw (uncompressed) bytes of a page, shared by
 * every column: pages are encoded synchronously, one at a time, and the
 * codec copies what it keeps. Dropped after an unusually large page so it
 * does not pin that memory.
 */
let scratchWriter: ByteWriter | null = null;
const SCRATCH_KEEP = 8 * 1024 * 1024;

function takeScratch(size: number): ByteWriter {
  const w = scratchWriter ?? new ByteWriter(Math.max(64 * 1024, size));
  scratchWriter = null;
  w.reset();
  w.reserve(size);
  return w;
}

function giveScratch(w: ByteWriter): void {
  if (w.length <= SCRATCH_KEEP) scratchWriter = w;
}

/** Every column's page headers are encoded here (synchronously, one at a time) and copied out: one buffer, not one per page. */
const headerWriter = new ByteWriter(256);

/** A number's or a bigint's 64 bits, read as two halves (the same halves as a Float64Array's or BigInt64Array's element). */
const bits = new ArrayBuffer(8);
const bitsF64 = new Float64Array(bits);
const bitsI64 = new BigInt64Array(bits);
const halves = new Int32Array(bits);
/** Values a column chunk's dictionary takes before it is first asked whether it pays. */
const DICTIONARY_PROBE = 16_384;
const utf8 = new TextEncoder();

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Columns whose common JS values are stored as they are once type- and
 * range-checked: DOUBLE numbers, INT32 int32 numbers, INT64 bigints (plain
 * signed integers and timestamps), booleans. Other values of these columns
 * (a bigint for an INT32, a Date for a timestamp...) take the coercer.
 */
type FastKind = 'f64' | 'i32' | 'i64' | 'bool';

function fastKind(leaf: LeafNode): FastKind | null {
  const k = leaf.kind;
  switch (leaf.physicalType) {
    case 'DOUBLE': return k.kind === 'float' ? 'f64' : null;
    case 'INT32': return k.kind === 'int' && k.signed && k.bitWidth === 32 ? 'i32' : null;
    case 'INT64': return (k.kind === 'int' && k.signed && k.bitWidth === 64) || k.kind === 'timestamp' ? 'i64' : null;
    case 'BOOLEAN': return k.kind === 'boolean' ? 'bool' : null;
    default: return null;
  }
}

/** Entries a chunk's dictionary set has for the column to keep it, emptied, for its next chunk. */
const SPARE_SET = 1024;

function emptied<T extends ByteStringSet | NumberSet>(set: T): T {
  set.clear();
  return set;
}

/** Rows the last page's bytes per row count for in a page's size estimate (see roomRows). */
const PRIOR_ROWS = 64;

/**
 * Buffers one leaf column of the current row group: levels and values of the
 * page being filled, dictionary state, and the pages already encoded.
 * Records arrive through the LeafSink interface from the shredder.
 */
export class ColumnWriter implements LeafSink {
  private def: Levels | null;
  private rep: Levels | null;
  private readonly maxDef: number;
  /** Built at the first value that needs it (see physical). */
  private coercer: ((v: unknown) => number | bigint | boolean | Uint8Array) | undefined;
  private readonly isString: boolean;
  /** Strings written with U+FFFD for lone surrogates (the writer warns of the first). */
  replacedStrings = 0;
  private readonly fast: FastKind | null;
  /** Plain values of the current page (when not dictionary-encoding). */
  private values: ValuesBuilder;
  /** Dictionary state: values by key, their order, and the current page's indices. */
  /** Dictionary indices by value: JS strings in a map (until byte strings come: `stringsToBytes`), byte strings by their bytes in a set of their own. */
  /** Each made at its first entry, as are chunkStats and the coercer: a wide table has many columns and few values. */
  private dictKeys: Map<string, number> | undefined;
  private dictBytes: ByteStringSet | undefined;
  /** INT32, INT64, FLOAT and DOUBLE values by their bits (INT32: the value and 0). */
  private dictNumbers: NumberSet | undefined;
  /**
   * The sets of the last chunk's dictionary, emptied, for the next chunk's:
   * grown anew from 2 slots, a chunk's 16,384 values before the probe drops
   * the dictionary of a column of distinct values re-placed each entry about
   * twice over. Only sets of SPARE_SET entries or more are kept: a wide
   * table's many columns of a few values each keep none.
   */
  private spareBytes: ByteStringSet | undefined;
  private spareNumbers: NumberSet | undefined;
  /** A string column's strings with lone surrogates, once it keys the others by their bytes (`stringsToBytes`). */
  private illFormed: Map<string, number> | undefined;
  /**
   * The keys of the dictionary's entries keyed in `dictKeys` or `illFormed`
   * and their indices (`mapKeyAt`), so entries of a rolled-back record can be
   * removed from there; every other entry is in the byte-string set (a
   * BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY or INT96 column) or the number set (any
   * other), which need no key. A list of every entry's key was a push per new
   * entry, 16,384 a chunk for a column of distinct values.
   */
  private mapKeys: string[] | undefined;
  private mapKeyAt: number[] | undefined;
  private dict: ValuesBuilder;
  private indices = new Indices();
  private useDictionary: boolean;
  private decidedDictionary = false;
  /** The dictionary was asked early whether it pays (`probeDictionary`). */
  private probedDictionary = false;
  private pageRows = 0;
  private pageNulls = 0;
  private chunkRows = 0;
  private chunkStats: StatsBuilder | undefined;
  private pages: EncodedPage[] = [];
  private pagesBytes = 0;
  private totalValues = 0;
  private uncompressedBytes = 0;
  /**
   * Bytes per row of the last page (before compression), to size slices before the current page has rows;
   * NaN for none. A double from the start: a field that held 0 (a small integer) and then a fraction
   * changed every ColumnWriter's map, and the compiled code of the writer's hot paths was thrown away.
   */
  private lastRowBytes = NaN;
  private readonly bloom: BloomBuilder | null;
  /** Dictionary entries already hashed into the bloom filter. */
  private bloomHashedEntries = 0;
  /** GEOMETRY and GEOGRAPHY columns: the chunk's box and type codes (GeospatialStatistics). */
  private readonly geoEdges: Edges | undefined;
  private geo: GeoBounder | undefined;
  /** Dictionary entries already added to `geo`. */
  private geoEntries = 0;

  /**
   * @param flushed a counter shared by the writer's columns: bytes of the pages they have encoded (the writer resets it per row group)
   */
  constructor(readonly leaf: LeafNode, private readonly opts: ColumnOptions, private readonly flushed: { bytes: number } = { bytes: 0 }) {
    this.maxDef = leaf.defLevel;
    this.def = leaf.defLevel > 0 ? new Levels(leaf.defLevel > 255) : null;
    this.rep = leaf.repLevel > 0 ? new Levels(leaf.repLevel > 255) : null;
    this.isString = leaf.kind.kind === 'string' && leaf.physicalType === 'BYTE_ARRAY';
    this.fast = fastKind(leaf);
    this.useDictionary = opts.dictionary && leaf.physicalType !== 'BOOLEAN';
    // A dictionary-encoded column needs plain values only if it falls back.
    this.values = new ValuesBuilder(leaf.physicalType, 0);
    this.dict = new ValuesBuilder(leaf.physicalType, 0);
    checkEncoding(leaf, opts.encoding);
    this.bloom = opts.bloom ? new BloomBuilder(leaf.physicalType, opts.bloom) : null;
    this.geoEdges = geoEdges(leaf.element.logicalType);
  }

  private newStats(): StatsBuilder {
    return new StatsBuilder(this.leaf, this.opts.statisticsTruncateLength, this.opts.floatOrder);
  }

  /**
   * `v` as the column stores it: a value of the column's fast kind as it is,
   * once type- and range-checked (the coercer's checks), anything else
   * through the coercer, built at the first such value. A coercer is a few
   * closures: a wide table's columns, each of a value or two, rarely need one.
   */
  private physical(v: unknown): number | bigint | boolean | Uint8Array {
    switch (this.fast) {
      case 'f64': if (typeof v === 'number') return v; break;
      case 'i32': if (typeof v === 'number' && (v | 0) === v) return v; break;
      case 'i64': if (typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX) return v; break;
      case 'bool': if (typeof v === 'boolean') return v; break;
    }
    return (this.coercer ??= leafCoercer(this.leaf, () => this.replacedStrings++))(v);
  }

  // ---- LeafSink ----

  level(rep: number, def: number): void {
    this.rep?.push(rep);
    this.def!.push(def);
    if (rep === 0) this.pageRows++;
    this.pageNulls++;
  }


  value(rep: number, v: unknown): void {
    // Coerce first: a bad value throws before anything of it is buffered.
    this.pushValue(v);
    this.rep?.push(rep);
    this.def?.push(this.maxDef);
    if (rep === 0) this.pageRows++;
  }

  private pushValue(v: unknown): void {
    if (this.isString && typeof v === 'string') {
      if (this.useDictionary) this.addToDictionary(v, undefined);
      else if (this.values.pushString(v)) this.replacedStrings++;
    } else {
      const physical = this.physical(v);
      if (this.useDictionary) this.addToDictionary(undefined, physical);
      else this.values.push(physical);
    }
  }

  /**
   * Whether present values of `form` go in as they are: `typed` values of
   * this constructor are the column's storage and valid for its type (so no
   * check is skipped), `bytes` are taken by a BYTE_ARRAY column of text or
   * plain binary.
   */
  stores(form: 'bytes' | ArrayBufferView): boolean {
    if (form === 'bytes') {
      const t = this.leaf.element.logicalType?.type;
      return this.leaf.physicalType === 'BYTE_ARRAY' && (this.isString || (this.leaf.kind.kind === 'bytes' && t !== 'GEOMETRY' && t !== 'GEOGRAPHY'));
    }
    return this.fast === 'bool' ? form instanceof Uint8Array : sameStorage(form, this.leaf);
  }

  /**
   * Appends a run of entries given whole (see LeafEntries): levels copied
   * in bulk, values without a call per value where their form allows, a
   * dictionary's entries looked up once each. A value that fails throws as
   * value() would; the writer rolls the column back to its mark.
   */
  appendEntries(e: LeafEntries): void {
    const { n, rep, def } = e;
    if (this.def) {
      if (def) {
        this.def.pushAll(def, n);
        this.pageNulls += countBelow(def.subarray(0, n), this.maxDef);
      } else this.def.pushRepeat(this.maxDef, n);
    } else if (def && countBelow(def.subarray(0, n), this.maxDef) > 0) throw new InvalidArgumentError('expected a value (the column is required)');
    if (this.rep) {
      if (rep) this.rep.pushAll(rep, n);
      else this.rep.pushRepeat(0, n);
    }
    this.pageRows += rep ? countBelow(rep.subarray(0, n), 1) : n;
    this.pushPresent(e.values);
  }

  private pushPresent(v: PresentValues): void {
    switch (v.t) {
      case 'typed':
        if (this.useDictionary) this.typedIndices(v.values);
        else this.values.pushAll(v.values as Int32Array);
        return;
      case 'bytes':
        if (this.useDictionary) for (let i = 0; i < v.starts.length; i++) this.indices.push(this.bytesIndex(v.data, v.starts[i]!, v.ends[i]!));
        else this.values.pushRanges(v.data, v.starts, v.ends);
        return;
      case 'indexed': {
        const idx = v.indices;
        if (!this.useDictionary) {
          const physical = (x: unknown) => this.physical(x);
          for (let i = 0; i < idx.length; i++) this.values.push(presentAt(v.entries, idx[i]!, physical));
          return;
        }
        // Each entry used is looked up once: later uses (in this run and later ones, while the dictionary stands) take its index from `ours`.
        if (this.remap?.of !== v.entries) this.remap = { of: v.entries, ours: new Int32Array(v.size).fill(-1) };
        const ours = this.remap.ours;
        // Made per call: a closure in a field took about 300 bytes a column (with its property store), a wide table's many.
        const physical = (x: unknown) => this.physical(x);
        for (let i = 0; i < idx.length; i++) {
          const k = idx[i]!;
          let d = ours[k]!;
          if (d < 0) ours[k] = d = this.dictionaryIndex(undefined, presentAt(v.entries, k, physical));
          this.indices.push(d);
        }
        return;
      }
      case 'any':
        for (let i = 0; i < v.values.length; i++) this.pushValue(v.values[i]);
    }
  }

  /** Our dictionary index of each entry of the last `indexed` values' entries looked up (-1: not yet). */
  private remap: { of: PresentValues; ours: Int32Array } | undefined;

  private addToDictionary(s: string | undefined, physical: number | bigint | boolean | Uint8Array | undefined): void {
    this.indices.push(this.dictionaryIndex(s, physical));
  }

  /**
   * Typed values' dictionary indices, found by their bits (INT32: the
   * value), adding the new ones. A value is read as a number or bigint only
   * when it is new: a BigInt64Array's element read is a bigint made, and a
   * double passed on is a heap number, a million of them for a column.
   */
  private typedIndices(values: ArrayLike<number | bigint>): void {
    const indices = this.indices;
    const set = (this.dictNumbers ??= this.numberSet());
    if (values instanceof Int32Array) {
      for (let i = 0; i < values.length; i++) {
        const v = values[i]!;
        const found = set.add(v, 0, this.dict.length);
        indices.push(found >= 0 ? found : this.newNumber(v));
      }
    } else if ((values instanceof Float64Array || values instanceof BigInt64Array) && values.byteOffset % 4 === 0) {
      const h = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
      const floats = values instanceof Float64Array ? values : undefined;
      for (let i = 0; i < values.length; i++) {
        // NaNs are one entry, whatever their bits (as the Map of values had them).
        const nan = floats !== undefined && floats[i] !== floats[i];
        const found = nan ? set.add(0, 0x7ff80000, this.dict.length) : set.add(h[2 * i]!, h[2 * i + 1]!, this.dict.length);
        indices.push(found >= 0 ? found : this.newNumber(values[i]!));
      }
    } else for (let i = 0; i < values.length; i++) this.addToDictionary(undefined, values[i]!);
  }

  /** The dictionary index of the value `v` whose bits are (lo, hi), adding it when new. */
  private numberIndex(lo: number, hi: number, v: number | bigint): number {
    const found = (this.dictNumbers ??= this.numberSet()).add(lo, hi, this.dict.length);
    return found >= 0 ? found : this.newNumber(v);
  }

  /** The dictionary entry of a number the set has just taken (with the dictionary's length as its index). */
  private newNumber(v: number | bigint): number {
    const idx = this.dict.length;
    this.dict.push(v);
    return idx;
  }

  private numberSet(): NumberSet {
    const set = this.spareNumbers ?? new NumberSet();
    this.spareNumbers = undefined;
    return set;
  }

  private byteStringSet(): ByteStringSet {
    const set = this.spareBytes ?? new ByteStringSet();
    this.spareBytes = undefined;
    return set;
  }

  /**
   * The dictionary index of a string `s` or a physical value, adding it
   * when new: numbers by their bits, byte strings by their bytes (a BOOLEAN
   * column, the only one whose values are neither, keeps no dictionary).
   */
  private dictionaryIndex(s: string | undefined, physical: number | bigint | boolean | Uint8Array | undefined): number {
    if (s !== undefined) return this.stringIndex(s);
    if (typeof physical === 'bigint') {
      bitsI64[0] = physical;
      return this.numberIndex(halves[0]!, halves[1]!, physical);
    }
    if (typeof physical === 'number') {
      if (this.leaf.physicalType === 'INT32') return this.numberIndex(physical, 0, physical);
      if (physical !== physical) return this.numberIndex(0, 0x7ff80000, physical);
      bitsF64[0] = physical;
      return this.numberIndex(halves[0]!, halves[1]!, physical);
    }
    const bytes = physical as Uint8Array;
    return this.bytesIndex(bytes, 0, bytes.length);
  }

  /** The dictionary index of the byte string src[start, end), adding it when new. */
  private bytesIndex(src: Uint8Array, start: number, end: number): number {
    if (this.dictKeys !== undefined && this.dictKeys.size > 0) this.stringsToBytes();
    const idx = this.dict.length;
    const found = (this.dictBytes ??= this.byteStringSet()).add(src, start, end, idx);
    if (found >= 0) return found;
    this.dict.pushRange(src, start, end);
    return idx;
  }

  /**
   * Records the key of a new entry `idx` keyed in a map, so rollback knows
   * where to remove it; the first in a list of one (a list grown by push
   * starts with room for 16, and a wide table's columns hold one entry).
   */
  private keptKey(key: string, idx: number): void {
    if (this.mapKeys) {
      this.mapKeys.push(key);
      this.mapKeyAt!.push(idx);
    } else {
      this.mapKeys = [key];
      this.mapKeyAt = [idx];
    }
  }

  /**
   * A string column's dictionary that took strings (rows) and now takes
   * byte strings (built columns, as a JSON Lines conversion gives both):
   * its string keys move to the byte-string set, so a value has one entry
   * whichever form it came in. Strings with lone surrogates stay keyed as
   * they are (`illFormed`): two of them may have the same bytes (U+FFFD for
   * each), and are two entries as they were before.
   */
  private stringsToBytes(): void {
    const set = (this.dictBytes ??= this.byteStringSet());
    for (const [key, idx] of this.dictKeys!) {
      this.dictKeys!.delete(key);
      if (!isWellFormed(key)) {
        (this.illFormed ??= new Map()).set(key, idx);
        continue;
      }
      const b = utf8.encode(key);
      set.add(b, 0, b.length, idx);
    }
    // The keys moved to the set are no longer the maps' to remove.
    const keys = this.mapKeys!;
    const at = this.mapKeyAt!;
    let kept = 0;
    for (let i = 0; i < keys.length; i++) {
      if (!this.dictKeys!.has(keys[i]) && !this.illFormed?.has(keys[i])) continue;
      keys[kept] = keys[i];
      at[kept++] = at[i]!;
    }
    keys.length = kept;
    at.length = kept;
  }

  /** A string's dictionary index, adding it when new (by its bytes once byte strings came). */
  private stringIndex(v: string): number {
    let keys: Map<string, number>;
    if (this.dictBytes === undefined) keys = this.dictKeys ??= new Map();
    else if (isWellFormed(v)) {
      const b = utf8.encode(v);
      return this.bytesIndex(b, 0, b.length);
    } else keys = this.illFormed ??= new Map();
    let idx = keys.get(v);
    if (idx === undefined) {
      idx = this.dict.length;
      keys.set(v, idx);
      this.keptKey(v, idx);
      if (this.dict.pushString(v)) this.replacedStrings++;
    }
    return idx;
  }

  /**
   * Appends rows start..end of a flat column. A typed array of the column's
   * own storage type is copied in one go when no value needs a dictionary
   * lookup; anything else goes value by value, in a loop specialised for
   * strings (the common case of a JS array).
   */
  appendColumn(values: ArrayLike<unknown>, start: number, end: number): void {
    const required = this.maxDef === 0;
    const n = end - start;
    if (!this.useDictionary && ArrayBuffer.isView(values) && sameStorage(values, this.leaf)) {
      this.values.pushAll((values as unknown as Int32Array).subarray(start, end));
      // A typed array holds no nulls: every entry is present.
      this.def?.pushRepeat(this.maxDef, n);
      this.pageRows += n;
      return;
    }
    const def = this.def;
    const maxDef = this.maxDef;
    const dictionary = this.useDictionary;
    const builder = this.values;
    if (this.isString && !dictionary && Array.isArray(values) && this.appendPlainStrings(values, start, end)) return;
    const fast = dictionary ? null : this.fast;
    let i = start;
    try {
      for (; i < end; i++) {
        // The common values of a numeric or boolean column go through a loop of their own, up to the first it cannot take.
        if (fast !== null && (i = this.appendNumbers(fast, values, i, end)) === end) break;
        const v = values[i];
        if (typeof v === 'string' && this.isString) {
          if (dictionary) this.indices.push(this.stringIndex(v));
          else if (builder.pushString(v)) this.replacedStrings++;
        } else if (v === null || v === undefined) {
          if (required) throw new InvalidArgumentError('expected a value (the column is required)');
          def!.push(0);
          this.pageNulls++;
          continue;
        } else {
          const physical = this.physical(v);
          if (dictionary) this.addToDictionary(undefined, physical);
          else builder.push(physical);
        }
        if (def) def.push(maxDef);
      }
    } catch (e) {
      this.failedRow = i;
      if (e instanceof ParquetryError) throw new InvalidArgumentError(`row ${i}: ${e.detail}`, { column: this.leaf.path.join('.') });
      throw e;
    } finally {
      // Rows appended before a failure are counted too, so a rollback to the mark finds the page as it left it.
      this.pageRows += i - start;
    }
  }

  /**
   * Appends values[i..end) of a numeric or boolean column written plain,
   * as long as they are nulls or values that need no conversion but a type
   * and range check (the checks the coercer makes, inlined): straight into
   * the value buffer. Gives the index of the first value left to the
   * general path (`end` when none).
   */
  private appendNumbers(fast: FastKind, values: ArrayLike<unknown>, i: number, end: number): number {
    const def = this.def;
    const maxDef = this.maxDef;
    const b = this.values;
    const out = b.room(end - i);
    let n = b.length;
    let nulls = 0;
    for (; i < end; i++) {
      const v = values[i];
      if (v === null || v === undefined) {
        if (!def) break; // a required column: the general path reports it
        def.push(0);
        nulls++;
        continue;
      }
      if (fast === 'f64') {
        if (typeof v !== 'number') break;
        (out as Float64Array)[n++] = v;
      } else if (fast === 'i32') {
        if (typeof v !== 'number' || (v | 0) !== v) break;
        (out as Int32Array)[n++] = v;
      } else if (fast === 'i64') {
        if (typeof v !== 'bigint' || v < INT64_MIN || v > INT64_MAX) break;
        (out as BigInt64Array)[n++] = v;
      } else {
        if (typeof v !== 'boolean') break;
        (out as Uint8Array)[n++] = v ? 1 : 0;
      }
      if (def) def.push(maxDef);
    }
    b.length = n;
    this.pageNulls += nulls;
    return i;
  }

  /**
   * The fast path for plain (not dictionary) string columns: a slice of
   * strings and nulls, all ASCII, is encoded in one call. False, with
   * nothing appended, for anything else (which then goes value by value).
   */
  private appendPlainStrings(values: unknown[], start: number, end: number): boolean {
    const required = this.maxDef === 0;
    let units = 0;
    let nulls = 0;
    for (let i = start; i < end; i++) {
      const v = values[i];
      if (typeof v === 'string') units += v.length;
      else if ((v === null || v === undefined) && !required) nulls++;
      else return false;
    }
    if (!this.values.pushAsciiStrings(values, start, end, units)) return false;
    const def = this.def;
    if (def) {
      if (nulls === 0) def.pushRepeat(this.maxDef, end - start);
      else for (let i = start; i < end; i++) def.push(typeof values[i] === 'string' ? this.maxDef : 0);
    }
    this.pageNulls += nulls;
    this.pageRows += end - start;
    return true;
  }

  /**
   * After `n` rows appended since mark() (and before endRecord()): how many
   * of them the page had room for, at their average size, when they took it
   * past its size limit; `n` when they did not. A slice of rows much larger
   * than the ones before it is then taken again, shorter.
   */
  rowsWithinPage(n: number): number {
    if (n <= 1) return n;
    let k = n;
    const bytes = this.pageBytes();
    if (bytes > this.opts.pageSize) {
      const levels = (this.markDef + this.markRep) / 4;
      const before = this.useDictionary
        ? levels + this.indexedBytes(this.markIndices, this.markDict, this.dict.byteSizeAt(this.markDict))
        : levels + this.values.byteSizeAt(this.markValues);
      k = Math.min(k, fitting(n, before, bytes, this.opts.pageSize));
    }
    // The dictionary too: its page is written whole, however far past its limit a slice took it.
    if (this.useDictionary && this.dict.byteSize > this.opts.dictionaryPageSize) {
      k = Math.min(k, fitting(n, this.dict.byteSizeAt(this.markDict), this.dict.byteSize, this.opts.dictionaryPageSize));
    }
    return k;
  }

  /** The row at which the last appendColumn() failed. */
  failedRow = -1;

  /**
   * About how many more rows this column takes before its page (or its
   * dictionary) is full, judged from the bytes per row so far and halved, so
   * the rows before a limit arrive in ever smaller slices and pages end near
   * their limits even though they are only cut between slices. At least 1.
   */
  roomRows(): number {
    let room = this.opts.pageRowLimit - this.pageRows;
    const bytes = this.pageBytes();
    let rate: number;
    if (this.lastRowBytes > 0) {
      // The last page's rate stands for PRIOR_ROWS rows: a few odd rows at the start of a page do not swing the estimate.
      rate = (bytes + this.lastRowBytes * PRIOR_ROWS) / (this.pageRows + PRIOR_ROWS);
    } else {
      // The first page: slices at most double until the rate is known from enough rows.
      rate = this.pageRows > 0 ? bytes / this.pageRows : 0;
      room = Math.min(room, Math.max(1, this.pageRows));
    }
    if (rate > 0) room = Math.min(room, Math.floor((this.opts.pageSize - bytes) / rate / 2));
    if (this.useDictionary && this.dict.length > 0) {
      const dictRate = this.dict.byteSize / (this.chunkRows + this.pageRows);
      room = Math.min(room, Math.floor((this.opts.dictionaryPageSize - this.dict.byteSize) / dictRate / 2));
    }
    return room > 1 ? room : 1;
  }

  // ---- record boundaries ----

  /** Where the current record started (fields, not an array: no allocation per record, and none per column). */
  private markDef = 0;
  private markRep = 0;
  private markValues = 0;
  private markIndices = 0;
  private markPageRows = 0;
  private markDict = 0;
  /** A record taken back wrote none of its strings: the warning of lone surrogates is not owed for them. */
  private markReplaced = 0;

  /** Sizes the next slices from the rows to come alone, not from the pages before (a row group of its own). */
  forgetRowSizes(): void {
    this.lastRowBytes = NaN;
  }

  /** Remembers where the next record starts, so a record that fails halfway can be rolled back. */
  mark(): void {
    this.markDef = this.def?.length ?? 0;
    this.markRep = this.rep?.length ?? 0;
    this.markValues = this.values.length;
    this.markIndices = this.indices.length;
    this.markPageRows = this.pageRows;
    this.markDict = this.dict.length;
    this.markReplaced = this.replacedStrings;
  }

  /** Drops everything since `mark()`. */
  rollback(): void {
    this.replacedStrings = this.markReplaced;
    if (this.def) this.def.length = this.markDef;
    if (this.rep) this.rep.length = this.markRep;
    this.values.truncate(this.markValues);
    this.indices.length = this.markIndices;
    this.pageRows = this.markPageRows;
    this.pageNulls = this.def ? countBelow(this.def.view(), this.maxDef) : 0;
    // Dictionary entries only the failed record used must not be written or counted.
    this.remap = undefined;
    while (this.dict.length > this.markDict) {
      const e = this.dict.length - 1;
      const keys = this.mapKeys;
      if (keys !== undefined && keys.length > 0 && this.mapKeyAt![keys.length - 1] === e) {
        const key = keys.pop()!;
        this.mapKeyAt!.pop();
        this.dictKeys?.delete(key);
        this.illFormed?.delete(key);
      } else if (this.dictNumbers !== undefined) this.dictNumbers.pop();
      else this.dictBytes!.pop();
      this.dict.truncate(e);
    }
  }

  /** Bytes buffered for this column: encoded pages plus the page being filled. */
  get bufferedBytes(): number {
    return this.pagesBytes + this.pageBytes() + (this.useDictionary ? this.dict.byteSize : 0);
  }

  /** An estimate of the page being filled, encoded: levels at 2 bits, values as indexedBytes or plain. Cheap: it is asked after every record. */
  private pageBytes(): number {
    const levels = (this.def?.length ?? 0) / 4 + (this.rep?.length ?? 0) / 4;
    if (this.useDictionary) return levels + this.indexedBytes(this.indices.length, this.dict.length, this.dict.byteSize);
    return levels + this.values.byteSize;
  }

  /**
   * `count` dictionary-encoded values: indices at the bit width of a
   * `dictLength`-entry dictionary. Until the first page settles whether the
   * dictionary pays, the page may yet be written plain, so it counts at least
   * the plain bytes (the dictionary's average entry each): a column that
   * falls back keeps its first page within the page size too.
   */
  private indexedBytes(count: number, dictLength: number, dictBytes: number): number {
    const packed = (count * Math.max(1, 32 - Math.clz32(dictLength))) / 8;
    if (this.decidedDictionary || dictLength === 0) return packed;
    return Math.max(packed, (dictBytes / dictLength) * count);
  }

  /**
   * Called after each record (or slice of rows) that went in without error:
   * cuts a page when it is full, and marks where the next record starts.
   */
  endRecord(): void {
    if (this.useDictionary && !this.decidedDictionary && !this.probedDictionary && this.indices.length >= DICTIONARY_PROBE) this.probeDictionary();
    if (this.useDictionary && this.dict.byteSize > this.opts.dictionaryPageSize) {
      this.flushPage();
      this.useDictionary = false; // the dictionary is full: later pages are plain (or the chosen encoding)
    } else if (this.pageRows >= this.opts.pageRowLimit || this.pageBytes() >= this.opts.pageSize) {
      this.flushPage();
    }
    this.mark();
  }

  /** Encodes the page being filled, if it has any entries. */
  flushPage(): void {
    const entries = this.def?.length ?? this.rep?.length ?? (this.useDictionary ? this.indices.length : this.values.length);
    if (entries === 0) return;
    if (this.useDictionary && !this.decidedDictionary) this.decideDictionary();
    const rawEstimate = this.pageBytes();
    this.lastRowBytes = this.pageRows > 0 ? rawEstimate / this.pageRows : this.lastRowBytes;
    const w = takeScratch(Math.ceil(rawEstimate * 1.1) + 1024);
    // Each view taken once: a view is an object of about 100 bytes, and a wide table's close flushes a page a column.
    const indices = this.useDictionary ? this.indices.view() : undefined;
    const values = indices ? this.dict.values() : this.values.values();
    const repLevels = this.rep?.view();
    const defLevels = this.def?.view();
    const encoding: Encoding = indices ? 'RLE_DICTIONARY' : this.opts.encoding;
    const writeValues = (): void => {
      if (indices) encodeDictionaryIndices(w, indices, this.dict.length);
      else encodeValues(w, this.leaf, this.opts.encoding, values);
    };
    const numValues = entries;
    const numRows = this.pageRows;
    let header: PageHeader;
    let body: Uint8Array;
    // Statistics are taken over the finished page: rolled-back records are gone by now, so the bounds are exact.
    const stats = this.opts.statistics ? this.newStats() : undefined;
    if (stats) {
      if (indices) stats.addIndexed(values, indices, 0, indices.length);
      else stats.addRange(values, 0, this.values.length);
      stats.nullCount = this.pageNulls;
      this.addGeo(values);
    }
    const facts = this.pageFacts(numValues, values, indices, repLevels, defLevels);
    if (this.bloom) {
      if (indices) {
        // Every dictionary entry is used by this page or an earlier one: only the new ones need hashing.
        this.bloom.addValues(values, this.bloomHashedEntries, this.dict.length);
        this.bloomHashedEntries = this.dict.length;
      } else this.bloom.addValues(values, 0, this.values.length);
    }
    if (this.opts.pageVersion === 1) {
      if (repLevels) encodeRleHybridPrefixed(w, repLevels, bitWidth(this.leaf.repLevel));
      if (defLevels) encodeRleHybridPrefixed(w, defLevels, bitWidth(this.maxDef));
      writeValues();
      const raw = w.finish();
      body = this.compress(raw);
      const dataPageHeader: DataPageHeader = { numValues, encoding, definitionLevelEncoding: 'RLE', repetitionLevelEncoding: 'RLE' };
      if (stats) dataPageHeader.statistics = stats.toThrift();
      header = { type: 'DATA_PAGE', uncompressedPageSize: raw.length, compressedPageSize: body.length, dataPageHeader };
    } else {
      if (repLevels) encodeRleHybrid(w, repLevels, bitWidth(this.leaf.repLevel));
      const repLen = w.length;
      if (defLevels) encodeRleHybrid(w, defLevels, bitWidth(this.maxDef));
      const defLen = w.length - repLen;
      const levels = w.finish().slice();
      w.reset();
      writeValues();
      const raw = w.finish();
      // An all-null page has no values: store the empty section as it is (some readers reject a codec's empty frame).
      const compressValues = this.opts.codec !== null && raw.length > 0;
      const compressed = compressValues ? this.compress(raw) : raw.slice();
      body = new Uint8Array(levels.length + compressed.length);
      body.set(levels);
      body.set(compressed, levels.length);
      const dataPageHeaderV2: DataPageHeaderV2 = {
        numValues, numNulls: this.pageNulls, numRows, encoding, definitionLevelsByteLength: defLen, repetitionLevelsByteLength: repLen, isCompressed: compressValues,
      };
      if (stats) dataPageHeaderV2.statistics = stats.toThrift();
      header = { type: 'DATA_PAGE_V2', uncompressedPageSize: levels.length + raw.length, compressedPageSize: body.length, dataPageHeaderV2 };
    }
    giveScratch(w);
    this.addPage(header, body, header.type as EncodedPage['type'], encoding, numRows, stats, facts);
    this.totalValues += numValues;
    if (stats) (this.chunkStats ??= this.newStats()).merge(stats);
    this.chunkRows += numRows;
    this.pageRows = 0;
    this.pageNulls = 0;
    if (this.def) this.def.length = 0;
    if (this.rep) this.rep.length = 0;
    this.values.reset();
    this.indices.length = 0;
  }

  /** Adds the page's geometries to the chunk's bounds: of a dictionary, only the entries new since the last page (every entry is used by some page). */
  private addGeo(values: Values): void {
    if (!this.geoEdges) return;
    const geo = (this.geo ??= new GeoBounder(this.geoEdges));
    const { data, offsets } = values as ByteArrays;
    const from = this.useDictionary ? this.geoEntries : 0;
    const to = this.useDictionary ? this.dict.length : this.values.length;
    for (let i = from; i < to && geo.valid; i++) geo.add(data.subarray(offsets[i]!, offsets[i + 1]!));
    if (this.useDictionary) this.geoEntries = to;
  }

  /**
   * After the first page, keep the dictionary only if it pays: dictionary
   * plus indices smaller than the plain values (parquet-java's rule).
   * Otherwise this page's values are re-materialised and written plain.
   */
  private decideDictionary(): void {
    this.decidedDictionary = true;
    if (!this.dictionaryPays()) this.dropDictionary();
  }

  /**
   * The first page's rule asked early, once, at DICTIONARY_PROBE values:
   * a dictionary that does not pay by then (mostly distinct values: ids,
   * measurements, instants) is dropped at once rather than kept to the end
   * of a page of hundreds of thousands of lookups. One that pays is asked
   * again when the page ends, as before.
   */
  private probeDictionary(): void {
    this.probedDictionary = true;
    if (this.dictionaryPays()) return;
    this.decidedDictionary = true;
    this.dropDictionary();
  }

  /** Dictionary plus indices smaller than the plain values of the page so far (parquet-java's rule). */
  private dictionaryPays(): boolean {
    const indices = this.indices.view();
    const plainSize = indices.length === 0 ? 0 : plainByteSize(this.dict, indices);
    const dictSize = this.dict.byteSize + Math.ceil((indices.length * Math.max(1, bitWidth(this.dict.length))) / 8);
    return dictSize < plainSize;
  }

  /** This page's values re-materialised plain, and the dictionary dropped. */
  private dropDictionary(): void {
    const indices = this.indices.view();
    this.useDictionary = false;
    if (indices.length === this.dict.length && indices.every((d, i) => d === i)) {
      // Each value new when it came (a wide table's one row): the dictionary is the values in order, kept as they are, not copied.
      [this.values, this.dict] = [this.dict, this.values];
    } else {
      const dense = take(this.dict.values(), indices);
      this.values.reset();
      pushValues(this.values, dense);
    }
    this.indices.length = 0;
    this.clearDictionary();
  }

  /** What the page index and size statistics need of the page being flushed. */
  /** `values` and `indices`: the page's (a dictionary's and its indices, or plain values and none), `rep` and `def` its levels. */
  private pageFacts(numValues: number, values: Values, indices: Int32Array | undefined, rep: ArrayLike<number> | undefined, def: ArrayLike<number> | undefined): PageFacts {
    const nonNull = indices ? indices.length : this.values.length;
    const facts: PageFacts = { numValues, nonNull, nullCount: this.pageNulls };
    if (this.leaf.physicalType === 'BYTE_ARRAY') {
      const { offsets } = values as ByteArrays;
      if (indices) {
        let n = 0;
        for (let i = 0; i < indices.length; i++) n += offsets[indices[i]! + 1]! - offsets[indices[i]!]!;
        facts.unencodedBytes = n;
      } else facts.unencodedBytes = offsets[offsets.length - 1]! - offsets[0]!;
    }
    if (rep) facts.repHistogram = histogram(rep, this.leaf.repLevel);
    // At most one level of definition (a flat optional column): the counts are the page's nulls and the rest, no pass over the levels.
    if (def) facts.defHistogram = this.maxDef === 1 ? [this.pageNulls, def.length - this.pageNulls] : histogram(def, this.maxDef);
    return facts;
  }

  private clearDictionary(): void {
    this.remap = undefined;
    this.bloomHashedEntries = 0;
    this.geoEntries = 0;
    this.dictKeys = undefined;
    if (this.dictBytes && this.dictBytes.size >= SPARE_SET) this.spareBytes = emptied(this.dictBytes);
    this.dictBytes = undefined;
    if (this.dictNumbers && this.dictNumbers.size >= SPARE_SET) this.spareNumbers = emptied(this.dictNumbers);
    this.dictNumbers = undefined;
    this.illFormed = undefined;
    this.mapKeys = undefined;
    this.mapKeyAt = undefined;
    this.dict.reset();
  }

  /** The page body to keep: never a view of `raw`, which is the shared scratch buffer. */
  private compress(raw: Uint8Array): Uint8Array {
    if (this.opts.codec === null) return raw.slice();
    const out = this.opts.codec.compress(raw, this.opts.level);
    // A codec may hand back its input (a registered pass-through codec, say): keep a copy then.
    return out.buffer === raw.buffer ? out.slice() : out;
  }

  private addPage(
    header: PageHeader, body: Uint8Array, type: EncodedPage['type'], encoding: Encoding, numRows: number, stats?: StatsBuilder,
    facts: PageFacts = { numValues: 0, nonNull: 0, nullCount: 0 },
  ): void {
    if (this.opts.checksums) header.crc = crc32(body) | 0;
    headerWriter.reset();
    encodePageHeader(header, headerWriter);
    const h = headerWriter.finish().slice();
    // The facts' fields named, not spread: a spread builds the object a property at a time.
    this.pages.push({
      header: h, body, type, encoding, numRows, firstRow: this.chunkRows, stats, numValues: facts.numValues, nonNull: facts.nonNull, nullCount: facts.nullCount,
      unencodedBytes: facts.unencodedBytes, repHistogram: facts.repHistogram, defHistogram: facts.defHistogram,
    });
    this.pagesBytes += h.length + body.length;
    this.flushed.bytes += h.length + body.length;
    this.uncompressedBytes += h.length + header.uncompressedPageSize;
  }

  /** Finishes the row group's chunk: flushes the last page and puts the dictionary page first. */
  finishChunk(): EncodedChunk {
    this.flushPage();
    const pages = this.pages;
    const hasDictionary = this.dict.length > 0 && pages.some((p) => p.encoding === 'RLE_DICTIONARY');
    if (hasDictionary) {
      const w = new ByteWriter(this.dict.byteSize + 16);
      encodePlain(w, this.leaf.physicalType, this.dict.values(), this.leaf.typeLength);
      const raw = w.finish();
      const body = this.compress(raw);
      const header: PageHeader = {
        type: 'DICTIONARY_PAGE', uncompressedPageSize: raw.length, compressedPageSize: body.length,
        dictionaryPageHeader: { numValues: this.dict.length, encoding: 'PLAIN' },
      };
      const before = this.pages.length;
      this.addPage(header, body, 'DICTIONARY_PAGE', 'PLAIN', 0);
      pages.unshift(pages.splice(before, 1)[0]!);
    }
    // In order of first use, as lists: a chunk has a few pages (a Set, a Map and their keys were a wide table's garbage).
    const encodings: Encoding[] = [];
    const encodingStats: PageEncodingStats[] = [];
    let byteLength = 0;
    for (const p of pages) {
      if (!encodings.includes(p.encoding)) encodings.push(p.encoding);
      let s: PageEncodingStats | undefined;
      for (const e of encodingStats) if (e.pageType === p.type && e.encoding === p.encoding) s = e;
      if (s) s.count++;
      else encodingStats.push({ pageType: p.type, encoding: p.encoding, count: 1 });
      byteLength += p.header.length + p.body.length;
    }
    if ((this.def || this.rep) && !encodings.includes('RLE')) encodings.push('RLE');
    const dictionaryBytes = hasDictionary ? pages[0]!.header.length + pages[0]!.body.length : 0;
    const sizeStatistics = chunkSizeStatistics(this.leaf, pages);
    const allDictionary = hasDictionary && pages.every((p) => p.type === 'DICTIONARY_PAGE' || p.encoding === 'RLE_DICTIONARY');
    const meta: ColumnMetaData = {
      type: this.leaf.physicalType,
      encodings,
      pathInSchema: this.leaf.path,
      codec: this.opts.codecName as ColumnMetaData['codec'],
      numValues: this.totalValues,
      totalUncompressedSize: this.uncompressedBytes,
      totalCompressedSize: byteLength,
      dataPageOffset: dictionaryBytes,
      encodingStats,
    };
    if (hasDictionary) meta.dictionaryPageOffset = 0;
    if (this.opts.statistics) meta.statistics = (this.chunkStats ?? this.newStats()).toThrift(allDictionary ? distinctCount(this.leaf, this.dict.values(), this.opts.floatOrder) : undefined);
    if (sizeStatistics) meta.sizeStatistics = sizeStatistics;
    const geospatial = this.geo && geospatialStatistics(this.geo);
    if (geospatial) meta.geospatialStatistics = geospatial;
    const bloom = this.bloom?.finish();
    this.resetChunk();
    this.mark();
    const chunk: EncodedChunk = { pages, meta, byteLength };
    if (bloom) chunk.bloom = bloom;
    return chunk;
  }

  private resetChunk(): void {
    this.pages = [];
    this.pagesBytes = 0;
    this.totalValues = 0;
    this.uncompressedBytes = 0;
    this.chunkRows = 0;
    this.chunkStats = undefined;
    this.geo = undefined;
    this.clearDictionary();
    this.useDictionary = this.opts.dictionary && this.leaf.physicalType !== 'BOOLEAN';
    this.decidedDictionary = false;
    this.probedDictionary = false;
  }
}

/** Of `n` rows that took a size from `before` to `after`, how many fit under `limit` at their average size (at least 1). */
function fitting(n: number, before: number, after: number, limit: number): number {
  if (before >= limit) return 1;
  const k = Math.ceil((limit - before) / ((after - before) / n));
  return k >= n ? n : k > 1 ? k : 1;
}

type PageFacts = Pick<EncodedPage, 'numValues' | 'nonNull' | 'nullCount' | 'unencodedBytes' | 'repHistogram' | 'defHistogram'>;

/** How many times each level 0..max occurs. */
function histogram(levels: ArrayLike<number>, max: number): number[] {
  const counts = new Array<number>(max + 1).fill(0);
  for (let i = 0; i < levels.length; i++) counts[levels[i]!]!++;
  return counts;
}

/** The chunk's SizeStatistics: its pages' unencoded byte-array bytes and level histograms, summed; undefined when there is nothing to say. */
function chunkSizeStatistics(leaf: LeafNode, pages: EncodedPage[]): ColumnMetaData['sizeStatistics'] {
  const bytes = leaf.physicalType === 'BYTE_ARRAY';
  if (!bytes && leaf.repLevel === 0 && leaf.defLevel === 0) return undefined;
  const out: NonNullable<ColumnMetaData['sizeStatistics']> = {};
  if (bytes) {
    let n = 0;
    for (const p of pages) if (p.type !== 'DICTIONARY_PAGE') n += p.unencodedBytes ?? 0;
    out.unencodedByteArrayDataBytes = n;
  }
  if (leaf.repLevel > 0) out.repetitionLevelHistogram = levelSums(pages, leaf.repLevel, 'repHistogram');
  if (leaf.defLevel > 0) out.definitionLevelHistogram = levelSums(pages, leaf.defLevel, 'defHistogram');
  return out;
}

/** The data pages' histograms of one kind of level (0..max), summed. */
function levelSums(pages: readonly EncodedPage[], max: number, kind: 'repHistogram' | 'defHistogram'): number[] {
  const h = new Array<number>(max + 1).fill(0);
  for (const p of pages) {
    const counts = p.type === 'DICTIONARY_PAGE' ? undefined : p[kind];
    if (counts) for (let i = 0; i < counts.length; i++) h[i]! += counts[i]!;
  }
  return h;
}

/** Entry `k` of present values, in the column's storage (`physical` coerces the JS values of `any`). */
function presentAt(v: PresentValues, k: number, physical: (v: unknown) => number | bigint | boolean | Uint8Array): number | bigint | boolean | Uint8Array {
  switch (v.t) {
    case 'typed': return v.values[k]!;
    case 'bytes': return v.data.subarray(v.starts[k]!, v.ends[k]!);
    case 'indexed': return presentAt(v.entries, v.indices[k]!, physical);
    case 'any': return physical(v.values[k]);
  }
}

function countBelow(levels: ArrayLike<number>, max: number): number {
  let n = 0;
  for (let i = 0; i < levels.length; i++) if (levels[i]! < max) n++;
  return n;
}

function plainByteSize(dict: ValuesBuilder, indices: Int32Array): number {
  if (dict.type !== 'BYTE_ARRAY' && dict.type !== 'FIXED_LEN_BYTE_ARRAY' && dict.type !== 'INT96') {
    return (dict.byteSize / Math.max(1, dict.length)) * indices.length;
  }
  const { offsets } = dict.values() as ByteArrays;
  const prefix = dict.type === 'BYTE_ARRAY' ? 4 : 0;
  let n = 0;
  for (let j = 0; j < indices.length; j++) {
    const k = indices[j]!;
    n += offsets[k + 1]! - offsets[k]! + prefix;
  }
  return n;
}

function pushValues(b: ValuesBuilder, v: Values): void {
  if ('offsets' in v) {
    for (let i = 0; i < v.offsets.length - 1; i++) b.push(v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!));
  } else b.pushAll(v as ArrayLike<number>);
}

/** The value encodings the writer has for each physical type, in the order they are listed to a user. */
const ENCODINGS: Record<LeafNode['physicalType'], readonly ValueEncoding[]> = {
  BOOLEAN: ['PLAIN', 'RLE'],
  INT32: ['PLAIN', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT'],
  INT64: ['PLAIN', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT'],
  INT96: ['PLAIN'],
  FLOAT: ['PLAIN', 'BYTE_STREAM_SPLIT', 'ALP'],
  DOUBLE: ['PLAIN', 'BYTE_STREAM_SPLIT', 'ALP'],
  BYTE_ARRAY: ['PLAIN', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY'],
  FIXED_LEN_BYTE_ARRAY: ['PLAIN', 'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT'],
};

function checkEncoding(leaf: LeafNode, e: ValueEncoding): void {
  const ok = ENCODINGS[leaf.physicalType];
  if (ok.includes(e)) return;
  const column = leaf.path.join('.');
  throw new ColumnOptionsError(`encoding ${String(e)} cannot be used for ${leaf.physicalType} column ${column}; it takes ${ok.join(', ')}`, column, leaf.physicalType, ok);
}

function encodeValues(w: ByteWriter, leaf: LeafNode, e: ValueEncoding, values: Values): void {
  switch (e) {
    case 'PLAIN': return encodePlain(w, leaf.physicalType, values, leaf.typeLength);
    case 'RLE': return encodeRleBooleans(w, values as Uint8Array);
    case 'DELTA_BINARY_PACKED':
      return leaf.physicalType === 'INT32' ? encodeDeltaInt32(w, values as Int32Array) : encodeDeltaInt64(w, values as BigInt64Array);
    case 'DELTA_LENGTH_BYTE_ARRAY': return encodeDeltaLengthByteArray(w, values as never);
    case 'DELTA_BYTE_ARRAY': return encodeDeltaByteArray(w, values as never);
    case 'BYTE_STREAM_SPLIT': return encodeByteStreamSplit(w, leaf.physicalType, values, leaf.typeLength);
    case 'ALP': return encodeAlp(w, leaf.physicalType as 'FLOAT' | 'DOUBLE', values as Float32Array | Float64Array);
  }
}

/** True when a typed array already holds the column's physical values (Int32Array for INT32, ...). */
function sameStorage(v: ArrayBufferView, leaf: LeafNode): boolean {
  const k = leaf.kind;
  // Unsigned and decimal kinds need range checks or scaling: only plain numbers go in bulk.
  // Only kinds where every value of the storage type is valid: times must lie within a day, so they are checked one by one.
  if (k.kind !== 'int' && k.kind !== 'float' && k.kind !== 'timestamp' && k.kind !== 'date') return false;
  switch (leaf.physicalType) {
    case 'INT32': return v instanceof Int32Array && (k.kind !== 'int' || (k.signed && k.bitWidth === 32));
    case 'INT64': return v instanceof BigInt64Array && (k.kind !== 'int' || k.signed);
    case 'FLOAT': return v instanceof Float32Array;
    case 'DOUBLE': return v instanceof Float64Array;
    default: return false;
  }
}
