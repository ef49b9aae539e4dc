/// <reference lib="esnext.disposable" preserve="true" />
// (the declarations name Symbol.asyncDispose: an app whose lib stops at ES2022 type-checks them through this)
/**
 * The streaming Trevni writer, following the Java reference's rules so that
 * its files match the Java writer's value for value (and, with the null
 * codec, byte for byte):
 *
 * - each column is cut into blocks independently, only at row boundaries: at
 *   the start of a row, a column whose buffer holds >= blockSize (64 KiB)
 *   uncompressed bytes closes its block;
 * - array lengths: a run of n >= 2 lengths that are all 0 or all 1 is one
 *   negative int (3 - v) - 2n; in a typed array column writing a value ends
 *   the pending run; runs end at the end of a block;
 * - booleans are packed from bit 0, a block and every length start a new byte;
 * - `trevni.values`: the block's first value, encoded alone, after its
 *   descriptor; refused on array and child columns. A boolean column with
 *   `trevni.values` is kept in one block: Java's reader reads all of a
 *   column's descriptors through one buffer whose boolean bit position is
 *   not reset between them, so from the second block on it takes a bit of
 *   the previous descriptor's bytes and misreads every descriptor after
 *   (tried: EOFException, or wrong values). One block is valid Trevni, and
 *   at a bit a row it stays small (64 KiB holds 524,288 rows);
 * - a column with no rows has no blocks;
 * - the CRC-32 is of the uncompressed block, big-endian. (Unlike Java, the
 *   CRC is right with the null codec too: Java stores the CRC of nothing
 *   there and then rejects its own file.)
 *
 * Version 1 (`version: 1`, cutting/trevni's `Trv` 1) differs only where its
 * code does (version.ts): every array length is written as itself, no
 * boolean columns (refused naming the column), no bzip2.
 *
 * Memory stays bounded: each column holds one block's buffer; finished
 * blocks go to a spill store (a temporary file in Node) and are appended to
 * the output after the header at `close()`.
 */
import { ByteWriter } from '../bytes/writer.js';
import { MAX_SCHEMA_DEPTH } from '../schema/tree.js';
import { InvalidArgumentError, UnsupportedError } from '../errors.js';
import type { Sink } from '../io/sink.js';
import { BufferedSink } from '../io/buffered-sink.js';
import type { ColumnRowData } from './assemble.js';
import { isTrevniCodec, trevniChecksum, trevniCodec, type TrevniChecksum, type TrevniCodec } from './codecs.js';
import { writeMetadata } from './metadata.js';
import type { TrevniColumnRow } from './reader.js';
import { memorySpill, type SpillFactory, type SpillStore } from './spill.js';
import { KEY, isTrevniType, textBytes, type MetaEntry, type TrevniType, type TrevniValue } from './types.js';
import { ValueWriter, encodeValue } from './values.js';
import { trevniFormat, type TrevniFormat, type TrevniVersion } from './version.js';

export const DEFAULT_BLOCK_SIZE = 64 * 1024;

/** One column a `TrevniWriter` writes: name and type, whether it is an array or a child of another column, and its own codec, checksum and metadata. */
export interface TrevniColumnSpec {
  name: string;
  type: TrevniType;
  /** Each row (or parent value) holds a sequence of values. */
  array?: boolean;
  /** The name of a preceding array column whose elements this column belongs to. */
  parent?: string;
  /** Store each block's first value in its descriptor (sorted columns; not for array or child columns). */
  values?: boolean;
  /** This column's codec, written as its `trevni.codec` (else the file's applies). */
  codec?: string;
  /** This column's checksum, written as its `trevni.checksum` (else the file's applies). */
  checksum?: string;
  /**
   * More metadata, in order, after `trevni.name` and `trevni.type`. It may
   * hold the reserved keys trevni.array/parent/values/codec/checksum too,
   * which then set those properties and keep their place in the order
   * (Java writes them in the order its setters were called).
   */
  metadata?: readonly MetaEntry[];
}

