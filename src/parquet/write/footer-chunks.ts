/**
 * The footer's column chunks as the writer keeps them until close: each
 * chunk's ColumnMetaData encoded as the chunk is written, its page indexes
 * encoded end to end, its offsets and lengths in typed arrays. As objects
 * (metadata, statistics, encoding stats, histograms, index bytes) they took
 * about a kilobyte a chunk, which a table of 200,000 columns held until the
 * footer; as bytes they take what the footer will.
 */
import { ByteCursor } from '../../bytes/cursor.js';
import { ByteWriter } from '../../bytes/writer.js';
import { Encoded, encodeStruct } from '../thrift/encode.js';
import * as tables from '../metadata/tables.js';
import { columnChunkCodec, decodeColumnMetaData, type ColumnChunk, type ColumnIndex, type ColumnMetaData, type OffsetIndex } from '../metadata/index.js';
import { encodeColumnIndex, encodeColumnMetaData, encodeOffsetIndex } from '../metadata/encode.js';

/** Where the page indexes and bloom filters went, once written at close: each chunk's offset and length (length 0: none). */
export interface ExtrasPlaces {
  columnIndex: { offset: Float64Array; length: Float64Array };
  offsetIndex: { offset: Float64Array; length: Float64Array };
  bloom: Map<number, { offset: number; length: number }>;
}

/** A Float64Array of at least `n` entries holding `a`'s, doubled as it grows. */
function room(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const next = new Float64Array(Math.max(16, a.length * 2, n));
  next.set(a);
  return next;
}

export type IndexKind = 'columnIndex' | 'offsetIndex';

export class FooterChunks {
  /** Chunks kept, in file order: row group by row group, column by column. */
  count = 0;
  private readonly metas = new ByteWriter(4096);
  /** Chunk k's ColumnMetaData is metas[end[k-1] .. end[k]) (end[-1] = 0); the same for its page indexes, empty for none. */
  private metaEnd = new Float64Array(0);
  private readonly indexes = { columnIndex: new ByteWriter(0), offsetIndex: new ByteWriter(0) };
  private indexEnd = { columnIndex: new Float64Array(0), offsetIndex: new Float64Array(0) };
  private fileOffset = new Float64Array(0);
  /** Bloom filters, encoded, by chunk. */
  readonly blooms = new Map<number, Uint8Array>();
  /** One writer for a chunk's pieces, reused. */
  private readonly scratch = new ByteWriter(256);

  /** Keeps a written chunk: its metadata (offsets absolute), its page indexes (none: not written), its bloom filter. */
  add(fileOffset: number, meta: ColumnMetaData, offsetIndex: OffsetIndex | undefined, columnIndex: ColumnIndex | undefined, bloom?: Uint8Array): void {
    const k = this.count++;
    this.metaEnd = room(this.metaEnd, this.count);
    this.fileOffset = room(this.fileOffset, this.count);
    encodeColumnMetaData(meta, this.metas);
    this.metaEnd[k] = this.metas.length;
    this.fileOffset[k] = fileOffset;
    const ends = this.indexEnd;
    ends.columnIndex = room(ends.columnIndex, this.count);
    if (columnIndex) encodeColumnIndex(columnIndex, this.indexes.columnIndex);
    ends.columnIndex[k] = this.indexes.columnIndex.length;
    ends.offsetIndex = room(ends.offsetIndex, this.count);
    if (offsetIndex) encodeOffsetIndex(offsetIndex, this.indexes.offsetIndex);
    ends.offsetIndex[k] = this.indexes.offsetIndex.length;
    if (bloom) this.blooms.set(k, bloom);
  }

  /** All the page indexes of a kind, end to end in chunk order, as they are written to the file when not sealed one by one. */
  allIndexes(kind: IndexKind): Uint8Array {
    return this.indexes[kind].finish();
  }

  /** Where chunk k's page index of a kind lies in allIndexes(kind): [start, end), empty for none. */
  indexRange(kind: IndexKind, k: number): [number, number] {
    const end = this.indexEnd[kind];
    return [k === 0 ? 0 : end[k - 1]!, end[k]!];
  }

  /** Chunk k's ColumnMetaData decoded (what few readers of it the writer has: GeoParquet's bounds). */
  meta(k: number): ColumnMetaData {
    return decodeColumnMetaData(new ByteCursor(this.metas.finish(), k === 0 ? 0 : this.metaEnd[k - 1]!, this.metaEnd[k]!));
  }

  /**
   * Chunks first..first+n, encoded, with the extras' places once they are
   * written: an `Encoded` list, typed as the list it stands for, which the
   * Thrift codec writes as it is.
   */
  encoded(first: number, n: number, places?: ExtrasPlaces): ColumnChunk[] {
    return this.encode(first, n, places) as unknown as ColumnChunk[];
  }

  /** The same chunks as objects (an encrypted footer seals them one by one; the caller of close() may read them). */
  decoded(first: number, n: number, places?: ExtrasPlaces): ColumnChunk[] {
    const c = new ByteCursor(this.encode(first, n, places).bytes);
    const out: ColumnChunk[] = [];
    for (let k = 0; k < n; k++) out.push(columnChunkCodec.decode(c));
    return out;
  }

  private encode(first: number, n: number, places: ExtrasPlaces | undefined): Encoded {
    const w = new ByteWriter(1024);
    for (let k = first; k < first + n; k++) this.encodeChunk(w, k, places);
    return new Encoded(w.finish(), n);
  }

  private encodeChunk(w: ByteWriter, k: number, places: ExtrasPlaces | undefined): void {
    let meta = this.metas.finish().subarray(k === 0 ? 0 : this.metaEnd[k - 1]!, this.metaEnd[k]!);
    const bloom = places?.bloom.get(k);
    if (bloom) {
      // The filter's place is known only at close, and lies inside the metadata: those few chunks are encoded again.
      const m = this.meta(k);
      m.bloomFilterOffset = bloom.offset;
      m.bloomFilterLength = bloom.length;
      this.scratch.reset();
      encodeColumnMetaData(m, this.scratch);
      meta = this.scratch.finish();
    }
    const chunk: ColumnChunk = { fileOffset: this.fileOffset[k]!, metaData: new Encoded(meta) as unknown as ColumnMetaData };
    if (places?.offsetIndex.length[k]) {
      chunk.offsetIndexOffset = places.offsetIndex.offset[k]!;
      chunk.offsetIndexLength = places.offsetIndex.length[k]!;
    }
    if (places?.columnIndex.length[k]) {
      chunk.columnIndexOffset = places.columnIndex.offset[k]!;
      chunk.columnIndexLength = places.columnIndex.length[k]!;
    }
    encodeStruct(tables.ColumnChunk, chunk, w);
  }
}
