/**
 * Many Parquet files read as one table (docs/datasets.md): `openDataset`
 * finds the files (discover.ts), their Hive partitions (hive.ts) and one
 * schema (schema.ts), reading as few footers as that needs: the first
 * file's (all of them with `unionByName`), or only `_metadata` when the
 * directory has one. Reads go file by file in path order through each
 * file's `ParquetReader`, after partition values and statistics have
 * pruned what cannot match (constants.ts, the filter layer's pruning).
 */
import { asParquetryError, CorruptFileError, IncompatibleFilesError, InvalidArgumentError, IOError, ParquetryError } from '../errors.js';
import { withCachedTail, type Source } from '../io/source.js';
import { bindFilter, filterDomains, type Filter } from '../parquet/filter/expression.js';
import { possible, rowGroupStats, type LeafStats } from '../parquet/filter/prune-stats.js';
import { readFooter, type Footer } from '../parquet/footer.js';
import type { FileMetaData, SchemaElement } from '../parquet/metadata/index.js';
import { collectRows, rowsOfBatches } from '../parquet/batch-rows.js';
import { ParquetReader } from '../parquet/reader.js';
import type { ArrowOptions, ColumnBatch, ReadOptions } from '../parquet/read-options.js';
import type { OpenOptions } from '../parquet/file.js';
import { type ColumnPath } from '../schema/tree.js';
import { valueReader, type ValueOptions } from '../schema/convert.js';
import { buildSchema, type LeafNode, type Schema } from '../schema/tree.js';
import { selectLeaves } from '../schema/select.js';
import { planRecord, type RecordPlan } from '../shred/plan.js';
import type { Values } from '../encodings/types.js';
import { canMatch, constantStats, datasetLeaf, fileFilter, residual, type Residual } from './constants.js';
import { discover } from './discover.js';
import { directoryPruner, keepsPartitions } from './partition-filter.js';
import type { DatasetFileSystem } from './file-system.js';
import { partitionColumns, partitionElement, partitionPairs, partitionValues, type PartitionColumn, type PartitionType, type PartitionValue } from './hive.js';
import { splitParts, type Part } from './parts.js';
import { checkNamedFile } from '../parquet/part-check.js';
import { identityOf, oncePerFile } from './same-file.js';
import { checkNamedOnce } from '../parquet/named-once.js';
import { readsNoChunks } from '../parquet/chunk-locator.js';
import { datasetArrowSchema, datasetBatch, type FieldSource } from './arrow.js';
import { loadArrow } from '../arrow/load.js';
import type { RecordBatch, Table } from '../arrow/peer.js';
import { fieldRuns, leafByPath, mapFields, unifySchemas, type FieldMapping, type IntType } from './schema.js';
import { compareUtf8 } from '../bytes/utf8-checks.js';

/**
 * How a dataset is opened: its file system, Hive partitions, schema rules, bad and other files,
 * `_metadata` (docs/datasets.md).
 */
export interface DatasetOptions extends Pick<OpenOptions, 'verifyChecksums' | 'maxDecompressedBytes' | 'decryption'> {
  /** Where files are listed and opened (Node: `nodeFileSystem()`, the default of the Node `openDataset`). */
  fileSystem: DatasetFileSystem;
  /** `key=value` directories as columns: on, off, or (default) on when the first file's path has one. */
  hivePartitioning?: boolean | 'auto';
  /** Partition column types, by key; the others are inferred as DuckDB infers them. */
  partitionTypes?: Readonly<Record<string, PartitionType>>;
  /** Every file's columns by name, a column a file lacks read as null, integers widened (DuckDB's `union_by_name`). */
  unionByName?: boolean;
  /** A directory's files whose names are not Parquet's (`x.csv`, `x.crc`): left out (default) or an error. */
  otherFiles?: 'skip' | 'error';
  /**
   * A file that cannot be opened (missing, unreadable) or does not open as
   * Parquet (bad magic, damaged footer), a directory reached again through
   * a symbolic link loop, a part that disagrees with `_metadata`, a row
   * group whose `file_path` is refused or that repeats a row group listed
   * before: an error (default), or left out (listed in `skipped`, loops aside).
   */
  badFiles?: 'error' | 'skip';
  /** Let a `file_path` name a file outside the dataset's root (default false). */
  allowOutsideRoot?: boolean;
  /** Most files open at once while footers are read (default 16); rows are read one file at a time. */
  maxOpenFiles?: number;
  /** Plan from the directory's `_metadata` when it has one (default true). */
  useMetadataFile?: boolean;
  /**
   * The filter reads will take, when known at open. Its partition
   * constraints prune discovery: a `key=value` directory they rule out is
   * never listed, so the dataset is the files they may keep (and, when they
   * keep none, the first file found, for the schema). The schema is read
   * from the first file they keep, so a read of one partition opens no
   * other's objects. Reads still take their own `filter`: it should be this
   * one or narrower, since rows of unlisted directories are not there.
   */
  filter?: Filter;
}