/** A Trevni file's columns, version, codec, checksum, block size and metadata, as `TrevniWriter.open` takes them. */
export interface TrevniWriterOptions {
  /** The file's codec (`trevni.codec`): null, deflate, snappy or bzip2. */
  codec?: string;
  /** The file's checksum (`trevni.checksum`): null or crc32. */
  checksum?: string;
  /**
   * File metadata, in order. It may hold trevni.codec and trevni.checksum
   * (then `codec`/`checksum` replace their values); other trevni.* keys are reserved.
   */
  metadata?: readonly MetaEntry[];
  /** A column closes its block at the first row that starts with this many bytes buffered (default 65536). */
  blockSize?: number;
  /** Where finished blocks wait for close(); in memory by default. */
  spill?: SpillFactory;
  /** The Trevni version written (default 2); 1 is cutting/trevni's `Trv` 1: no boolean type, no bzip2, no run-coded lengths. */
  version?: TrevniVersion;
}

const RESERVED_FLAGS = new Set<string>([KEY.array, KEY.parent, KEY.values, KEY.codec, KEY.checksum]);

function text(v: Uint8Array): string {
  return new TextDecoder().decode(v);
}

interface ResolvedColumn {
  index: number;
  name: string;
  type: TrevniType;
  array: boolean;
  parentIndex: number;
  hasIndexValues: boolean;
  codecName: string;
  checksumName: string;
  metadata: MetaEntry[];
}

/** Refuses, naming the column, a type the version lacks (booleans in version 1): for callers that check before creating output. */
export function checkVersionTypes(version: TrevniVersion, specs: readonly Pick<TrevniColumnSpec, 'name' | 'type'>[]): void {
  const format = trevniFormat(version);
  for (const s of specs) {
    if (!format.types.includes(s.type)) {
      throw new UnsupportedError(`Trevni version ${format.version} has no ${s.type} type (known: ${format.types.join(', ')})`, { column: s.name });
    }
  }
}

function setEntry(list: MetaEntry[], key: string, value: Uint8Array): void {
  const e = list.find((m) => m.key === key);
  if (e) e.value = value;
  else list.push({ key, value });
}

