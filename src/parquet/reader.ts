/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
import { InvalidArgumentError, withContext, type ErrorContext } from '../errors.js';
import type { ReadInput, Source } from '../io/source.js';
import { ReadBuffers } from '../io/read-buffers.js';
import type { ValueOptions } from '../schema/convert.js';
import type { ColumnPath, LeafNode, Schema, SchemaNode } from '../schema/tree.js';
import type { RecordAssembler } from '../shred/assemble.js';
import { findColumn, selectLeaf } from '../schema/select.js';
import { checkEmptyRows } from '../shred/empty-rows.js';
import { leavesInVariants, planRecord, type Plan, type RecordPlan } from '../shred/plan.js';
import type { ChunkStream } from './chunk-stream.js';
import type { LevelBuffers } from './column-chunk.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import { collectRows, rowsOfBatches } from './batch-rows.js';
import type { FileMetaData } from './metadata/index.js';
import type { BoundFilter, Filter, FilterColumn } from './filter/expression.js';
import type { FilteredGroup } from './filter/scan.js';
import type { ChunkGroup } from '../arrow/batches.js';
import type { RecordBatch, Table } from '../arrow/peer.js';
import { readsNoChunks } from './chunk-locator.js';
import { decodeAhead, decoding, filtering, type Decoding, type FetchedChunk } from './chunk-reads.js';
import { ParquetFile, rowGroupIndexes, type OpenOptions } from './file.js';
import type { LazyColumn } from './lazy-column.js';
import { RowSelection } from './row-selection.js';
import { loadOnce } from '../load-once.js';

// Loaded by the reads that use them, not by opening a file (as are VARIANT assembly and streaming, below).
const arrow = loadOnce(() => Promise.all([import('../arrow/batches.js'), import('../arrow/types.js')]));
const chunkStream = loadOnce(() => import('./chunk-stream.js'));
const variantFilter = loadOnce(() => import('./variant/filter.js'));
const variantModule = loadOnce(() => import('./variant/index.js'));

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
  /**
   * Node: a read of every row of at least two row groups and 16 MiB can
   * have the chunks of the row groups ahead decoded in a worker thread while
   * rows are made (docs/decisions/decode-ahead.md). `true` does so; by
   * default (`false`) it does not, since on 2 cores it gained no wall time.
   * The rows are the same either way.
   */
  decodeThread?: boolean;
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
 * Its footer, page indexes, bloom filters and the rest of what inspection
 * reads are its `file`'s (`ParquetFile`, in `parquetry/inspect`).
 */
export class ParquetReader<Row = Record<string, unknown>> {
  /** The file's schema. */
  readonly schema: Schema;

  /** A reader of an opened file: its rows are read through the file's source, which `close` closes. */
  constructor(readonly file: ParquetFile) {
    this.schema = file.schema;
  }

  /**
   * Opens a Parquet file from bytes, a URL, a Blob or a source object, reading only its footer.
   *
   * @example
   * ```ts
   * const reader = await ParquetReader.open(new URL('https://example.com/data.parquet'));
   * console.log(reader.numRows, reader.schema.leaves.length);
   * ```
   */
  static async open<Row = Record<string, unknown>>(input: ReadInput, options: OpenOptions = {}): Promise<ParquetReader<Row>> {
    return new ParquetReader<Row>(await ParquetFile.open(input, options));
  }

  /**
   * Opens a Parquet file through a Source already made (`bufferSource`, `httpSource`, `blobSource`
   * or your own), reading only its footer.
   */
  static async fromSource<Row = Record<string, unknown>>(source: Source, options: OpenOptions = {}): Promise<ParquetReader<Row>> {
    return new ParquetReader<Row>(await ParquetFile.fromSource(source, options));
  }

  /**
   * A reader of a plaintext file whose FileMetaData is already known (a
   * footer read before, or a dataset's `_metadata` cut down to this file's
   * row groups): nothing is read until rows are.
   */
  static fromMetadata<Row = Record<string, unknown>>(source: Source, metadata: FileMetaData, options: Omit<OpenOptions, 'decryption' | 'openFile' | 'allowOutsideRoot'> = {}): ParquetReader<Row> {
    return new ParquetReader<Row>(ParquetFile.fromMetadata(source, metadata, options));
  }