/**
 * What a dataset's `rows()`, `rowBatches()` and `readRows()` read: the reader's options but row
 * groups.
 */
export interface DatasetReadOptions extends Omit<ReadOptions, 'rowGroups'> {
  /** Rows in each array of `rowBatches` (default 4096). */
  batchSize?: number;
}

/** What a dataset's `toArrow` and `arrowBatches` read (file columns are never dictionary vectors, nor take a file's stored Arrow schema: see `arrowBatches`). */
export type DatasetArrowOptions = Omit<ArrowOptions, 'rowGroups' | 'dictionary' | 'arrowSchema'>;

/** How one file's rows become the dataset's. */
interface RowShape {
  /** The file's columns to read. */
  fileColumns: ColumnPath[];
  /** Where each field of the projection comes from. */
  sources: FieldSource[];
  build: (row: Record<string, unknown>) => Record<string, unknown>;
}

/** How `scan` turns a part's reader into the caller's batches (row arrays or Arrow). */
interface BatchKind<T> {
  read(reader: ParquetReader, read: Pick<ReadOptions, 'filter' | 'offset' | 'limit'> & { columns: ColumnPath[]; rowGroups: number[] }, shape: RowShape, partitions: PartitionValue[]): AsyncIterable<T>;
  /** `n` rows of constant columns only: no page is read. */
  constant(n: number, shape: RowShape, partitions: PartitionValue[]): Iterable<T>;
  length(batch: T): number;
  slice(batch: T, start: number, end: number): T;
}

/** One data file of a dataset and its partition values (as its partition columns store them). */
export interface DatasetFile {
  path: string;
  partitions: Record<string, PartitionValue>;
}

/** One file's size as its footer (or the summary) gives it. */
export interface FileStats {
  path: string;
  numRows: number;
  rowGroups: number;
  /** Column chunk bytes as stored, and decompressed. */
  compressedBytes: number;
  uncompressedBytes: number;
}

/** What a filtered read would open (`Dataset.scanPlan`). */
export interface ScanPlan {
  files: {
    path: string;
    /** `partition`: pruned by partition values, unopened; `statistics`: every row group pruned; `skipped`: a bad file left out. */
    pruned?: 'partition' | 'statistics' | 'skipped';
    rowGroups: number;
    rowGroupsKept: number;
  }[];
  filesKept: number;
  rowGroupsKept: number;
}

/** A file's metadata once read, and how its fields map onto the dataset's. */
interface FileInfo {
  parts: Part[];
  schema: Schema;
  mapping: Map<string, FieldMapping>;
}

/** The bytes of a file from offset `at` to its end, as `readFooter` read them. */
interface Tail {
  bytes: Uint8Array;
  at: number;
}

interface FileEntry {
  path: string;
  partitions: PartitionValue[];
  /** Known at open (`_metadata`, or a footer read for the schema), else read when first needed. */
  metadata?: FileMetaData;
  footer?: Promise<FileMetaData | null>;
  /** The source its footer was read through, kept for the read that follows (see `rowBatches`). */
  held?: Source;
  /** The tail read for its footer, kept for the reader of its rows (read-ahead bytes a reader of the file alone would also reuse). */
  tail?: Tail;
  /** The summary that gave `metadata`, checked against the file's own footer when it is opened. */
  namedBy?: string;
  info?: Promise<FileInfo | null>;
}

/** Many Parquet files read as one table, with the reader's API; opened by `openDataset` (docs/datasets.md). */
export class Dataset {
  /** Parts left out once (listed in `skipped`): a later read neither opens nor lists them again. */
  private readonly partsSkipped = new WeakSet<Part>();

  private constructor(
    private readonly fs: DatasetFileSystem,
    private readonly options: DatasetOptions,
    private readonly root: string,
    private readonly entries: FileEntry[],
    /** The dataset's schema: the files' fields, then the partition columns. */
    readonly schema: Schema,
    readonly partitionColumns: readonly PartitionColumn[],
    /** Files left out: names that are not Parquet's, and bad files under `badFiles: 'skip'`, with why. */
    readonly skipped: { path: string; reason: string }[],
    /** The `_metadata` file planning read, when there was one. */
    readonly metadataFile: string | undefined,
    private readonly schemaFrom: string,
    /** What names each file of the dataset (`identityOf`), whatever its spelling. */
    private readonly identities: ReadonlySet<string>,
  ) {}

