/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
import { loadCodec, type CodecName } from '../codecs/registry.js';
import { CorruptFileError, InvalidArgumentError, withContext, type ErrorContext } from '../errors.js';
import { bufferSource, inputSource, withCachedTail, type ReadInput, type Source, type UrlOptions } from '../io/source.js';
import { ReadBuffers } from '../io/read-buffers.js';
import type { ValueOptions } from '../schema/convert.js';
import { buildSchema, type ColumnPath, type LeafNode, type Schema, type SchemaElementLike, type SchemaNode } from '../schema/tree.js';
import type { RecordAssembler } from '../shred/assemble.js';
import { findColumn, selectLeaves as selectSchemaLeaves } from '../schema/select.js';
import { checkEmptyRows } from '../shred/empty-rows.js';
import { leavesInVariants, planRecord, type Plan, type RecordPlan } from '../shred/plan.js';
import type { ChunkStream } from './chunk-stream.js';
import type { ChunkOptions, LevelBuffers } from './column-chunk.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import { collectRows, rowsOfBatches } from './batch-rows.js';
import { DEFAULT_MAX_PAGE_BYTES } from './page-bounds.js';
import { readFooter } from './footer.js';
import type { FileDecryptor } from './crypto/decryptor.js';
import type { DecryptionOptions } from './crypto/options.js';
import { httpChunkFiles, joinChunkFiles, type ChunkFileLocator, type OpenChunkFile } from './file-path.js';
import type { Values } from '../encodings/types.js';
import type { BloomFilterHeader, ColumnIndex, FileMetaData, OffsetIndex, RowGroup } from './metadata/index.js';
import type { BoundFilter, Filter, FilterColumn } from './filter/expression.js';
import type { PageIndexEntry } from './filter/indexes.js';
import type { FilteredGroup, IndexCache, ScanHost } from './filter/scan.js';
import type { ChunkGroup } from '../arrow/batches.js';
import type { RecordBatch, Table } from '../arrow/peer.js';
import { ChunkLocator, dictionaryBytes, readsNoChunks, type ChunkLocation } from './chunk-locator.js';
import { fetchRanges, type Fetched } from '../io/coalesce.js';
import type { LazyColumn, PageLocation } from './lazy-column.js';
import { RowSelection } from './row-selection.js';

// Loaded by the reads that use them, not by opening a file: filters, page
// indexes and bloom filters; VARIANT assembly; Arrow output; streaming.
const filtering = () => import('./filter/reader-parts.js');
// And by the first read of data: chunk decoding and row assembly (a footer read needs none of it).
type Decoding = typeof import('./row-decoding.js');
let decodingLoaded: Decoding | undefined;
const decoding = async (): Promise<Decoding> => (decodingLoaded ??= await import('./row-decoding.js'));

/** The decoding module in a read's synchronous steps (a filter's page decoding): every read of data starts with `await decoding()`. */
function loadedDecoding(): Decoding {
  if (!decodingLoaded) throw new Error('internal error: chunk decoding used before its module was loaded');
  return decodingLoaded;
}
const lazyColumn = () => import('./lazy-column.js');
const arrow = () => Promise.all([import('../arrow/batches.js'), import('../arrow/types.js')]);

/** A column chunk's bloom filter, as `readBloomFilter` gives it. */
export interface BloomFilterProbe {
  header: BloomFilterHeader;
  /** Whether `value` (as filters take it) may be in the chunk: false means it surely is not. */
  mightContain(value: unknown): boolean;
}


/**
 * How `ParquetReader.open` and `openParquet` read a file: checksums, page size limits, keys, URL
 * settings.
 */
export interface OpenOptions extends UrlOptions {
  /** Verify page CRC-32 checksums where pages carry them (default true). */
  verifyChecksums?: boolean;
  /**
   * Largest decompressed size a page may declare, in bytes (default 2^30):
   * a page claiming more is refused with a LimitError before it is inflated.
   */
  maxDecompressedBytes?: number;
  /** Keys and settings for files written with Parquet modular encryption (docs/encryption.md). */
  decryption?: DecryptionOptions;
  /**
   * Opens the file a column chunk's `file_path` names, once the path is
   * checked (relative to this file, never leaving its directory unless
   * `allowOutsideRoot`). A URL input opens them over HTTP by default, and
   * `openParquet` opens local paths; without it such chunks are refused.
   */
  openFile?: OpenChunkFile;
  /** Let a column chunk's `file_path` name a file outside this file's directory, or an absolute one (default false). */
  allowOutsideRoot?: boolean;
}

/**
 * What `rows()`, `rowBatches()` and `readRows()` read: columns, row groups, a row range, a filter,
 * and the JS forms of values (docs/reading.md, "Reader options").
 */
export interface ReadOptions extends ValueOptions {
  /**
   * Columns to read: dotted paths (`a`, `a.b.c`) or name arrays (`['a.b', 'c']`
   * for names that contain dots); a group selects everything under it. Default: all.
   */
  columns?: readonly ColumnPath[];
  /** Row groups to read, by index. Default: all. */
  rowGroups?: readonly number[];
  /** Rows to skip first (counted within the selected row groups). */
  offset?: number;
  /** Most rows to return. */
  limit?: number;
  /**
   * Only rows matching this filter (docs/filtering.md); `offset` and
   * `limit` count matching rows. Row groups and pages that cannot match are
   * not read; columns used only by the filter are not returned.
   */
  filter?: Filter;
  /**
   * VARIANT values: 'plain' (default) in the JS forms of docs/variant.md;
   * 'typed' gives the primitives whose JS form loses their variant type
   * (integers, floats, decimals, dates, times, timestamps, UUIDs) as
   * `VariantValue`s, which a writer encodes again as the same types.
   */
  variants?: 'plain' | 'typed';
}

