/**
 * Reads RedElm files: the container (container.ts), the `RedElm` metadata
 * block (metadata.ts, Java serialization or JSON), the schema text
 * (schema.ts), then per row group and leaf the three compressed sections:
 * repetition levels and definition levels (one byte per entry) and the
 * values (values.ts). Records are rebuilt by the same Dremel assembly as
 * Parquet's (shred/), on the schema as a Parquet tree.
 */
import { DEFAULT_MAX_INFLATED } from '../codecs/codec.js';
import { HADOOP_CODECS, isHadoopCodec, loadHadoopCodec, type HadoopCodec } from '../codecs/hadoop.js';
import { asParquetryError, CorruptFileError, InvalidArgumentError, LimitError, UnsupportedError, withContext, type ErrorContext } from '../errors.js';
import { inputSource, type ReadInput, type Source, type UrlOptions } from '../io/source.js';
import { RecordAssembler, type LeafColumn } from '../shred/assemble.js';
import { checkEmptyRows } from '../shred/empty-rows.js';
import { planRecord, type RecordPlan } from '../shred/plan.js';
import { selectLeaves } from '../schema/select.js';
import type { ColumnPath, LeafNode, Schema } from '../schema/tree.js';
import { readRedElmFooter, REDELM_BLOCK, type MetaDataBlock } from './container.js';
import { decodeRedElmMetaData, type RedElmBlockMeta, type RedElmColumnMeta, type RedElmMetaData } from './metadata.js';
import { parseRedElmSchema } from './schema.js';
import { redElmLeafType } from './types.js';
import { decodeValues } from './values.js';

/** `RedElmReader.open`'s options. */
export interface RedElmOpenOptions extends UrlOptions {
  /** The largest section (levels or values) inflated, in bytes; default 1 GiB. */
  maxDecompressedBytes?: number;
}

/** `RedElmReader.rows`' options: the fields, and a record range. */
export interface RedElmReadOptions {
  /** The fields to read: dotted paths, or name arrays for names holding dots (all when absent). */
  columns?: readonly ColumnPath[];
  /** Records to skip first. */
  offset?: number;
  /** Most records to read. */
  limit?: number;
}

/**
 * No valid Hadoop stream inflates more than this many times its size
 * (deflate's limit is 1032:1, Snappy's far less): a section claiming more is
 * refused before anything is allocated, so memory follows the file's size.
 */
const MAX_RATIO = 1032;
const RATIO_SLACK = 1024;

/** Reads a RedElm file: `RedElmReader.open(input, options)`, then `rows()` (docs/redelm.md). */
export class RedElmReader {
  private constructor(
    private readonly source: Source,
    /** The footer's `RedElm` block, decoded. */
    readonly metadata: RedElmMetaData,
    readonly schema: Schema,
    /** Every metadata block of the footer, in order, `RedElm` included; application blocks (`Pig`) are kept as bytes. */
    readonly metaDataBlocks: readonly MetaDataBlock[],
    /** Which form the `RedElm` block has: the prototype's Java serialization, or the design page's JSON. */
    readonly footerForm: 'java' | 'json',
    readonly footerIndex: number,
    private readonly maxDecompressedBytes: number,
  ) {}

  /** Opens a RedElm file (bytes, a Blob or File, a URL, or a source), reading its footer. */
  static async open(input: ReadInput, options: RedElmOpenOptions = {}): Promise<RedElmReader> {
    const max = options.maxDecompressedBytes ?? DEFAULT_MAX_INFLATED;
    if (!Number.isSafeInteger(max) || max < 1) throw new InvalidArgumentError(`maxDecompressedBytes must be a positive integer, got ${max}`);
    const source = await inputSource(input, options);
    try {
      const footer = await readRedElmFooter(source);
      const block = footer.blocks.find((b) => b.name === REDELM_BLOCK);
      if (!block) throw new CorruptFileError(`the footer has no "${REDELM_BLOCK}" metadata block (it has ${footer.blocks.map((b) => JSON.stringify(b.name)).join(', ') || 'none'})`, { offset: footer.footerIndex });
      // The schema is parsed while the metadata decodes, so row groups are held to its leaves before their columns are built.
      let parsed: Schema | undefined;
      const metadata = decodeRedElmMetaData(block.data, block.offset!, footer.footerIndex - 8, (text) => (parsed = parseRedElmSchema(text, block.offset)).leaves.length);
      if (!isHadoopCodec(metadata.codecClassName)) {
        throw new UnsupportedError(`unknown Hadoop codec ${JSON.stringify(metadata.codecClassName)} (known: ${Object.values(HADOOP_CODECS).join(', ')})`, { offset: block.offset });
      }
      const schema = parsed ?? parseRedElmSchema(metadata.schema, block.offset);
      checkBlocks(metadata, schema, footer.footerIndex, max, block.offset!);
      return new RedElmReader(source, metadata, schema, footer.blocks, block.data[0] === 0x7b ? 'json' : 'java', footer.footerIndex, max);
    } catch (e) {
      throw asParquetryError(e, { file: source.name });
    }
  }

