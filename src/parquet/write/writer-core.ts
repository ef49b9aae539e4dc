import type { BufferedSink } from '../../io/buffered-sink.js';
import { loadCodec, type Codec } from '../../codecs/registry.js';
import { ColumnOptionsError, InvalidArgumentError, IOError, ParquetryError } from '../../errors.js';
import type { Sink } from '../../io/sink.js';
import { buildSchema, type LeafNode, type Schema } from '../../schema/tree.js';
import { definedTree } from '../../schema/builder.js';
import { planRecord, type RecordPlan } from '../../shred/plan.js';
import type { LeafEntries } from '../../shred/entries.js';
import { loadArrow } from '../../arrow/load.js';
import type { RecordBatch, Table } from '../../arrow/peer.js';
import type { RecordShredder, VariantWriter } from '../../shred/shred.js';
import { declaredVariants, type AnyField } from '../../schema/builder.js';
import type {
  ColumnChunk, ColumnOrder, FileMetaData, KeyValue, RowGroup, SchemaElement, SortingColumn,
} from '../metadata/index.js';
import type { ExtrasPlaces, IndexKind } from './footer-chunks.js';
import type { PagePlace } from './page-index.js';
import type { ColumnOptions, ColumnWriter, EncodedPage } from './column-writer.js';
import type { FloatOrder } from './stats.js';
import { VERSION } from '../../version.js';
import type { FileEncryptor } from '../crypto/file-encryptor.js';
import { ModuleType } from '../crypto/aad.js';
import { DEFAULT_ROW_GROUP_SIZE, writerElements, type EncodedChunkBytes, type EncodedRowGroup, type WriterOptions, type WriterSchema } from './writer-options.js';
import * as parts from './writer-parts.js';

/** A row group as the footer has it, but for its column chunks (kept encoded in FooterChunks). */
type RowGroupFacts = Omit<RowGroup, 'columns'>;

/** Every column's order is one of these, shared: a wide table's footer lists one a column. */
const TYPE_ORDER: ColumnOrder = { type: 'TYPE_ORDER' };
const TOTAL_ORDER: ColumnOrder = { type: 'IEEE_754_TOTAL_ORDER' };

/** The writer of the schema's VARIANT groups (their module loads then), with the declared options; none without one. */
async function variantWriterFor(tree: Schema, fields: ReadonlyArray<readonly [string, AnyField]>): Promise<VariantWriter | undefined> {
  const hasVariant = (n: Schema['root']): boolean => n.kind === 'variant' || n.children.some((c) => !c.isLeaf && hasVariant(c));
  if (!hasVariant(tree.root)) return undefined;
  const declared = declaredVariants(fields);
  for (const [path, spec] of declared) {
    if (spec.shredded === 'auto') {
      throw new InvalidArgumentError(`variant ${path} has shred: 'auto', which needs a sample of the values: writeRecords and convert take one; ParquetWriter.open needs the shape declared (or shredding left out)`, { column: path });
    }
  }
  const { variantWriter } = await import('../variant/shred.js');
  return variantWriter(tree.root, fields);
}

/** Most rows in one slice of a columnar write (writeColumns, and writeMany on flat schemas). */
const SLICE_ROWS = 4096;
/** Records an iterable given to writeMany is read ahead by, for a flat schema. */
const RECORD_BATCH = 16_384;
const hasOwn = Object.prototype.hasOwnProperty;
const NO_BYTES = new Uint8Array(0);
const RESOLVED: Promise<void> = Promise.resolve();

const DEFAULTS = {
  rowGroupSize: DEFAULT_ROW_GROUP_SIZE,
  rowGroupRows: 1_048_576,
  pageSize: 1024 * 1024,
  pageRowLimit: 20_000,
  dictionaryPageSize: 1024 * 1024,
  statisticsTruncateLength: 64,
  columnIndexTruncateLength: 64,
};

function positive(v: number | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isSafeInteger(v) || v <= 0) throw new InvalidArgumentError(`${name} must be a positive integer, got ${v}`);
  return v;
}

/** ParquetWriter's machinery (writer.ts): the writer behind its handle. */
export class WriterCore<Row = Record<string, unknown>> {
  private offset = 0;
  private readonly rowGroups: RowGroupFacts[] = [];
  /** The column chunks written so far, for the footer, and their bloom filters and page indexes, written at close(). */
  private readonly chunks = new parts.FooterChunks();
  private readonly pageIndex: boolean;
  private readonly columnIndexTruncateLength: number;
  private rowsInGroup = 0;
  private totalRows = 0;
  /** Records given to write(), rejected ones included: the index error messages use. */
  private recordsGiven = 0;
  private readonly warnedColumns = new Set<ColumnWriter>();
  private closed = false;
  /** Set when writing to the sink failed: the file cannot be completed any more. */
  private failed: unknown;
  private readonly shredder: RecordShredder;
  /** The shredder's column writers, by leaf. */
  private readonly sinks: ColumnWriter[];
  private readonly plan: RecordPlan;
  private readonly rowGroupSize: number;
  private readonly rowGroupRows: number;
  private readonly pageRowLimit: number;
  /** True when every leaf is a top-level column: records can be taken column by column. */
  private readonly flat: boolean;
  /** Buffered bytes per row of the last row group, to size the first slice of the next. */
  private lastRowBytes = 0;
  /** A row group of its own (startRowGroup): it ends when flushed, whatever the limits. */
  private held = false;
  /** Rows in the row group at which groupFull() next sums the columns' bytes. */
  private groupCheckAt = 0;
  /** Encoded page bytes at which groupFull() next sums the columns' bytes. */
  private groupCheckBytes = 0;
  /** Row groups already in a checkpoint, and where the last checkpoint frame starts (0: none yet). */
  private checkpointed = 0;
  private lastCheckpoint = 0;
  private readonly checkpointEvery: number;

