import { ByteWriter } from '../../bytes/writer.js';
import { crc32 } from '../../checksum/crc32.js';
import type { Codec } from '../../codecs/registry.js';
import { InvalidArgumentError, ParquetryError } from '../../errors.js';
import { encodeByteStreamSplit } from '../../encodings/byte-stream-split.js';
import { encodeDeltaInt32, encodeDeltaInt64 } from '../../encodings/delta-binary-packed.js';
import { encodeDeltaByteArray } from '../../encodings/delta-byte-array.js';
import { encodeDeltaLengthByteArray } from '../../encodings/delta-length-byte-array.js';
import { encodePlain } from '../../encodings/plain.js';
import { bitWidth, encodeDictionaryIndices, encodeRleBooleans, encodeRleHybrid, encodeRleHybridPrefixed } from '../../encodings/rle.js';
import { take } from '../../encodings/dictionary.js';
import type { Values } from '../../encodings/types.js';
import { ValuesBuilder } from '../../encodings/values-builder.js';
import { leafCoercer } from '../../schema/coerce.js';
import type { LeafNode } from '../../schema/tree.js';
import type { LeafSink } from '../../shred/shred.js';
import { encodePageHeader, type ColumnMetaData, type Encoding, type PageEncodingStats, type PageHeader } from '../metadata/index.js';
import { StatsBuilder } from './stats.js';

/** Value encodings a user can choose per column (RLE_DICTIONARY is the `dictionary` option). */
export type ValueEncoding = 'PLAIN' | 'DELTA_BINARY_PACKED' | 'DELTA_LENGTH_BYTE_ARRAY' | 'DELTA_BYTE_ARRAY' | 'BYTE_STREAM_SPLIT' | 'RLE';

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
}

/** A column chunk ready to be written: pages in order, and its metadata with offsets relative to the chunk start. */
export interface EncodedChunk {
  pages: EncodedPage[];
  meta: ColumnMetaData;
  byteLength: number;
}

class Levels {
  buf: Uint8Array | Uint16Array;
  length = 0;
  constructor(wide: boolean) {
    this.buf = wide ? new Uint16Array(1024) : new Uint8Array(1024);
  }
  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = new (this.buf.constructor as Uint8ArrayConstructor)(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }
  view(): Uint8Array | Uint16Array {
    return this.buf.subarray(0, this.length);
  }
}

const latin1 = new TextDecoder('latin1');

/**
 * Buffers one leaf column of the current row group: levels and values of the
 * page being filled, dictionary state, and the pages already encoded.
 * Records arrive through the LeafSink interface from the shredder.
 */
export class ColumnWriter implements LeafSink {
  private def: Levels | null;
  private rep: Levels | null;
  private readonly maxDef: number;
  private readonly coerce: (v: unknown) => number | bigint | boolean | Uint8Array;
  private readonly isString: boolean;
  /** Plain values of the current page (when not dictionary-encoding). */
  private values: ValuesBuilder;
  /** Dictionary state: values by key, their order, and the current page's indices. */
  /** Dictionary indices by value: JS strings and numbers in one map, byte strings (as latin1 text) in another, so the two never collide. */
  private dictKeys = new Map<unknown, number>();
  private dictBytesKeys = new Map<string, number>();
  /** The key of each dictionary entry, so entries of a rolled-back record can be removed. */
  private dictKeyOf: { bytes: boolean; key: unknown }[] = [];
  private dict: ValuesBuilder;
  private indices: number[] = [];
  private useDictionary: boolean;
  private decidedDictionary = false;
  private pageRows = 0;
  private pageNulls = 0;
  private chunkRows = 0;
  private pageStats: StatsBuilder;
  private readonly chunkStats: StatsBuilder;
  private pages: EncodedPage[] = [];
  private pagesBytes = 0;
  private totalValues = 0;
  private uncompressedBytes = 0;