  /** The file's name as its source gives it. */
  get name(): string | undefined {
    return this.source.name;
  }

  /** The file's size in bytes. */
  get fileLength(): number {
    return this.source.byteLength;
  }

  /** The Hadoop codec class its sections are compressed with. */
  get codecClassName(): string {
    return this.metadata.codecClassName;
  }

  /** Records in all row groups. */
  get numRows(): number {
    return this.metadata.blocks.reduce((n, b) => n + b.recordCount, 0);
  }

  /** Closes the file's source. */
  async close(): Promise<void> {
    await this.source.close?.();
  }

  /** The assembly plan for the fields named by `columns`, or all. */
  plan(columns?: readonly ColumnPath[]): RecordPlan {
    if (columns === undefined) return planRecord(this.schema.root);
    const keep = new Set<LeafNode>(selectLeaves(this.schema, columns, { file: this.name }));
    return planRecord(this.schema.root, (l) => keep.has(l));
  }

  /** Records, one row group in memory at a time. */
  async *rows(options: RedElmReadOptions = {}): AsyncGenerator<Record<string, unknown>> {
    const { offset = 0, limit = Infinity } = options;
    if (!Number.isSafeInteger(offset) || offset < 0) throw new InvalidArgumentError(`offset must be a non-negative integer, got ${offset}`);
    if (limit !== Infinity && (!Number.isSafeInteger(limit) || limit < 0)) throw new InvalidArgumentError(`limit must be a non-negative integer, got ${limit}`);
    const plan = this.plan(options.columns);
    if (plan.leaves.length === 0) checkEmptyRows(Math.min(limit, Math.max(0, this.numRows - offset)), { file: this.name });
    const codec = await withContext({ file: this.name }, () => loadHadoopCodec(this.codecClassName));
    let skip = offset;
    let left = limit;
    for (let g = 0; g < this.metadata.blocks.length && left > 0; g++) {
      const block = this.metadata.blocks[g]!;
      if (skip >= block.recordCount) {
        skip -= block.recordCount;
        continue;
      }
      // Assembly faults point at the row group's first byte (sections point at their own).
      const ctx: ErrorContext = { file: this.name, rowGroup: g, offset: block.startIndex };
      const cols = await this.readBlock(block, plan, codec, ctx);
      const n = Math.min(block.recordCount - skip, left);
      if (plan.leaves.length === 0) {
        for (let i = 0; i < n; i++) yield {};
      } else {
        const assembler = new RecordAssembler(plan, cols);
        const rows = withContext(ctx, () => {
          if (skip > 0) assembler.skipRows(skip);
          const out: Record<string, unknown>[] = [];
          for (let i = 0; i < n; i++) out.push(assembler.readRow());
          // A whole row group read must use up every level and value, as the Java reader's consumers require.
          if (skip + n === block.recordCount) assembler.finish();
          return out;
        });
        yield* rows;
      }
      skip = 0;
      left -= n;
    }
  }

  /** The selected leaves' sections of one row group, read, inflated and decoded. */
  private async readBlock(block: RedElmBlockMeta, plan: RecordPlan, codec: HadoopCodec, ctx: ErrorContext): Promise<LeafColumn[]> {
    const byPath = new Map(block.columns.map((c) => [c.path.join('\u0000'), c]));
    const out: LeafColumn[] = [];
    for (const leaf of plan.leaves) {
      const meta = byPath.get(leaf.path.join('\u0000'))!;
      const column = leaf.path.join('.');
      const raw = await this.source.read(meta.repetitionStart, meta.dataEnd - meta.repetitionStart);
      out.push(withContext({ ...ctx, column, offset: meta.repetitionStart }, () => decodeColumn(leaf, meta, raw, codec)));
    }
    return out;
  }
}