  private constructor(
    private readonly sink: BufferedSink,
    private readonly elements: SchemaElement[],
    readonly schema: Schema,
    private readonly columns: ColumnWriter[],
    private readonly options: WriterOptions,
    /** Bytes of the pages the columns have encoded in this row group (they count them as they go). */
    private readonly flushed: { bytes: number },
    private readonly encryptor: FileEncryptor | undefined,
    variant: VariantWriter | undefined,
  ) {
    const plan = planRecord(schema.root);
    this.plan = plan;
    this.sinks = plan.leaves.map((l) => columns[l.columnIndex]!);
    this.shredder = new parts.RecordShredder(plan, this.sinks, options, variant);
    this.rowGroupSize = positive(options.rowGroupSize, 'rowGroupSize', DEFAULTS.rowGroupSize);
    this.rowGroupRows = positive(options.rowGroupRows, 'rowGroupRows', DEFAULTS.rowGroupRows);
    this.pageRowLimit = positive(options.pageRowLimit, 'pageRowLimit', DEFAULTS.pageRowLimit);
    this.flat = schema.leaves.every((l) => l.path.length === 1 && l.repLevel === 0);
    this.pageIndex = options.pageIndex ?? true;
    this.columnIndexTruncateLength = positive(options.columnIndexTruncateLength, 'columnIndexTruncateLength', DEFAULTS.columnIndexTruncateLength);
    this.checkpointEvery = positive(options.checkpointEvery, 'checkpointEvery', 0);
    if (this.checkpointEvery > 0 && options.checksums === false) throw new InvalidArgumentError('checkpointEvery needs page CRCs: leave checksums on');
    // A checkpoint's metadata would lie in the clear beside the encrypted footer.
    if (this.checkpointEvery > 0 && encryptor) throw new InvalidArgumentError('checkpointEvery cannot be combined with encryption');
  }

  static async open<Row = Record<string, unknown>>(sink: Sink, schema: WriterSchema<Row>, options: WriterOptions = {}): Promise<WriterCore<Row>> {
    const elements = writerElements(schema) as SchemaElement[];
    let tree: Schema;
    try {
      tree = definedTree(schema) ?? buildSchema(elements);
    } catch (e) {
      // The schema is the caller's, not a file's: say so in the error's type.
      if (e instanceof ParquetryError) throw new InvalidArgumentError(`invalid schema: ${e.message}`);
      throw e;
    }
    if (tree.leaves.length === 0) throw new InvalidArgumentError('the schema has no columns');
    const known = new Set(tree.leaves.map((l) => l.path.join('.')));
    for (const path of Object.keys(options.columns ?? {})) {
      if (!known.has(path)) throw new ColumnOptionsError(`options.columns names "${path}", which is not a leaf column of the schema`, path);
    }
    for (const sb of options.sortedBy ?? []) {
      if (!known.has(sb.column)) throw new InvalidArgumentError(`sortedBy names "${sb.column}", which is not a leaf column of the schema`);
    }
    const blooms = options.bloomFilters ?? {};
    if (typeof blooms !== 'object' || blooms === null) throw new InvalidArgumentError('options.bloomFilters must be an object keyed by column path');
    for (const [path, b] of Object.entries(blooms)) {
      if (!known.has(path)) throw new ColumnOptionsError(`options.bloomFilters names "${path}", which is not a leaf column of the schema`, path, undefined, undefined, 'bloomFilters');
      if (b !== true && (typeof b !== 'object' || b === null)) {
        throw new InvalidArgumentError(`options.bloomFilters["${path}"] must be true or { ndv?, fpp? }`);
      }
    }
    if (Object.keys(blooms).length > 0) await parts.loadBloomHasher();
    const encryptor = options.encryption ? parts.FileEncryptor.create(options.encryption) : undefined;
    encryptor?.checkColumns([...known]);
    const flushed = { bytes: 0 };
    // Columns with no options of their own share one options object (a wide table has 100,000 of them).
    const shared = await columnOptions(undefined, options);
    const columns: ColumnWriter[] = [];
    for (const leaf of tree.leaves) {
      const path = leaf.path.join('.');
      const own = options.columns?.[path] !== undefined || hasOwn.call(blooms, path);
      columns.push(new parts.ColumnWriter(leaf, own ? await columnOptions(leaf, options) : shared, flushed));
    }
    const variant = await variantWriterFor(tree, 'fields' in schema ? (schema.fields as ReadonlyArray<readonly [string, AnyField]>) : []);
    const w = new WriterCore<Row>(new parts.BufferedSink(sink), elements, tree, columns, options, flushed, encryptor, variant);
    await w.put(encryptor?.magic ?? parts.PARQUET_MAGIC, true);
    return w;
  }

  get numRows(): number {
    return this.totalRows;
  }

  get rowGroupsWritten(): number {
    return this.rowGroups.length;
  }

  get bytesSoFar(): number {
    return this.offset + this.bufferedBytes();
  }

