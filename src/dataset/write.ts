/**
 * Writing a dataset: records in, Parquet parts out, in Hive directories
 * when partitioned (`year=2024/month=01/part-0.parquet`). Portable: where the
 * parts go is a `DatasetOutput` (the Node one is `node/dataset-write.ts`).
 *
 * Parts are staged, not published one by one: each is written whole to a
 * place readers do not look, and only when every record has been written
 * and every part closed does `commit` make them all visible. Any failure
 * (a record that does not fit, the input throwing, the disk) aborts the open
 * parts and discards the staged ones, so the dataset is left as it was.
 */
import { InvalidArgumentError } from '../errors.js';
import type { Sink } from '../io/sink.js';
import type { FileMetaData } from '../parquet/metadata/index.js';
import { ParquetWriter, type WriterOptions, type WriterSchema } from '../parquet/write/writer.js';
import { writerElements } from '../parquet/write/writer-options.js';
import { sampleRecords } from '../parquet/write/sample.js';
import type { AnyField } from '../schema/builder.js';
import { inferSchemaFromRecords } from '../schema/infer.js';
import { projectSchema } from '../schema/project.js';
import { buildSchema, type SchemaElementLike } from '../schema/tree.js';
import { partitionDirectory } from './hive-names.js';

/**
 * `writeDatasetTo`'s options: the writer's, plus partitioning, part sizes and names, and the schema
 * (docs/datasets.md).
 */
export interface DatasetWriteOptions extends WriterOptions {
  /** The schema of the records, partition columns included; inferred from the first `sampleSize` records when absent. */
  schema?: WriterSchema;
  /** Records sampled for inference (default 1000). */
  sampleSize?: number;
  /** Without `schema`: declarations that replace what inference would give, by dotted field path. */
  overrides?: Record<string, AnyField>;
  /** Top-level columns whose values name the directories (`year=2024/month=01`), in this order; they are left out of the files. */
  partitionBy?: readonly string[];
  /** A part is closed, and the next one started, once it holds this many rows. */
  maxRowsPerFile?: number;
  /** A part is closed once its bytes (written and buffered; footer and page index aside) reach this. */
  maxBytesPerFile?: number;
  /** The parts' file name; `{i}` is the part's number in its directory (default `part-{i}.parquet`). An existing file is never replaced: its number is skipped. */
  fileName?: string;
  /** Parts open at once (default 32); when a new partition needs one past that, the least recently used part is closed and its partition starts a new part when it next has rows. */
  maxOpenFiles?: number;
}

/** Where a dataset's parts go: paths are relative to the dataset's directory, `/`-separated. */
export interface DatasetOutput {
  /** Whether a visible file is at `path` (a part's name that is taken). */
  exists(path: string): Promise<boolean>;
  /** A sink staging the part that `commit` will publish at `path`. */
  create(path: string): Promise<Sink>;
  /** Publishes the staged parts, each whole. */
  commit(paths: readonly string[]): Promise<void>;
  /** Removes every part staged and not committed. */
  discard(): Promise<void>;
}

/** One part a dataset write published: its path, rows and footer. */
export interface DatasetPart {
  /** Relative to the dataset's directory, `/`-separated. */
  path: string;
  rows: number;
  /** Row groups in the part. */
  rowGroups: number;
  /** The part's footer (its row groups decoded when first read). */
  metadata: FileMetaData;
}

/** What a dataset write wrote: its parts, rows and schema. */
export interface DatasetWriteReport {
  /** Every part written, in the order they were closed. */
  parts: DatasetPart[];
  rows: number;
  /** The schema of the parts (the partition columns left out). */
  schema: SchemaElementLike[];
}

const DEFAULT_FILE_NAME = 'part-{i}.parquet';
/** Directory names kept for input that revisits partitions; past this many the cache starts again, so memory stays bounded. */
const MAX_NAMES_KEPT = 65_536;

type NameCache = Map<unknown, NameCache | string>;

function cacheable(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}

function setLevel(level: NameCache, key: unknown): NameCache {
  const next: NameCache = new Map();
  level.set(key, next);
  return next;
}
const DEFAULT_MAX_OPEN_FILES = 32;

interface OpenPart {
  path: string;
  writer: ParquetWriter<unknown>;
}

/**
 * Writes records into a dataset's parts as they come (the push form, for
 * `convert`); `writeDatasetTo` drives it from an iterable. Once `write` or
 * `close` has failed, only `abort` is left to call.
 */