  /**
   * Opens a dataset through a `fileSystem`: lists the files, then reads the schema from one of them
   * (or from `_metadata`).
   */
  static async open(input: string | readonly string[], options: DatasetOptions): Promise<Dataset> {
    const fs = options.fileSystem;
    const maxOpen = options.maxOpenFiles ?? 16;
    if (!Number.isSafeInteger(maxOpen) || maxOpen < 1) throw new InvalidArgumentError(`maxOpenFiles must be a positive integer, got ${maxOpen}`);
    const hive = options.hivePartitioning ?? 'auto';
    const found = await discover(fs, input, {
      otherFiles: options.otherFiles ?? 'skip',
      loops: options.badFiles ?? 'error',
      ...(options.filter && hive !== false ? { prune: directoryPruner(options.filter, options.partitionTypes ?? {}) } : {}),
    });
    const skipped = found.skipped.map((path) => ({ path, reason: 'not a Parquet file name' }));
    let files = found.files;
    let identities: Set<string>;
    const known = new Map<string, FileMetaData>();
    let metadataFile: string | undefined;
    if (found.metadataFile && options.useMetadataFile !== false) {
      metadataFile = found.metadataFile;
      const summary = (await footerOf(await fs.open(metadataFile), options)).metadata;
      const skip = skipper(options, metadataFile, skipped);
      const parts = splitParts(metadataFile, summary, found.root, options.allowOutsideRoot === true, skip);
      files = [];
      // Each part under its first spelling, and no row group of it named twice however it is spelled.
      const spelled = new Map<string, string>();
      const named = new Map<string, number>();
      let ordinal = 0;
      for (const part of parts) {
        if (part.path === metadataFile) {
          // A summary of no row groups names no part; one whose row groups name the summary itself points at pages it does not hold.
          if (part.metadata.rowGroups.length === 0) continue;
          const err = new IncompatibleFilesError(`the summary names itself as the file of ${part.metadata.rowGroups.length} row groups; a summary holds no pages`, { file: metadataFile });
          if (options.badFiles !== 'skip') throw err;
          skipped.push({ path: metadataFile, reason: err.message });
          continue;
        }
        const id = await identityOf(fs, part.path);
        const path = spelled.get(id) ?? part.path;
        spelled.set(id, path);
        const rowGroups = part.metadata.rowGroups.filter((rg) => {
          try {
            checkNamedOnce(named, metadataFile, id, part.path, rg, ordinal++);
            return true;
          } catch (e) {
            if (!skip || !(e instanceof IncompatibleFilesError)) throw e;
            skip(e);
            return false;
          }
        });
        if (!known.has(path)) files.push(path);
        known.set(path, mergeRowGroups(known.get(path), { ...part, metadata: { ...part.metadata, rowGroups, numRows: rowGroups.reduce((n, g) => n + g.numRows, 0) } }));
      }
      files.sort(compareUtf8);
      if (files.length === 0) throw new CorruptFileError('the summary names no part file that can be read', { file: metadataFile });
      identities = new Set(spelled.keys());
    } else {
      ({ files, identities } = await oncePerFile(fs, files, options.badFiles === 'skip' ? (path, e) => skipped.push({ path, reason: e.message }) : undefined));
    }
    const columns = hive === true || (hive === 'auto' && partitionPairs(files[0]!).length > 0) ? partitionColumns(files, options.partitionTypes ?? {}) : [];
    const entries: FileEntry[] = files.map((path) => ({ path, partitions: partitionValues(path, columns), metadata: known.get(path), namedBy: metadataFile }));
    // The schema: the first readable file's (every file's with unionByName).
    const footers: { file: string; metadata: FileMetaData }[] = [];
    const width = options.unionByName ? maxOpen : 1;
    const order = options.unionByName ? entries : schemaOrder(entries, columns, options.filter);
    for (let i = 0; i < order.length && (options.unionByName || footers.length === 0); i += width) {
      const batch = order.slice(i, i + width);
      const got = await settled(batch.map((e) => footerOrSkip(fs, e, options, skipped, false, !options.unionByName)));
      got.forEach((metadata, k) => {
        if (metadata) footers.push({ file: batch[k]!.path, metadata });
      });
    }
    if (footers.length === 0) throw new CorruptFileError('no file of the dataset opens as Parquet (each was skipped, see their reasons)', { file: files[0] });
    const unified = unifySchemas(footers.map(({ file, metadata }) => ({ file, runs: fieldRuns(metadata.schema, file) })), options.unionByName === true);
    // A partition column takes the place of a file column of its name (as DuckDB reads it); the others follow the files' columns.
    const byName = new Map(columns.map((c) => [c.name, c]));
    const runs = fieldRuns(unified);
    const fields = [...runs.map((r) => (byName.has(r.name) ? [partitionElement(byName.get(r.name)!)] : r.elements)), ...columns.filter((c) => !runs.some((r) => r.name === c.name)).map((c) => [partitionElement(c)])];
    const elements: SchemaElement[] = [{ name: 'schema', numChildren: fields.length }, ...fields.flat()];
    const schema = buildSchema(elements);
    return new Dataset(fs, options, found.root, entries, schema, columns, skipped, metadataFile, footers[0]!.file, identities);
  }

  /** The data files, in the order their rows are read, with their partition values. */
  get files(): DatasetFile[] {
    return this.entries.map((e) => ({ path: e.path, partitions: Object.fromEntries(this.partitionColumns.map((c, i) => [c.name, e.partitions[i]!])) }));
  }

