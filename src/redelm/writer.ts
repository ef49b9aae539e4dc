/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * Writes RedElm files that the prototype's `RedelmFileReader` reads: records
 * are shredded by shred/ on the plan the reader assembles with; per row
 * group and leaf, in the order of the prototype's `TreeMap` of column
 * descriptors (paths compared name by name, UTF-16 order), the repetition
 * levels, definition levels (a byte per entry) and values, each compressed
 * on its own with the Hadoop codec; then the footer with the `RedElm` block
 * in Java serialization (the prototype's form; `footer: 'json'` writes the
 * design page's JSON instead, which the prototype cannot read) and any
 * application blocks after it.
 */
import { ByteWriter } from '../bytes/writer.js';
import { HADOOP_CODECS, HADOOP_GZIP, loadHadoopCodec, type HadoopCodec } from '../codecs/hadoop.js';
import { InvalidArgumentError, UnsupportedError } from '../errors.js';
import type { Sink } from '../io/sink.js';
import { BufferedSink } from '../io/buffered-sink.js';
import type { LeafNode, Schema, SchemaNode } from '../schema/tree.js';
import { planRecord, type RecordPlan } from '../shred/plan.js';
import { RecordShredder, type LeafSink, type UnknownFieldRule } from '../shred/shred.js';
import type { WarningHandler } from '../warnings.js';
import { encodeRedElmFooter, MAX_METADATA_BLOCKS, REDELM_BLOCK, REDELM_MAGIC, type MetaDataBlock } from './container.js';
import { encodeRedElmMetaData, type RedElmBlockMeta, type RedElmType } from './metadata.js';
import { formatRedElmSchema, parseRedElmSchema } from './schema.js';
import { redElmLeaf, redElmLeafType, type RedElmLeaf } from './types.js';
import { encodeValue } from './values.js';

/** `RedElmWriter.open`'s options: codec, footer form, row group size, metadata blocks. */
export interface RedElmWriterOptions extends UnknownFieldRule {
  /** `gzip` (default), `default` (zlib), `snappy`, or a Hadoop codec class name. */
  codec?: string;
  /** The `RedElm` block's form: `java` (default, what the prototype reads) or `json` (the design page's). */
  footer?: 'java' | 'json';
  /** Cut a row group after this many records. */
  rowGroupRecords?: number;
  /** Cut a row group once its uncompressed sections reach this many bytes; default 64 MiB (the prototype flushed at 50 MB). */
  rowGroupSize?: number;
  /** Application metadata blocks, written after the `RedElm` block (at most 254). */
  metaDataBlocks?: readonly MetaDataBlock[];
  /** Hears strings written with U+FFFD for lone surrogates, once per column. */
  onWarning?: WarningHandler;
}

const DEFAULT_ROW_GROUP_SIZE = 64 * 1024 * 1024;

/** One leaf's buffered sections for the current row group. */
class LeafBuffer implements LeafSink {
  // Empty until written: a wide table has many columns and few values (they double as they fill).
  readonly rep = new ByteWriter(0);
  readonly def = new ByteWriter(0);
  readonly data = new ByteWriter(0);

  readonly type: RedElmType;

  constructor(readonly leaf: LeafNode, private readonly mapped: RedElmLeaf) {
    this.type = mapped.type;
  }

  get bytes(): number {
    return this.rep.length + this.def.length + this.data.length;
  }

  level(rep: number, def: number): void {
    this.rep.u8(rep);
    this.def.u8(def);
  }

  value(rep: number, v: unknown): void {
    encodeValue(this.type, this.data, this.mapped.convert(v));
    this.rep.u8(rep);
    this.def.u8(this.leaf.defLevel);
  }

  /** Records where the buffers stand in `marks` at `i`..`i + 2`. */
  mark(marks: Float64Array, i: number): void {
    marks[i] = this.rep.length;
    marks[i + 1] = this.def.length;
    marks[i + 2] = this.data.length;
  }

  rollback(marks: Float64Array, i: number): void {
    this.rep.length = marks[i]!;
    this.def.length = marks[i + 1]!;
    this.data.length = marks[i + 2]!;
  }

  reset(): void {
    this.rep.reset();
    this.def.reset();
    this.data.reset();
  }
}

/** The prototype's column order: `ColumnDescriptor.compareTo`, paths compared name by name with String.compareTo. */
function comparePaths(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}

/** Writes a RedElm file the Java prototype reads back: `RedElmWriter.open(sink, schemaText, options)` (docs/redelm.md). */
export class RedElmWriter {
  private readonly plan: RecordPlan;
  private readonly buffers: LeafBuffer[];
  /** The buffers in the order their chunks are written. */
  private readonly order: LeafBuffer[];
  private readonly shredder: RecordShredder;
  /** Where each buffer stood before the record being written (reused: no allocation per record). */
  private readonly marks: Float64Array;
  private readonly blocks: RedElmBlockMeta[] = [];
  private position = 0;
  private records = 0;
  private written = 0;
  private closed = false;

  private constructor(
    private readonly sink: Sink,
    readonly schema: Schema,
    private readonly schemaText: string,
    private readonly codec: HadoopCodec,
    private readonly options: RedElmWriterOptions,
  ) {
    this.plan = planRecord(schema.root);
    const warned = new Set<string>();
    this.buffers = this.plan.leaves.map((leaf) => {
      const column = leaf.path.join('.');
      const onReplaced = options.onWarning && (() => {
        if (warned.has(column)) return;
        warned.add(column);
        options.onWarning!({ code: 'LONE_SURROGATE', column, record: this.written, message: `column ${column}, record ${this.written}: a string with lone surrogates (UTF-16 that is not text) was written with U+FFFD in their place; later ones in this column are not reported` });
      });
      return new LeafBuffer(leaf, redElmLeaf(leaf, onReplaced)!);
    });
    this.order = [...this.buffers].sort((a, b) => comparePaths(a.leaf.path, b.leaf.path));
    this.shredder = new RecordShredder(this.plan, this.buffers, options);
    this.marks = new Float64Array(3 * this.buffers.length);
  }

  /**
   * Opens a writer. `schema` is RedElm message text, or any schema tree:
   * records are shredded on that tree (so LIST and MAP take the reader's
   * forms), leaves are mapped to RedElm's types as types.ts says, and the
   * stored text keeps the groups and repetitions without annotations (a
   * LIST reads back as its repeated group). A leaf RedElm has no type for
   * is refused, naming it, and so is a schema of no leaves.
   */
  static async open(sink: Sink, schema: string | Schema, options: RedElmWriterOptions = {}): Promise<RedElmWriter> {
    const tree = typeof schema === 'string' ? parseRedElmSchemaArgument(schema) : schema;
    // The reader bounds a footer's objects by the data area, each row group's columns taking bytes of it: a file of no columns could not be read back.
    if (tree.leaves.length === 0) throw new UnsupportedError('a RedElm file needs at least one column: the schema has none (only empty groups, or no fields)');
    const variant = findVariant(tree.root);
    if (variant) throw new UnsupportedError(`RedElm has no form for the VARIANT column ${variant.path.join('.')}`, { column: variant.path.join('.') });
    for (const leaf of tree.leaves) {
      if (redElmLeaf(leaf) === undefined) {
        throw new UnsupportedError(`RedElm has no type for column ${leaf.path.join('.')} (${leaf.physicalType}, ${leaf.kind.kind}): its types are int32, int64, boolean, float, double, string and binary`, { column: leaf.path.join('.') });
      }
    }
    const text = formatRedElmSchema(tree, (leaf) => redElmLeafType(leaf)!);
    // What we store is what we read back: the text must give the tree we shred on.
    const reread = parseRedElmSchema(text);
    const paths = (s: Schema) => s.leaves.map((l) => JSON.stringify(l.path)).join();
    if (paths(reread) !== paths(tree)) throw new UnsupportedError('a field name holds a space, tab, newline or one of ;{} , which RedElm\'s schema text cannot hold');
    const deep = reread.leaves.find((l) => l.defLevel > 255 || l.repLevel > 255);
    if (deep) throw new UnsupportedError(`column ${deep.path.join('.')} nests deeper than RedElm's one-byte levels hold (255)`, { column: deep.path.join('.') });
    const blocks = options.metaDataBlocks ?? [];
    if (blocks.length > MAX_METADATA_BLOCKS - 1) throw new InvalidArgumentError(`at most ${MAX_METADATA_BLOCKS - 1} application metadata blocks, got ${blocks.length}`);
    for (const n of ['rowGroupRecords', 'rowGroupSize'] as const) {
      const v = options[n];
      if (v !== undefined && !(Number.isSafeInteger(v) && v > 0)) throw new InvalidArgumentError(`${n} must be a positive integer, got ${v}`);
    }
    const className = HADOOP_CODECS[options.codec ?? 'gzip'] ?? options.codec ?? HADOOP_GZIP;
    const codec = await loadHadoopCodec(className);
    const writer = new RedElmWriter(new BufferedSink(sink), tree, text, codec, options);
    await writer.emit(REDELM_MAGIC);
    return writer;
  }

  /** Records written so far. */
  get numRows(): number {
    return this.written;
  }

  /** Row groups written so far. */
  get rowGroups(): number {
    return this.blocks.length;
  }

  /** Adds one record; a record that fails leaves nothing of itself in the file. */
  async write(record: unknown): Promise<void> {
    if (this.closed) throw new InvalidArgumentError('the writer is closed');
    const marks = this.marks;
    for (let i = 0; i < this.buffers.length; i++) this.buffers[i]!.mark(marks, 3 * i);
    try {
      this.shredder.shred(record);
    } catch (e) {
      for (let i = 0; i < this.buffers.length; i++) this.buffers[i]!.rollback(marks, 3 * i);
      throw e;
    }
    this.records++;
    this.written++;
    let bytes = 0;
    for (let i = 0; i < this.buffers.length; i++) bytes += this.buffers[i]!.bytes;
    if (this.records === this.options.rowGroupRecords || bytes >= (this.options.rowGroupSize ?? DEFAULT_ROW_GROUP_SIZE)) await this.flush();
  }

  /** Writes the last row group and the footer. Like `RedelmOutputFormat.close()`, a file of no records has one empty row group. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.records > 0 || this.blocks.length === 0) await this.flush();
      const meta = { schema: this.schemaText, codecClassName: this.codec.className, blocks: this.blocks };
      const redelm = { name: REDELM_BLOCK, data: encodeRedElmMetaData(meta, this.options.footer ?? 'java') };
      await this.emit(encodeRedElmFooter(this.position, [redelm, ...(this.options.metaDataBlocks ?? [])]));
      await this.sink.close();
    } catch (e) {
      await this.sink.abort().catch(() => undefined);
      throw e;
    }
  }

  /** Discards the output. */
  async abort(): Promise<void> {
    this.closed = true;
    await this.sink.abort();
  }

  /** `await using`: a writer left open when its scope ends is aborted, never completed half-written. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (!this.closed) await this.abort();
  }

  private async emit(bytes: Uint8Array): Promise<void> {
    await this.sink.write(bytes);
    this.position += bytes.length;
  }

  private async flush(): Promise<void> {
    const block: RedElmBlockMeta = { startIndex: this.position, endIndex: 0, recordCount: this.records, columns: [] };
    for (const b of this.order) {
      const column = { path: b.leaf.path, type: b.type, valueCount: b.rep.length } as RedElmBlockMeta['columns'][number];
      column.repetitionStart = this.position;
      column.repetitionUncompressedLength = b.rep.length;
      await this.emit(this.codec.compress(b.rep.finish()));
      column.definitionStart = this.position;
      column.definitionUncompressedLength = b.def.length;
      await this.emit(this.codec.compress(b.def.finish()));
      column.dataStart = this.position;
      column.dataUncompressedLength = b.data.length;
      await this.emit(this.codec.compress(b.data.finish()));
      column.dataEnd = this.position;
      block.columns.push(column);
      b.reset();
    }
    block.endIndex = this.position;
    this.blocks.push(block);
    this.records = 0;
  }
}

function findVariant(node: SchemaNode): SchemaNode | undefined {
  if (node.isLeaf) return undefined;
  if (node.kind === 'variant') return node;
  for (const c of node.children) {
    const v = findVariant(c);
    if (v) return v;
  }
  return undefined;
}

/** A caller's schema text: its faults are the caller's, not a file's. */
function parseRedElmSchemaArgument(text: string): Schema {
  try {
    return parseRedElmSchema(text);
  } catch (e) {
    throw new InvalidArgumentError(e instanceof Error ? e.message : String(e));
  }
}