  write(record: Row): Promise<void> {
    // Not an async function: most calls finish here, and a shared settled promise costs no allocation.
    try {
      this.add(record);
    } catch (e) {
      return Promise.reject(e);
    }
    if (this.groupFull()) return this.flushRowGroup();
    return RESOLVED;
  }

  async writeArrow(data: Table | RecordBatch): Promise<void> {
    this.checkOpen();
    const a = await loadArrow();
    const sinks = this.plan.leaves.map((l) => this.columns[l.columnIndex]!);
    const columns = new parts.ArrowColumns(a, this.plan, sinks);
    const rows = new parts.ArrowShredder(a, this.plan, sinks);
    for (const batch of 'batches' in data ? data.batches : [data]) {
      const top = parts.batchColumns(this.plan, batch);
      columns.bind(top);
      rows.bind(top);
      const n = batch.numRows;
      for (let start = 0, end = 0; start < n; start = end) {
        const taken = this.appendSlice(this.sliceRows(n - start), (k) => columns.rows(start, start + k));
        end = start + taken;
        if (taken === 0) {
          // A slice that fails is taken again row by row: the rows before the bad one are kept, and its error names it.
          end = start + this.sliceRows(n - start);
          for (let i = start; i < end; i++) {
            this.addWith(() => rows.row(i));
            if (this.groupFull()) await this.flushRowGroup();
          }
        } else if (this.groupFull()) await this.flushRowGroup();
      }
    }
  }

  /**
   * Appends a slice of `n` rows column by column (`append`), taking fewer
   * when they overrun a page or the row group, and ends it as one record.
   * Gives the rows taken: 0, with nothing appended, when `append` throws a
   * ParquetryError. The caller flushes a full row group.
   */
  private appendSlice(n: number, append: (rows: number) => void): number {
    const cols = this.columns;
    const before = this.bufferedBytes();
    for (;;) {
      for (const c of cols) c.mark();
      try {
        append(n);
      } catch (e) {
        for (const c of cols) c.rollback();
        if (e instanceof ParquetryError) return 0;
        throw e;
      }
      const fit = this.rowsThatFit(n, before);
      if (fit === n) break;
      for (const c of cols) c.rollback();
      n = fit;
    }
    for (const c of cols) c.endRecord();
    this.recordsGiven += n;
    this.rowsInGroup += n;
    this.totalRows += n;
    return n;
  }

  async writeMany(records: Iterable<Row> | AsyncIterable<Row>): Promise<void> {
    if (this.flat) {
      if (Array.isArray(records)) return this.writeFlatRecords(records, 0, records.length);
      const batch: unknown[] = [];
      if (Symbol.asyncIterator in records) {
        for await (const r of records as AsyncIterable<unknown>) {
          if (batch.push(r) === RECORD_BATCH) {
            await this.writeFlatRecords(batch, 0, batch.length);
            batch.length = 0;
          }
        }
      } else {
        for (const r of records as Iterable<unknown>) {
          if (batch.push(r) === RECORD_BATCH) {
            await this.writeFlatRecords(batch, 0, batch.length);
            batch.length = 0;
          }
        }
      }
      if (batch.length) await this.writeFlatRecords(batch, 0, batch.length);
      return;
    }
    if (Symbol.asyncIterator in records) {
      for await (const r of records as AsyncIterable<Row>) await this.write(r);
      return;
    }
    for (const r of records as Iterable<unknown>) {
      this.add(r);
      if (this.groupFull()) await this.flushRowGroup();
    }
  }

  /**
   * Records of a flat schema, a slice at a time: each column's field is
   * gathered from the slice's records and appended as a column. A slice
   * with a record that does not fit is rolled back and written again record
   * by record, so the records before the bad one are kept and the bad one
   * throws exactly as `write()` would have it.
   */
  private async writeFlatRecords(records: ArrayLike<unknown>, start: number, end: number): Promise<void> {
    this.checkOpen();
    const columns = this.columns;
    const names = columns.map((c) => c.leaf.path[0]!);
    const field = new Array<unknown>(Math.min(SLICE_ROWS, end - start));
    const known = (this.options.unknownFields ?? 'error') === 'error' ? this.shredder.knownNames(this.plan.fields) : undefined;
    for (let s = start, e = start; s < end; s = e) {
      e = s + this.sliceRows(end - s);
      let ok = true;
      // Records that inherit from Object.prototype (or nothing) have as own properties all their fields that Object.prototype lacks.
      let plain = true;
      for (let i = s; i < e; i++) {
        const r = records[i];
        // A record with a key the schema lacks goes record by record, where it throws as write() would.
        if (known && typeof r === 'object' && r !== null && parts.firstUnknownKey(r, known) !== undefined) {
          ok = false;
          break;
        }
        if (typeof r === 'object' && r !== null) {
          const proto = Object.getPrototypeOf(r) as unknown;
          if (proto === Object.prototype || proto === null) continue;
        }
        if (!parts.isPlainObject(r)) {
          ok = false;
          break;
        }
        plain = false;
      }
      const before = ok ? this.bufferedBytes() : 0;
      while (ok) {
        for (const c of columns) c.mark();
        try {
          for (let k = 0; k < columns.length; k++) {
            const name = names[k]!;
            // Own properties only, as the shredder reads them: read directly where nothing else can answer.
            if (plain && !(name in Object.prototype)) {
              for (let i = s; i < e; i++) field[i - s] = (records[i] as Record<string, unknown>)[name];
            } else {
              for (let i = s; i < e; i++) {
                const r = records[i] as Record<string, unknown>;
                field[i - s] = hasOwn.call(r, name) ? r[name] : undefined;
              }
            }
            columns[k]!.appendColumn(field, 0, e - s);
          }
        } catch {
          ok = false;
          for (const c of columns) c.rollback();
          break;
        }
        // Records much larger than the ones before them: take fewer, so pages and the row group stay near their limits.
        const fit = this.rowsThatFit(e - s, before);
        if (fit === e - s) break;
        for (const c of columns) c.rollback();
        e = s + fit;
      }
      if (!ok) {
        for (let i = s; i < e; i++) {
          this.add(records[i]);
          if (this.groupFull()) await this.flushRowGroup();
        }
        continue;
      }
      for (const c of columns) c.endRecord();
      if (this.options.onWarning) {
        const first = this.recordsGiven - s;
        this.warnReplaced((c) => first + firstIllFormed(records, s, e, (r) => (typeof r === 'object' && r !== null ? (r as Record<string, unknown>)[c.leaf.path[0]!] : undefined)));
      }
      this.recordsGiven += e - s;
      this.rowsInGroup += e - s;
      this.totalRows += e - s;
      if (this.groupFull()) await this.flushRowGroup();
    }
  }