  constructor(readonly leaf: LeafNode, private readonly opts: ColumnOptions) {
    this.maxDef = leaf.defLevel;
    this.def = leaf.defLevel > 0 ? new Levels(leaf.defLevel > 255) : null;
    this.rep = leaf.repLevel > 0 ? new Levels(leaf.repLevel > 255) : null;
    this.coerce = leafCoercer(leaf);
    this.isString = leaf.kind.kind === 'string' && leaf.physicalType === 'BYTE_ARRAY';
    this.values = new ValuesBuilder(leaf.physicalType);
    this.dict = new ValuesBuilder(leaf.physicalType);
    this.useDictionary = opts.dictionary && leaf.physicalType !== 'BOOLEAN';
    this.pageStats = new StatsBuilder(leaf, opts.statisticsTruncateLength);
    this.chunkStats = new StatsBuilder(leaf, opts.statisticsTruncateLength);
    checkEncoding(leaf, opts.encoding);
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
    if (this.isString && typeof v === 'string') {
      if (this.useDictionary) this.addToDictionary(v, undefined);
      else this.values.pushString(v);
    } else {
      const physical = this.coerce(v);
      if (this.useDictionary) this.addToDictionary(undefined, physical);
      else this.values.push(physical);
    }
    this.rep?.push(rep);
    this.def?.push(this.maxDef);
    if (rep === 0) this.pageRows++;
  }

  private addToDictionary(s: string | undefined, physical: number | bigint | boolean | Uint8Array | undefined): void {
    let key: unknown;
    let map: Map<unknown, number> = this.dictKeys;
    if (s !== undefined) key = s;
    else if (physical instanceof Uint8Array) {
      key = latin1.decode(physical);
      map = this.dictBytesKeys as Map<unknown, number>;
    } else if (physical === 0 && Object.is(physical, -0)) key = '-0'; // keep -0 apart from 0
    else key = physical;
    let idx = map.get(key);
    if (idx === undefined) {
      idx = this.dict.length;
      map.set(key, idx);
      this.dictKeyOf.push({ bytes: map !== this.dictKeys, key });
      if (s !== undefined) this.dict.pushString(s);
      else this.dict.push(physical!);
    }
    this.indices.push(idx);
  }

  /**
   * Appends rows start..end of a flat column. A typed array of the column's
   * own storage type is copied in one go when no value needs a dictionary
   * lookup or a null check.
   */
  appendColumn(values: ArrayLike<unknown>, start: number, end: number): void {
    const required = this.maxDef === 0;
    if (required && !this.useDictionary && ArrayBuffer.isView(values) && sameStorage(values, this.leaf)) {
      this.values.pushAll((values as unknown as Int32Array).subarray(start, end));
      this.pageRows += end - start;
      return;
    }
    for (let i = start; i < end; i++) {
      const v = values[i];
      try {
        if (v === null || v === undefined) {
          if (required) throw new InvalidArgumentError('expected a value (the column is required)');
          this.level(0, 0);
        } else this.value(0, v);
      } catch (e) {
        if (e instanceof ParquetryError) throw new InvalidArgumentError(`row ${i}: ${e.detail}`, { column: this.leaf.path.join('.') });
        throw e;
      }
    }
  }

  // ---- record boundaries ----

  /** Where the current record started: def, rep, values, indices, page rows, dictionary size (kept in place: no allocation per record). */
  private readonly markAt = new Float64Array(6);

  /** Remembers where the next record starts, so a record that fails halfway can be rolled back. */
  mark(): void {
    const m = this.markAt;
    m[0] = this.def?.length ?? 0;
    m[1] = this.rep?.length ?? 0;
    m[2] = this.values.length;
    m[3] = this.indices.length;
    m[4] = this.pageRows;
    m[5] = this.dict.length;
  }

  /** Drops everything since `mark()`. */
  rollback(): void {
    const m = this.markAt;
    if (this.def) this.def.length = m[0]!;
    if (this.rep) this.rep.length = m[1]!;
    this.values.truncate(m[2]!);
    this.indices.length = m[3]!;
    this.pageRows = m[4]!;
    this.pageNulls = this.def ? countBelow(this.def.view(), this.maxDef) : 0;
    // Dictionary entries only the failed record used must not be written or counted.
    while (this.dict.length > m[5]!) {
      const { bytes, key } = this.dictKeyOf.pop()!;
      (bytes ? (this.dictBytesKeys as Map<unknown, number>) : this.dictKeys).delete(key);
      this.dict.truncate(this.dict.length - 1);
    }
  }

  /** Bytes buffered for this column: encoded pages plus the page being filled. */
  get bufferedBytes(): number {
    return this.pagesBytes + this.pageBytes() + (this.useDictionary ? this.dict.byteSize : 0);
  }

  private pageBytes(): number {
    const levels = (this.def?.length ?? 0) / 4 + (this.rep?.length ?? 0) / 4;
    if (this.useDictionary) return levels + this.indices.length * Math.max(1, bitWidth(this.dict.length)) / 8;
    return levels + this.values.byteSize;
  }