function resolveColumns(specs: readonly TrevniColumnSpec[], fileCodec: string, fileChecksum: string, format: TrevniFormat): ResolvedColumn[] {
  const out: ResolvedColumn[] = [];
  const byName = new Map<string, number>();
  specs.forEach((s, index) => {
    const bad = (msg: string) => new InvalidArgumentError(`column ${JSON.stringify(s?.name)}: ${msg}`, { column: s?.name });
    if (typeof s?.name !== 'string') throw bad('a column needs a string name');
    if (byName.has(s.name)) throw bad('duplicate column name');
    if (!isTrevniType(s.type)) throw bad(`unknown type ${JSON.stringify(s.type)}`);
    checkVersionTypes(format.version, [s]);
    const meta: MetaEntry[] = [
      { key: KEY.name, value: textBytes(s.name) },
      { key: KEY.type, value: textBytes(s.type) },
    ];
    let array = false;
    let parent: string | undefined;
    let values = false;
    let codec: string | undefined;
    let checksum: string | undefined;
    for (const m of s.metadata ?? []) {
      if (m.key === KEY.name || m.key === KEY.type) throw bad(`${m.key} comes from the column's name and type`);
      if (m.key.startsWith('trevni.') && !RESERVED_FLAGS.has(m.key)) throw bad(`${m.key} is a reserved key`);
      if (meta.some((e) => e.key === m.key)) throw bad(`duplicate metadata key ${m.key}`);
      meta.push({ key: m.key, value: m.value.slice() });
      if (m.key === KEY.array) array = true;
      else if (m.key === KEY.values) values = true;
      else if (m.key === KEY.parent) parent = text(m.value);
      else if (m.key === KEY.codec) codec = text(m.value);
      else if (m.key === KEY.checksum) checksum = text(m.value);
    }
    const flag = (key: string, on: boolean | undefined, now: boolean) => {
      if (on === undefined) return now;
      if (on !== now && meta.some((e) => e.key === key)) throw bad(`${key} in metadata contradicts the column's ${key.slice(7)} option`);
      if (on && !now) meta.push({ key, value: new Uint8Array(0) });
      return on;
    };
    array = flag(KEY.array, s.array, array);
    if (s.parent !== undefined) {
      if (parent !== undefined && parent !== s.parent) throw bad('trevni.parent in metadata contradicts the parent option');
      if (parent === undefined) meta.push({ key: KEY.parent, value: textBytes(s.parent) });
      parent = s.parent;
    }
    values = flag(KEY.values, s.values, values);
    if (s.codec !== undefined) {
      if (codec !== undefined && codec !== s.codec) throw bad('trevni.codec in metadata contradicts the codec option');
      if (codec === undefined) meta.push({ key: KEY.codec, value: textBytes(s.codec) });
      codec = s.codec;
    }
    if (s.checksum !== undefined) {
      if (checksum !== undefined && checksum !== s.checksum) throw bad('trevni.checksum in metadata contradicts the checksum option');
      if (checksum === undefined) meta.push({ key: KEY.checksum, value: textBytes(s.checksum) });
      checksum = s.checksum;
    }
    let parentIndex = -1;
    if (parent !== undefined) {
      const p = byName.get(parent);
      if (p === undefined) throw bad(`parent ${JSON.stringify(parent)} must be a preceding column`);
      if (!out[p]!.array) throw bad(`parent ${JSON.stringify(parent)} is not an array column`);
      parentIndex = p;
      let depth = 1;
      for (let q = p; q >= 0; q = out[q]!.parentIndex) depth++;
      if (depth > MAX_SCHEMA_DEPTH) throw bad(`columns nest deeper than ${MAX_SCHEMA_DEPTH} levels, more than readers follow`);
    }
    if (values && (array || parentIndex >= 0)) throw bad('an array or child column cannot have trevni.values');
    const codecName = codec ?? fileCodec;
    const checksumName = checksum ?? fileChecksum;
    if (!isTrevniCodec(codecName)) throw bad(`unknown codec ${JSON.stringify(codecName)}`);
    if (!format.codecs.includes(codecName)) throw bad(`Trevni version ${format.version} has no codec ${JSON.stringify(codecName)} (known: ${format.codecs.join(', ')})`);
    if (checksumName !== 'null' && checksumName !== 'crc32') {
      throw bad(`unknown checksum ${JSON.stringify(checksumName)} (use "crc32": the Java reader refuses the spec's "crc-32")`);
    }
    byName.set(s.name, index);
    out.push({ index, name: s.name, type: s.type, array, parentIndex, hasIndexValues: values, codecName, checksumName, metadata: meta });
  });
  return out;
}

/** One column's current block and its finished blocks' descriptors. */
class ColumnBuffer implements SpilledBlocks {
  /** Empty until written, then grows to the block size as values come: a block-sized buffer per column took gigabytes for a wide table. */
  readonly buf = new ValueWriter(0);
  private numRows = 0;
  private runLength = 0;
  private runValue = -1;
  private firstValue: Uint8Array | null = null;
  readonly descriptors = new ByteWriter(0);
  blockCount = 0;
  dataSize = 0;

  /** The buffered size at which a block is cut; a boolean column with trevni.values is never cut (see the module comment). */
  private readonly cutAt: number;

  constructor(
    readonly col: ResolvedColumn,
    private readonly codec: TrevniCodec,
    private readonly checksum: TrevniChecksum,
    readonly spill: SpillStore,
    blockSize: number,
    private readonly lengthRuns: boolean,
  ) {
    this.cutAt = col.type === 'boolean' && col.hasIndexValues ? Infinity : blockSize;
  }

  async startRow(): Promise<void> {
    if (this.buf.size >= this.cutAt) await this.flush();
  }