/** What `toArrow` and `arrowBatches` read. */
export interface ArrowOptions extends Pick<ReadOptions, 'columns' | 'rowGroups' | 'offset' | 'limit' | 'filter'> {
  /**
   * String and binary columns whose chunks all have a dictionary page become
   * Arrow Dictionary vectors (Int32 indices), without decoding the strings;
   * a chunk that fell back to plain pages joins them as a dictionary of its own
   * values. Default true; false gives plain Utf8/Binary vectors.
   */
  dictionary?: boolean;
  /**
   * Apply the Arrow schema a writer stored in the file (`ARROW:schema`, as
   * arrow-rs, pyarrow and parquetry store it): time zone names, Large
   * types, dictionary index types, Date64, durations, interval units, as
   * arrow-rs reads them. Default true; false gives the Parquet types alone.
   */
  arrowSchema?: boolean;
}

/** One leaf column of one row group, as column vectors. */
export interface ColumnBatch {
  rowGroup: number;
  /** Path of the leaf column. */
  path: string[];
  leaf: LeafNode;
  /** Rows in this row group. */
  numRows: number;
  /**
   * The rows of the row group this batch holds: all of them (0 and
   * numRows), except in a chunk of more than 2^20 levels packed denser
   * than its bytes could back decoded (runs of nulls or of one value),
   * which comes in batches of up to 65,536 rows.
   */
  firstRow: number;
  rows: number;
  /** Levels and values (see ColumnChunkData). */
  data: ColumnChunkData;
}

/** A column chunk's bytes as fetched. */
interface FetchedChunk {
  ref: ChunkLocation;
  buf: Uint8Array;
  base: number;
}

/** A row group's chunks as fetched, and the reused buffer they were read into (see ReadBuffers), to give back once decoded. */
interface FetchedGroup {
  chunks: FetchedChunk[];
  scratch: Uint8Array | undefined;
}

/**
 * A chunk that claims more levels than this, more densely than ordinary data
 * packs them (LEVELS_PER_BYTE a byte of the chunk: runs of nulls or of one
 * value), is decoded a window of rows at a time (chunk-stream.ts), never
 * whole; so are reads of part of a row group. Other chunks are decoded
 * whole, the fastest way, into memory in proportion to their bytes.
 */
const STREAM_LEVELS = 1 << 20;
const LEVELS_PER_BYTE = 64;
/** Rows per window of a streamed row group. */
const WINDOW_ROWS = 1 << 16;

/**
 * A Parquet file's reader. `Row` is the type its rows are given as: by
 * default `Record<string, unknown>`; name it to have typed rows, for example
 * from the schema the file was written with:
 *
 * @example
 * ```ts
 * const schema = defineSchema({ id: field.int64().required(), price: field.double() });
 * const reader = await openParquet<InferRow<typeof schema>>('prices.parquet');
 * let total = 0;
 * for await (const row of reader.rows()) total += row.price ?? 0;
 * ```
 *
 * The type is the caller's statement about the file, not checked against it.
 * `await using reader = await openParquet(...)` closes it at the end of the scope.
 */
export class ParquetReader<Row = Record<string, unknown>> {
  private constructor(
    private readonly source: Source,
    readonly metadata: FileMetaData,
    readonly schema: Schema,
    private readonly chunkOptions: Pick<ChunkOptions, 'verifyChecksums' | 'maxDecompressedBytes'>,
    /** An encrypted file's keys and ciphers; page-headers.ts decrypts header modules with it. */
    readonly decryptor: FileDecryptor | undefined,
    /** Where an offset of `bytes` lies when chunks of other files are joined to this one (file-path.ts). */
    private readonly chunkFiles?: ChunkFileLocator,
  ) {
    this.locator = new ChunkLocator(metadata, source.byteLength, { name: source.name, decryptor, locateFile: chunkFiles });
  }

  /**
   * Opens a Parquet file from bytes, a URL or a source object, reading only its footer.
   *
   * @example
   * ```ts
   * const reader = await ParquetReader.open(new URL('https://example.com/data.parquet'));
   * console.log(reader.numRows, reader.schema.leaves.length);
   * ```
   */
  static async open<Row = Record<string, unknown>>(input: ReadInput, options: OpenOptions = {}): Promise<ParquetReader<Row>> {
    const openFile = options.openFile ?? (input instanceof URL ? httpChunkFiles(options.headers) : undefined);
    return ParquetReader.fromSource<Row>(await inputSource(input, options), { ...options, openFile });
  }

  /** Page indexes and bloom filters read so far (filters and the index API share them). */
  private indexCache: IndexCache | undefined;

  /** Where the file's column chunks lie. */
  readonly locator: ChunkLocator;

  /**
   * Opens a Parquet file through a Source already made (`bufferSource`, `httpSource`, `blobSource`
   * or your own), reading only its footer.
   */
  static async fromSource<Row = Record<string, unknown>>(source: Source, options: OpenOptions = {}): Promise<ParquetReader<Row>> {
    const chunkOptions = checkedChunkOptions(options);
    const footer = await readFooter(source, options.decryption);
    const { offset, tail, tailOffset, decryptor } = footer;
    // Schema faults are in the footer: point at it (the schema's own elements carry no offsets once decoded).
    const schema = withContext({ file: source.name, offset }, () => buildSchema(footer.metadata.schema as SchemaElementLike[]));
    validateRowGroups(footer.metadata, schema, source);
    if (decryptor) decryptor.verifyChecksums = chunkOptions.verifyChecksums;
    const joined = await joinChunkFiles(source, footer.metadata, options, decryptor !== undefined);
    const reader = new ParquetReader<Row>(withCachedTail(joined.source, tail, tailOffset), joined.metadata, schema, chunkOptions, decryptor, joined.locate);
    reader.tailFrom = tailOffset;
    return reader;
  }