  /**
   * Rows for the next slice of a columnar write: at most SLICE_ROWS, what
   * is left of the row group's row limit, what every column's page has room
   * for, and half the room left in the row group's byte budget at the bytes
   * per row so far (so slices shrink towards the budget and a row group ends
   * within about a row of it). Slices start at one row and at most double
   * while nothing is known of the rows' size.
   */
  private sliceRows(left: number): number {
    let n = Math.min(left, SLICE_ROWS);
    for (const c of this.columns) {
      const room = c.roomRows();
      if (room < n) n = room;
    }
    if (!this.held) n = Math.min(n, this.rowGroupRows - this.rowsInGroup, this.groupRoom(this.bufferedBytes()));
    return n > 1 ? n : 1;
  }

  /**
   * After a slice of `n` rows was appended (and before the columns' end
   * of record): how many of them fit, at their average size, in every
   * column's page and in the row group's budget (`before`: the buffered
   * bytes before the slice), and at most half of them; `n` when they all
   * fit, or when n is 1.
   */
  private rowsThatFit(n: number, before: number): number {
    if (n <= 1) return n;
    let k = n;
    for (const c of this.columns) {
      const r = c.rowsWithinPage(n);
      if (r < k) k = r;
    }
    const bytes = this.held ? 0 : this.bufferedBytes();
    if (bytes > this.rowGroupSize && before < this.rowGroupSize) {
      const fit = Math.ceil((this.rowGroupSize - before) / ((bytes - before) / n));
      if (fit < k) k = fit > 1 ? fit : 1;
    }
    // At most half: the average misleads when a few large rows follow many small ones, and halving bounds the work taken again.
    return k < n ? Math.min(k, n >> 1) : n;
  }

  private bufferedBytes(): number {
    let bytes = 0;
    for (const c of this.columns) bytes += c.bufferedBytes;
    return bytes;
  }

  async writeColumns(columns: Record<string, ArrayLike<unknown>>): Promise<void> {
    this.checkOpen();
    const leaves = this.schema.leaves;
    if (leaves.some((l) => l.path.length !== 1 || l.repLevel > 0)) {
      throw new InvalidArgumentError('writeColumns needs a flat schema (top-level columns only); write records for nested data');
    }
    let rows = -1;
    const vectors = this.columns.map((c) => {
      const name = c.leaf.path[0]!;
      const v = Object.prototype.hasOwnProperty.call(columns, name) ? columns[name] : undefined;
      if (!v || typeof v.length !== 'number') throw new InvalidArgumentError(`writeColumns: no values for column "${name}"`);
      if (rows >= 0 && v.length !== rows) throw new InvalidArgumentError(`writeColumns: column "${name}" has ${v.length} values, others ${rows}`);
      rows = v.length;
      return v;
    });
    const known = new Set(leaves.map((l) => l.path[0]));
    for (const k of Object.keys(columns)) if (!known.has(k)) throw new InvalidArgumentError(`writeColumns: "${k}" is not a column of the schema`);
    // Pages are only cut between slices: sliceRows keeps them (and row groups) near their limits.
    const cols = this.columns;
    for (let start = 0, end = 0; start < rows; start = end) {
      end = start + this.sliceRows(rows - start);
      const before = this.bufferedBytes();
      let failure: unknown;
      for (let k = 0; ; ) {
        for (const c of cols) c.mark();
        try {
          for (k = 0; k < cols.length; k++) cols[k]!.appendColumn(vectors[k]!, start, end);
          // Rows much larger than the ones before them: take fewer, so pages and the row group stay near their limits.
          const fit = this.rowsThatFit(end - start, before);
          if (fit === end - start) break;
          for (const c of cols) c.rollback();
          end = start + fit;
        } catch (e) {
          for (const c of cols) c.rollback();
          // The rows before a bad one are kept (as writeMany keeps the records before a bad record): the slice is taken again up to it.
          const at = cols[k]!.failedRow;
          failure = e;
          if (!(at > start && at < end)) throw e;
          end = at;
        }
      }
      for (const c of cols) c.endRecord();
      if (this.options.onWarning) {
        const first = this.totalRows - start;
        this.warnReplaced((c) => first + firstIllFormed(vectors[cols.indexOf(c)]!, start, end, (v) => v));
      }
      this.rowsInGroup += end - start;
      this.totalRows += end - start;
      if (this.groupFull()) await this.flushRowGroup();
      if (failure !== undefined) throw failure;
    }
  }