  writeLength(l: number): void {
    if (!this.lengthRuns) {
      this.buf.writeLength(l);
      return;
    }
    if (l === this.runValue) {
      this.runLength++;
      return;
    }
    this.flushRun();
    if (l === 0 || l === 1) {
      this.runLength = 1;
      this.runValue = l;
    } else this.buf.writeLength(l);
  }

  private flushRun(): void {
    if (this.runLength === 0) return;
    this.buf.writeLength(this.runLength === 1 ? this.runValue : 3 - this.runValue - 2 * this.runLength);
    this.runLength = 0;
    this.runValue = -1;
  }

  writeValue(v: TrevniValue): void {
    const type = this.col.type;
    if (this.col.array) {
      if (type === 'null') return;
      this.flushRun();
    }
    this.buf.value(type, v);
    if (this.col.hasIndexValues && this.numRows === 0 && this.firstValue === null) this.firstValue = encodeValue(type, v);
  }

  endRow(): void {
    this.numRows++;
  }

  async flush(): Promise<void> {
    if (this.numRows === 0) return;
    this.flushRun();
    const raw = this.buf.finish();
    const stored = this.codec.compress(raw);
    const sum = this.checksum.compute(raw);
    const d = this.descriptors;
    d.i32le(this.numRows);
    d.i32le(raw.length);
    d.i32le(stored.length);
    if (this.col.hasIndexValues) d.bytes(this.firstValue ?? new Uint8Array(0));
    // The codec may return its input (null codec): write before the buffer is reused.
    await this.spill.write(stored);
    if (sum.length) await this.spill.write(sum);
    this.dataSize += stored.length + sum.length;
    this.blockCount++;
    this.buf.reset();
    this.numRows = 0;
    this.firstValue = null;
  }

}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** `v` as a value of the column's type, else an InvalidArgumentError naming the row and column. */
export function checkValue(col: { name: string; type: TrevniType }, v: unknown, row: number): TrevniValue {
  const bad = () => new InvalidArgumentError(`row ${row}: ${describe(v)} is not a ${col.type} value`, { column: col.name });
  switch (col.type) {
    case 'null':
      if (v !== null && v !== undefined) throw bad();
      return null;
    case 'boolean':
      if (typeof v !== 'boolean') throw bad();
      return v;
    case 'int':
    case 'fixed32':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX) throw bad();
      return v;
    case 'long':
    case 'fixed64': {
      let b: bigint;
      if (typeof v === 'bigint') b = v;
      else if (typeof v === 'number' && Number.isSafeInteger(v)) b = BigInt(v);
      else throw bad();
      if (b < INT64_MIN || b > INT64_MAX) throw bad();
      return b;
    }
    case 'float':
    case 'double':
      if (typeof v !== 'number') throw bad();
      return v;
    case 'string':
      if (typeof v !== 'string') throw bad();
      return v;
    case 'bytes':
      if (!(v instanceof Uint8Array)) throw bad();
      return v;
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return JSON.stringify(v) ?? String(v);
}

/** A column's finished blocks: descriptors in memory, block bytes in a spill store. */
export interface SpilledBlocks {
  blockCount: number;
  descriptors: ByteWriter;
  /** Bytes of block data (and checksums) in `spill`. */
  dataSize: number;
  spill: SpillStore;
}

/**
 * The file at close, the same in every Trevni version and dialect: header
 * (magic, rows, column count, file and column metadata, column starts), then
 * per column its block count, descriptors and blocks (copied from the spill
 * store, which is then disposed).
 */
export async function writeLayout(file: Sink, magic: Uint8Array, rows: number, fileMetadata: readonly MetaEntry[], columns: readonly { metadata: readonly MetaEntry[]; blocks: SpilledBlocks }[]): Promise<void> {
  const h = new ByteWriter(4096);
  h.bytes(magic);
  h.i64le(BigInt(rows));
  h.i32le(columns.length);
  writeMetadata(h, fileMetadata);
  for (const c of columns) writeMetadata(h, c.metadata);
  let start = h.length + 8 * columns.length;
  for (const { blocks } of columns) {
    h.i64le(BigInt(start));
    start += 4 + blocks.descriptors.length + blocks.dataSize;
  }
  // Each column's head is a few bytes: gathered, not one write each.
  const sink = new BufferedSink(file);
  await sink.write(h.finish());
  for (const { blocks } of columns) {
    const head = new ByteWriter(4 + blocks.descriptors.length);
    head.i32le(blocks.blockCount);
    head.bytes(blocks.descriptors.finish());
    await sink.write(head.finish());
    for await (const chunk of blocks.spill.chunks(1 << 20)) await sink.write(chunk);
    await blocks.spill.dispose();
  }
  await sink.flush();
}

