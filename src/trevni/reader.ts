/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * The Trevni reader: header and column metadata at open, block descriptors
 * per column on first use, blocks read one at a time (decompressed, checksum
 * verified) as values are needed.
 *
 * ```ts
 * const r = await TrevniReader.open(bufferSource(bytes));
 * for await (const row of r.rows()) console.log(row);
 * const ids = await r.readColumn('id');
 * const first = await r.seek('key', 'key-00015126'); // row index, or null
 * ```
 *
 * Reading starts anywhere: the block descriptors give each block's first
 * row, so `rows({ offset })` and `readRow(n)` decode only the blocks holding
 * those rows (and, for child columns, the parent's lengths over the same
 * stretch).
 */
import { ByteCursor } from '../bytes/cursor.js';
import { ChecksumError, CorruptFileError, InvalidArgumentError, LimitError, ParquetryError, UnsupportedError, asParquetryError } from '../errors.js';
import { inputSource, type ReadInput, type Source, type UrlOptions } from '../io/source.js';
import { hex } from '../schema/convert.js';
import { checkEmptyRows } from '../shred/empty-rows.js';
import { assembleRow, canonicalRowText, type ColumnRowData } from './assemble.js';
import { trevniChecksum, trevniCodec } from './codecs.js';
import { checkBlockSize } from './block-bounds.js';
import { DEFAULT_MAX_INFLATED } from '../codecs/codec.js';
import { parseDescriptors, parseGrowing, parseHeader, type TrevniHeader } from './metadata.js';
import { checkChecksum, checkCodec, type TrevniFormat } from './version.js';
import { holdsData, type MetaEntry, type TrevniBlock, type TrevniColumn, type TrevniValue } from './types.js';
import { ValueReader } from './values.js';

/** Most rows readColumn materializes; larger columns are read with rows(). */
const MAX_COLUMN_ROWS = 1 << 27;

/**
 * A null takes no bytes, so a null-typed array column's lengths claim values
 * nothing in its block backs (one varint of a 0/1 run claims 2^31). When the
 * column has a child that is neither null-typed nor an array, every element
 * costs that child at least one bit, checked against the child's block
 * before anything is allocated; a row is then only capped for memory
 * (MAX_NULLS_PER_ROW). Without such a child (array<null>, arrays of optional
 * values or of records of arrays), a block yields at most one null value per
 * row, UNBACKED_NULLS_PER_BYTE per byte of its data, and UNBACKED_NULLS more.
 */
const MAX_NULLS_PER_ROW = 1 << 24;

/** `rows` consecutive rows, each holding `value` values. */
interface Run {
  rows: number;
  value: number;
}
const UNBACKED_NULLS = 1 << 16;
const UNBACKED_NULLS_PER_BYTE = 1024;

/** How a Trevni file is opened: checksums verified or not, the largest block read, and whether a cut file is read up to the cut. */
export interface TrevniOpenOptions extends UrlOptions {
  /** Verify each block's stored checksum (default true); false reads damaged or quirky files anyway. */
  verifyChecksums?: boolean;
  /**
   * Largest uncompressed size a block may declare, in bytes (default 2^30):
   * a block claiming more is refused with a LimitError before it is inflated.
   */
  maxDecompressedBytes?: number;
  /**
   * Open a truncated file (default false): columns and blocks that lie past
   * the end fail when read, with a CorruptFileError, instead of the open.
   * The salvage read sets it.
   */
  truncated?: boolean;
}

/** Which rows and columns `TrevniReader.rows()` reads. */
export interface TrevniRowsOptions {
  /** First row (default 0). */
  offset?: number;
  /** Most rows to return (default: to the end). */
  limit?: number;
  /** Root column names to read (each with its descendants); default all. */
  columns?: readonly string[];
}

/**
 * A column's value in one row, as `readColumn` gives it: the value of a
 * plain column; the list of an array column; for a column with a parent, the
 * list of its values (one per parent value in the row), or for an array
 * column with a parent, the list of its sequences.
 */