  /** The assembly plan of a projection (what `canonicalRow` prints by), as `ParquetReader.plan`. */
  plan(paths?: readonly ColumnPath[]): RecordPlan {
    if (!paths) return planRecord(this.schema.root);
    const keep = new Set<LeafNode>(selectLeaves(this.schema, paths));
    return planRecord(this.schema.root, (l) => keep.has(l));
  }

  /** Each readable file's rows, row groups and bytes (every footer is read, or `_metadata` used). */
  async fileStats(): Promise<FileStats[]> {
    const out: FileStats[] = [];
    const indexes = this.entries.map((_, i) => i);
    for (let i = 0; i < indexes.length; i += this.options.maxOpenFiles ?? 16) {
      const infos = await settled(indexes.slice(i, i + (this.options.maxOpenFiles ?? 16)).map((k) => this.info(k)));
      infos.forEach((info, k) => {
        if (!info) return;
        const groups = info.parts.flatMap((p) => p.metadata.rowGroups);
        const chunks = groups.flatMap((g) => g.columns);
        out.push({
          path: this.entries[i + k]!.path,
          numRows: groups.reduce((n, g) => n + g.numRows, 0),
          rowGroups: groups.length,
          compressedBytes: chunks.reduce((n, c) => n + (c.metaData?.totalCompressedSize ?? 0), 0),
          uncompressedBytes: chunks.reduce((n, c) => n + (c.metaData?.totalUncompressedSize ?? 0), 0),
        });
      });
    }
    return out;
  }

  /**
   * What a read with `filter` would open: files pruned by partition values
   * (never opened), by row-group statistics (footers only), or kept.
   */
  async scanPlan(filter?: Filter): Promise<ScanPlan> {
    this.checkFilter(filter);
    const plan: ScanPlan = { files: [], filesKept: 0, rowGroupsKept: 0 };
    for (const [i, entry] of this.entries.entries()) {
      if (filter && !canMatch(this.partitionResidual(entry, filter))) {
        plan.files.push({ path: entry.path, pruned: 'partition', rowGroups: 0, rowGroupsKept: 0 });
        continue;
      }
      const info = await this.info(i);
      if (!info) {
        plan.files.push({ path: entry.path, pruned: 'skipped', rowGroups: 0, rowGroupsKept: 0 });
        continue;
      }
      const groups = info.parts.reduce((n, p) => n + p.metadata.rowGroups.length, 0);
      const kept = info.parts.reduce((n, p) => n + this.keptRowGroups(entry, info, p, filter).length, 0);
      plan.files.push({ path: entry.path, rowGroups: groups, rowGroupsKept: kept, ...(kept === 0 ? { pruned: 'statistics' as const } : {}) });
      if (kept > 0) plan.filesKept++;
      plan.rowGroupsKept += kept;
    }
    return plan;
  }

  /** Rows as plain objects, file after file in path order. */
  rows(options: DatasetReadOptions = {}): AsyncIterableIterator<Record<string, unknown>> {
    return rowsOfBatches(this.rowBatches(options));
  }

  /** All selected rows in one array. */
  async readRows(options: DatasetReadOptions = {}): Promise<Record<string, unknown>[]> {
    return collectRows(this.rowBatches(options));
  }

  /** Rows in arrays of at most `batchSize`: partition columns and columns a file lacks filled in, integers cast. */
  async *rowBatches(options: DatasetReadOptions = {}): AsyncGenerator<Record<string, unknown>[]> {
    const batchSize = options.batchSize ?? 4096;
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new InvalidArgumentError(`batchSize must be a positive integer, got ${batchSize}`);
    const valueOptions: ValueOptions = { int64: options.int64, decimal: options.decimal, temporal: options.temporal };
    yield* this.scan<Record<string, unknown>[]>(options, valueOptions, {
      async *read(reader, read, shape) {
        for await (const batch of reader.rowBatches({ ...valueOptions, variants: options.variants, batchSize, ...read })) yield batch.map((row) => shape.build(row));
      },
      *constant(n, shape) {
        for (let done = 0; done < n; done += batchSize) yield Array.from({ length: Math.min(batchSize, n - done) }, () => shape.build({}));
      },
      length: (b) => b.length,
      slice: (b, start, end) => b.slice(start, end),
    });
  }

  /**
   * The selected rows as one Arrow `Table` (see `arrowBatches`): the
   * dataset's columns, partition columns included.
   */
  async toArrow(options: DatasetArrowOptions = {}): Promise<Table> {
    const a = await loadArrow();
    const schema = datasetArrowSchema(a, this.plan(options.columns), this.partitionColumns);
    const batches: RecordBatch[] = [];
    for await (const b of this.arrowBatches(options)) batches.push(b);
    return batches.length ? new a.Table(batches) : new a.Table(schema);
  }