/** Throws away a writer's output: its spill stores and what the sink has. */
export async function discardFile(sink: Sink, blocks: readonly SpilledBlocks[]): Promise<void> {
  await Promise.all(blocks.map((b) => b.spill.dispose().catch(() => undefined)));
  await sink.abort().catch(() => undefined);
}

/** Flushes the last blocks, writes the layout and closes the sink; on failure discards everything and rethrows. */
export async function finishFile(sink: Sink, flush: () => Promise<void>, magic: Uint8Array, rows: number, fileMetadata: readonly MetaEntry[], columns: readonly { metadata: readonly MetaEntry[]; blocks: SpilledBlocks }[]): Promise<void> {
  try {
    await flush();
    await writeLayout(sink, magic, rows, fileMetadata, columns);
    await sink.close();
  } catch (e) {
    await discardFile(sink, columns.map((c) => c.blocks));
    throw e;
  }
}

/** Writes a Trevni file column by column: `TrevniWriter.open(sink, options)` (docs/trevni.md). */
export class TrevniWriter {
  private rows = 0;
  private state: 'open' | 'closed' | 'failed' = 'open';
  private readonly columns: ResolvedColumn[];
  private readonly children: number[][];
  private readonly roots: number[];

  private constructor(
    private readonly sink: Sink,
    private readonly format: TrevniFormat,
    private readonly fileMetadata: MetaEntry[],
    columns: ResolvedColumn[],
    private readonly buffers: ColumnBuffer[],
  ) {
    this.columns = columns;
    this.children = columns.map(() => []);
    for (const c of columns) if (c.parentIndex >= 0) this.children[c.parentIndex]!.push(c.index);
    this.roots = columns.filter((c) => c.parentIndex < 0).map((c) => c.index);
  }

  /** Validates the columns (Java's rules), loads the codecs and opens a spill store per column. The schema is the columns, as the other writers take theirs: `(sink, schema, options)`. */
  static async open(sink: Sink, columns: readonly TrevniColumnSpec[], options: TrevniWriterOptions = {}): Promise<TrevniWriter> {
    if (!Array.isArray(columns)) throw new InvalidArgumentError('a Trevni writer needs its columns, an array');
    const blockSize = options.blockSize ?? DEFAULT_BLOCK_SIZE;
    if (!Number.isSafeInteger(blockSize) || blockSize < 1 || blockSize > 2 ** 30) throw new InvalidArgumentError(`blockSize must be an integer from 1 to 2^30, got ${blockSize}`);
    const version = options.version ?? 2;
    if (version !== 1 && version !== 2) throw new InvalidArgumentError(`version must be 1 or 2, got ${String(version)}`);
    const format = trevniFormat(version);
    const meta: MetaEntry[] = [];
    for (const m of options.metadata ?? []) {
      if (m.key.startsWith('trevni.') && m.key !== KEY.codec && m.key !== KEY.checksum) throw new InvalidArgumentError(`file metadata key ${m.key} is reserved`);
      if (meta.some((e) => e.key === m.key)) throw new InvalidArgumentError(`duplicate file metadata key ${m.key}`);
      meta.push({ key: m.key, value: m.value.slice() });
    }
    if (options.codec !== undefined) setEntry(meta, KEY.codec, textBytes(options.codec));
    if (options.checksum !== undefined) setEntry(meta, KEY.checksum, textBytes(options.checksum));
    const fileCodec = text(meta.find((m) => m.key === KEY.codec)?.value ?? textBytes('null'));
    const fileChecksum = text(meta.find((m) => m.key === KEY.checksum)?.value ?? textBytes('null'));
    const resolved = resolveColumns(columns, fileCodec, fileChecksum, format);
    const spill = options.spill ?? memorySpill();
    const buffers: ColumnBuffer[] = [];
    try {
      for (const c of resolved) {
        const codec = await trevniCodec(c.codecName);
        const store = await spill(c.index);
        buffers.push(new ColumnBuffer(c, codec, trevniChecksum(c.checksumName), store, blockSize, format.lengthRuns));
      }
    } catch (e) {
      await Promise.all(buffers.map((b) => b.spill.dispose()));
      throw e;
    }
    return new TrevniWriter(sink, format, meta, resolved, buffers);
  }