  /**
   * A reader of a plaintext file whose FileMetaData is already known (a
   * footer read before, or a dataset's `_metadata` cut down to this file's
   * row groups): nothing is read until rows are.
   */
  static fromMetadata<Row = Record<string, unknown>>(source: Source, metadata: FileMetaData, options: Omit<OpenOptions, 'decryption' | 'openFile' | 'allowOutsideRoot'> = {}): ParquetReader<Row> {
    const chunkOptions = checkedChunkOptions(options);
    const schema = withContext({ file: source.name }, () => buildSchema(metadata.schema as SchemaElementLike[]));
    validateRowGroups(metadata, schema, source);
    return new ParquetReader<Row>(source, metadata, schema, chunkOptions, undefined);
  }

  /**
   * Rows in the file, from the row groups alone: writers that leave the
   * footer's num_rows at 0 still get the right count.
   */
  get numRows(): number {
    let n = 0;
    for (const rg of this.metadata.rowGroups) n += rg.numRows;
    return n;
  }

  /** The file's name as its source gives it (a path or URL), used in error messages. */
  get name(): string | undefined {
    return this.source.name;
  }

  /**
   * The bytes the metadata's offsets point into, for tools that read raw
   * pages: the file, with the files its chunks' `file_path` names joined
   * after it (file-path.ts).
   */
  get bytes(): Source {
    return this.source;
  }

  /** Where the footer's tail read, held in memory, begins (none held: past the end). */
  private tailFrom = Infinity;

  /** Where an offset of `bytes` lies: the `file_path` of the file it is in (none: this file) and the offset there. */
  locate(offset: number): { filePath?: string; offset: number } {
    return this.chunkFiles ? this.chunkFiles(offset) : { offset };
  }

  /** Closes the file's source; the reader cannot read after it. */
  async close(): Promise<void> {
    await this.source.close?.();
  }

  /** `await using reader = await openParquet(...)`: closed when the scope ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Leaf columns selected by dotted paths (all leaves when `paths` is absent). */
  selectLeaves(paths?: readonly ColumnPath[]): LeafNode[] {
    return selectSchemaLeaves(this.schema, paths, { file: this.source.name });
  }

  /** The assembly plan for a projection; also what the canonical printer walks. */
  plan(paths?: readonly ColumnPath[]): RecordPlan {
    const keep = new Set(this.selectLeaves(paths));
    return planRecord(this.schema.root, (l) => keep.has(l));
  }

  /**
   * Rows as plain objects, one at a time. Only the current row group's
   * column chunks are held in memory.
   *
   * @example
   * ```ts
   * for await (const row of reader.rows({ columns: ['id', 'address.city'], filter: parseWhere('id > 100'), limit: 10 })) {
   *   console.log(row.id, row.address);
   * }
   * ```
   */
  rows(options: ReadOptions = {}): AsyncIterableIterator<Row> {
    return rowsOfBatches(this.rowBatches(options));
  }

  /**
   * All selected rows in one array: convenient for small files and projections.
   *
   * @example
   * ```ts
   * const first = await reader.readRows({ columns: ['id', 'name'], limit: 100 });
   * ```
   */
  async readRows(options: ReadOptions = {}): Promise<Row[]> {
    return collectRows(this.rowBatches(options));
  }

  /**
   * Rows in arrays of at most `batchSize` (default 4096): the fastest way to
   * consume rows, since an async step per batch costs far less than one per row.
   */
  rowBatches(options: ReadOptions & { batchSize?: number } = {}): AsyncGenerator<Row[]> {
    // Rows are assembled untyped: Row is the caller's statement about the file.
    return this.recordBatches(options) as AsyncGenerator<Row[]>;
  }

  private async *recordBatches(options: ReadOptions & { batchSize?: number }): AsyncGenerator<Record<string, unknown>[]> {
    const plan = this.plan(options.columns);
    const batchSize = options.batchSize === undefined ? 4096 : checkCount(options.batchSize, 'batchSize');
    if (batchSize === 0) throw new InvalidArgumentError('batchSize must be at least 1');
    let skip = checkCount(options.offset ?? 0, 'offset');
    let left = options.limit === undefined ? Infinity : checkCount(options.limit, 'limit');
    const leafOptions = valueOptionsPerLeaf(plan, options);
    if (options.filter !== undefined) {
      yield* this.filteredBatches(plan, await this.bindFilter(options.filter), options, batchSize, skip, left);
      return;
    }
    const groups = this.rowGroupIndexes(options.rowGroups);
    const [finishVariant, { leafColumn, RecordAssembler }] = await Promise.all([variantAssembly(plan, options.variants === 'typed'), decoding()]);
    if (plan.leaves.length === 0) {
      const claimed = groups.reduce((n, rg) => n + this.metadata.rowGroups[rg]!.numRows, 0);
      // The claim is the row groups' num_rows: name the first, where the count starts.
      checkEmptyRows(Math.min(left, Math.max(0, claimed - skip)), { file: this.source.name, rowGroup: groups[0] });
    }
    for (const rg of groups) {
      if (left <= 0) return;
      const n = this.metadata.rowGroups[rg]!.numRows;
      if (skip >= n) {
        skip -= n;
        continue;
      }
      const take = Math.min(n - skip, left);
      // A read that starts further in than the row group's first row finds its pages by the offset index, as does one whose offset
      // indexes cost nothing (held from the footer's tail read); otherwise pages are read lazily from the start.
      const part = take < n && (skip > 0 || this.offsetIndexesHeld(rg, plan.leaves)) ? await this.readRowRange(rg, plan.leaves, skip, skip + take) : null;
      if (!part && plan.leaves.length > 0 && (take < n || this.large(rg, plan.leaves))) {
        yield* this.streamedBatches(rg, plan, leafOptions, finishVariant, batchSize, skip, take);
        skip = 0;
        left -= take;
        continue;
      }
      if (part) skip = 0; // the pages read hold exactly the rows asked for
      const chunks = part ?? await this.readChunks(rg, plan.leaves);
      const ctx = { file: this.source.name, rowGroup: rg };
      const cols = plan.leaves.map((leaf, i) => withContext({ ...ctx, column: leaf.path.join('.') }, () => leafColumn(leaf, chunks[i]!, leafOptions[i]!)));
      const asm = new RecordAssembler(plan, cols, finishVariant);
      if (skip > 0) withContext(ctx, () => asm.skipRows(skip));
      yield* assembledBatches(asm, ctx, take, batchSize);
      if (skip === 0 && take === n) withContext(ctx, () => asm.finish());
      skip = 0;
      left -= take;
    }
  }