export type TrevniColumnRow = TrevniValue | TrevniValue[] | TrevniValue[][];

interface BlockCacheEntry {
  block: number;
  data: Uint8Array;
}

/** Reads a Trevni file of version 2 or 1: `TrevniReader.open(input, options)`, then rows, columns or Avro records (docs/trevni.md). */
export class TrevniReader {
  readonly source: Source;
  readonly magic: Uint8Array;
  /** The Trevni version the magic names (1: cutting/trevni's; 2: the Avro project's) and what it allows. */
  readonly format: TrevniFormat;
  readonly numRows: number;
  /** File metadata, in file order. */
  readonly metadata: readonly MetaEntry[];
  readonly columns: readonly TrevniColumn[];
  /** Indexes of the columns without a parent: the row's fields. */
  readonly roots: readonly number[];
  readonly headerLength: number;
  private readonly byName = new Map<string, number>();
  private readonly blockLists = new Map<number, TrevniBlock[]>();
  private readonly cache = new Map<number, BlockCacheEntry[]>();
  private readonly verify: boolean;
  private readonly maxDecompressedBytes: number;
  private readonly truncated: boolean;

  private constructor(source: Source, header: Awaited<ReturnType<typeof readHeader>>, options: TrevniOpenOptions) {
    this.source = source;
    this.verify = options.verifyChecksums ?? true;
    this.maxDecompressedBytes = options.maxDecompressedBytes ?? DEFAULT_MAX_INFLATED;
    this.truncated = options.truncated ?? false;
    this.magic = header.magic;
    this.format = header.format;
    this.numRows = header.numRows;
    this.metadata = header.metadata;
    this.columns = header.columns;
    this.headerLength = header.headerLength;
    for (const c of this.columns) this.byName.set(c.name, c.index);
    this.roots = this.columns.filter((c) => c.parentIndex < 0).map((c) => c.index);
  }

  /** Opens a Trevni file: reads and validates the header and all column metadata. */
  static async open(input: ReadInput, options: TrevniOpenOptions = {}): Promise<TrevniReader> {
    const max = options.maxDecompressedBytes;
    if (max !== undefined && !(Number.isSafeInteger(max) && max > 0)) throw new InvalidArgumentError(`maxDecompressedBytes must be a positive integer, got ${max}`);
    const source = await inputSource(input, options);
    try {
      return new TrevniReader(source, await readHeader(source, options.truncated), options);
    } catch (e) {
      throw asParquetryError(e, { file: source.name });
    }
  }

  /** The file's size in bytes. */
  get fileLength(): number {
    return this.source.byteLength;
  }

  /** A column by name or index; InvalidArgumentError if there is none. */
  column(ref: string | number): TrevniColumn {
    const i = typeof ref === 'number' ? ref : this.byName.get(ref);
    const c = i === undefined ? undefined : this.columns[i];
    if (!c) throw new InvalidArgumentError(`no Trevni column ${JSON.stringify(ref)}${typeof ref === 'string' ? this.columnHint(ref) : ''}`);
    return c;
  }