  /** Called after each record that shredded without error: cuts a page when it is full. */
  endRecord(): void {
    if (this.useDictionary && this.dict.byteSize > this.opts.dictionaryPageSize) {
      this.flushPage();
      this.useDictionary = false; // the dictionary is full: later pages are plain (or the chosen encoding)
      return;
    }
    if (this.pageRows >= this.opts.pageRowLimit || this.pageBytes() >= this.opts.pageSize) this.flushPage();
  }

  /** Encodes the page being filled, if it has any entries. */
  flushPage(): void {
    const entries = this.def?.length ?? this.rep?.length ?? (this.useDictionary ? this.indices.length : this.values.length);
    if (entries === 0) return;
    if (this.useDictionary && !this.decidedDictionary) this.decideDictionary();
    const w = new ByteWriter(Math.max(1024, this.pageBytes() * 1.1));
    let encoding: Encoding;
    const writeValues = () => {
      if (this.useDictionary) {
        encodeDictionaryIndices(w, this.indices, this.dict.length);
        encoding = 'RLE_DICTIONARY';
      } else {
        encoding = this.opts.encoding;
        encodeValues(w, this.leaf, this.opts.encoding, this.values.values());
      }
    };
    const numValues = entries;
    const numRows = this.pageRows;
    let header: PageHeader;
    let body: Uint8Array;
    // Statistics are taken over the finished page: rolled-back records are gone by now, so the bounds are exact.
    const stats = this.opts.statistics ? this.pageStats : undefined;
    if (stats) {
      if (this.useDictionary) stats.addIndexed(this.dict.values(), this.indices, 0, this.indices.length);
      else stats.addRange(this.values.values(), 0, this.values.length);
      stats.nullCount = this.pageNulls;
    }
    if (this.opts.pageVersion === 1) {
      if (this.rep) encodeRleHybridPrefixed(w, this.rep.view(), bitWidth(this.leaf.repLevel));
      if (this.def) encodeRleHybridPrefixed(w, this.def.view(), bitWidth(this.maxDef));
      writeValues();
      const raw = w.finish();
      body = this.compress(raw);
      header = {
        type: 'DATA_PAGE', uncompressedPageSize: raw.length, compressedPageSize: body.length,
        dataPageHeader: { numValues, encoding: encoding!, definitionLevelEncoding: 'RLE', repetitionLevelEncoding: 'RLE', ...(stats ? { statistics: stats.toThrift() } : {}) },
      };
    } else {
      if (this.rep) encodeRleHybrid(w, this.rep.view(), bitWidth(this.leaf.repLevel));
      const repLen = w.length;
      if (this.def) encodeRleHybrid(w, this.def.view(), bitWidth(this.maxDef));
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
      header = {
        type: 'DATA_PAGE_V2', uncompressedPageSize: levels.length + raw.length, compressedPageSize: body.length,
        dataPageHeaderV2: {
          numValues, numNulls: this.pageNulls, numRows, encoding: encoding!, definitionLevelsByteLength: defLen, repetitionLevelsByteLength: repLen,
          isCompressed: compressValues, ...(stats ? { statistics: stats.toThrift() } : {}),
        },
      };
    }
    this.addPage(header, body, header.type as EncodedPage['type'], encoding!, numRows, stats);
    this.totalValues += numValues;
    if (stats) this.chunkStats.merge(stats);
    this.chunkRows += numRows;
    this.pageStats = new StatsBuilder(this.leaf, this.opts.statisticsTruncateLength);
    this.pageRows = 0;
    this.pageNulls = 0;
    if (this.def) this.def.length = 0;
    if (this.rep) this.rep.length = 0;
    this.values.reset();
    this.indices.length = 0;
  }

  /**
   * After the first page, keep the dictionary only if it pays: dictionary
   * plus indices smaller than the plain values (parquet-java's rule).
   * Otherwise this page's values are re-materialised and written plain.
   */
  private decideDictionary(): void {
    this.decidedDictionary = true;
    const plainSize = this.indices.length === 0 ? 0 : plainByteSize(this.dict, this.indices);
    const dictSize = this.dict.byteSize + Math.ceil((this.indices.length * Math.max(1, bitWidth(this.dict.length))) / 8);
    if (dictSize < plainSize) return;
    this.useDictionary = false;
    const dense = take(this.dict.values(), Int32Array.from(this.indices));
    this.values.reset();
    pushValues(this.values, dense);
    this.indices.length = 0;
    this.clearDictionary();
  }

  private clearDictionary(): void {
    this.dictKeys.clear();
    this.dictBytesKeys.clear();
    this.dictKeyOf = [];
    this.dict.reset();
  }

