/**
 * A file's chunk I/O, shared by its reader (rows, columns, Arrow, filters)
 * and its inspection (`ParquetFile`): located chunks fetched coalesced and
 * made plain, chunks read page by page, the page indexes and bloom filters
 * read so far, and the filter layer's `ScanHost` over all of these; and the
 * decoding ahead a runtime installs (decode-ahead.ts).
 */
import { loadDecompressor, type CodecName } from '../codecs/registry.js';
import { fetchRanges, type Fetched } from '../io/coalesce.js';
import type { Source } from '../io/source.js';
import type { LeafNode } from '../schema/tree.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import type { ChunkLocation, ChunkLocator } from './chunk-locator.js';
import type { ChunkOptions } from './column-chunk.js';
import type { FileDecryptor } from './crypto/decryptor.js';
import type { IndexCache, ScanHost } from './filter/scan.js';
import type { LazyColumn, PageLocation } from './lazy-column.js';
import type { ColumnMetaData, FileMetaData } from './metadata/index.js';
import { loadOnce } from '../load-once.js';

/** What every chunk decoding of a file is given: its open options' checks. */
export type FileChunkOptions = Pick<ChunkOptions, 'verifyChecksums' | 'maxDecompressedBytes'>;

// Loaded by the reads that use them, not by opening a file: filters, page
// indexes and bloom filters; streaming.
export const filtering = loadOnce(() => import('./filter/reader-parts.js'));
// And by the first read of data: chunk decoding and row assembly (a footer read needs none of it).
export type Decoding = typeof import('./row-decoding.js');
let decodingLoaded: Decoding | undefined;
export const decoding = async (): Promise<Decoding> => (decodingLoaded ??= await import('./row-decoding.js'));

/** The decoding module in a read's synchronous steps (a filter's page decoding): every read of data starts with `await decoding()`. */
function loadedDecoding(): Decoding {
  if (!decodingLoaded) throw new Error('internal error: chunk decoding used before its module was loaded');
  return decodingLoaded;
}
const lazyColumn = loadOnce(() => import('./lazy-column.js'));

/** A column chunk's bytes as fetched. */
export interface FetchedChunk {
  ref: ChunkLocation;
  buf: Uint8Array;
  base: number;
}

/** One file's chunk reads (see the module comment): a `ParquetFile` makes one, its reader and its inspection read through it. */
export class ChunkReads {
  /** Page indexes and bloom filters read so far (filters and the index API share them). */
  private indexCache: IndexCache | undefined;
  /** What the filter modules need from the file: chunk locations, coalesced reads, decoding. */
  readonly host: ScanHost;

  constructor(
    private readonly source: Source,
    readonly metadata: FileMetaData,
    private readonly locator: ChunkLocator,
    readonly decryptor: FileDecryptor | undefined,
    readonly chunkOptions: FileChunkOptions,
    /** Where the footer's tail read, held in memory, begins (none held: past the end). */
    private readonly tailFrom: number,
  ) {
    this.host = {
      locator,
      fetch: (ranges) => fetchRanges(source, ranges),
      ...(decryptor ? { decryptor } : {}),
      loadDecoders,
      lazy: (ref, pages) => this.lazyChunk(ref, pages),
      decode: (ref, buf, base, pieces) =>
        loadedDecoding().decodeColumnChunk(buf, base, ref.meta, ref.leaf, { ...chunkOptions, ...(pieces ? { pieces: pieces.pieces, numValues: pieces.numValues } : {}) }, ref.ctx),
      decoded: (decode) => loadedDecoding().withPageEncodings(decode),
    };
  }

  async indexes(): Promise<IndexCache> {
    if (this.indexCache) return this.indexCache;
    const { IndexCache } = await filtering();
    return (this.indexCache ??= new IndexCache(this.host));
  }

  /** Whether the offset indexes of `leaves` in row group `rg` all lie in the footer's tail read, already in memory. */
  offsetIndexesHeld(rg: number, leaves: LeafNode[]): boolean {
    const columns = this.metadata.rowGroups[rg]!.columns;
    return leaves.every((l) => {
      const at = columns[l.columnIndex]!.offsetIndexOffset;
      return at !== undefined && at >= this.tailFrom;
    });
  }