  /**
   * For a name that is no column: the columns it may mean (an Avro field's
   * column is named with its type, `id/long`, its children `a#b`), else the
   * root columns, a few of them.
   */
  private columnHint(ref: string): string {
    const quoted = (cs: readonly TrevniColumn[]) => cs.slice(0, 8).map((c) => JSON.stringify(c.name)).join(', ') + (cs.length > 8 ? ', …' : '');
    const near = this.columns.filter((c) => c.parentIndex < 0 && /^[^/#\[>]*/.exec(c.name)![0] === ref);
    if (near.length) return ` (did you mean ${quoted(near).replace(/, (?=[^,]*$)/, ' or ')}?)`;
    const roots = this.columns.filter((c) => c.parentIndex < 0);
    return roots.length ? ` (its columns: ${quoted(roots)})` : '';
  }

  /** The column's block descriptors (read once, then cached). */
  async blocks(ref: string | number): Promise<readonly TrevniBlock[]> {
    return this.blockList(this.column(ref).index);
  }

  /** The checksum bytes stored after a block (empty for the null checksum). */
  async storedChecksum(ref: string | number, block: number): Promise<Uint8Array> {
    const col = this.column(ref);
    const b = (await this.blockList(col.index))[block];
    if (!b) throw new InvalidArgumentError(`column ${col.name} has no block ${block}`);
    return (await this.source.read(b.offset + b.compressedSize, b.checksumSize)).slice();
  }

  /** A block's uncompressed bytes, its checksum verified. */
  async readBlock(ref: string | number, block: number): Promise<Uint8Array> {
    return this.blockData(this.column(ref).index, block);
  }

  /** All values of a column, row by row (see TrevniColumnRow for the shape). */
  async readColumn(ref: string | number): Promise<TrevniColumnRow[]> {
    const col = this.column(ref);
    if (this.numRows > MAX_COLUMN_ROWS) throw new LimitError(`readColumn holds at most ${MAX_COLUMN_ROWS} rows; this file has ${this.numRows}: stream them with rows()`, { column: col.name });
    const chain: number[] = [];
    for (let c: TrevniColumn | undefined = col; c; c = c.parentIndex >= 0 ? this.columns[c.parentIndex] : undefined) chain.unshift(c.index);
    const out: TrevniColumnRow[] = [];
    for await (const data of this.rowData(chain, 0, this.numRows)) {
      const d = data[col.index]!;
      if (col.parentIndex < 0) out.push(col.array ? d.values : d.values[0]!);
      else if (!col.array) out.push(d.values);
      else {
        const seqs: TrevniValue[][] = [];
        let o = 0;
        for (const l of d.lengths!) {
          seqs.push(d.values.slice(o, o + l));
          o += l;
        }
        out.push(seqs);
      }
    }
    return out;
  }

  /** Rows as objects keyed by root column names (see CANONICAL.md's Trevni rules for the shape). */
  async *rows(options: TrevniRowsOptions = {}): AsyncGenerator<Record<string, unknown>> {
    const { selected, roots, from, to } = this.plan(options);
    this.checkKeys(selected);
    for await (const data of this.rowData(selected, from, to)) yield assembleRow(this.columns, data, roots);
  }

  /** Rows as canonical JSON lines (no trailing newline). */
  async *canonicalRows(options: TrevniRowsOptions = {}): AsyncGenerator<string> {
    const { selected, roots, from, to } = this.plan(options);
    this.checkKeys(selected);
    for await (const data of this.rowData(selected, from, to)) yield canonicalRowText(this.columns, data, roots);
  }

  /**
   * Expert: each row's raw column data (values and array lengths per column,
   * indexed by column; undefined for columns not selected), for callers that
   * assemble rows their own way (the Avro reader does).
   */
  async *columnData(options: TrevniRowsOptions = {}): AsyncGenerator<(ColumnRowData | undefined)[]> {
    const { selected, from, to } = this.plan(options);
    yield* this.rowData(selected, from, to);
  }

  /** Row `n` (0-based), reading only the blocks that hold it. */
  async readRow(n: number): Promise<Record<string, unknown>> {
    if (!Number.isSafeInteger(n) || n < 0 || n >= this.numRows) throw new InvalidArgumentError(`row ${n} is outside the file's ${this.numRows} rows`);
    for await (const row of this.rows({ offset: n, limit: 1 })) return row;
    throw new CorruptFileError(`row ${n} could not be read`);
  }

  /**
   * The first row whose value in `column` is >= `key`, or null when every
   * value is smaller. The column must have `trevni.values` and be sorted;
   * the block descriptors' first values find the block by binary search.
   * Order: numbers by value (for floats, as Java: -0 < 0 and NaN last),
   * strings by UTF-16 code units (Java's String order), false < true, bytes
   * by unsigned bytes (Java's ByteBuffer compares signed bytes, which does
   * not match data sorted as unsigned, as the corpus's is).
   */
  async seek(ref: string | number, key: TrevniValue): Promise<number | null> {
    const col = this.column(ref);
    if (!col.hasIndexValues) throw new InvalidArgumentError(`column ${col.name} has no trevni.values index`);
    if (col.array || col.parentIndex >= 0) throw new InvalidArgumentError(`column ${col.name} is not a plain column`);
    const cmp = comparator(col, key);
    const blocks = await this.blockList(col.index);
    // The last block whose first value is < key: every row before it is smaller.
    let lo = 0;
    let hi = blocks.length - 1;
    let start = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(blocks[mid]!.firstValue!) < 0) {
        start = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (blocks.length === 0) return null;
    const cur = new ColumnCursor(this, col, blocks);
    for (let row = blocks[start]!.firstRow; row < this.numRows; row++) {
      if (!cur.ready(row)) await cur.load(row);
      if (cmp(cur.read(1).values[0]!) >= 0) return row;
    }
    return null;
  }

  /** Closes the file's source. */
  async close(): Promise<void> {
    this.cache.clear();
    await this.source.close?.();
  }

  /** `await using`: closed when the scope ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ------------------------------------------------------------ internals

  private plan(options: TrevniRowsOptions): { selected: number[]; roots: number[]; from: number; to: number } {
    const from = options.offset ?? 0;
    if (!Number.isSafeInteger(from) || from < 0) throw new InvalidArgumentError(`offset must be a non-negative integer, got ${from}`);
    const limit = options.limit ?? Infinity;
    if (!(limit >= 0)) throw new InvalidArgumentError(`limit must be non-negative, got ${limit}`);
    const to = Math.min(this.numRows, from + limit);
    let roots = this.roots.slice();
    if (options.columns) {
      roots = options.columns.map((n) => {
        const c = this.column(n);
        if (c.parentIndex >= 0) throw new InvalidArgumentError(`column ${c.name} is not a root column`);
        return c.index;
      });
    }
    const keep = new Set<number>();
    const add = (ci: number) => {
      keep.add(ci);
      for (const k of this.columns[ci]!.children) add(k);
    };
    for (const r of roots) add(r);
    return { selected: [...keep].sort((a, b) => a - b), roots, from, to };
  }

  /**
   * Column names are unique, but the elements of a typed array column hold
   * their own value as `$value` beside their children's: a child of that
   * name would make two keys of one name in a row, and one value would be lost.
   */
  private checkKeys(selected: readonly number[]): void {
    for (const ci of selected) {
      const c = this.columns[ci]!;
      if (c.name === '$value' && c.parentIndex >= 0 && this.columns[c.parentIndex]!.type !== 'null') {
        throw new UnsupportedError(`column $value is a child of ${this.columns[c.parentIndex]!.name}, whose elements keep their own value under that key in rows: read it with readColumn`, { column: c.name, file: this.source.name });
      }
    }
  }

  /** Each row's data for the selected columns (which include every selected column's parent). */
  private async *rowData(selected: number[], from: number, to: number): AsyncGenerator<(ColumnRowData | undefined)[]> {
    if (from >= to) return;
    // Null columns (no array) hold nothing, so only the header's row count, 4 bytes in, says how many rows they have.
    if (!selected.some((ci) => holdsData(this.columns[ci]!))) checkEmptyRows(to - from, { file: this.source.name, offset: 4 });
    const cursors = new Map<number, ColumnCursor>();
    for (const ci of selected) {
      const cur = new ColumnCursor(this, this.columns[ci]!, await this.blockList(ci));
      await cur.seek(from);
      cursors.set(ci, cur);
    }
    for (let row = from; row < to; row++) {
      const data: (ColumnRowData | undefined)[] = new Array(this.columns.length);
      for (const ci of selected) {
        const col = this.columns[ci]!;
        const slots = col.parentIndex < 0 ? 1 : data[col.parentIndex]!.values.length;
        const cur = cursors.get(ci)!;
        if (!cur.ready(row)) await cur.load(row);
        data[ci] = cur.read(slots);
      }
      yield data;
    }
  }

  /**
   * Per row in [a, b), how many values array column `ci` holds (its
   * children's slots), as runs of rows holding as many. The span comes from
   * block descriptors, which may claim rows no bytes hold: nothing is
   * allocated for a row before its lengths are read, and a run code's rows
   * are one run, so the runs are bounded by the bytes read.
   */
  async totals(ci: number, a: number, b: number): Promise<Run[]> {
    const col = this.columns[ci]!;
    const slots = col.parentIndex < 0 ? [{ value: 1, rows: b - a }] : await this.totals(col.parentIndex, a, b);
    const cur = new ColumnCursor(this, col, await this.blockList(ci));
    await cur.seek(a);
    const out: Run[] = [];
    let row = a;
    for (const s of slots) {
      for (const end = row + s.rows; row < end; ) {
        if (!cur.ready(row)) await cur.load(row);
        const passed = cur.pass(end - row, s.value);
        const last = out.at(-1);
        if (last?.value === passed.value) last.rows += passed.rows;
        else out.push(passed);
        row += passed.rows;
      }
    }
    return out;
  }

  private async blockList(ci: number): Promise<TrevniBlock[]> {
    let list = this.blockLists.get(ci);
    if (list) return list;
    const col = this.columns[ci]!;
    try {
      checkChecksum(this.format, col.checksum);
      const checksumSize = trevniChecksum(col.checksum).size;
      if (col.start + 4 > this.fileLength) throw new CorruptFileError(`column ${col.name} starts at ${col.start}, past the end of the ${this.fileLength}-byte file`, { offset: col.start });
      list = await parseGrowing((o, l) => this.source.read(o, l), col.start, this.fileLength - col.start, 4096, (cur) =>
        parseDescriptors(cur, col, checksumSize, this.numRows, this.fileLength, this.truncated),
      );
    } catch (e) {
      throw asParquetryError(e, { column: col.name, file: this.source.name });
    }
    this.blockLists.set(ci, list);
    return list;
  }

  /** A block's uncompressed data, checksum verified; the last two blocks of each column stay cached. */
  async blockData(ci: number, block: number): Promise<Uint8Array> {
    const entries = this.cache.get(ci) ?? [];
    const hit = entries.find((e) => e.block === block);
    if (hit) return hit.data;
    const col = this.columns[ci]!;
    const b = (await this.blockList(ci))[block];
    if (!b) throw new InvalidArgumentError(`column ${col.name} has no block ${block}`);
    const ctx = { column: col.name, offset: b.offset, file: this.source.name };
    let data: Uint8Array;
    try {
      checkCodec(this.format, col.codec);
      const codec = await trevniCodec(col.codec);
      const checksum = trevniChecksum(col.checksum);
      // Only inflating needs the bound: a null-codec block's bytes are in the file.
      if (codec.name !== 'null') checkBlockSize(col, b, this.maxDecompressedBytes);
      // Only a truncated file's descriptors (see TrevniOpenOptions.truncated) place a block past the end.
      if (b.offset + b.compressedSize + checksum.size > this.fileLength) {
        throw new CorruptFileError(`block ${block} (${b.compressedSize} bytes at offset ${b.offset}) runs past the end of the ${this.fileLength}-byte file`, ctx);
      }
      const raw = await this.source.read(b.offset, b.compressedSize + checksum.size);
      data = codec.decompress(raw.subarray(0, b.compressedSize), b.uncompressedSize);
      if (checksum.size > 0 && this.verify) {
        const stored = raw.subarray(b.compressedSize);
        const computed = checksum.compute(data);
        if (!stored.every((x, i) => x === computed[i])) {
          throw new ChecksumError(`${col.checksum} checksum mismatch in block ${block} of column ${col.name}: stored ${hex(stored)}, computed ${hex(computed)}`, {
            ...ctx,
            offset: b.offset + b.compressedSize,
          });
        }
      }
    } catch (e) {
      if (e instanceof ParquetryError && !(e instanceof ChecksumError) && e.code === 'CORRUPT') {
        throw new CorruptFileError(`block ${block} of column ${col.name}: ${e.detail}`, ctx, { cause: e });
      }
      throw asParquetryError(e, ctx);
    }
    entries.push({ block, data });
    if (entries.length > 2) entries.shift();
    this.cache.set(ci, entries);
    return data;
  }
}

async function readHeader(source: Source, truncated = false) {
  const header = await readTrevniHeader(source, truncated);
  if (header.dialect === 'dremel') {
    throw new UnsupportedError("a Trevni file of the wiki draft's Dremel dialect (definition and repetition levels in its blocks, told by its metadata): read it with TrevniDraftReader", { offset: 0 });
  }
  return header;
}

/** Reads and checks the header of a Trevni file of any version or dialect. */
export async function readTrevniHeader(source: Source, truncated = false): Promise<TrevniHeader> {
  const len = source.byteLength;
  if (len < 16) throw new CorruptFileError(`a ${len}-byte file is too short to be a Trevni file (the header alone takes 17 bytes)`, { offset: 0 });
  return parseGrowing((o, l) => source.read(o, l), 0, len, 64 * 1024, (cur) => parseHeader(cur, len, truncated));
}

/** Reads one column's rows in order from the block holding the current row (the salvage read drives it block by block). */
export class ColumnCursor {
  private block = -1;
  private end = 0;
  private row = 0;
  private vr: ValueReader | null = null;
  /** For a null-typed array column no child backs: null values the loaded block may still yield (else Infinity). */
  private unbackedLeft = Infinity;
  private readonly unbacked: boolean;

  constructor(
    private readonly reader: TrevniReader,
    readonly col: TrevniColumn,
    private readonly blocks: readonly TrevniBlock[],
  ) {
    const backer = (k: number) => reader.columns[k]!.type !== 'null' && !reader.columns[k]!.array;
    this.unbacked = col.type === 'null' && col.array && !col.children.some(backer);
  }

  /** Whether the loaded block, its rows all read, has bytes or run lengths left that no row took. */
  get unread(): boolean {
    return this.vr !== null && this.row >= this.end && (this.vr.remaining > 0 || this.vr.inRun);
  }

  /** True when the loaded block holds `row` and the cursor stands at it. */
  ready(row: number): boolean {
    return this.vr !== null && this.row === row && row < this.end;
  }

  private findBlock(row: number): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const b = this.blocks[mid]!;
      if (row < b.firstRow) hi = mid - 1;
      else if (row >= b.firstRow + b.numRows) lo = mid + 1;
      else return mid;
    }
    throw new CorruptFileError(`no block of column ${this.col.name} holds row ${row}`, { column: this.col.name });
  }