  async writeEntries(rows: number, entries: (column: number, start: number, end: number) => LeafEntries): Promise<void> {
    this.checkOpen();
    const cols = this.columns;
    const append = (start: number, end: number) => {
      for (let k = 0; k < cols.length; k++) {
        const e = entries(k, start, end);
        const v = e.values;
        const form = v.t === 'typed' ? v.values : v.t === 'bytes' ? 'bytes' : undefined;
        if (form !== undefined && !cols[k]!.stores(form)) throw new InvalidArgumentError(`writeEntries: column "${cols[k]!.leaf.path.join('.')}" does not store these values as they are`);
        cols[k]!.appendEntries(e);
      }
    };
    for (let start = 0; start < rows; ) {
      const n = this.sliceRows(rows - start);
      let failure: unknown;
      const taken = this.appendSlice(n, (k) => {
        try {
          append(start, start + k);
        } catch (e) {
          failure = e;
          throw e;
        }
      });
      if (taken === 0) throw failure;
      start += taken;
      if (this.groupFull()) await this.flushRowGroup();
    }
  }

  private add(record: unknown): void {
    this.addWith(() => this.shredder.shred(record));
  }

  /** Adds one record that `shred` hands to the columns; one that fails is rolled back in every column. */
  private addWith(shred: () => void): void {
    this.checkOpen();
    const index = this.recordsGiven++;
    // Every column is marked at the start of this record already: by its last endRecord() or finishChunk().
    try {
      shred();
    } catch (e) {
      for (const c of this.columns) c.rollback();
      if (e instanceof ParquetryError) {
        throw new InvalidArgumentError(`record ${index}: ${e.detail}`, e.context);
      }
      throw e;
    }
    for (const c of this.columns) c.endRecord();
    this.rowsInGroup++;
    this.totalRows++;
    if (this.options.onWarning) this.warnReplaced(() => index);
  }

  /**
   * Warns (once per column) of columns that wrote a string with U+FFFD for
   * lone surrogates; `record` finds the record that had the first one.
   */
  private warnReplaced(record: (column: ColumnWriter) => number): void {
    for (const c of this.columns) {
      if (c.replacedStrings === 0 || this.warnedColumns.has(c)) continue;
      this.warnedColumns.add(c);
      const column = c.leaf.path.join('.');
      const at = record(c);
      this.options.onWarning!({
        code: 'LONE_SURROGATE', column, record: at,
        message: `column ${column}, record ${at}: a string with lone surrogates (UTF-16 that is not text) was written with U+FFFD in their place; later ones in this column are not reported`,
      });
    }
  }

  /**
   * Whether the row group is full, after a record or a slice. The byte
   * count (a sum over the columns) is taken again once the rows reach
   * `groupCheckAt`, half the rows the budget was estimated to have room for
   * when it was last taken, or once the columns' encoded pages have grown by
   * half the room then left, whichever comes first; so checks come more
   * often near the budget, a row group ends within about a record of it,
   * and records much larger than the ones before cannot run far past it
   * (what is not in encoded pages is at most a page and a dictionary per
   * column).
   */
  private groupFull(): boolean {
    if (this.held) return false;
    if (this.rowsInGroup >= this.rowGroupRows) return true;
    if (this.rowsInGroup < this.groupCheckAt && this.flushed.bytes < this.groupCheckBytes) return false;
    const bytes = this.bufferedBytes();
    if (bytes >= this.rowGroupSize) return true;
    this.groupCheckAt = this.rowsInGroup + this.groupRoom(bytes);
    this.groupCheckBytes = this.flushed.bytes + (this.rowGroupSize - bytes) / 2;
    return false;
  }

  /** Half the rows estimated to fit in what is left of the byte budget (at least 1). */
  private groupRoom(bytes: number): number {
    const rows = this.rowsInGroup;
    let rate: number;
    let cap = Infinity;
    if (this.lastRowBytes > 0) {
      // The last row group's bytes per row stand for 64 rows, so a few odd rows at the start do not swing the estimate.
      rate = (bytes + this.lastRowBytes * 64) / (rows + 64);
    } else {
      // The first row group: at most double the rows seen, until their size is known.
      rate = rows > 0 ? bytes / rows : 0;
      cap = Math.max(1, rows);
    }
    const room = Math.min(cap, rate > 0 ? Math.floor((this.rowGroupSize - bytes) / rate / 2) : 1);
    return room > 1 ? room : 1;
  }

  private checkOpen(): void {
    if (this.failed) throw new IOError('the writer failed earlier and cannot continue (the output was discarded)', {}, { cause: this.failed });
    if (this.closed) throw new InvalidArgumentError('the writer is closed');
  }

  /**
   * Writes to the sink. A failure is final: the columns have already handed
   * over their pages, so the file could only be finished corrupt. The sink is
   * aborted (nothing is left at a file destination) and every later call fails.
   */
  /**
   * `through`: then on to the sink underneath with what was gathered before
   * it. Each row group (and its checkpoint) goes through as it ends, so a
   * failing sink fails the write() that cut the row group, as unbuffered.
   */
  private async put(bytes: Uint8Array, through = false): Promise<void> {
    try {
      await this.sink.write(bytes);
      if (through) await this.sink.flush();
    } catch (e) {
      this.failed = e;
      this.closed = true;
      await this.sink.abort().catch(() => undefined);
      if (e instanceof IOError) throw e;
      throw new IOError(`writing the output failed: ${(e as Error)?.message ?? e}`, {}, { cause: e });
    }
    this.offset += bytes.length;
  }