  /** The chunks of `leaves` in row group `rg`: located, their codecs loaded, their bytes fetched (coalesced; into a buffer from `scratch` when given). */
  async fetchChunks(rg: number, leaves: LeafNode[], scratch?: (n: number) => Uint8Array): Promise<FetchedChunk[]> {
    const refs = leaves.map((leaf) => this.locator.locate(rg, leaf));
    await loadDecoders(refs);
    const fetched = await this.plainChunks(refs, scratch);
    return refs.map((ref, i) => ({ ref, ...fetched[i]! }));
  }

  /** Located chunks fetched (coalesced; into a buffer from `scratch` when given), the encrypted ones made plain. */
  async plainChunks(refs: ChunkLocation[], scratch?: (n: number) => Uint8Array): Promise<Fetched[]> {
    const fetched = await fetchRanges(this.source, refs, scratch);
    await this.decryptor?.plainChunks(refs, fetched);
    return fetched;
  }

  /** Fetched chunks read page by page, from memory. */
  async inMemory(fetched: FetchedChunk[]): Promise<LazyColumn[]> {
    const { LazyColumn } = await lazyColumn();
    return fetched.map(({ ref, buf, base }) => new LazyColumn(async (s, e) => buf.subarray(s - base, e - base), base, base + buf.length, ref.meta, ref.leaf, this.chunkOptions, ref.ctx, { inMemory: true }));
  }

  /**
   * A chunk read page by page, its pages fetched as its rows are asked for
   * (`pages`, its offset index's, to pass over pages by); an encrypted one
   * fetched and decrypted whole first.
   */
  async lazyChunk(ref: ChunkLocation, pages?: readonly PageLocation[]): Promise<LazyColumn> {
    if (this.decryptor?.encrypted(ref.chunk, ref.ctx)) {
      const plain = (await this.plainChunks([ref]))[0]!.buf;
      return (await this.inMemory([{ ref, buf: plain, base: ref.start }]))[0]!;
    }
    const { LazyColumn } = await lazyColumn();
    return new LazyColumn((s, e) => this.source.read(s, e - s), ref.start, ref.end, ref.meta, ref.leaf, this.chunkOptions, ref.ctx, { pages });
  }
}

/**
 * Loads what decoding located chunks takes beyond chunk decoding itself: their
 * codecs (none for UNCOMPRESSED, nor LZO, which decoding refuses), and the
 * page encodings their metadata lists beyond PLAIN and dictionaries.
 */
export async function loadDecoders(refs: readonly { meta: ColumnMetaData }[]): Promise<void> {
  const codecs = [...new Set(refs.map((r) => r.meta.codec))].map((c) => (c === 'UNCOMPRESSED' || c === 'LZO' ? undefined : loadDecompressor(c as CodecName)));
  const { needsPageEncodings, loadPageEncodings } = await decoding();
  await Promise.all([...codecs, refs.some((r) => needsPageEncodings(r.meta.encodings)) ? loadPageEncodings() : undefined]);
}

/** A row group's chunks from decoding ahead: decoded, or fetched for the reader to decode. */
export type AheadChunks = { data: ColumnChunkData[] } | { data?: undefined; fetched: FetchedChunk[] };

/**
 * The chunks of a read's row groups, decoded ahead in another thread
 * (decode-ahead.ts, where a runtime registers it): each row group's, in
 * the read's order, decoded or fetched for the reader to decode; undefined
 * when the reader fetches and decodes it itself.
 */
export interface AheadReads {
  chunks(rg: number): Promise<AheadChunks | undefined>;
  close(): void;
}

/**
 * Makes a read's AheadReads for `groups` (those of them with rows are read
 * whole when the read has no `offset` or `limit`), or undefined when the
 * read stays on one thread.
 */
export type MakeAheadReads = (reads: ChunkReads, groups: readonly number[], leaves: LeafNode[], options: { decodeThread?: boolean; offset?: number; limit?: number }) => Promise<AheadReads | undefined>;

/**
 * Decoding ahead, where a runtime installs it (Node's entry points do, at
 * import: a worker thread, src/node/decode-thread.ts). The browser build
 * installs none, so its reads never load decode-ahead.ts.
 */
export const decodeAhead: { make?: MakeAheadReads } = {};