  /**
   * Rows [skip, skip + take) of row group `rg`, decoded a window of rows at
   * a time: each window's levels and values are assembled and let go before
   * the next is decoded. Part of a row group is read lazily, page by page
   * (lazy-column.ts); the whole of one is fetched first, in one coalesced read.
   */
  private async *streamedBatches(rg: number, plan: RecordPlan, leafOptions: ValueOptions[], finishVariant: VariantAssembly, batchSize: number, skip: number, take: number): AsyncGenerator<Record<string, unknown>[]> {
    const ctx = { file: this.source.name, rowGroup: rg };
    const whole = take === this.metadata.rowGroups[rg]!.numRows;
    const [columns, { leafColumn, RecordAssembler }] = await Promise.all([this.lazyColumns(rg, plan.leaves, whole), decoding()]);
    const selection = RowSelection.all(this.metadata.rowGroups[rg]!.numRows).slice(skip, take);
    let at = 0;
    for (const range of selection.ranges) {
      await Promise.all(columns.map((c) => c.skip(range.start - at)));
      for (let left = range.end - range.start; left > 0; ) {
        // The first window only as large as the read: a limit of 3 decodes 3 rows.
        const k = Math.min(left, WINDOW_ROWS);
        const data = await Promise.all(columns.map((c) => c.take(k)));
        const cols = plan.leaves.map((leaf, i) => withContext({ ...ctx, column: leaf.path.join('.') }, () => leafColumn(leaf, data[i]!, leafOptions[i]!)));
        const asm = new RecordAssembler(plan, cols, finishVariant);
        yield* assembledBatches(asm, ctx, k, batchSize);
        // A window holds exactly its rows in every leaf: all its levels and values are used.
        withContext(ctx, () => asm.finish());
        left -= k;
      }
      at = range.end;
    }
    if (whole) await Promise.all(columns.map((c) => c.finish()));
  }

  /**
   * The chunks of `leaves` in row group `rg`, to read page by page:
   * `whole`, fetched first (coalesced); else fetched as their rows are asked for.
   */
  private async lazyColumns(rg: number, leaves: LeafNode[], whole: boolean): Promise<LazyColumn[]> {
    const { LazyColumn } = await lazyColumn();
    if (whole) {
      const fetched = await this.fetchChunks(rg, leaves);
      return fetched.map(({ ref, buf, base }) => new LazyColumn(async (s, e) => buf.subarray(s - base, e - base), base, base + buf.length, ref.meta, ref.leaf, this.chunkOptions, ref.ctx, { inMemory: true }));
    }
    const host = this.scanHost();
    const refs = leaves.map((leaf) => this.locator.locate(rg, leaf));
    await host.loadCodecs(refs);
    return Promise.all(refs.map((ref) => host.lazy(ref)));
  }

  /**
   * A chunk read page by page, its pages fetched as its rows are asked for
   * (`pages`, its offset index's, to pass over pages by); an encrypted one
   * fetched and decrypted whole first.
   */
  private async lazyChunk(ref: ChunkLocation, pages?: readonly PageLocation[]): Promise<LazyColumn> {
    const { LazyColumn } = await lazyColumn();
    if (this.decryptor?.encrypted(ref.chunk, ref.ctx)) {
      const plain = (await this.plainChunks([ref]))[0]!.buf;
      return new LazyColumn(async (s, e) => plain.subarray(s - ref.start, e - ref.start), ref.start, ref.start + plain.length, ref.meta, ref.leaf, this.chunkOptions, ref.ctx, { inMemory: true });
    }
    return new LazyColumn((s, e) => this.source.read(s, e - s), ref.start, ref.end, ref.meta, ref.leaf, this.chunkOptions, ref.ctx, { pages });
  }

  /**
   * Column vectors: for each selected row group, one batch per selected leaf column (a large chunk in several, see ColumnBatch).
   *
   * @example
   * ```ts
   * let sum = 0;
   * for await (const batch of reader.columns({ columns: ['price'] })) {
   *   for (const v of batch.data.values as Float64Array) sum += v; // the non-null values
   * }
   * ```
   */
  async *columns(options: Pick<ReadOptions, 'columns' | 'rowGroups'> = {}): AsyncGenerator<ColumnBatch> {
    const leaves = this.selectLeaves(options.columns);
    for (const rg of this.rowGroupIndexes(options.rowGroups)) {
      const numRows = this.metadata.rowGroups[rg]!.numRows;
      if (readsNoChunks(this.metadata.rowGroups[rg]!)) continue;
      if (this.large(rg, leaves)) {
        for (const leaf of leaves) {
          const [stream] = await this.chunkStreams(rg, [leaf]);
          for (let first = 0; first < numRows; first += WINDOW_ROWS) {
            const rows = Math.min(WINDOW_ROWS, numRows - first);
            yield { rowGroup: rg, path: leaf.path, leaf, numRows, firstRow: first, rows, data: stream!.take(rows) };
          }
          stream!.finish();
        }
        continue;
      }
      const chunks = await this.readChunks(rg, leaves);
      for (let i = 0; i < leaves.length; i++) {
        yield { rowGroup: rg, path: leaves[i]!.path, leaf: leaves[i]!, numRows, firstRow: 0, rows: numRows, data: chunks[i]! };
      }
    }
  }