  /** Rows written so far. */
  get numRows(): number {
    return this.rows;
  }

  /**
   * Writes one row given per column (in column order) in the shape
   * TrevniReader.readColumn returns: a value; a list for an array column; a
   * list with one value per parent value for a child column; a list of lists
   * for an array child column.
   */
  async writeRow(values: readonly TrevniColumnRow[]): Promise<void> {
    this.check();
    if (!Array.isArray(values) || values.length !== this.columns.length) {
      throw new InvalidArgumentError(`row ${this.rows}: expected ${this.columns.length} column values, got ${Array.isArray(values) ? values.length : describe(values)}`);
    }
    const data: ColumnRowData[] = [];
    for (const c of this.columns) {
      const v = values[c.index];
      const where = () => new InvalidArgumentError(`row ${this.rows}: column ${c.name} needs ${c.parentIndex >= 0 ? (c.array ? 'a list of lists' : 'a list') : c.array ? 'a list' : 'a value'}, got ${describe(v)}`, { column: c.name });
      if (c.parentIndex < 0 && !c.array) data.push({ values: [v as TrevniValue], lengths: null });
      else if (!Array.isArray(v)) throw where();
      else if (c.parentIndex < 0 || !c.array) data.push({ values: (v as TrevniValue[]).slice(), lengths: c.array ? [v.length] : null });
      else {
        const flat: TrevniValue[] = [];
        const lengths: number[] = [];
        for (const seq of v) {
          if (!Array.isArray(seq)) throw where();
          lengths.push(seq.length);
          for (const x of seq) flat.push(x as TrevniValue);
        }
        data.push({ values: flat, lengths });
      }
    }
    await this.writeData(data);
  }