  /**
   * The selected rows as Arrow `RecordBatch`es, file after file (a batch per
   * row group read, as `ParquetReader.arrowBatches`), every batch of one
   * schema: file columns as the file reader types them (plain, not
   * dictionary, since files differ in which chunks kept a dictionary),
   * integers cast to the dataset's width, columns a file lacks null, and
   * partition columns of their type (see docs/datasets.md, "Datasets: reading").
   */
  async *arrowBatches(options: DatasetArrowOptions = {}): AsyncGenerator<RecordBatch> {
    const a = await loadArrow();
    const plan = this.plan(options.columns);
    const schema = datasetArrowSchema(a, plan, this.partitionColumns);
    yield* this.scan<RecordBatch>(options, {}, {
      async *read(reader, read, shape, partitions) {
        for await (const batch of reader.arrowBatches({ ...read, dictionary: false, arrowSchema: false })) yield datasetBatch(a, schema, shape.sources, partitions, batch.numRows, batch);
      },
      *constant(n, shape, partitions) {
        yield datasetBatch(a, schema, shape.sources, partitions, n, undefined);
      },
      length: (b) => b.numRows,
      slice: (b, start, end) => b.slice(start, end),
    });
  }

  /**
   * The read loop `rowBatches` and `arrowBatches` share: files in path
   * order, pruned by partition values then statistics, each part read
   * through its own reader with offset and limit counted across files.
   */
  private async *scan<T>(options: DatasetReadOptions, valueOptions: ValueOptions, kind: BatchKind<T>): AsyncGenerator<T> {
    const plan = this.plan(options.columns);
    const { filter } = options;
    this.checkFilter(filter);
    let skip = count(options.offset ?? 0, 'offset');
    let left = options.limit === undefined ? Infinity : count(options.limit, 'limit');
    for (const [i, entry] of this.entries.entries()) {
      if (left <= 0) return;
      if (filter && !canMatch(this.partitionResidual(entry, filter))) continue;
      let spare: Source | undefined;
      try {
        // A file opened for its footer here is read through the same source: one open per file.
        const info = await this.info(i, true);
        spare = entry.held;
        const tail = entry.tail;
        entry.held = undefined;
        entry.tail = undefined;
        if (!info) continue;
        const r = filter ? this.fileResidual(entry, info, filter) : 1;
        if (!canMatch(r)) continue;
        const fileF = fileFilter(r);
        const shape = this.rowShape(entry, info, plan, valueOptions);
        for (const part of info.parts) {
          if (left <= 0) return;
          const kept = this.keptRowGroups(entry, info, part, filter);
          if (kept.length === 0) continue;
          const rows = kept.reduce((n, g) => n + part.metadata.rowGroups[g]!.numRows, 0);
          if (!fileF && skip >= rows) {
            skip -= rows;
            continue;
          }
          if (!fileF && shape.fileColumns.length === 0) {
            // Only constant columns: no page of the file is needed.
            const take = Math.min(rows - skip, left);
            yield* kind.constant(take, shape, entry.partitions);
            skip = 0;
            left -= take;
            continue;
          }
          const mine = part.path === entry.path;
          const held = mine ? spare : undefined;
          if (held) spare = undefined;
          const reader = await this.openPart(part, held, mine ? tail : undefined);
          if (!reader) continue;
          try {
            const batches = kind.read(reader, {
              columns: shape.fileColumns, rowGroups: kept,
              ...(fileF ? { filter: fileF } : { offset: skip, limit: left === Infinity ? undefined : left }),
            }, shape, entry.partitions);
            if (!fileF) skip = 0;
            for await (const batch of batches) {
              let out: T = batch;
              let n = kind.length(out);
              if (skip > 0) {
                const drop = Math.min(skip, n);
                skip -= drop;
                out = kind.slice(out, drop, n);
                n -= drop;
              }
              if (n > left) {
                out = kind.slice(out, 0, left);
                n = left;
              }
              left -= n;
              if (n > 0) yield out;
              if (left <= 0) break;
            }
          } catch (e) {
            throw e instanceof ParquetryError ? e.within({ file: part.path }) : asParquetryError(e, { file: part.path });
          } finally {
            await reader.close();
          }
        }
      } finally {
        // Held for the read and not handed to a reader: the read stopped early, or the file's mapping failed after its footer was read.
        const held = spare ?? entry.held;
        entry.held = undefined;
        entry.tail = undefined;
        await held?.close?.();
      }
    }
  }

  /**
   * Column vectors of every file, as `ParquetReader.columns` gives them with
   * the file they come from: each file's own columns in its own types
   * (partition values are in `files`; a column a file lacks has no batch).
   */
  async *columns(options: { columns?: readonly ColumnPath[] } = {}): AsyncGenerator<ColumnBatch & { file: string }> {
    const plan = this.plan(options.columns);
    for (const [i, entry] of this.entries.entries()) {
      const info = await this.info(i);
      if (!info) continue;
      const { fileColumns } = this.rowShape(entry, info, plan, {});
      if (fileColumns.length === 0) continue;
      for (const part of info.parts) {
        const reader = await this.openPart(part);
        if (!reader) continue;
        try {
          for await (const b of reader.columns({ columns: fileColumns })) yield { ...b, file: part.path };
        } finally {
          await reader.close();
        }
      }
    }
  }