  /**
   * The selected rows as an Arrow `Table` (needs the optional peer dependency
   * `apache-arrow`), built from column vectors: no row objects in between.
   *
   * ```ts
   * const table = await reader.toArrow({ columns: ['id', 'name'], filter: { column: 'id', op: '<', value: 100 } });
   * console.log(table.numRows, table.schema.fields.map(String));
   * ```
   */
  async toArrow(options: ArrowOptions = {}): Promise<Table> {
    const plan = this.plan(options.columns);
    const [{ arrowTable }, types] = await arrow();
    return arrowTable(this.arrowPlan(plan, options, types.dictionaryCapable), this.chunkGroups(plan, options), this.arrowMetadata());
  }

  /** The selected rows as Arrow `RecordBatch`es, one per row group (see `toArrow`). */
  arrowBatches(options: ArrowOptions = {}): AsyncGenerator<RecordBatch> {
    const plan = this.plan(options.columns);
    this.rowGroupIndexes(options.rowGroups);
    return this.arrowBatchesOf(plan, options);
  }

  /** arrowBatches once the Arrow modules have loaded: the columns and row groups are checked before, at the call. */
  private async *arrowBatchesOf(plan: RecordPlan, options: ArrowOptions): AsyncGenerator<RecordBatch> {
    const [{ arrowBatches }, types] = await arrow();
    yield* arrowBatches(this.arrowPlan(plan, options, types.dictionaryCapable), this.chunkGroups(plan, options), this.arrowMetadata());
  }

  private arrowPlan(plan: RecordPlan, options: ArrowOptions, dictionaryCapable: (leaf: LeafNode) => boolean) {
    const groups = this.rowGroupIndexes(options.rowGroups);
    const dictionary = plan.leaves.map((leaf) => options.dictionary !== false && dictionaryCapable(leaf) && groups.every((rg) => {
      const meta = this.metadata.rowGroups[rg]!.columns[leaf.columnIndex]?.metaData;
      return meta !== undefined && (meta.dictionaryPageOffset !== undefined || meta.encodings.some((e) => e === 'PLAIN_DICTIONARY' || e === 'RLE_DICTIONARY'));
    }));
    return { plan, dictionary, stored: options.arrowSchema === false ? undefined : { dictionary: options.dictionary !== false } };
  }

  /** The file's key-value metadata, as Arrow schema metadata. */
  private arrowMetadata(): Map<string, string> | undefined {
    const kv = this.metadata.keyValueMetadata;
    return kv?.length ? new Map(kv.map((e) => [e.key, e.value ?? ''])) : undefined;
  }

  /**
   * Each selected row group's decoded chunks for a plan's leaves, with the
   * rows that offset, limit and a filter keep: for consumers that build their
   * own output from column vectors (Arrow).
   */
  private async *chunkGroups(plan: RecordPlan, options: ReadOptions): AsyncGenerator<ChunkGroup> {
    let skip = checkCount(options.offset ?? 0, 'offset');
    let left = options.limit === undefined ? Infinity : checkCount(options.limit, 'limit');
    const filter = options.filter === undefined ? undefined : await this.bindFilter(options.filter);
    const groups = this.rowGroupIndexes(options.rowGroups);
    // The next row group's chunks are fetched while the consumer builds from this one's.
    let next: { rg: number; chunks: Promise<FetchedGroup> } | undefined;
    const buffers = this.source.readInto ? new ReadBuffers() : undefined;
    const dec = await decoding();
    const levels = new dec.LevelBuffers();
    for (const [at, rg] of groups.entries()) {
      if (left <= 0) return;
      // A filtered row group comes in the parts its scan reads; an unfiltered one whole.
      const parts = filter ? this.filteredParts(rg, filter, plan.leaves, skip + left) : [null];
      for await (const got of parts) {
        if (left <= 0) return;
        const ctx = { file: this.source.name, rowGroup: rg };
        let numRows = this.metadata.rowGroups[rg]!.numRows;
        let matching: Int32Array | null = null;
        let chunks: ColumnChunkData[] | undefined;
        if (got) ({ rows: numRows, selected: matching, columns: chunks } = got);
        const count = matching ? matching.length : numRows;
        if (skip >= count) {
          skip -= count;
          continue;
        }
        const take = Math.min(count - skip, left);
        let rows = matching;
        if (skip > 0 || take < count) {
          rows = new Int32Array(take);
          for (let i = 0; i < take; i++) rows[i] = matching ? matching[skip + i]! : skip + i;
        }
        skip = 0;
        left -= take;
        if (!chunks) {
          const fetched = next?.rg === rg ? await next.chunks : await this.fetchGroup(rg, plan.leaves, buffers);
          next = undefined;
          const following = groups[at + 1];
          if (!filter && left > 0 && following !== undefined) {
            next = { rg: following, chunks: this.fetchGroup(following, plan.leaves, buffers) };
            // Awaited when its turn comes; a read that stops first drops it without an unhandled rejection.
            next.chunks.catch(() => undefined);
          }
          chunks = this.decodeChunks(dec, fetched.chunks, levels);
          if (fetched.scratch) buffers!.give(fetched.scratch);
        }
        const decoded = chunks;
        const release = () => {
          for (const c of decoded) {
            levels.give(c.def);
            levels.give(c.rep);
          }
        };
        yield { rowGroup: rg, numRows, chunks, rows, ctx, release };
      }
    }
  }