  /**
   * `put`, done at once (no promise to await) when the bytes fit in the
   * sink's block: a wide table's row group is a few small pieces a column,
   * and an await for each cost a promise and a turn of the microtask queue
   * (one row of 200,000 columns: 1.10 to 1.04 GB peak RSS).
   */
  private putSoon(bytes: Uint8Array): Promise<void> | undefined {
    if (!this.sink.take(bytes)) return this.put(bytes);
    this.offset += bytes.length;
    return undefined;
  }

  async startRowGroup(): Promise<void> {
    await this.flushRowGroup();
    this.held = true;
    this.lastRowBytes = 0;
    for (const c of this.columns) c.forgetRowSizes();
  }

  async flushRowGroup(closing = false): Promise<void> {
    const rows = this.endRowGroup();
    if (rows === 0) return;
    // Closing, each column's writer (a few KB, whatever its data) goes once its last chunk is out,
    // so a table of 100,000 columns does not hold its writers and its footer's metadata at once.
    const columns: Array<ColumnWriter | undefined> = this.columns;
    if (closing) this.sinks.length = 0;
    const place = this.startPlacing();
    for (let column = 0; column < columns.length; column++) {
      const c = columns[column]!;
      if (closing) columns[column] = undefined;
      await this.placeChunk(place, column, this.encodeChunk(c));
    }
    await this.endPlacing(place, rows);
  }

  encodeRowGroup(): EncodedRowGroup | undefined {
    const rows = this.endRowGroup();
    if (rows === 0) return undefined;
    return { rows, chunks: this.columns.map((c) => this.encodeChunk(c)) };
  }

  async writeRowGroup(group: EncodedRowGroup): Promise<void> {
    this.checkOpen();
    if (group.chunks.length !== this.columns.length) throw new InvalidArgumentError(`writeRowGroup: the row group has ${group.chunks.length} column chunks, the schema ${this.columns.length} columns`);
    await this.flushRowGroup();
    this.recordsGiven += group.rows;
    this.totalRows += group.rows;
    const place = this.startPlacing();
    for (let column = 0; column < group.chunks.length; column++) await this.placeChunk(place, column, group.chunks[column]!);
    await this.endPlacing(place, group.rows);
  }

  /** Ends the buffered row group: its rows (0: none), the counts reset for the next. */
  private endRowGroup(): number {
    const rows = this.rowsInGroup;
    this.held = false;
    if (rows === 0) return 0;
    this.lastRowBytes = this.bufferedBytes() / rows;
    this.groupCheckAt = 0;
    this.groupCheckBytes = 0;
    this.rowsInGroup = 0;
    this.flushed.bytes = 0;
    return rows;
  }

  /** A column's chunk of the row group, finished: its pages' bytes, metadata, column index and bloom filter. */
  private encodeChunk(c: ColumnWriter): EncodedChunkBytes {
    const chunk = c.finishChunk();
    const out: EncodedChunkBytes = { pages: chunk.pages.map(pageBytes), meta: chunk.meta, byteLength: chunk.byteLength };
    const columnIndex = this.pageIndex ? parts.buildColumnIndex(c.leaf, chunk.pages, this.columnIndexTruncateLength, this.options.floatOrder ?? 'type') : undefined;
    if (columnIndex) out.columnIndex = columnIndex;
    if (chunk.bloom) out.bloom = parts.encodeBloomFilter(chunk.bloom);
    return out;
  }

  private startPlacing(): { start: number; rowGroup: number; uncompressed: number } {
    return { start: this.offset, rowGroup: this.rowGroups.length, uncompressed: 0 };
  }

  /** Writes a chunk (sealed when its column is encrypted), its offsets made the file's, and keeps its metadata for the footer. */
  private async placeChunk(place: { rowGroup: number; uncompressed: number }, column: number, chunk: EncodedChunkBytes): Promise<void> {
    const leaf = this.schema.leaves[column]!;
    if (this.encryptor && (await this.encryptor.sealPages(leaf.path.join('.'), place.rowGroup, column, chunk.pages))) sealedSizes(chunk);
    const base = this.offset;
    for (const p of chunk.pages) {
      let pending = this.putSoon(p.header);
      if (pending) await pending;
      pending = this.putSoon(p.body);
      if (pending) await pending;
    }
    const meta = chunk.meta;
    meta.dataPageOffset += base;
    if (meta.dictionaryPageOffset !== undefined) meta.dictionaryPageOffset += base;
    place.uncompressed += meta.totalUncompressedSize;
    const offsetIndex = this.pageIndex ? parts.buildOffsetIndex(leaf, chunk.pages, base) : undefined;
    this.chunks.add(base, meta, offsetIndex, this.pageIndex ? chunk.columnIndex : undefined, chunk.bloom);
  }