  private checkFilter(filter: Filter | undefined): void {
    if (filter !== undefined) bindFilter(filter, datasetLeaf(this.schema));
  }

  /** The filter with the file's partition values decided (columns it may lack still open). */
  private partitionResidual(entry: FileEntry, filter: Filter): Residual {
    return residual(filter, this.schema, (leaf) => this.partitionStats(entry, leaf));
  }

  private partitionStats(entry: FileEntry, leaf: LeafNode): LeafStats | undefined {
    const k = this.partitionColumns.findIndex((c) => c.name === leaf.path[0]);
    return k < 0 ? undefined : constantStats(leaf, entry.partitions[k]!);
  }

  /** The filter with partition values and the columns the file lacks (all null) decided. */
  private fileResidual(entry: FileEntry, info: FileInfo, filter: Filter): Residual {
    return residual(filter, this.schema, (leaf) => this.partitionStats(entry, leaf) ?? (info.mapping.get(leaf.path[0]!)?.present === false ? constantStats(leaf, null) : undefined));
  }

  /** Row groups of a part whose statistics do not rule the filter out. */
  private keptRowGroups(entry: FileEntry, info: FileInfo, part: Part, filter: Filter | undefined): number[] {
    const all = part.metadata.rowGroups.map((_, g) => g);
    if (!filter) return all;
    const r = this.fileResidual(entry, info, filter);
    if (!canMatch(r)) return [];
    const f = fileFilter(r);
    if (!f) return all;
    const bound = bindFilter(f, (c) => {
      const leaf = leafByPath(info.schema, c);
      if (!leaf) throw new InvalidArgumentError(`no column "${typeof c === 'string' ? c : c.join('.')}" in ${entry.path}`, { file: entry.path });
      return leaf;
    });
    const doms = filterDomains(bound);
    const orders = part.metadata.columnOrders;
    return all.filter((g) => {
      const rg = part.metadata.rowGroups[g]!;
      if (readsNoChunks(rg)) return false;
      const stats = rowGroupStats(doms, (leaf) => rg.columns[leaf.columnIndex]!.metaData ?? { statistics: undefined, numValues: 0 } as never, orders);
      return possible(bound, (l) => stats.get(l)).canTrue;
    });
  }

  /** How rows of one file become the dataset's: which columns to read, where each field comes from, and the row builder. */
  private rowShape(entry: FileEntry, info: FileInfo, plan: RecordPlan, valueOptions: ValueOptions): RowShape {
    const fileColumns: ColumnPath[] = [];
    const getters: [string, (row: Record<string, unknown>) => unknown][] = [];
    const sources: FieldSource[] = [];
    // Fields the file's reader gives as they are, and fields of one value in every row (partition values, absent columns).
    const asRead: string[] = [];
    const constants: { name: string; value: unknown }[] = [];
    for (const { name } of plan.fields) {
      const k = this.partitionColumns.findIndex((c) => c.name === name);
      if (k >= 0) {
        const leaf = this.schema.root.children.find((c) => c.name === name) as LeafNode;
        const value = partitionJs(leaf, entry.partitions[k]!, valueOptions);
        getters.push([name, () => value]);
        sources.push({ name, partition: k });
        constants.push({ name, value });
        continue;
      }
      const m = info.mapping.get(name)!;
      if (!m.present) {
        getters.push([name, () => null]);
        sources.push({ name, missing: true });
        constants.push({ name, value: null });
        continue;
      }
      for (const l of plan.leaves) if (l.path[0] === name) fileColumns.push(l.path);
      const cast = m.cast ? intCast(m.cast, valueOptions, entry.path, name) : undefined;
      if (!cast) asRead.push(name);
      getters.push([name, cast ? (row) => cast(row[name]) : (row) => row[name]]);
      sources.push({ name, cast });
    }
    // The common shape (the fields as read, in the file's order, then the
    // constants) needs no new object: the constants are set on the reader's
    // row, which is ours alone.
    const common = asRead.length + constants.length === plan.fields.length && asRead.every((name, i) => plan.fields[i]!.name === name) && inFileOrder(info.schema, asRead);
    const build = common
      ? (row: Record<string, unknown>) => {
        for (let i = 0; i < constants.length; i++) row[constants[i]!.name] = constants[i]!.value;
        return row;
      }
      : (row: Record<string, unknown>) => {
        const out: Record<string, unknown> = {};
        for (const [name, get] of getters) out[name] = get(row);
        return out;
      };
    return { fileColumns, build, sources };
  }