  /** A row group's parts under a filter: what one scan reads, or, to find at most `want` matching rows, windows until they match. */
  private async *filteredParts(rg: number, filter: BoundFilter, leaves: LeafNode[], want: number): AsyncGenerator<FilteredGroup> {
    const [{ scanRowGroup, scanRowGroupUntil }, indexes] = await Promise.all([filtering(), this.indexes()]);
    if (want !== Infinity) {
      yield* scanRowGroupUntil(this.scanHost(), indexes, rg, filter, leaves, want);
      return;
    }
    const got = await scanRowGroup(this.scanHost(), indexes, rg, filter, leaves);
    if (got) yield got;
  }

  /** Whether a chunk of `leaves` in row group `rg` claims more levels than are decoded whole (see STREAM_LEVELS). */
  private large(rg: number, leaves: LeafNode[]): boolean {
    const columns = this.metadata.rowGroups[rg]!.columns;
    return leaves.some((l) => {
      const m = columns[l.columnIndex]!.metaData;
      return m !== undefined && m.numValues > STREAM_LEVELS && !(m.numValues <= LEVELS_PER_BYTE * m.totalCompressedSize);
    });
  }

  /** Rows of the selected row groups that match a filter, pruned as docs/filtering.md describes. */
  private async *filteredBatches(plan: RecordPlan, filter: BoundFilter, options: ReadOptions, batchSize: number, skip: number, left: number): AsyncGenerator<Record<string, unknown>[]> {
    const leafOptions = valueOptionsPerLeaf(plan, options);
    const [finishVariant, { leafColumn, RecordAssembler }] = await Promise.all([variantAssembly(plan, options.variants === 'typed'), decoding()]);
    for (const rg of this.rowGroupIndexes(options.rowGroups)) {
      if (left <= 0) return;
      const ctx = { file: this.source.name, rowGroup: rg };
      // With a limit, the row group is scanned a window at a time and left once enough rows match.
      for await (const got of this.filteredParts(rg, filter, plan.leaves, skip + left)) {
        if (left <= 0) break;
        if (got.selected.length <= skip) {
          skip -= got.selected.length;
          continue;
        }
        const { selected } = got;
        const cols = plan.leaves.map((leaf, i) => withContext({ ...ctx, column: leaf.path.join('.') }, () => leafColumn(leaf, got.columns[i]!, leafOptions[i]!)));
        const asm = new RecordAssembler(plan, cols, finishVariant);
        const end = Math.min(selected.length, skip + left);
        let at = 0; // rows the assembler has passed
        for (let k = skip; k < end; ) {
          const size = Math.min(batchSize, end - k);
          const batch = withContext(ctx, () => {
            const rows = new Array<Record<string, unknown>>(size);
            for (let j = 0; j < size; j++) {
              const row = selected[k + j]!;
              if (row > at) asm.skipRows(row - at);
              rows[j] = asm.readRow();
              at = row + 1;
            }
            return rows;
          });
          k += size;
          yield batch;
        }
        left -= end - skip;
        skip = 0;
      }
    }
  }

  /** A filter bound to this file's columns (each must name a leaf). */
  private async bindFilter(filter: Filter): Promise<BoundFilter> {
    const { bindFilter } = await filtering();
    const variants = hasVariant(this.schema.root) ? await import('./variant/filter.js') : undefined;
    return withContext({ file: this.source.name }, () => bindFilter(filter, (c) => this.filterColumn(c, variants)));
  }

  /** A filter's column: a leaf, or else a path inside a shredded VARIANT (variant/filter.ts). */
  private filterColumn(column: ColumnPath, variants: typeof import('./variant/filter.js') | undefined): FilterColumn {
    const names: readonly string[] = typeof column === 'string' ? column.split('.') : Array.isArray(column) ? column : [];
    // A path the schema has as it is names that column (the physical columns of a variant included).
    if (variants && !findColumn(this.schema.root, names)) {
      let node: SchemaNode = this.schema.root;
      for (let i = 0; i < names.length && !node.isLeaf; i++) {
        const next: SchemaNode | undefined = node.children.find((c) => c.name === names[i]);
        if (!next) break;
        if (!next.isLeaf && next.kind === 'variant') {
          const { typed, residual } = variants.variantFilterTarget(next, names.slice(i + 1));
          return { typed, residual, reader: (big) => variants.residualReader(typed, big) };
        }
        node = next;
      }
    }
    return this.leafFor(column);
  }

  /** The leaf column a path names; an unknown path or a group is an InvalidArgumentError. */
  private leafFor(column: ColumnPath): LeafNode {
    const name = typeof column === 'string' ? column : Array.isArray(column) ? column.join('.') : String(column);
    if (typeof column !== 'string' && !Array.isArray(column)) throw new InvalidArgumentError(`a column must be a dotted path or an array of names, got ${name}`);
    const leaves = this.selectLeaves([column]);
    const same = (l: LeafNode): boolean => (typeof column === 'string' ? l.path.join('.') === column : l.path.length === column.length && l.path.every((x, i) => x === column[i]));
    const leaf = leaves.length === 1 && same(leaves[0]!) ? leaves[0]! : undefined;
    if (!leaf) throw new InvalidArgumentError(`column "${name}" is a group, not a leaf column`, { file: this.source.name, column: name });
    return leaf;
  }

  private checkRowGroup(rowGroup: number): void {
    this.rowGroupIndexes([rowGroup]);
  }

  private async indexes(): Promise<IndexCache> {
    if (this.indexCache) return this.indexCache;
    const { IndexCache } = await filtering();
    return (this.indexCache ??= new IndexCache(this.scanHost()));
  }