  /** The row group's facts for the footer, then its checkpoint when one is due; the bytes go through. */
  private async endPlacing(place: { start: number; rowGroup: number; uncompressed: number }, rows: number): Promise<void> {
    const group: RowGroupFacts = {
      totalByteSize: place.uncompressed,
      numRows: rows,
      fileOffset: place.start,
      totalCompressedSize: this.offset - place.start,
      ordinal: place.rowGroup,
    };
    const sorting = this.sortingColumns();
    if (sorting) group.sortingColumns = sorting;
    this.rowGroups.push(group);
    if (this.checkpointEvery > 0 && this.rowGroups.length - this.checkpointed >= this.checkpointEvery) await this.writeCheckpoint();
    await this.put(NO_BYTES, true);
  }

  /** The row groups since the last checkpoint, chained to it (checkpoint.ts). */
  private async writeCheckpoint(): Promise<void> {
    const at = this.offset;
    await this.put(parts.encodeCheckpoint(this.fileMetaData(this.checkpointed, (first, n) => this.chunks.encoded(first, n)), this.lastCheckpoint));
    this.checkpointed = this.rowGroups.length;
    this.lastCheckpoint = at;
  }

  /**
   * The file's metadata for the row groups from `first` on: their chunks
   * given as `columns` (the chunks encoded, or decoded), with the extras'
   * places once they are written.
   */
  private fileMetaData(first: number, columns: (first: number, n: number) => ColumnChunk[]): FileMetaData {
    const n = this.columns.length;
    const meta: FileMetaData = {
      version: this.options.pageVersion === 2 ? 2 : 1,
      schema: this.elements,
      numRows: this.totalRows - this.rowsInGroup,
      rowGroups: rowGroupsOf(this.rowGroups, first, n, columns),
      createdBy: `parquetry version ${VERSION}`,
      columnOrders: this.schema.leaves.map((leaf) => (this.options.floatOrder === 'total' && parts.isFloatColumn(leaf) ? TOTAL_ORDER : TYPE_ORDER)),
    };
    const metadata = this.options.metadata ?? {};
    const kv: KeyValue[] = Object.entries(metadata).map(([key, value]) => ({ key, value }));
    // The caller's own `geo` stays as given; ours covers every row group so far (a checkpoint's too).
    const geo = 'geo' in metadata ? undefined : parts.geoParquetMetadata(this.schema, this.rowGroups, (g, i) => this.chunks.meta(g * n + i), metadata);
    if (geo) kv.push({ key: 'geo', value: geo });
    if (kv.length) meta.keyValueMetadata = kv;
    return meta;
  }

  private sortingColumns(): SortingColumn[] | undefined {
    if (!this.options.sortedBy?.length) return undefined;
    return this.options.sortedBy.map((s) => {
      const idx = this.schema.leaves.findIndex((l) => l.path.join('.') === s.column);
      if (idx < 0) throw new InvalidArgumentError(`sortedBy names "${s.column}", which is not a leaf column`);
      return { columnIdx: idx, descending: Boolean(s.descending), nullsFirst: Boolean(s.nullsFirst) };
    });
  }

  async close(): Promise<FileMetaData> {
    this.checkOpen();
    try {
      // Closed from here: the last flush lets the column writers go.
      this.closed = true;
      await this.flushRowGroup(true);
      const places = await this.writeExtras();
      if (this.encryptor) {
        // Sealed column by column: the chunks as objects.
        const meta = this.fileMetaData(0, (first, n) => this.chunks.decoded(first, n, places));
        await this.put(await this.encryptor.footer(meta));
        await this.sink.close();
        return meta;
      }
      const meta = this.fileMetaData(0, (first, n) => this.chunks.encoded(first, n, places));
      await this.put(parts.footerBytes(meta));
      await this.sink.close();
      // What the getter keeps is bytes and a few numbers a row group, not the writer (a dataset's writer keeps every part's metadata).
      const { rowGroups: facts, chunks } = this;
      const n = this.columns.length;
      let rowGroups: RowGroup[] | undefined;
      return Object.defineProperty(meta, 'rowGroups', {
        get: () => (rowGroups ??= rowGroupsOf(facts, 0, n, (first, count) => chunks.decoded(first, count, places))),
        // A plain field to the caller otherwise: it may set it.
        set: (v: RowGroup[]) => {
          rowGroups = v;
        },
        enumerable: true,
        configurable: true,
      });
    } catch (e) {
      await this.abort();
      if (e instanceof ParquetryError) throw e;
      throw new IOError(`writing the file failed: ${(e as Error)?.message ?? e}`, {}, { cause: e });
    }
  }

  /** Chunk k's path, row group and column: what encryption binds its modules to. */
  private chunkAt(k: number): [string, number, number] {
    const n = this.columns.length;
    return [this.schema.leaves[k % n]!.path.join('.'), Math.floor(k / n), k % n];
  }

  /**
   * After the row groups: every bloom filter, then every ColumnIndex, then
   * every OffsetIndex (as parquet-java orders them); where each went, for
   * the footer. Unsealed page indexes go as they lie, end to end, in one write.
   */
  private async writeExtras(): Promise<ExtrasPlaces> {
    const enc = this.encryptor;
    const chunks = this.chunks;
    const bloom: ExtrasPlaces['bloom'] = new Map();
    for (const [k, b] of chunks.blooms) {
      const bytes = enc ? await enc.sealBloomFilter(...this.chunkAt(k), b) : b;
      bloom.set(k, { offset: this.offset, length: bytes.length });
      await this.put(bytes);
    }
    const indexes = async (kind: IndexKind, type: typeof ModuleType.COLUMN_INDEX | typeof ModuleType.OFFSET_INDEX) => {
      const places = { offset: new Float64Array(chunks.count), length: new Float64Array(chunks.count) };
      const all = chunks.allIndexes(kind);
      const base = this.offset;
      if (!enc) await this.put(all);
      for (let k = 0; k < chunks.count; k++) {
        const [start, end] = chunks.indexRange(kind, k);
        if (start === end) continue;
        if (!enc) {
          places.offset[k] = base + start;
          places.length[k] = end - start;
          continue;
        }
        const bytes = await enc.sealIndex(...this.chunkAt(k), type, all.subarray(start, end));
        places.offset[k] = this.offset;
        places.length[k] = bytes.length;
        await this.put(bytes);
      }
      return places;
    };
    const columnIndex = await indexes('columnIndex', ModuleType.COLUMN_INDEX);
    return { bloom, columnIndex, offsetIndex: await indexes('offsetIndex', ModuleType.OFFSET_INDEX) };
  }

