/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
import { InvalidArgumentError, withContext } from '../errors.js';
import type { ArrowOptions, ColumnBatch, ReadOptions } from './read-options.js';
import { assembledBatches, checkCount, decodeChunks, largeChunks, readChunks, valueOptionsPerLeaf, variantAssembly } from './read-steps.js';
import type { ReadInput, Source } from '../io/source.js';
import type { ColumnPath, LeafNode, Schema } from '../schema/tree.js';
import type { RecordAssembler } from '../shred/assemble.js';
import { checkEmptyRows } from '../shred/empty-rows.js';
import { planRecord, type RecordPlan } from '../shred/plan.js';
import type { ColumnChunkData } from '../shred/column-data.js';
import { collectRows, rowsOfBatches } from './batch-rows.js';
import type { FileMetaData } from './metadata/index.js';
import type { RecordBatch, Table } from '../arrow/peer.js';
import { decodeAhead, decoding, filtering } from './chunk-reads.js';
import { ParquetFile, rowGroupIndexes, type OpenOptions } from './file.js';
import { loadOnce } from '../load-once.js';

// Loaded by the reads that use them, not by opening a file (as is VARIANT assembly, read-steps.ts).
const arrow = loadOnce(() => Promise.all([import('../arrow/batches.js'), import('../arrow/types.js'), import('./chunk-groups.js')]));
const filteredRead = loadOnce(() => import('./filtered-read.js'));
const streamedRead = loadOnce(() => import('./streamed-read.js'));

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
      const { bindFileFilter, filteredBatches } = await filteredRead();
      yield* filteredBatches(this.file, plan, await bindFileFilter(this.file, options.filter), options, batchSize, skip, left);
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
    const ahead = options.decodeThread === true ? await decodeAhead.make?.(this.file.reads, groups.filter((rg) => !largeChunks(this.file, rg, plan.leaves)), plan.leaves, options) : undefined;
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
        if (!part && plan.leaves.length > 0 && (take < n || largeChunks(this.file, rg, plan.leaves))) {
          yield* (await streamedRead()).streamedBatches(this.file, rg, plan, leafOptions, finishVariant, batchSize, skip, take);
          skip = 0;
          left -= take;
          continue;
        }
        if (part) skip = 0; // the pages read hold exactly the rows asked for
        const got = !part && ahead && await ahead.chunks(rg);
        const chunks = part ?? (got ? got.data ?? await decodeChunks(this.file, await decoding(), got.fetched) : await readChunks(this.file, rg, plan.leaves));
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
    yield* (await streamedRead()).columnBatches(this.file, options);
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
    const [{ arrowTable }, types, groups] = await arrow();
    return arrowTable(groups.arrowPlan(this.file, plan, options, types.dictionaryCapable), groups.chunkGroups(this.file, plan, options), groups.arrowMetadata(this.file));
  }

  /** The selected rows as Arrow `RecordBatch`es, one per row group (see `toArrow`). */
  arrowBatches(options: ArrowOptions = {}): AsyncGenerator<RecordBatch> {
    const plan = this.plan(options.columns);
    rowGroupIndexes(this.file.metadata, options.rowGroups);
    return this.arrowBatchesOf(plan, options);
  }

  /** arrowBatches once the Arrow modules have loaded: the columns and row groups are checked before, at the call. */
  private async *arrowBatchesOf(plan: RecordPlan, options: ArrowOptions): AsyncGenerator<RecordBatch> {
    const [{ arrowBatches }, types, groups] = await arrow();
    yield* arrowBatches(groups.arrowPlan(this.file, plan, options, types.dictionaryCapable), groups.chunkGroups(this.file, plan, options), groups.arrowMetadata(this.file));
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
}