  /** What the filter modules need from the reader: chunk locations, coalesced reads, decoding. */
  private scanHost(): ScanHost {
    return {
      locator: this.locator,
      fetch: (ranges) => fetchRanges(this.source, ranges),
      ...(this.decryptor ? { decryptor: this.decryptor } : {}),
      loadCodecs: async (refs) => {
        await Promise.all([...new Set(refs.map((r) => r.meta.codec))].map((c) => (c === 'UNCOMPRESSED' || c === 'LZO' ? undefined : loadCodec(c as CodecName))));
      },
      lazy: (ref, pages) => this.lazyChunk(ref, pages),
      decode: (ref, buf, base, pieces) =>
        loadedDecoding().decodeColumnChunk(buf, base, ref.meta, ref.leaf, { ...this.chunkOptions, ...(pieces ? { pieces: pieces.pieces, numValues: pieces.numValues } : {}) }, ref.ctx),
    };
  }

  /** The column index (per-page statistics) of a column chunk, or null when the file has none; checked against the offset index. */
  async readColumnIndex(rowGroup: number, column: ColumnPath): Promise<ColumnIndex | null> {
    this.checkRowGroup(rowGroup);
    return (await (await this.indexes()).pageIndexes(rowGroup, this.leafFor(column))).ci;
  }

  /** The offset index (page locations and first rows) of a column chunk, or null when the file has none. */
  async readOffsetIndex(rowGroup: number, column: ColumnPath): Promise<OffsetIndex | null> {
    this.checkRowGroup(rowGroup);
    return (await (await this.indexes()).pageIndexes(rowGroup, this.leafFor(column))).oi;
  }

  /**
   * A column chunk's pages from its page index: location, rows, null
   * counts and bounds as JS values. Null when the chunk has no offset index
   * (without a column index, only locations and rows are given).
   */
  async pageIndex(rowGroup: number, column: ColumnPath): Promise<PageIndexEntry[] | null> {
    this.checkRowGroup(rowGroup);
    const leaf = this.leafFor(column);
    const [{ ci, oi }, { pageEntries }] = await Promise.all([(await this.indexes()).pageIndexes(rowGroup, leaf), filtering()]);
    return oi ? pageEntries(leaf, oi, ci, this.metadata.rowGroups[rowGroup]!.numRows) : null;
  }

  /**
   * A column chunk's bloom filter, or null when it has none. `mightContain`
   * takes a value as filters do (docs/filtering.md); false means the value
   * is surely not in the chunk.
   */
  async readBloomFilter(rowGroup: number, column: ColumnPath): Promise<BloomFilterProbe | null> {
    this.checkRowGroup(rowGroup);
    const leaf = this.leafFor(column);
    const { loadBloomHasher, domainOf, bloomMightContain } = await filtering();
    const [bf] = await Promise.all([(await this.indexes()).bloom(rowGroup, leaf), loadBloomHasher()]);
    if (!bf) return null;
    const domain = domainOf(leaf);
    return { header: bf.header, mightContain: (value) => bloomMightContain(domain, bf, domain.literal(value)) };
  }

  /**
   * The entries of a column chunk's dictionary page as stored (physical
   * values, in dictionary order), or null when the chunk has none. Only the
   * dictionary page is read.
   */
  async readDictionary(rowGroup: number, column: ColumnPath): Promise<Values | null> {
    this.checkRowGroup(rowGroup);
    const leaf = this.leafFor(column);
    if (readsNoChunks(this.metadata.rowGroups[rowGroup]!)) return null;
    const loc = this.locator.locate(rowGroup, leaf);
    const { readDictionaryPage } = await decoding();
    if (this.decryptor?.encrypted(loc.chunk, loc.ctx)) {
      // Only decrypted pages can be walked: the chunk is read whole.
      const plain = (await this.plainChunks([loc]))[0]!.buf;
      return readDictionaryPage(bufferSource(plain), { start: 0, end: plain.length }, loc, this.chunkOptions);
    }
    return readDictionaryPage(this.source, dictionaryBytes(loc), loc, this.chunkOptions);
  }

  private rowGroupIndexes(selected?: readonly number[]): number[] {
    const count = this.metadata.rowGroups.length;
    if (!selected) return Array.from({ length: count }, (_, i) => i);
    for (const i of selected) {
      if (!Number.isInteger(i) || i < 0 || i >= count) throw new InvalidArgumentError(`row group ${i} does not exist (the file has ${count})`);
    }
    return [...selected];
  }

  /**
   * Rows [start, end) of row group `rg` when some chunk has an offset index:
   * only the pages holding those rows are fetched and decoded (the filter
   * path's page pruning, with the range in place of the filter's). Null
   * when no chunk has one, for the whole-chunk read.
   */
  private async readRowRange(rg: number, leaves: LeafNode[], start: number, end: number): Promise<ColumnChunkData[] | null> {
    const columns = this.metadata.rowGroups[rg]!.columns;
    // Encrypted pages are bound to their ordinals: such chunks are read whole (then streamed).
    if (this.decryptor || !leaves.some((l) => columns[l.columnIndex]!.offsetIndexOffset !== undefined)) return null;
    const { readRanges } = await filtering();
    return readRanges(this.scanHost(), await this.indexes(), rg, leaves, [{ start, end }]);
  }

  /** Whether the offset indexes of `leaves` in row group `rg` all lie in the footer's tail read, already in memory. */
  private offsetIndexesHeld(rg: number, leaves: LeafNode[]): boolean {
    const columns = this.metadata.rowGroups[rg]!.columns;
    return leaves.every((l) => {
      const at = columns[l.columnIndex]!.offsetIndexOffset;
      return at !== undefined && at >= this.tailFrom;
    });
  }