  /**
   * A reader of a part, through `held` (the source its footer was just read
   * through) or a new one, answering reads inside the file's `tail` (read
   * with its footer) from memory, as the reader of a file alone does. Under
   * `badFiles: 'skip'`, a part that cannot be opened, or that a summary
   * names but that does not open as it says, gives null, listed in `skipped`.
   */
  private async openPart(part: Part, held?: Source, tail?: Tail): Promise<ParquetReader | null> {
    if (this.partsSkipped.has(part)) {
      await held?.close?.();
      return null;
    }
    const opened = held ?? await openOrSkip(this.fs, part.path, this.options, this.skipped);
    if (!opened) {
      this.partsSkipped.add(part);
      return null;
    }
    let source = opened;
    try {
      if (tail) source = withCachedTail(source, tail.bytes, tail.at);
      if (part.namedBy) {
        // A summary's part is checked against its own footer, whose tail then serves the reader.
        const footer = await readFooter(source, this.options.decryption);
        checkNamedFile(part.namedBy, part.path, part.metadata.schema, part.metadata.rowGroups, footer.metadata);
        if (!tail) source = withCachedTail(source, footer.tail, footer.tailOffset);
      }
      if (this.options.decryption) return await ParquetReader.fromSource(source, this.options);
      return ParquetReader.fromMetadata(source, part.metadata, this.options);
    } catch (e) {
      await source.close?.();
      if (!part.namedBy || this.options.badFiles !== 'skip' || !(e instanceof ParquetryError) || (e.code !== 'INCOMPATIBLE' && e.code !== 'CORRUPT')) throw e;
      this.skipped.push({ path: part.path, reason: e.message });
      this.partsSkipped.add(part);
      return null;
    }
  }

  /** A file's parts and field mapping, its footer read once (null: a bad file skipped). */
  private info(i: number, hold = false): Promise<FileInfo | null> {
    const entry = this.entries[i]!;
    entry.info ??= (async () => {
      const metadata = await footerOrSkip(this.fs, entry, this.options, this.skipped, hold);
      if (!metadata) return null;
      const schema = buildSchema(metadata.schema as SchemaElement[]);
      const partitionNames = new Set(this.partitionColumns.map((c) => c.name));
      const fileFields = buildSchema([{ name: 'schema', numChildren: this.schema.root.children.length - partitionNames.size }, ...this.schema.root.children.filter((c) => !partitionNames.has(c.name)).flatMap(flatElements)]);
      const mapping = mapFields(fileFields, this.schemaFrom, entry.path, fieldRuns(metadata.schema, entry.path), this.options.unionByName === true);
      const parts = entry.namedBy ? [{ path: entry.path, metadata, namedBy: entry.namedBy }] : splitParts(entry.path, metadata, this.root, this.options.allowOutsideRoot === true, skipper(this.options, entry.path, this.skipped));
      // A file whose footer puts its chunks in another file of the dataset is no plain part: that file's rows would come twice.
      for (const part of parts) {
        if (part.path === entry.path || !this.identities.has(await identityOf(this.fs, part.path))) continue;
        const e = new IncompatibleFilesError(`${entry.path} names ${part.path}, another file of the dataset, as the file of its column chunks (file_path): read as a part too, its rows would come twice`, { file: entry.path });
        if (this.options.badFiles !== 'skip') throw e;
        this.skipped.push({ path: entry.path, reason: e.message });
        return null;
      }
      return { parts, schema, mapping };
    })();
    return entry.info;
  }

}

/**
 * The files in the order the schema is looked for in: those whose partition
 * values the filter does not rule out first (decided on the partition
 * columns alone, as the read decides them), then the others, so a filter
 * that keeps no file still finds a schema.
 */
function schemaOrder(entries: FileEntry[], columns: readonly PartitionColumn[], filter: Filter | undefined): FileEntry[] {
  if (!filter || columns.length === 0) return entries;
  const kept = new Set(entries.filter((e) => keepsPartitions(filter, columns, e.partitions)));
  return [...kept, ...entries.filter((e) => !kept.has(e))];
}

/** Whether `names`, top-level fields of `schema`, are in its order (the order the file's reader gives them in). */
function inFileOrder(schema: Schema, names: readonly string[]): boolean {
  let at = -1;
  for (const name of names) {
    const k = schema.root.children.findIndex((c) => c.name === name);
    if (k <= at) return false;
    at = k;
  }
  return true;
}

/** A node's subtree as flattened schema elements. */
function flatElements(node: Schema['root']['children'][number]): SchemaElement[] {
  return [node.element as SchemaElement, ...(node.isLeaf ? [] : node.children.flatMap(flatElements))];
}

/**
 * Opens a file the dataset names. One that cannot be opened (missing,
 * unreadable: the file system's IOError) is an error, or under
 * `badFiles: 'skip'` null, listed in `skipped`; a read failing once the
 * file is open is never skipped.
 */
async function openOrSkip(fs: DatasetFileSystem, path: string, options: DatasetOptions, skipped: { path: string; reason: string }[]): Promise<Source | null> {
  try {
    return await fs.open(path);
  } catch (e) {
    const err = e instanceof ParquetryError ? e.within({ file: path }) : new IOError(`cannot open ${path}: ${(e as Error)?.message ?? e}`, { file: path }, { cause: e });
    if (options.badFiles !== 'skip' || err.code !== 'IO') throw err;
    skipped.push({ path, reason: err.message });
    return null;
  }
}