  /** Loads the block holding `row`, standing at its first row. */
  async load(row: number): Promise<void> {
    const block = this.findBlock(row);
    const data = await this.reader.blockData(this.col.index, block);
    const b = this.blocks[block]!;
    this.block = block;
    this.vr = new ValueReader(new ByteCursor(data, 0, data.length, this.col.codec === 'null' ? b.offset : 0), this.reader.format.lengthRuns);
    this.row = b.firstRow;
    this.end = b.firstRow + b.numRows;
    if (this.unbacked) this.unbackedLeft = b.numRows + UNBACKED_NULLS_PER_BYTE * data.length + UNBACKED_NULLS;
  }

  /** Stands at `row`, skipping the rows before it in its block. */
  async seek(row: number): Promise<void> {
    if (row >= this.reader.numRows) return;
    await this.load(row);
    if (!holdsData(this.col)) {
      this.row = row; // its rows hold nothing to pass over
    } else if (this.col.parentIndex < 0) {
      // Row by row, nothing allocated: the block's descriptor may claim rows its bytes lack, which the skip finds. A run code's rows go in one step.
      while (this.row < row) this.pass(row - this.row, 1);
    } else if (row > this.row) {
      for (const s of await this.reader.totals(this.col.parentIndex, this.row, row)) {
        for (let left = s.rows; left > 0; ) left -= this.pass(left, s.value).rows;
      }
    }
  }

