/**
 * The Trevni file header and column descriptors: parsing (every count,
 * length and offset checked against the file) and serializing.
 *
 * ```
 * header:  'T' 'r' 'v' version (2, or 1: see version.ts) | rows: fixed64 | columns: fixed32 | file metadata
 *          | column metadata x columns | column start: fixed64 x columns
 * column:  blocks: fixed32 | (rows, raw size, stored size: fixed32 x 3 [, first value]) x blocks
 *          | (block data, checksum) x blocks
 * metadata: pair count (zig-zag varint) | (key: string, value: bytes) x count
 * ```
 */
import { ByteCursor } from '../bytes/cursor.js';
import { ByteWriter } from '../bytes/writer.js';
import { CorruptFileError } from '../errors.js';
import { MAX_SCHEMA_DEPTH } from '../schema/tree.js';
import { KEY, isTrevniType, metaGet, type MetaEntry, type TrevniBlock, type TrevniColumn, type TrevniType } from './types.js';
import { ValueReader } from './values.js';
import { formatOfMagic, type TrevniFormat } from './version.js';

/** Thrown by a PrefixCursor when the bytes needed lie beyond the prefix but inside the file. */
export class NeedMore {
  constructor(readonly upTo: number) {}
}

/**
 * A cursor over the first bytes of a region of the file: a read past the
 * prefix that the file could satisfy asks for a longer prefix (NeedMore);
 * one past the end of the file is a CorruptFileError.
 */
export class PrefixCursor extends ByteCursor {
  constructor(buf: Uint8Array, base: number, private readonly available: number) {
    super(buf, 0, buf.length, base);
  }

  override need(n: number, what = 'data'): void {
    if (n >= 0 && n <= this.end - this.pos) return;
    if (n >= 0 && this.pos + n <= this.available) throw new NeedMore(this.pos + n);
    super.need(n, what);
  }
}

/** Parses a structure at `offset` from a prefix that grows until the parse fits. */
export async function parseGrowing<T>(
  read: (offset: number, length: number) => Promise<Uint8Array>,
  offset: number,
  available: number,
  firstGuess: number,
  parse: (cur: PrefixCursor) => T,
): Promise<T> {
  let size = Math.min(available, Math.max(16, firstGuess));
  for (;;) {
    const buf = await read(offset, size);
    try {
      return parse(new PrefixCursor(buf, offset, available));
    } catch (e) {
      if (!(e instanceof NeedMore)) throw e;
      size = Math.min(available, Math.max(size * 2, e.upTo + 4096));
    }
  }
}

export function readMetadata(r: ValueReader, what: string): MetaEntry[] {
  const at = r.cur.fileOffset;
  const count = r.int();
  // A larger count than the bytes can hold fails at the end of the bytes.
  if (count < 0) throw new CorruptFileError(`${what} has a negative pair count ${count}`, { offset: at });
  const out: MetaEntry[] = [];
  for (let i = 0; i < count; i++) {
    const key = r.string();
    const offset = r.cur.fileOffset;
    const value = r.bytes();
    out.push({ key, value, offset });
  }
  return out;
}

export function writeMetadata(w: ByteWriter, meta: readonly MetaEntry[]): void {
  const enc = new TextEncoder();
  w.zigzag32(meta.length);
  for (const e of meta) {
    const k = enc.encode(e.key);
    w.zigzag32(k.length);
    w.bytes(k);
    w.zigzag32(e.value.length);
    w.bytes(e.value);
  }
}

export interface TrevniHeader {
  magic: Uint8Array;
  /** The version the magic names, and what it allows. */
  format: TrevniFormat;
  numRows: number;
  metadata: MetaEntry[];
  columns: TrevniColumn[];
  /** Where the header ends (the first column start, in files the Java writer makes). */
  headerLength: number;
  /**
   * `dremel`: a version 1 file of the wiki draft's dialect (definition and
   * repetition levels in each block, see draft.ts), told by its metadata: the
   * file key `trevni.dialect`, or level keys on a column. Its parents are
   * group columns, not arrays.
   */
  dialect: 'trevni' | 'dremel';
}

/** The draft dialect's keys (draft.ts documents them); the header parse needs them to tell the dialect. */
export const DRAFT_KEY = {
  dialect: 'trevni.dialect',
  maxRepetition: 'trevni.maxRepetition',
  maxDefinition: 'trevni.maxDefinition',
} as const;