/** A file's footer; `hold` takes the open source when the caller reads the file next (else it is closed). */
async function footerOf(source: Source, options: DatasetOptions, hold?: (source: Source) => void): Promise<Footer> {
  let held = false;
  try {
    const footer = await readFooter(source, options.decryption);
    if (hold) {
      hold(source);
      held = true;
    }
    return footer;
  } finally {
    if (!held) await source.close?.();
  }
}

/**
 * A file's footer, read once; under `badFiles: 'skip'` a file that cannot
 * be opened, or does not open as Parquet, is listed in `skipped` and gives null. `keepTail` keeps
 * the tail read with it for the file's reader: only for a file read soon,
 * never for every file of a plan (64 KiB each).
 */
function footerOrSkip(fs: DatasetFileSystem, entry: FileEntry, options: DatasetOptions, skipped: { path: string; reason: string }[], hold = false, keepTail = hold): Promise<FileMetaData | null> {
  const keep = (footer: Footer): FileMetaData => {
    if (keepTail) entry.tail = { bytes: footer.tail, at: footer.tailOffset };
    return footer.metadata;
  };
  const read = async (): Promise<FileMetaData | null> => {
    const source = await openOrSkip(fs, entry.path, options, skipped);
    if (!source) return null;
    return footerOf(source, options, hold ? (s) => (entry.held = s) : undefined).then(keep).catch((e: unknown) => {
      const err = e instanceof ParquetryError ? e.within({ file: entry.path }) : asParquetryError(e, { file: entry.path });
      if (options.badFiles !== 'skip' || (err.code !== 'CORRUPT' && err.code !== 'UNSUPPORTED')) throw err;
      skipped.push({ path: entry.path, reason: err.message });
      return null;
    });
  };
  entry.footer ??= entry.metadata ? Promise.resolve(entry.metadata) : read();
  return entry.footer;
}

/** Under `badFiles: 'skip'`, what lists a row group that cannot be read in `skipped` instead of failing. */
function skipper(options: DatasetOptions, file: string, skipped: { path: string; reason: string }[]): ((e: ParquetryError) => void) | undefined {
  return options.badFiles === 'skip' ? (e) => skipped.push({ path: file, reason: e.message }) : undefined;
}

/** Two runs of one part's row groups in a summary become one FileMetaData. */
function mergeRowGroups(prev: FileMetaData | undefined, part: Part): FileMetaData {
  if (!prev) return part.metadata;
  return { ...prev, rowGroups: [...prev.rowGroups, ...part.metadata.rowGroups], numRows: prev.numRows + part.metadata.numRows };
}

/** A partition value as the reader gives values of its column's type. */
function partitionJs(leaf: LeafNode, value: PartitionValue, options: ValueOptions): unknown {
  if (value === null) return null;
  let values: Values;
  if (typeof value === 'string') {
    const data = new TextEncoder().encode(value);
    values = { data, offsets: Int32Array.of(0, data.length) };
  } else if (leaf.physicalType === 'INT64') values = BigInt64Array.of(BigInt(value));
  else if (leaf.physicalType === 'DOUBLE') values = Float64Array.of(Number(value));
  else values = Int32Array.of(Number(value));
  return valueReader(leaf.kind, values, options)(0);
}

/** An integer of a file's width read as the dataset's, each value checked to fit (a value that does not is an error naming the file). */
function intCast(t: IntType, options: ValueOptions, file: string, column: string): (v: unknown) => unknown {
  const min = t.signed ? -(1n << BigInt(t.bits - 1)) : 0n;
  const max = t.signed ? (1n << BigInt(t.bits - 1)) - 1n : (1n << BigInt(t.bits)) - 1n;
  const big = t.bits === 64 && options.int64 !== 'number';
  return (v) => {
    if (v === null || v === undefined) return v;
    const b = typeof v === 'bigint' ? v : BigInt(v as number);
    if (b < min || b > max) throw new IncompatibleFilesError(`value ${b} of column "${column}" does not fit the dataset's ${t.signed ? '' : 'unsigned '}${t.bits}-bit integers (the first file's type; unionByName widens)`, { file, column });
    return big ? b : Number(b);
  };
}

/**
 * Promise.all that settles every read before failing with the first error:
 * the files the others opened are closed by then, not after the caller has
 * its error.
 */
async function settled<T>(reads: Promise<T>[]): Promise<T[]> {
  const done = await Promise.allSettled(reads);
  const failed = done.find((d): d is PromiseRejectedResult => d.status === 'rejected');
  if (failed) throw failed.reason;
  return done.map((d) => (d as PromiseFulfilledResult<T>).value);
}

function count(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`${what} must be a non-negative integer, got ${n}`);
  return n;
}