  /**
   * Rows in the file, from the row groups alone: writers that leave the
   * footer's num_rows at 0 still get the right count.
   */
  get numRows(): number {
    return this.file.numRows;
  }

  /** Closes the file's source; the reader cannot read after it. */
  async close(): Promise<void> {
    await this.file.close();
  }

  /** `await using reader = await openParquet(...)`: closed when the scope ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** The assembly plan for a projection; also what the canonical printer walks. */
  plan(paths?: readonly ColumnPath[]): RecordPlan {
    const keep = new Set(this.file.selectLeaves(paths));
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
    const groups = rowGroupIndexes(this.file.metadata, options.rowGroups);
    const [finishVariant, { leafColumn, RecordAssembler }] = await Promise.all([variantAssembly(plan, options.variants === 'typed'), decoding()]);
    if (plan.leaves.length === 0) {
      const claimed = groups.reduce((n, rg) => n + this.file.metadata.rowGroups[rg]!.numRows, 0);
      // The claim is the row groups' num_rows: name the first, where the count starts.
      checkEmptyRows(Math.min(left, Math.max(0, claimed - skip)), { file: this.file.name, rowGroup: groups[0] });
    }
    // In a read of every row (no offset or limit) that asks for it, the row groups read whole (not streamed, below) can be decoded ahead.
    const ahead = options.decodeThread === true ? await decodeAhead.make?.(this.file.reads, groups.filter((rg) => !this.large(rg, plan.leaves)), plan.leaves, options) : undefined;
    try {
      for (const rg of groups) {
        if (left <= 0) return;
        const n = this.file.metadata.rowGroups[rg]!.numRows;
        if (skip >= n) {
          skip -= n;
          continue;
        }
        const take = Math.min(n - skip, left);
        // A read that starts further in than the row group's first row finds its pages by the offset index, as does one whose offset
        // indexes cost nothing (held from the footer's tail read); otherwise pages are read lazily from the start.
        const part = take < n && (skip > 0 || this.file.reads.offsetIndexesHeld(rg, plan.leaves)) ? await this.readRowRange(rg, plan.leaves, skip, skip + take) : null;
        if (!part && plan.leaves.length > 0 && (take < n || this.large(rg, plan.leaves))) {
          yield* this.streamedBatches(rg, plan, leafOptions, finishVariant, batchSize, skip, take);
          skip = 0;
          left -= take;
          continue;
        }
        if (part) skip = 0; // the pages read hold exactly the rows asked for
        const got = !part && ahead && await ahead.chunks(rg);
        const chunks = part ?? (got ? got.data ?? await this.decodeChunks(await decoding(), got.fetched) : await this.readChunks(rg, plan.leaves));
        const ctx = { file: this.file.name, rowGroup: rg };
        const cols = plan.leaves.map((leaf, i) => withContext({ ...ctx, column: leaf.path.join('.') }, () => leafColumn(leaf, chunks[i]!, leafOptions[i]!)));
        const asm = new RecordAssembler(plan, cols, finishVariant);
        if (skip > 0) withContext(ctx, () => asm.skipRows(skip));
        yield* assembledBatches(asm, ctx, take, batchSize);
        if (skip === 0 && take === n) withContext(ctx, () => asm.finish());
        skip = 0;
        left -= take;
      }
    } finally {
      ahead?.close();
    }
  }