/** The value of the draft dialect's marker key. */
export const DREMEL_DIALECT = 'dremel';

const lenient = new TextDecoder('utf-8');

function text(meta: readonly MetaEntry[], key: string): string | undefined {
  const v = metaGet(meta, key);
  return v === undefined ? undefined : lenient.decode(v);
}

/**
 * Parses the header; `fileLength` bounds every count and offset, except
 * that with `truncated` a column may start past the end (its reads then
 * fail, not the header's).
 */
export function parseHeader(cur: ByteCursor, fileLength: number, truncated = false): TrevniHeader {
  const r = new ValueReader(cur);
  const magic = cur.bytes(4, 'magic').slice();
  const format = formatOfMagic(magic);
  const rows = cur.i64le();
  if (rows < 0n || rows > BigInt(Number.MAX_SAFE_INTEGER)) throw new CorruptFileError(`invalid row count ${rows}`, { offset: 4 });
  const numRows = Number(rows);
  const columnCount = cur.i32le();
  // Each column needs at least one metadata byte and an 8-byte start.
  if (columnCount < 0 || columnCount * 9 > fileLength - cur.fileOffset) {
    throw new CorruptFileError(`invalid column count ${columnCount} for a ${fileLength}-byte file`, { offset: 12 });
  }
  const metadata = readMetadata(r, 'file metadata');
  const fileCodec = text(metadata, KEY.codec);
  const fileChecksum = text(metadata, KEY.checksum);
  const raw: { at: number; meta: MetaEntry[] }[] = [];
  for (let i = 0; i < columnCount; i++) raw.push({ at: cur.fileOffset, meta: readMetadata(r, `column ${i} metadata`) });
  const dialect = dialectOf(format.version, metadata, raw.map((c) => c.meta));
  const columns: TrevniColumn[] = [];
  const byName = new Map<string, number>();
  // How deep each column nests: readers and the salvage walk recurse through parents, so the depth is bounded as a schema's is.
  const depths: number[] = [];
  for (let i = 0; i < columnCount; i++) {
    const { at, meta } = raw[i]!;
    const nameBytes = metaGet(meta, KEY.name);
    if (nameBytes === undefined) throw new CorruptFileError(`column ${i} has no trevni.name`, { offset: at });
    const name = text(meta, KEY.name)!;
    const ctx = { offset: at, column: name };
    if (byName.has(name)) throw new CorruptFileError(`duplicate column name ${JSON.stringify(name)}`, ctx);
    const typeName = text(meta, KEY.type);
    if (typeName === undefined) throw new CorruptFileError('column has no trevni.type', ctx);
    // Java reads type names case-insensitively.
    const type = typeName.toLowerCase();
    if (!isTrevniType(type) || !format.types.includes(type)) {
      throw new CorruptFileError(`unknown column type ${JSON.stringify(typeName)} (Trevni version ${format.version} has ${format.types.join(', ')})`, ctx);
    }
    const array = metaGet(meta, KEY.array) !== undefined;
    const hasIndexValues = metaGet(meta, KEY.values) !== undefined;
    const parent = text(meta, KEY.parent) ?? null;
    let parentIndex = -1;
    if (parent !== null) {
      const p = byName.get(parent);
      if (p === undefined) throw new CorruptFileError(`parent column ${JSON.stringify(parent)} does not precede this column`, ctx);
      if (dialect === 'dremel') {
        if (columns[p]!.type !== 'null') throw new CorruptFileError(`parent column ${JSON.stringify(parent)} is not a group (a null-typed column)`, ctx);
      } else if (!columns[p]!.array) throw new CorruptFileError(`parent column ${JSON.stringify(parent)} is not an array column`, ctx);
      if (hasIndexValues) throw new CorruptFileError('a column with a parent cannot have trevni.values', ctx);
      if (depths[p]! >= MAX_SCHEMA_DEPTH) throw new CorruptFileError(`columns nest deeper than ${MAX_SCHEMA_DEPTH} levels`, ctx);
      parentIndex = p;
      columns[p]!.children.push(i);
    }
    byName.set(name, i);
    depths.push(parentIndex < 0 ? 1 : depths[parentIndex]! + 1);
    columns.push({
      index: i,
      name,
      type: type as TrevniType,
      array,
      parent,
      parentIndex,
      children: [],
      hasIndexValues,
      codec: text(meta, KEY.codec) ?? fileCodec ?? 'null',
      checksum: text(meta, KEY.checksum) ?? fileChecksum ?? 'null',
      metadata: meta,
      start: 0,
    });
  }
  for (const c of columns) {
    const at = cur.fileOffset;
    const start = cur.i64le();
    if (start < BigInt(at) || start + 4n > BigInt(truncated ? Number.MAX_SAFE_INTEGER : fileLength)) {
      throw new CorruptFileError(`column start ${start} is outside the file's column data`, { offset: at, column: c.name });
    }
    c.start = Number(start);
  }
  for (const c of columns) {
    if (c.start < cur.fileOffset) throw new CorruptFileError(`column start ${c.start} lies inside the header`, { column: c.name });
  }
  return { magic, format, numRows, metadata, columns, headerLength: cur.fileOffset, dialect };
}

