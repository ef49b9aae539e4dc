/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * The reader of the Trevni wiki draft's dialect: `T r v 0x01` files whose
 * blocks hold Dremel definition and repetition levels (block.ts) in place of
 * array lengths and parents, told from cutting/trevni's version 1 by their
 * metadata (metadata.ts). Header, descriptors, codecs and value encodings are
 * version 1's; the draft puts a block's checksum before its data. Records
 * are assembled by the same shred/ core as Parquet's, and print in the
 * Parquet form.
 *
 * Each read decodes the leaf columns whole (the draft's blocks of different
 * columns cover different rows), bounded per block by maxLevelEntries and
 * the reader's maxDecompressedBytes, and per leaf by maxDecompressedBytes of levels.
 */
import { ChecksumError, CorruptFileError, InvalidArgumentError, LimitError, ParquetryError, UnsupportedError, asParquetryError } from '../../errors.js';
import { inputSource, type ReadInput, type Source } from '../../io/source.js';
import { DEFAULT_MAX_INFLATED } from '../../codecs/codec.js';
import { selectLeaves } from '../../schema/select.js';
import type { ColumnPath, LeafNode, Schema } from '../../schema/tree.js';
import { hex } from '../../schema/convert.js';
import { RecordAssembler, type LeafColumn } from '../../shred/assemble.js';
import { checkEmptyRows } from '../../shred/empty-rows.js';
import { planRecord, type RecordPlan } from '../../shred/plan.js';
import { canonicalRow } from '../../text/canonical.js';
import { trevniChecksum, trevniCodec } from '../codecs.js';
import { parseDescriptors, parseGrowing, type TrevniHeader } from '../metadata.js';
import { readTrevniHeader, type TrevniOpenOptions } from '../reader.js';
import type { MetaEntry, TrevniBlock, TrevniColumn, TrevniValue } from '../types.js';
import { checkChecksum, checkCodec, type TrevniFormat } from '../version.js';
import { decodeDraftBlock } from './block.js';
import { draftSchema, type DraftLeaf } from './schema.js';

/** Which rows and columns `TrevniDraftReader.rows()` reads. */
export interface TrevniDraftRowsOptions {
  /** First row (default 0). */
  offset?: number;
  /** Most rows (default: to the end). */
  limit?: number;
  /** Columns to read (dotted paths or name arrays, each with what it holds); default all. Rows hold only these, and only their leaf columns are read. */
  columns?: readonly ColumnPath[];
}

/** Reads a file of the Trevni wiki draft's Dremel dialect: `TrevniDraftReader.open(input, options)` (docs/trevni.md). */
export class TrevniDraftReader {
  readonly format: TrevniFormat;
  readonly numRows: number;
  readonly metadata: readonly MetaEntry[];
  /** Every column, groups (type null) included, in file order. */
  readonly columns: readonly TrevniColumn[];
  /** The Dremel schema the columns describe. */
  readonly schema: Schema;
  private readonly leaves: DraftLeaf[];
  private readonly plan: RecordPlan;
  private readonly verify: boolean;
  private readonly maxDecompressedBytes: number;

  private constructor(readonly source: Source, header: TrevniHeader, options: TrevniOpenOptions) {
    this.format = header.format;
    this.numRows = header.numRows;
    this.metadata = header.metadata;
    this.columns = header.columns;
    const { schema, leaves } = draftSchema(header.columns);
    this.schema = schema;
    this.leaves = leaves;
    this.plan = planRecord(schema.root);
    this.verify = options.verifyChecksums ?? true;
    this.maxDecompressedBytes = options.maxDecompressedBytes ?? DEFAULT_MAX_INFLATED;
  }

  /** Opens a draft-dialect file; any other Trevni file is an UnsupportedError (TrevniReader reads those). */
  static async open(input: ReadInput, options: TrevniOpenOptions = {}): Promise<TrevniDraftReader> {
    const max = options.maxDecompressedBytes;
    if (max !== undefined && !(Number.isSafeInteger(max) && max > 0)) throw new InvalidArgumentError(`maxDecompressedBytes must be a positive integer, got ${max}`);
    const source = await inputSource(input, options);
    try {
      const header = await readTrevniHeader(source);
      if (header.dialect !== 'dremel') {
        throw new UnsupportedError(`a Trevni version ${header.format.version} file without the draft dialect's metadata (trevni.dialect or level keys): read it with TrevniReader`, { offset: 0 });
      }
      return new TrevniDraftReader(source, header, options);
    } catch (e) {
      throw asParquetryError(e, { file: source.name });
    }
  }

  /** The file's size in bytes. */
  get fileLength(): number {
    return this.source.byteLength;
  }

  /** A leaf column's block descriptors; `offset` is where its checksum (then its data) starts. */
  async blocks(name: string): Promise<TrevniBlock[]> {
    const leaf = this.leaves.find((l) => l.column.name === name);
    if (!leaf) throw new InvalidArgumentError(`no leaf column ${JSON.stringify(name)} in this draft file`);
    return this.blockList(leaf.column);
  }