  private fail(e: unknown): never {
    const b = this.blocks[this.block]!;
    if (e instanceof ParquetryError && e.code === 'CORRUPT' && this.col.codec !== 'null') {
      throw new CorruptFileError(`block ${this.block} of column ${this.col.name}, decompressed byte ${this.vr!.cur.pos}: ${e.detail}`, { column: this.col.name, offset: b.offset }, { cause: e });
    }
    throw asParquetryError(e, { column: this.col.name, offset: b.offset });
  }

  /** `l` is a new length, `total` the row's values with it. */
  private checkLength(l: number, total: number): void {
    if (this.col.type === 'null') {
      if (total > MAX_NULLS_PER_ROW) throw this.tooManyNulls(`more than ${MAX_NULLS_PER_ROW} null values`);
      this.unbackedLeft -= l;
      if (this.unbackedLeft < 0) {
        const block = this.blocks[this.block]!;
        throw this.tooManyNulls(`null values past the ${block.numRows} + ${UNBACKED_NULLS_PER_BYTE} x ${block.uncompressedSize} + ${UNBACKED_NULLS} its block backs (no child column takes a bit per value)`);
      }
    } else if (l > this.vr!.remaining * 8) {
      throw new CorruptFileError(`array length ${l} exceeds the values left in the block`, { offset: this.vr!.cur.fileOffset });
    }
  }