  /** Fetches (coalesced) and decodes the chunks of `leaves` in row group `rg`. */
  private async readChunks(rg: number, leaves: LeafNode[]): Promise<ColumnChunkData[]> {
    const [fetched, dec] = await Promise.all([this.fetchChunks(rg, leaves), decoding()]);
    return this.decodeChunks(dec, fetched);
  }

  /** Fetches the chunks of `leaves` in row group `rg`, into a buffer from `buffers` when given. */
  private async fetchGroup(rg: number, leaves: LeafNode[], buffers?: ReadBuffers): Promise<FetchedGroup> {
    let scratch: Uint8Array | undefined;
    const chunks = await this.fetchChunks(rg, leaves, buffers && ((n) => (scratch = buffers.take(n))));
    return { chunks, scratch };
  }

  private decodeChunks({ decodeColumnChunk }: Decoding, fetched: FetchedChunk[], levels?: LevelBuffers): ColumnChunkData[] {
    return fetched.map(({ ref, buf, base }) => decodeColumnChunk(buf, base, ref.meta, ref.leaf, levels ? { ...this.chunkOptions, levels } : this.chunkOptions, ref.ctx));
  }

  /** Fetches (coalesced) the chunks of `leaves` in row group `rg`, to be decoded a window of rows at a time. */
  private async chunkStreams(rg: number, leaves: LeafNode[]): Promise<ChunkStream[]> {
    const [fetched, { ChunkStream }] = await Promise.all([this.fetchChunks(rg, leaves), import('./chunk-stream.js')]);
    return fetched.map(({ ref, buf, base }) => withContext(ref.ctx, () => new ChunkStream(buf, base, ref.meta, ref.leaf, this.chunkOptions, ref.ctx)));
  }

  /** The chunks of `leaves` in row group `rg`: located, their codecs loaded, their bytes fetched (coalesced). */
  private async fetchChunks(rg: number, leaves: LeafNode[], scratch?: (n: number) => Uint8Array): Promise<FetchedChunk[]> {
    const host = this.scanHost();
    const refs = leaves.map((leaf) => this.locator.locate(rg, leaf));
    await host.loadCodecs(refs);
    const fetched = await this.plainChunks(refs, scratch);
    return refs.map((ref, i) => ({ ref, ...fetched[i]! }));
  }

  /** Located chunks fetched (coalesced; into a buffer from `scratch` when given), the encrypted ones made plain. */
  private async plainChunks(refs: ChunkLocation[], scratch?: (n: number) => Uint8Array): Promise<Fetched[]> {
    const fetched = await fetchRanges(this.source, refs, scratch);
    await this.decryptor?.plainChunks(refs, fetched);
    return fetched;
  }
}

function checkedChunkOptions(options: OpenOptions): Pick<ChunkOptions, 'verifyChecksums' | 'maxDecompressedBytes'> & { verifyChecksums: boolean } {
  const { verifyChecksums = true, maxDecompressedBytes = DEFAULT_MAX_PAGE_BYTES } = options;
  if (!Number.isSafeInteger(maxDecompressedBytes) || maxDecompressedBytes < 1) throw new InvalidArgumentError(`maxDecompressedBytes must be a positive integer, got ${maxDecompressedBytes}`);
  return { verifyChecksums, maxDecompressedBytes };
}

function checkCount(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`${what} must be a non-negative integer, got ${n}`);
  return n;
}

function validateRowGroups(m: FileMetaData, schema: Schema, source: Source): void {
  m.rowGroups.forEach((rg: RowGroup, i: number) => {
    if (rg.columns.length !== schema.leaves.length) {
      throw new CorruptFileError(`row group has ${rg.columns.length} column chunks but the schema has ${schema.leaves.length} leaf columns`, { file: source.name, rowGroup: i });
    }
    if (!(rg.numRows >= 0)) throw new CorruptFileError(`row group has ${rg.numRows} rows`, { file: source.name, rowGroup: i });
  });
}

/** The next `count` rows of an assembler, in arrays of at most `batchSize`. */
function* assembledBatches(asm: RecordAssembler, ctx: ErrorContext, count: number, batchSize: number): Generator<Record<string, unknown>[]> {
  for (let done = 0; done < count; ) {
    const size = Math.min(batchSize, count - done);
    yield withContext(ctx, () => {
      const rows = new Array<Record<string, unknown>>(size);
      for (let i = 0; i < size; i++) rows[i] = asm.readRow();
      return rows;
    });
    done += size;
  }
}

/**
 * The value options of each leaf of a plan: none inside a VARIANT. A
 * variant's values have fixed JS forms (variant/decode.ts) whatever the
 * options, and its assembler builds those of shredded parts from their
 * stored values, as it decodes the same types from the binary value.
 */
export function valueOptionsPerLeaf(plan: RecordPlan, options: ValueOptions): ValueOptions[] {
  return leavesInVariants(plan).map((inside) => (inside ? {} : options));
}

function hasVariant(n: SchemaNode): boolean {
  return !n.isLeaf && (n.kind === 'variant' || n.children.some(hasVariant));
}

/** What the assembler calls on each finished VARIANT group. */
type VariantAssembly = ((parts: Record<string, unknown>, plan: Plan) => unknown) | undefined;

/** VARIANT assembly for a plan that holds a VARIANT (its module loads then), else none. */
async function variantAssembly(plan: RecordPlan, typed: boolean): Promise<VariantAssembly> {
  if (!leavesInVariants(plan).includes(true)) return undefined;
  const { assembleVariant } = await import('./variant/index.js');
  return (parts, p) => (p.t === 'variant' ? assembleVariant(parts, p.node, typed) : parts);
}