  async abort(): Promise<void> {
    const already = this.failed !== undefined;
    this.closed = true;
    if (!already) await this.sink.abort();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.closed) await this.abort();
  }
}

/** What is written of a page, and what its offset index needs (not its statistics: its column index is built already). */
function pageBytes(p: EncodedPage): PagePlace {
  return { header: p.header, body: p.body, type: p.type, firstRow: p.firstRow, unencodedBytes: p.unencodedBytes };
}

/** A chunk's sizes and relative data page offset after its pages were sealed (each grew by its module framing). */
function sealedSizes(chunk: EncodedChunkBytes): void {
  const sizes = chunk.pages.map((p) => p.header.length + p.body.length);
  chunk.byteLength = sizes.reduce((a, b) => a + b, 0);
  chunk.meta.totalCompressedSize = chunk.byteLength;
  if (chunk.meta.dictionaryPageOffset !== undefined) chunk.meta.dataPageOffset = sizes[0]!;
}

/** Row groups `first` on, each with its `n` column chunks as `columns` gives them. */
function rowGroupsOf(facts: readonly RowGroupFacts[], first: number, n: number, columns: (first: number, n: number) => ColumnChunk[]): RowGroup[] {
  return facts.slice(first).map((g, i) => ({ columns: columns((first + i) * n, n), ...g }));
}

/** The options of `leaf`'s column, or (no leaf) of every column without options of its own. */
async function columnOptions(leaf: LeafNode | undefined, o: WriterOptions): Promise<ColumnOptions> {
  const own = (leaf && o.columns?.[leaf.path.join('.')]) ?? {};
  const codecName = own.codec ?? o.codec ?? 'SNAPPY';
  const codec: Codec | null = codecName === 'UNCOMPRESSED' ? null : await loadCodec(codecName);
  const version = o.pageVersion ?? 1;
  if (version !== 1 && version !== 2) throw new InvalidArgumentError(`pageVersion must be 1 or 2, got ${version}`);
  return {
    codec,
    codecName,
    level: own.compressionLevel ?? o.compressionLevel,
    dictionary: own.dictionary ?? o.dictionary ?? true,
    encoding: own.encoding ?? 'PLAIN',
    pageSize: positive(o.pageSize, 'pageSize', DEFAULTS.pageSize),
    pageRowLimit: positive(o.pageRowLimit, 'pageRowLimit', DEFAULTS.pageRowLimit),
    dictionaryPageSize: positive(o.dictionaryPageSize, 'dictionaryPageSize', DEFAULTS.dictionaryPageSize),
    pageVersion: version,
    checksums: o.checksums ?? true,
    statistics: own.statistics ?? o.statistics ?? true,
    statisticsTruncateLength: positive(o.statisticsTruncateLength, 'statisticsTruncateLength', DEFAULTS.statisticsTruncateLength),
    floatOrder: floatOrder(o.floatOrder),
    ...(leaf ? bloomOption(leaf, o) : {}),
  };
}

function floatOrder(v: unknown): FloatOrder {
  if (v === undefined || v === 'type' || v === 'total') return v ?? 'type';
  throw new InvalidArgumentError(`floatOrder must be 'type' or 'total', got ${String(v)}`);
}

function bloomOption(leaf: LeafNode, o: WriterOptions): Pick<ColumnOptions, 'bloom'> {
  const path = leaf.path.join('.');
  const b = o.bloomFilters && hasOwn.call(o.bloomFilters, path) ? o.bloomFilters[path] : undefined;
  if (b === undefined) return {};
  if (b === true) return { bloom: {} };
  const { ndv, fpp } = b;
  if (ndv !== undefined && !(Number.isSafeInteger(ndv) && ndv > 0)) {
    throw new InvalidArgumentError(`bloom filter ndv for column ${path} must be a positive integer, got ${String(ndv)}`);
  }
  if (fpp !== undefined && !(typeof fpp === 'number' && fpp > 0 && fpp < 1)) {
    throw new InvalidArgumentError(`bloom filter fpp for column ${path} must be between 0 and 1 (exclusive), got ${String(fpp)}`);
  }
  return { bloom: { ...(ndv !== undefined ? { ndv } : {}), ...(fpp !== undefined ? { fpp } : {}) } };
}

/** The index of the first of values[start..end) whose string (as `get` finds it) has lone surrogates; `end` when none has. */
function firstIllFormed(values: ArrayLike<unknown>, start: number, end: number, get: (v: unknown) => unknown): number {
  for (let i = start; i < end; i++) {
    const s = get(values[i]);
    if (typeof s === 'string' && !parts.isWellFormed(s)) return i;
  }
  return end;
}