  private tooManyNulls(what: string): LimitError {
    return new LimitError(`row ${this.row} (block ${this.block}) holds ${what}`, { column: this.col.name, offset: this.vr!.cur.fileOffset });
  }

  /** Values that each take at least a bit: `slots` of them (one per parent value) must fit in what the block has left. */
  private checkBacked(slots: number): void {
    const bits = (this.vr!.remaining + 1) * 8;
    if (slots > (this.col.type === 'boolean' ? bits : this.vr!.remaining)) {
      throw new CorruptFileError(`row ${this.row} (block ${this.block}) needs ${slots} values for its parent's values, more than the block's bytes left hold`, { column: this.col.name, offset: this.vr!.cur.fileOffset });
    }
  }

  /** One row's values; `slots` is 1 for a root column, else the parent's value count in the row. */
  read(slots: number): ColumnRowData {
    const vr = this.vr!;
    const type = this.col.type;
    try {
      let data: ColumnRowData;
      if (!this.col.array) {
        // A null child has one value per parent value, which its parent's checks have bounded.
        if (type !== 'null') this.checkBacked(slots);
        const values: TrevniValue[] = new Array(slots);
        if (type === 'null') values.fill(null);
        else for (let i = 0; i < slots; i++) values[i] = vr.value(type);
        data = { values, lengths: null };
      } else {
        const values: TrevniValue[] = [];
        const lengths: number[] = new Array(slots);
        for (let s = 0; s < slots; s++) {
          const l = vr.length();
          this.checkLength(l, l + values.length);
          lengths[s] = l;
          if (type === 'null') {
            const n = values.length;
            values.length = n + l;
            values.fill(null, n);
          } else for (let i = 0; i < l; i++) values.push(vr.value(type));
        }
        data = { values, lengths };
      }
      this.row++;
      return data;
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * How many rows from the cursor on, each taking `slots` values of its
   * parent (1 for a root column), read no byte of the block, and the values
   * each of them holds: a run code's zero-length arrays (or one-length
   * arrays of nulls), every row of a null column, and every row the parent
   * gives no value. One run code stands for up to 2^30 rows, so walks pass
   * them with `passFree` in one step, in time bounded by the bytes.
   */
  freeRows(slots: number): { rows: number; values: number } {
    const rest = this.end - this.row;
    if (slots === 0) return { rows: rest, values: 0 };
    if (!this.col.array) return { rows: this.col.type === 'null' ? rest : 0, values: slots };
    const { left, value } = this.vr!.run;
    if (left === 0 || (value === 1 && (this.col.type !== 'null' || slots > MAX_NULLS_PER_ROW))) return { rows: 0, values: 0 };
    const rows = Math.min(rest, Math.floor(left / slots), value === 1 ? Math.floor(this.unbackedLeft / slots) : Infinity);
    return { rows, values: slots * value };
  }

  /** Passes `rows` (at most what `freeRows(slots)` gave) rows that read no byte. */
  passFree(rows: number, slots: number): void {
    if (this.col.array && slots > 0) {
      const lengths = rows * slots;
      if (this.vr!.run.value === 1) this.unbackedLeft -= lengths;
      this.vr!.passRun(lengths);
    }
    this.row += rows;
  }

  /**
   * Passes up to `rows` rows of the loaded block, each of `slots` parent
   * values: a run code's rows in one step, else one row. Returns the rows
   * passed and the values each held.
   */
  pass(rows: number, slots: number): Run {
    const free = this.freeRows(slots);
    if (free.rows === 0) return { rows: 1, value: this.skip(slots) };
    const k = Math.min(free.rows, rows);
    this.passFree(k, slots);
    return { rows: k, value: free.values };
  }

  /** Skips one row; returns how many values it held. */
  skip(slots: number): number {
    const vr = this.vr!;
    const type = this.col.type;
    try {
      let total = slots;
      if (this.col.array) {
        total = 0;
        for (let s = 0; s < slots; s++) {
          const l = vr.length();
          this.checkLength(l, l + total);
          total += l;
          if (type !== 'null') for (let i = 0; i < l; i++) vr.skip(type);
        }
      } else if (type !== 'null') {
        for (let i = 0; i < slots; i++) vr.skip(type);
      }
      this.row++;
      return total;
    } catch (e) {
      this.fail(e);
    }
  }
}

function javaFloatCompare(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  // Equal, but -0 sorts before 0.
  const az = Object.is(a, -0);
  const bz = Object.is(b, -0);
  return az === bz ? 0 : az ? -1 : 1;
}

/** Compares a column value against `key` (negative: value < key). */
function comparator(col: TrevniColumn, key: TrevniValue): (v: TrevniValue) => number {
  const bad = () => new InvalidArgumentError(`a ${typeof key} key cannot be compared with ${col.type} column ${col.name}`);
  switch (col.type) {
    case 'null':
      return () => 0;
    case 'boolean':
      if (typeof key !== 'boolean') throw bad();
      return (v) => Number(v) - Number(key);
    case 'int':
    case 'fixed32':
    case 'float':
    case 'double':
      if (typeof key !== 'number') throw bad();
      return (v) => javaFloatCompare(v as number, key);
    case 'long':
    case 'fixed64': {
      if (typeof key !== 'bigint' && !(typeof key === 'number' && Number.isSafeInteger(key))) throw bad();
      const k = BigInt(key);
      return (v) => ((v as bigint) < k ? -1 : (v as bigint) > k ? 1 : 0);
    }
    case 'string':
      if (typeof key !== 'string') throw bad();
      return (v) => ((v as string) < key ? -1 : (v as string) > key ? 1 : 0);
    case 'bytes': {
      if (!(key instanceof Uint8Array)) throw bad();
      return (v) => {
        const a = v as Uint8Array;
        const n = Math.min(a.length, key.length);
        for (let i = 0; i < n; i++) {
          const d = a[i]! - key[i]!;
          if (d !== 0) return d;
        }
        return a.length - key.length;
      };
    }
  }
}