export class DatasetWriter {
  private readonly partitionBy: readonly string[];
  private readonly fileName: string;
  private readonly maxRows: number;
  private readonly maxBytes: number;
  private readonly maxOpen: number;
  /** The parts' schema: the records' without the partition columns. */
  readonly schema: SchemaElementLike[];
  /** Open parts by directory, least recently used first (a Map keeps insertion order). */
  private readonly open = new Map<string, OpenPart>();
  private readonly nextNumber = new Map<string, number>();
  private readonly parts: DatasetPart[] = [];
  private records = 0;
  private lastValues: unknown[] | undefined;
  private lastDir = '';
  private current: OpenPart | undefined;
  private aborted = false;
  /** Directory names by partition value, a level per partition column. */
  private readonly names: NameCache = new Map();
  private namesKept = 0;

  constructor(private readonly output: DatasetOutput, schema: WriterSchema, private readonly options: DatasetWriteOptions = {}) {
    this.partitionBy = checkPartitionBy(options.partitionBy);
    this.fileName = checkFileName(options.fileName);
    this.maxRows = positive(options.maxRowsPerFile, 'maxRowsPerFile') ?? Infinity;
    this.maxBytes = positive(options.maxBytesPerFile, 'maxBytesPerFile') ?? Infinity;
    this.maxOpen = positive(options.maxOpenFiles, 'maxOpenFiles') ?? DEFAULT_MAX_OPEN_FILES;
    this.schema = partSchema(schema, this.partitionBy);
  }

  /** Records taken so far. */
  get numRows(): number {
    return this.records;
  }

  /** Parts closed so far (every part, after `close`). */
  get partsWritten(): readonly DatasetPart[] {
    return this.parts;
  }

  /** Adds one record to the part of its partition, starting one when need be. */
  async write(record: unknown): Promise<void> {
    const index = this.records;
    const dir = this.directoryOf(record, index);
    let part = dir === this.lastDir ? this.current : undefined;
    if (!part) {
      part = this.open.get(dir);
      if (part) {
        // Most recently used: to the end of the order.
        this.open.delete(dir);
        this.open.set(dir, part);
      } else part = await this.start(dir);
    }
    this.lastDir = dir;
    this.current = part;
    try {
      await part.writer.write(record);
    } catch (e) {
      // The writer counts records of its own part; the caller counts the dataset's.
      if (e instanceof InvalidArgumentError) throw new InvalidArgumentError(`record ${index} (for ${part.path}): ${e.detail.replace(/^record \d+: /, '')}`, e.context);
      throw e;
    }
    this.records++;
    if (part.writer.numRows >= this.maxRows || (this.maxBytes !== Infinity && part.writer.bytesSoFar >= this.maxBytes)) {
      await this.finish(dir, part);
      this.current = undefined;
    }
  }

  /** Closes every open part and publishes them all. */
  async close(): Promise<DatasetWriteReport> {
    for (const [dir, part] of [...this.open]) await this.finish(dir, part);
    await this.output.commit(this.parts.map((p) => p.path));
    return { parts: this.parts, rows: this.records, schema: this.schema };
  }

  /** Aborts the open parts and discards the staged ones: nothing of this write is left. */
  async abort(): Promise<void> {
    if (this.aborted) return;
    this.aborted = true;
    await Promise.all([...this.open.values()].map((p) => p.writer.abort().catch(() => undefined)));
    this.open.clear();
    await this.output.discard();
  }

  /** The record's partition directory (`year=2024/month=01`), or '' unpartitioned. */
  private directoryOf(record: unknown, index: number): string {
    const by = this.partitionBy;
    if (!by.length) return '';
    if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new InvalidArgumentError(`record ${index} is not an object, so it has no partition values`);
    const values = by.map((c) => (record as Record<string, unknown>)[c]);
    const last = this.lastValues;
    // Sorted input repeats its partition: the directory is worked out once per run of it.
    if (last && values.every((v, k) => v === last[k])) return this.lastDir;
    this.lastValues = values;
    // Other input comes back to partitions it has seen: their names are kept, by value (objects, Dates, are named each time).
    let level: NameCache | undefined = this.names;
    for (let k = 0; k < values.length - 1 && level; k++) level = cacheable(values[k]) ? (level.get(values[k]) as NameCache | undefined) ?? setLevel(level, values[k]) : undefined;
    const leaf = values[values.length - 1];
    const known = level && cacheable(leaf) ? (level.get(leaf) as string | undefined) : undefined;
    if (known !== undefined) return known;
    const dir = by.map((c, k) => partitionDirectory(c, values[k])).join('/');
    if (level && cacheable(leaf)) {
      if (++this.namesKept > MAX_NAMES_KEPT) {
        this.names.clear();
        this.namesKept = 0;
      } else level.set(leaf, dir);
    }
    return dir;
  }