function decodeColumn(leaf: LeafNode, meta: RedElmColumnMeta, raw: Uint8Array, codec: HadoopCodec): LeafColumn {
  const base = meta.repetitionStart;
  const section = (start: number, end: number, size: number): Uint8Array =>
    withContext({ offset: start }, () => codec.decompress(raw.subarray(start - base, end - base), size));
  const n = meta.valueCount;
  const rep = section(meta.repetitionStart, meta.definitionStart, meta.repetitionUncompressedLength);
  const def = section(meta.definitionStart, meta.dataStart, meta.definitionUncompressedLength);
  let present = 0;
  for (let i = 0; i < n; i++) {
    if (rep[i]! > leaf.repLevel) throw new CorruptFileError(`repetition level ${rep[i]} at entry ${i} exceeds the column's maximum ${leaf.repLevel}`, { offset: meta.repetitionStart });
    const d = def[i]!;
    if (d > leaf.defLevel) throw new CorruptFileError(`definition level ${d} at entry ${i} exceeds the column's maximum ${leaf.defLevel}`, { offset: meta.definitionStart });
    if (d === leaf.defLevel) present++;
  }
  const data = section(meta.dataStart, meta.dataEnd, meta.dataUncompressedLength);
  const values = decodeValues(meta.type, data, present, meta.dataStart);
  const value = (i: number): unknown => values[i];
  value.array = values;
  return { rep: leaf.repLevel === 0 ? null : rep, def: leaf.defLevel === 0 ? null : def, length: n, maxDef: leaf.defLevel, valueCount: present, value };
}

/**
 * Checks every row group against the schema and the file before any is
 * read: one column per leaf, of the leaf's type, sections inside the data
 * area, levels of one byte per entry, sizes the codec could have produced,
 * and no two columns sharing bytes (the writer puts each after the last, so
 * a footer naming a row group twice, which would return its rows twice,
 * is refused).
 */
function checkBlocks(meta: RedElmMetaData, schema: Schema, footerIndex: number, max: number, offset: number): void {
  const leaves = new Map(schema.leaves.map((l) => [l.path.join('\u0000'), l]));
  const spans: { start: number; end: number; rowGroup: number; column: string }[] = [];
  meta.blocks.forEach((block, g) => {
    const fail: (detail: string, column?: string) => never = (detail, column) => {
      throw new CorruptFileError(detail, { offset, rowGroup: g, column });
    };
    if (block.columns.length !== leaves.size) fail(`row group has ${block.columns.length} columns, the schema ${leaves.size} leaves`);
    const seen = new Set<string>();
    for (const c of block.columns) {
      const key = c.path.join('\u0000');
      const column = c.path.join('.');
      const leaf = leaves.get(key);
      if (!leaf) fail('column is not a leaf of the schema', column);
      if (seen.has(key)) fail('column appears twice in the row group', column);
      seen.add(key);
      if (redElmLeafType(leaf) !== c.type) fail(`column is ${c.type} in the row group, ${redElmLeafType(leaf)} in the schema`, column);
      if (c.repetitionStart < 8 || c.dataEnd > footerIndex) fail(`column's sections (${c.repetitionStart} to ${c.dataEnd}) lie outside the data area (8 to ${footerIndex})`, column);
      // No codec writes an empty stream, so even a column of no entries takes bytes.
      if (c.dataEnd === c.repetitionStart) fail(`column's sections are empty (all at ${c.repetitionStart})`, column);
      spans.push({ start: c.repetitionStart, end: c.dataEnd, rowGroup: g, column });
      if (c.repetitionUncompressedLength !== c.valueCount || c.definitionUncompressedLength !== c.valueCount) {
        fail(`column has ${c.valueCount} entries but ${c.repetitionUncompressedLength} repetition and ${c.definitionUncompressedLength} definition level bytes`, column);
      }
      const sections: [string, number, number][] = [
        ['repetition levels', c.definitionStart - c.repetitionStart, c.repetitionUncompressedLength],
        ['definition levels', c.dataStart - c.definitionStart, c.definitionUncompressedLength],
        ['data', c.dataEnd - c.dataStart, c.dataUncompressedLength],
      ];
      for (const [what, stored, size] of sections) {
        // Over the caller's limit is a LimitError, as a Parquet page or Trevni block over it is: the file may be sound.
        if (size > max) throw new LimitError(`${what} declare ${size} bytes decompressed, more than the reader's maxDecompressedBytes (${max})`, { offset, rowGroup: g, column });
        if (size > stored * MAX_RATIO + RATIO_SLACK) fail(`${what} claim ${size} bytes from ${stored} compressed, more than any codec inflates`, column);
      }
    }
  });
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) {
    const [p, c] = [spans[i - 1]!, spans[i]!];
    if (c.start < p.end) {
      throw new CorruptFileError(`column's sections (${c.start} to ${c.end}) overlap those of row group ${p.rowGroup} column ${p.column} (${p.start} to ${p.end})`, { offset, rowGroup: c.rowGroup, column: c.column });
    }
  }
}