  private compress(raw: Uint8Array): Uint8Array {
    if (this.opts.codec === null) return raw.slice();
    return this.opts.codec.compress(raw, this.opts.level);
  }

  private addPage(header: PageHeader, body: Uint8Array, type: EncodedPage['type'], encoding: Encoding, numRows: number, stats?: StatsBuilder): void {
    if (this.opts.checksums) header.crc = crc32(body) | 0;
    const hw = new ByteWriter(64);
    encodePageHeader(header, hw);
    const h = hw.finish().slice();
    this.pages.push({ header: h, body, type, encoding, numRows, firstRow: this.chunkRows, stats });
    this.pagesBytes += h.length + body.length;
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
    const encodings = new Set<Encoding>();
    const stats = new Map<string, PageEncodingStats>();
    let byteLength = 0;
    for (const p of pages) {
      encodings.add(p.encoding);
      const k = `${p.type}/${p.encoding}`;
      const s = stats.get(k) ?? { pageType: p.type, encoding: p.encoding, count: 0 };
      s.count++;
      stats.set(k, s);
      byteLength += p.header.length + p.body.length;
    }
    if (this.def || this.rep) encodings.add('RLE');
    const dictionaryBytes = hasDictionary ? pages[0]!.header.length + pages[0]!.body.length : 0;
    const allDictionary = hasDictionary && pages.every((p) => p.type === 'DICTIONARY_PAGE' || p.encoding === 'RLE_DICTIONARY');
    const meta: ColumnMetaData = {
      type: this.leaf.physicalType,
      encodings: [...encodings],
      pathInSchema: this.leaf.path,
      codec: this.opts.codecName as ColumnMetaData['codec'],
      numValues: this.totalValues,
      totalUncompressedSize: this.uncompressedBytes,
      totalCompressedSize: byteLength,
      dataPageOffset: dictionaryBytes,
      ...(hasDictionary ? { dictionaryPageOffset: 0 } : {}),
      ...(this.opts.statistics ? { statistics: this.chunkStats.toThrift(allDictionary ? this.dict.length : undefined) } : {}),
      encodingStats: [...stats.values()],
    };
    this.resetChunk();
    return { pages, meta, byteLength };
  }

  private resetChunk(): void {
    this.pages = [];
    this.pagesBytes = 0;
    this.totalValues = 0;
    this.uncompressedBytes = 0;
    this.chunkRows = 0;
    this.chunkStats.reset();
    this.clearDictionary();
    this.useDictionary = this.opts.dictionary && this.leaf.physicalType !== 'BOOLEAN';
    this.decidedDictionary = false;
  }
}

function countBelow(levels: ArrayLike<number>, max: number): number {
  let n = 0;
  for (let i = 0; i < levels.length; i++) if (levels[i]! < max) n++;
  return n;
}

function plainByteSize(dict: ValuesBuilder, indices: number[]): number {
  if (dict.type !== 'BYTE_ARRAY' && dict.type !== 'FIXED_LEN_BYTE_ARRAY' && dict.type !== 'INT96') {
    return (dict.byteSize / Math.max(1, dict.length)) * indices.length;
  }
  let n = 0;
  for (const i of indices) n += (dict.at(i) as Uint8Array).length + (dict.type === 'BYTE_ARRAY' ? 4 : 0);
  return n;
}

function pushValues(b: ValuesBuilder, v: Values): void {
  if ('offsets' in v) {
    for (let i = 0; i < v.offsets.length - 1; i++) b.push(v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!));
  } else b.pushAll(v as ArrayLike<number>);
}

function checkEncoding(leaf: LeafNode, e: ValueEncoding): void {
  const t = leaf.physicalType;
  const ok =
    e === 'PLAIN' ||
    (e === 'RLE' && t === 'BOOLEAN') ||
    (e === 'DELTA_BINARY_PACKED' && (t === 'INT32' || t === 'INT64')) ||
    (e === 'DELTA_LENGTH_BYTE_ARRAY' && t === 'BYTE_ARRAY') ||
    (e === 'DELTA_BYTE_ARRAY' && (t === 'BYTE_ARRAY' || t === 'FIXED_LEN_BYTE_ARRAY')) ||
    (e === 'BYTE_STREAM_SPLIT' && (t === 'FLOAT' || t === 'DOUBLE' || t === 'INT32' || t === 'INT64' || t === 'FIXED_LEN_BYTE_ARRAY'));
  if (!ok) throw new InvalidArgumentError(`encoding ${e} cannot be used for ${t} column ${leaf.path.join('.')}`);
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