/**
 * A version 1 file is of the draft's Dremel dialect when its file metadata
 * carries the marker, or (a draft file written by another hand, whose level
 * keys default to 0) when any column carries a level key: cutting/trevni
 * never writes either. A marker naming another dialect is refused.
 */
function dialectOf(version: number, file: readonly MetaEntry[], columns: readonly (readonly MetaEntry[])[]): 'trevni' | 'dremel' {
  if (version !== 1) return 'trevni';
  const marker = text(file, DRAFT_KEY.dialect);
  if (marker !== undefined) {
    if (marker !== DREMEL_DIALECT) {
      const e = file.find((m) => m.key === DRAFT_KEY.dialect)!;
      throw new CorruptFileError(`unknown Trevni dialect ${JSON.stringify(marker)} (known: ${DREMEL_DIALECT})`, { offset: e.offset });
    }
    return 'dremel';
  }
  const levels = columns.some((meta) => meta.some((m) => m.key === DRAFT_KEY.maxDefinition || m.key === DRAFT_KEY.maxRepetition));
  return levels ? 'dremel' : 'trevni';
}

/**
 * Parses a column's block count and descriptors; `checksumSize` places the
 * blocks. With `truncated`, blocks past the end of the file are kept (reading
 * one fails), so those before them can be read.
 */
/** A column whose block descriptors hold other rows than the file's header says: `rows` is what they hold. */
export class BlockRowsError extends CorruptFileError {
  constructor(readonly rows: number, fileRows: number, offset: number) {
    super(`the column's blocks hold ${rows} rows, the file ${fileRows}`, { offset });
  }
}

export function parseDescriptors(cur: ByteCursor, col: TrevniColumn, checksumSize: number, numRows: number, fileLength: number, truncated = false): TrevniBlock[] {
  const r = new ValueReader(cur);
  const count = cur.i32le();
  if (count < 0 || count * 12 > fileLength - cur.fileOffset) {
    throw new CorruptFileError(`invalid block count ${count}`, { offset: col.start });
  }
  const blocks: TrevniBlock[] = [];
  let firstRow = 0;
  for (let i = 0; i < count; i++) {
    const at = cur.fileOffset;
    const rows = cur.i32le();
    const uncompressedSize = cur.i32le();
    const compressedSize = cur.i32le();
    if (rows < 0 || uncompressedSize < 0 || compressedSize < 0) {
      throw new CorruptFileError(`block ${i} descriptor has a negative count or size (${rows} rows, ${uncompressedSize}/${compressedSize} bytes)`, { offset: at });
    }
    const b: TrevniBlock = { numRows: rows, firstRow, uncompressedSize, compressedSize, offset: 0, checksumSize };
    if (col.hasIndexValues) {
      // Each first value is encoded alone (a boolean is a byte of its own):
      // Java's reader carries its bit position over here and misreads them.
      r.resetBits();
      b.firstValue = r.value(col.type);
    }
    blocks.push(b);
    firstRow += rows;
  }
  if (firstRow !== numRows) throw new BlockRowsError(firstRow, numRows, col.start);
  let offset = cur.fileOffset;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    b.offset = offset;
    offset += b.compressedSize + checksumSize;
    if (offset > fileLength && !truncated) {
      throw new CorruptFileError(`block ${i} (${b.compressedSize} bytes at offset ${b.offset}) runs past the end of the ${fileLength}-byte file`, { offset: b.offset });
    }
  }
  return blocks;
}