  /**
   * Rows [skip, skip + take) of row group `rg`, decoded a window of rows at
   * a time: each window's levels and values are assembled and let go before
   * the next is decoded. Part of a row group is read lazily, page by page
   * (lazy-column.ts); the whole of one is fetched first, in one coalesced read.
   */
  private async *streamedBatches(rg: number, plan: RecordPlan, leafOptions: ValueOptions[], finishVariant: VariantAssembly, batchSize: number, skip: number, take: number): AsyncGenerator<Record<string, unknown>[]> {
    const ctx = { file: this.file.name, rowGroup: rg };
    const whole = take === this.file.metadata.rowGroups[rg]!.numRows;
    const [columns, { leafColumn, RecordAssembler }] = await Promise.all([this.lazyColumns(rg, plan.leaves, whole), decoding()]);
    const selection = RowSelection.all(this.file.metadata.rowGroups[rg]!.numRows).slice(skip, take);
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
    const reads = this.file.reads;
    if (whole) return reads.inMemory(await reads.fetchChunks(rg, leaves));
    const refs = leaves.map((leaf) => this.file.locator.locate(rg, leaf));
    await reads.host.loadDecoders(refs);
    return Promise.all(refs.map((ref) => reads.lazyChunk(ref)));
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
    const leaves = this.file.selectLeaves(options.columns);
    for (const rg of rowGroupIndexes(this.file.metadata, options.rowGroups)) {
      const numRows = this.file.metadata.rowGroups[rg]!.numRows;
      if (readsNoChunks(this.file.metadata.rowGroups[rg]!)) continue;
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
    rowGroupIndexes(this.file.metadata, options.rowGroups);
    return this.arrowBatchesOf(plan, options);
  }

  /** arrowBatches once the Arrow modules have loaded: the columns and row groups are checked before, at the call. */
  private async *arrowBatchesOf(plan: RecordPlan, options: ArrowOptions): AsyncGenerator<RecordBatch> {
    const [{ arrowBatches }, types] = await arrow();
    yield* arrowBatches(this.arrowPlan(plan, options, types.dictionaryCapable), this.chunkGroups(plan, options), this.arrowMetadata());
  }

  private arrowPlan(plan: RecordPlan, options: ArrowOptions, dictionaryCapable: (leaf: LeafNode) => boolean) {
    const groups = rowGroupIndexes(this.file.metadata, options.rowGroups);
    const dictionary = plan.leaves.map((leaf) => options.dictionary !== false && dictionaryCapable(leaf) && groups.every((rg) => {
      const meta = this.file.metadata.rowGroups[rg]!.columns[leaf.columnIndex]?.metaData;
      return meta !== undefined && (meta.dictionaryPageOffset !== undefined || meta.encodings.some((e) => e === 'PLAIN_DICTIONARY' || e === 'RLE_DICTIONARY'));
    }));
    return { plan, dictionary, stored: options.arrowSchema === false ? undefined : { dictionary: options.dictionary !== false } };
  }

  /** The file's key-value metadata, as Arrow schema metadata. */
  private arrowMetadata(): Map<string, string> | undefined {
    const kv = this.file.keyValueMetadata;
    return kv.size ? kv : undefined;
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
    const groups = rowGroupIndexes(this.file.metadata, options.rowGroups);
    // The next row group's chunks are fetched while the consumer builds from this one's.
    let next: { rg: number; chunks: Promise<FetchedGroup> } | undefined;
    const buffers = this.file.bytes.readInto ? new ReadBuffers() : undefined;
    const dec = await decoding();
    const levels = new dec.LevelBuffers();
    for (const [at, rg] of groups.entries()) {
      if (left <= 0) return;
      // A filtered row group comes in the parts its scan reads; an unfiltered one whole.
      const parts = filter ? this.filteredParts(rg, filter, plan.leaves, skip + left) : [null];
      for await (const got of parts) {
        if (left <= 0) return;
        const ctx = { file: this.file.name, rowGroup: rg };
        let numRows = this.file.metadata.rowGroups[rg]!.numRows;
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
          chunks = await this.decodeChunks(dec, fetched.chunks, levels);
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
    const [{ scanRowGroup, scanRowGroupUntil }, indexes] = await Promise.all([filtering(), this.file.reads.indexes()]);
    if (want !== Infinity) {
      yield* scanRowGroupUntil(this.file.reads.host, indexes, rg, filter, leaves, want);
      return;
    }
    const got = await scanRowGroup(this.file.reads.host, indexes, rg, filter, leaves);
    if (got) yield got;
  }

  /** Whether a chunk of `leaves` in row group `rg` claims more levels than are decoded whole (see STREAM_LEVELS). */
  private large(rg: number, leaves: LeafNode[]): boolean {
    const columns = this.file.metadata.rowGroups[rg]!.columns;
    return leaves.some((l) => {
      const m = columns[l.columnIndex]!.metaData;
      return m !== undefined && m.numValues > STREAM_LEVELS && !(m.numValues <= LEVELS_PER_BYTE * m.totalCompressedSize);
    });
  }

  /** Rows of the selected row groups that match a filter, pruned as docs/filtering.md describes. */
  private async *filteredBatches(plan: RecordPlan, filter: BoundFilter, options: ReadOptions, batchSize: number, skip: number, left: number): AsyncGenerator<Record<string, unknown>[]> {
    const leafOptions = valueOptionsPerLeaf(plan, options);
    const [finishVariant, { leafColumn, RecordAssembler }] = await Promise.all([variantAssembly(plan, options.variants === 'typed'), decoding()]);
    for (const rg of rowGroupIndexes(this.file.metadata, options.rowGroups)) {
      if (left <= 0) return;
      const ctx = { file: this.file.name, rowGroup: rg };
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
    const variants = hasVariant(this.schema.root) ? await variantFilter() : undefined;
    return withContext({ file: this.file.name }, () => bindFilter(filter, (c) => this.filterColumn(c, variants)));
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
    return selectLeaf(this.schema, column, { file: this.file.name });
  }

  /**
   * Rows [start, end) of row group `rg` when some chunk has an offset index:
   * only the pages holding those rows are fetched and decoded (the filter
   * path's page pruning, with the range in place of the filter's). Null
   * when no chunk has one, for the whole-chunk read.
   */
  private async readRowRange(rg: number, leaves: LeafNode[], start: number, end: number): Promise<ColumnChunkData[] | null> {
    const columns = this.file.metadata.rowGroups[rg]!.columns;
    // Encrypted pages are bound to their ordinals: such chunks are read whole (then streamed).
    if (this.file.decryptor || !leaves.some((l) => columns[l.columnIndex]!.offsetIndexOffset !== undefined)) return null;
    const { readRanges } = await filtering();
    return readRanges(this.file.reads.host, await this.file.reads.indexes(), rg, leaves, [{ start, end }]);
  }

  /** Fetches (coalesced) and decodes the chunks of `leaves` in row group `rg`. */
  private async readChunks(rg: number, leaves: LeafNode[]): Promise<ColumnChunkData[]> {
    const [fetched, dec] = await Promise.all([this.file.reads.fetchChunks(rg, leaves), decoding()]);
    return this.decodeChunks(dec, fetched);
  }

  /** Fetches the chunks of `leaves` in row group `rg`, into a buffer from `buffers` when given. */
  private async fetchGroup(rg: number, leaves: LeafNode[], buffers?: ReadBuffers): Promise<FetchedGroup> {
    let scratch: Uint8Array | undefined;
    const chunks = await this.file.reads.fetchChunks(rg, leaves, buffers && ((n) => (scratch = buffers.take(n))));
    return { chunks, scratch };
  }

  private decodeChunks({ decodeColumnChunk, withPageEncodings }: Decoding, fetched: FetchedChunk[], levels?: LevelBuffers): Promise<ColumnChunkData[]> {
    return withPageEncodings(() => fetched.map(({ ref, buf, base }) => decodeColumnChunk(buf, base, ref.meta, ref.leaf, levels ? { ...this.file.reads.chunkOptions, levels } : this.file.reads.chunkOptions, ref.ctx)));
  }

  /** Fetches (coalesced) the chunks of `leaves` in row group `rg`, to be decoded a window of rows at a time. */
  private async chunkStreams(rg: number, leaves: LeafNode[]): Promise<ChunkStream[]> {
    // Decoded over many calls, so a page in an encoding its chunk does not list cannot be decoded again: the encodings are loaded whatever it lists.
    const [fetched, { ChunkStream }] = await Promise.all([this.file.reads.fetchChunks(rg, leaves), chunkStream(), decoding().then((d) => d.loadPageEncodings())]);
    return fetched.map(({ ref, buf, base }) => withContext(ref.ctx, () => new ChunkStream(buf, base, ref.meta, ref.leaf, this.file.reads.chunkOptions, ref.ctx)));
  }
}

function checkCount(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`${what} must be a non-negative integer, got ${n}`);
  return n;
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
  const { assembleVariant } = await variantModule();
  return (parts, p) => (p.t === 'variant' ? assembleVariant(parts, p.node, typed) : parts);
}