  /** Records, as the Parquet reader yields them. */
  async *rows(options: TrevniDraftRowsOptions = {}): AsyncGenerator<Record<string, unknown>> {
    const from = options.offset ?? 0;
    if (!Number.isSafeInteger(from) || from < 0) throw new InvalidArgumentError(`offset must be a non-negative integer, got ${from}`);
    const limit = options.limit ?? Infinity;
    if (!(limit >= 0)) throw new InvalidArgumentError(`limit must be non-negative, got ${limit}`);
    const n = Math.max(0, Math.min(this.numRows, from + limit) - from);
    const plan = this.planOf(options.columns);
    if (n === 0) return;
    if (plan.leaves.length === 0) {
      // The count is the header's row count, 4 bytes in.
      checkEmptyRows(n, { file: this.source.name, offset: 4 });
      for (let i = 0; i < n; i++) yield {};
      return;
    }
    const cols: LeafColumn[] = [];
    // The schema's leaves are the file's leaf columns in order, so a leaf's columnIndex finds its column.
    for (const leaf of plan.leaves) cols.push(await this.readLeaf(this.leaves[leaf.columnIndex]!));
    const assembler = new RecordAssembler(plan, cols);
    try {
      if (from > 0) assembler.skipRows(from);
      for (let i = 0; i < n; i++) yield assembler.readRow();
    } catch (e) {
      throw asParquetryError(e, { file: this.source.name });
    }
  }

  /** The assembly plan of the leaves under `columns` (all when undefined). */
  private planOf(columns: readonly ColumnPath[] | undefined): RecordPlan {
    if (!columns) return this.plan;
    const keep = new Set<LeafNode>(selectLeaves(this.schema, columns, this.source.name !== undefined ? { file: this.source.name } : {}));
    return planRecord(this.schema.root, (l) => keep.has(l));
  }

  /** Records as canonical JSON lines in the Parquet form (CANONICAL.md). */
  async *canonicalRows(options: TrevniDraftRowsOptions = {}): AsyncGenerator<string> {
    const plan = this.planOf(options.columns);
    for await (const row of this.rows(options)) yield canonicalRow(plan, row);
  }

  /** Closes the file's source. */
  async close(): Promise<void> {
    await this.source.close?.();
  }

  /** `await using`: closed when the scope ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async blockList(col: TrevniColumn): Promise<TrevniBlock[]> {
    try {
      checkChecksum(this.format, col.checksum);
      const size = trevniChecksum(col.checksum).size;
      return await parseGrowing((o, l) => this.source.read(o, l), col.start, this.fileLength - col.start, 4096, (cur) => parseDescriptors(cur, col, size, this.numRows, this.fileLength));
    } catch (e) {
      throw asParquetryError(e, { column: col.name, file: this.source.name });
    }
  }

  /** A leaf's levels and values over all its blocks. */
  private async readLeaf(leaf: DraftLeaf): Promise<LeafColumn> {
    const col = leaf.column;
    const blocks = await this.blockList(col);
    const defs: Uint8Array[] = [];
    const reps: Uint8Array[] = [];
    const values: TrevniValue[] = [];
    let length = 0;
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i]!;
      const ctx = { column: col.name, offset: b.offset, file: this.source.name };
      try {
        checkCodec(this.format, col.codec);
        const codec = await trevniCodec(col.codec);
        const checksum = trevniChecksum(col.checksum);
        if (codec.name !== 'null' && b.uncompressedSize > this.maxDecompressedBytes) {
          throw new LimitError(`block declares ${b.uncompressedSize} bytes decompressed, more than the reader's maxDecompressedBytes (${this.maxDecompressedBytes})`);
        }
        const raw = await this.source.read(b.offset, checksum.size + b.compressedSize);
        const dataAt = b.offset + checksum.size;
        const data = codec.decompress(raw.subarray(checksum.size), b.uncompressedSize);
        if (checksum.size > 0 && this.verify) {
          const stored = raw.subarray(0, checksum.size);
          const computed = checksum.compute(data);
          if (!stored.every((x, k) => x === computed[k])) {
            throw new ChecksumError(`${col.checksum} checksum mismatch in block ${i} of column ${col.name}: stored ${hex(stored)}, computed ${hex(computed)}`, ctx);
          }
        }
        const d = decodeDraftBlock(data, codec.name === 'null' ? dataAt : 0, col.type, leaf.maxDef, leaf.maxRep, b.numRows);
        if (d.def) defs.push(d.def);
        if (d.rep) reps.push(d.rep);
        for (const v of d.values) values.push(v);
        length += d.count;
        // A block's levels are bounded by its bytes (maxLevelEntries), but with 65,536 more a block, which many small blocks multiply: the leaf's levels, held as one buffer, are bounded too.
        if (length > this.maxDecompressedBytes) throw new LimitError(`the column's blocks up to block ${i} hold ${length} level entries, more than the reader's maxDecompressedBytes (${this.maxDecompressedBytes}) of levels it holds at once`);
      } catch (e) {
        if (e instanceof ParquetryError && !(e instanceof ChecksumError) && e.code === 'CORRUPT') {
          throw new CorruptFileError(`block ${i} of column ${col.name}: ${e.detail}`, { ...ctx, ...(col.codec === 'null' && e.context.offset !== undefined ? { offset: e.context.offset } : {}) }, { cause: e });
        }
        throw asParquetryError(e, ctx);
      }
    }
    return {
      def: leaf.maxDef > 0 ? concat(defs, length) : null,
      rep: leaf.maxRep > 0 ? concat(reps, length) : null,
      length,
      maxDef: leaf.maxDef,
      valueCount: values.length,
      value: (i) => values[i],
    };
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