  private async finish(dir: string, part: OpenPart): Promise<void> {
    this.open.delete(dir);
    const metadata = await part.writer.close();
    this.parts.push({ path: part.path, rows: part.writer.numRows, rowGroups: part.writer.rowGroupsWritten, metadata });
  }

  private async start(dir: string): Promise<OpenPart> {
    if (this.open.size >= this.maxOpen) {
      const [lruDir, lru] = this.open.entries().next().value!;
      await this.finish(lruDir, lru);
    }
    let i = this.nextNumber.get(dir) ?? 0;
    let path: string;
    do path = (dir ? `${dir}/` : '') + this.fileName.replace('{i}', String(i++));
    while (await this.output.exists(path));
    this.nextNumber.set(dir, i);
    const sink = await this.output.create(path);
    let writer: ParquetWriter<unknown>;
    try {
      // A record carries its partition values, which the parts' schema leaves out.
      writer = await ParquetWriter.open(sink, this.schema, { ...this.options, acceptedFields: [...this.partitionBy, ...(this.options.acceptedFields ?? [])] });
    } catch (e) {
      await sink.abort();
      throw e;
    }
    const part = { path, writer };
    this.open.set(dir, part);
    return part;
  }
}

/** Writes `records` as a dataset into `output` (docs/datasets.md, "Datasets: writing"). */
export async function writeDatasetTo(output: DatasetOutput, records: Iterable<unknown> | AsyncIterable<unknown>, options: DatasetWriteOptions = {}): Promise<DatasetWriteReport> {
  // Sampling reads ahead; the sampled records are written first, so order is kept.
  const { sample, next } = await sampleRecords(records, options.schema ? 0 : options.sampleSize ?? 1000);
  const writer = new DatasetWriter(output, options.schema ?? inferSchemaFromRecords(sample as Record<string, unknown>[], { overrides: options.overrides }), options);
  try {
    for (const record of sample) await writer.write(record);
    for (let r = await next(); !r.done; r = await next()) await writer.write(r.value);
    return await writer.close();
  } catch (e) {
    await writer.abort();
    throw e;
  }
}

/** The schema the parts are written with: the records' schema without the partition columns. */
function partSchema(full: WriterSchema, partitionBy: readonly string[]): SchemaElementLike[] {
  const elements = writerElements(full);
  const tree = buildSchema(elements);
  for (const c of partitionBy) {
    const field = tree.root.children.find((n) => n.name === c);
    if (!field) throw new InvalidArgumentError(`partition column ${c} is not a top-level field of the schema`);
    if (!field.isLeaf) throw new InvalidArgumentError(`partition column ${c} is a group; a partition value must be a single value`);
  }
  const kept = tree.leaves.filter((l) => !partitionBy.includes(l.path[0]!));
  if (kept.length === 0) throw new InvalidArgumentError('every column is a partition column: the parts would hold no column');
  return partitionBy.length ? projectSchema(tree, kept) : [...elements];
}

function checkPartitionBy(partitionBy: readonly string[] | undefined): readonly string[] {
  if (partitionBy === undefined) return [];
  if (!Array.isArray(partitionBy) || partitionBy.some((c) => typeof c !== 'string' || c === '')) throw new InvalidArgumentError('partitionBy must be a list of column names');
  if (new Set(partitionBy).size !== partitionBy.length) throw new InvalidArgumentError(`partitionBy names a column twice: ${partitionBy.join(', ')}`);
  const hidden = partitionBy.find((c) => c.startsWith('.') || c.startsWith('_'));
  if (hidden !== undefined) throw new InvalidArgumentError(`partition column ${hidden} would name directories starting with ${hidden[0]}, which dataset readers skip`);
  return partitionBy;
}

function checkFileName(fileName: string | undefined): string {
  if (fileName === undefined) return DEFAULT_FILE_NAME;
  if (typeof fileName !== 'string' || !fileName.includes('{i}')) throw new InvalidArgumentError(`fileName must contain {i}, the part's number, so parts get distinct names (got ${JSON.stringify(fileName)})`);
  if (/[/\\]/.test(fileName) || fileName.startsWith('.') || fileName.startsWith('_')) {
    throw new InvalidArgumentError(`fileName ${JSON.stringify(fileName)} must be a plain file name not starting with . or _ (readers skip those)`);
  }
  return fileName;
}

function positive(n: number | undefined, name: string): number | undefined {
  if (n === undefined) return undefined;
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer (got ${n})`);
  return n;
}