  /**
   * Writes one row given as an object in the shape TrevniReader.rows()
   * yields: root columns by name; an array column with children holds
   * objects with `$value` (unless the column is null-typed) and each child's
   * value or list.
   */
  async write(record: Record<string, unknown>): Promise<void> {
    this.check();
    if (record === null || typeof record !== 'object') throw new InvalidArgumentError(`row ${this.rows}: a record must be an object, got ${describe(record)}`);
    const data: ColumnRowData[] = this.columns.map((c) => ({ values: [], lengths: c.array ? [] : null }));
    const own = (o: unknown, k: string) => (o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k) ? (o as Record<string, unknown>)[k] : undefined);
    const add = (ci: number, item: unknown) => {
      const c = this.columns[ci]!;
      const kids = this.children[ci]!;
      if (kids.length === 0) {
        data[ci]!.values.push(item as TrevniValue);
        return;
      }
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        throw new InvalidArgumentError(`row ${this.rows}: the elements of column ${c.name} must be objects (it has child columns), got ${describe(item)}`, { column: c.name });
      }
      data[ci]!.values.push((c.type === 'null' ? null : own(item, '$value')) as TrevniValue);
      for (const k of kids) place(k, own(item, this.columns[k]!.name));
    };
    const place = (ci: number, v: unknown) => {
      const c = this.columns[ci]!;
      if (!c.array) return add(ci, v);
      if (!Array.isArray(v)) throw new InvalidArgumentError(`row ${this.rows}: column ${c.name} needs a list, got ${describe(v)}`, { column: c.name });
      data[ci]!.lengths!.push(v.length);
      for (const x of v) add(ci, x);
    };
    for (const r of this.roots) place(r, own(record, this.columns[r]!.name));
    await this.writeData(data);
  }

  private check(): void {
    if (this.state !== 'open') throw new InvalidArgumentError(`the Trevni writer is ${this.state}`);
  }

  /**
   * Expert: writes one row given as each column's values and (for array
   * columns) sequence lengths, as TrevniReader.columnData yields them; a
   * null-typed array column holds one null per element. The whole row is
   * validated first, so a rejected row leaves nothing behind.
   */
  async writeColumnData(data: ColumnRowData[]): Promise<void> {
    this.check();
    if (!Array.isArray(data) || data.length !== this.columns.length) throw new InvalidArgumentError(`row ${this.rows}: expected data for ${this.columns.length} columns`);
    for (const c of this.columns) {
      const d = data[c.index];
      if (!d || !Array.isArray(d.values) || (c.array ? !Array.isArray(d.lengths) : d.lengths !== null && d.lengths !== undefined)) {
        throw new InvalidArgumentError(`row ${this.rows}: column ${c.name} needs values${c.array ? ' and lengths' : ''}`, { column: c.name });
      }
      if (c.array && d.lengths!.reduce((a, b) => a + b, 0) !== d.values.length) {
        throw new InvalidArgumentError(`row ${this.rows}: column ${c.name} lengths add up to ${d.lengths!.reduce((a, b) => a + b, 0)}, not its ${d.values.length} values`, { column: c.name });
      }
    }
    await this.writeData(data.map((d, i) => ({ values: d.values.slice(), lengths: this.columns[i]!.array ? d.lengths!.slice() : null })));
  }

  private async writeData(data: ColumnRowData[]): Promise<void> {
    const row = this.rows;
    for (const c of this.columns) {
      const d = data[c.index]!;
      const slots = c.parentIndex < 0 ? 1 : data[c.parentIndex]!.values.length;
      if (c.array) {
        if (d.lengths!.length !== slots) throw new InvalidArgumentError(`row ${row}: column ${c.name} has ${d.lengths!.length} sequences for ${slots} parent values`, { column: c.name });
      } else if (d.values.length !== slots) {
        throw new InvalidArgumentError(`row ${row}: column ${c.name} has ${d.values.length} values for ${slots} parent values`, { column: c.name });
      }
      for (let i = 0; i < d.values.length; i++) d.values[i] = checkValue(c, d.values[i], row);
      if (c.array && d.values.length > 2 ** 31 - 1) throw new InvalidArgumentError(`row ${row}: column ${c.name} holds too many values`);
    }
    try {
      for (const b of this.buffers) await b.startRow();
      for (const b of this.buffers) {
        const d = data[b.col.index]!;
        if (!d.lengths) for (const v of d.values) b.writeValue(v);
        else {
          let o = 0;
          for (const l of d.lengths) {
            b.writeLength(l);
            for (let i = 0; i < l; i++) b.writeValue(d.values[o++]!);
          }
        }
        b.endRow();
      }
    } catch (e) {
      await this.fail();
      throw e;
    }
    this.rows++;
  }

  private async fail(): Promise<void> {
    this.state = 'failed';
    await discardFile(this.sink, this.buffers);
  }

  /** Finishes the last blocks, writes the header, descriptors and blocks, and closes the sink. */
  async close(): Promise<void> {
    this.check();
    this.state = 'failed';
    const flush = async () => {
      for (const b of this.buffers) await b.flush();
    };
    await finishFile(this.sink, flush, this.format.magic, this.rows, this.fileMetadata, this.buffers.map((b) => ({ metadata: b.col.metadata, blocks: b })));
    this.state = 'closed';
  }

  /** Discards everything: the spill stores and the sink's output. */
  async abort(): Promise<void> {
    if (this.state !== 'open') return;
    await this.fail();
  }

  /** `await using`: a writer left open when its scope ends is aborted, never completed half-written. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.abort();
  }
}
