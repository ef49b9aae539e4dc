/**
 * Structure-aware mutations of Trevni files: the file is parsed into its
 * parts (header, file and column metadata, block descriptors, block data)
 * with the library's own parser, one part is edited, and the file is written
 * back with every column start recomputed, so the edit reaches the checks
 * behind the header instead of breaking the first offset. Versions 1 and 2
 * and the draft's dialect share this layout; the draft's level keys are
 * among the keys edited.
 */
import { ByteCursor } from '../../src/bytes/cursor.js';
import { ByteWriter } from '../../src/bytes/writer.js';
import { trevniChecksum } from '../../src/trevni/codecs.js';
import { DRAFT_KEY, DREMEL_DIALECT, parseHeader, writeMetadata } from '../../src/trevni/metadata.js';
import { KEY, type MetaEntry } from '../../src/trevni/types.js';
import { ValueReader } from '../../src/trevni/values.js';
import type { Rng } from './mutate.js';

interface Block {
  rows: number;
  uncompressed: number;
  compressed: number;
  /** The descriptor's first value, encoded, when the column has trevni.values. */
  first: Uint8Array;
  /** The block's stored bytes and checksum. */
  data: Uint8Array;
}

interface Column {
  meta: MetaEntry[];
  /** Written as the block count instead of blocks.length, when set. */
  blockCount?: number;
  blocks: Block[];
}

export interface TrevniModel {
  /** The version's magic, kept: a mutation of a version 1 or draft file stays one. */
  magic: Uint8Array;
  rowCount: bigint;
  /** Written as the column count instead of columns.length, when set. */
  columnCount?: number;
  meta: MetaEntry[];
  columns: Column[];
}

export type TrevniEdit =
  | { op: 'rowCount'; value: string }
  | { op: 'columnCount'; value: number }
  | { op: 'fileMeta'; key: string; value: string | null }
  | { op: 'columnMeta'; column: number; key: string; value: string | null }
  | { op: 'column'; action: 'drop' | 'duplicate' | 'swap'; column: number; other: number }
  | { op: 'blockCount'; column: number; value: number }
  | { op: 'descriptor'; column: number; block: number; field: 'rows' | 'uncompressed' | 'compressed'; value: number }
  | { op: 'block'; action: 'drop' | 'duplicate'; column: number; block: number }
  | { op: 'blockData'; column: number; block: number; at: number; xor: number };

export interface TrevniMutation {
  kind: 'trevni';
  edit: TrevniEdit;
}

/** The parts of a Trevni file, or undefined when it does not parse. */
export function parseTrevni(bytes: Uint8Array): TrevniModel | undefined {
  try {
    const header = parseHeader(new ByteCursor(bytes, 0, bytes.length, 0), bytes.length);
    const rowCount = new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getBigInt64(4, true);
    const columns = header.columns.map((col): Column => {
      const cur = new ByteCursor(bytes, col.start, bytes.length, 0);
      const r = new ValueReader(cur);
      const checksum = trevniChecksum(col.checksum).size;
      const count = cur.i32le();
      if (count < 0 || count * 12 > bytes.length) throw new Error('block count');
      const descs: Omit<Block, 'data'>[] = [];
      for (let i = 0; i < count; i++) {
        const rows = cur.i32le();
        const uncompressed = cur.i32le();
        const compressed = cur.i32le();
        const at = cur.pos;
        if (col.hasIndexValues) {
          r.resetBits();
          r.skip(col.type);
        }
        descs.push({ rows, uncompressed, compressed, first: bytes.slice(at, cur.pos) });
      }
      let at = cur.pos;
      const blocks = descs.map((d) => {
        const data = bytes.slice(at, at + d.compressed + checksum);
        at += d.compressed + checksum;
        return { ...d, data };
      });
      return { meta: col.metadata, blocks };
    });
    return { magic: header.magic, rowCount, meta: header.metadata, columns };
  } catch {
    return undefined;
  }
}

export function writeTrevni(m: TrevniModel): Uint8Array {
  const head = new ByteWriter();
  head.bytes(m.magic);
  head.i64le(m.rowCount);
  head.i32le(m.columnCount ?? m.columns.length);
  writeMetadata(head, m.meta);
  for (const c of m.columns) writeMetadata(head, c.meta);
  const bodies = m.columns.map((c) => {
    const w = new ByteWriter();
    w.i32le(c.blockCount ?? c.blocks.length);
    for (const b of c.blocks) {
      w.i32le(b.rows);
      w.i32le(b.uncompressed);
      w.i32le(b.compressed);
      w.bytes(b.first);
    }
    for (const b of c.blocks) w.bytes(b.data);
    return w.finish();
  });
  let start = head.finish().length + 8 * m.columns.length;
  for (const b of bodies) {
    head.i64le(BigInt(start));
    start += b.length;
  }
  const out = new ByteWriter(start);
  out.bytes(head.finish());
  for (const b of bodies) out.bytes(b);
  return out.finish();
}

const text = new TextEncoder();

function setMeta(meta: MetaEntry[], key: string, value: string | null): MetaEntry[] {
  const rest = meta.filter((e) => e.key !== key);
  return value === null ? rest : [...rest, { key, value: text.encode(value) }];
}

function edit(m: TrevniModel, e: TrevniEdit): void {
  const col = 'column' in e ? m.columns[e.column] : undefined;
  const block = col && 'block' in e ? col.blocks[e.block] : undefined;
  switch (e.op) {
    case 'rowCount':
      m.rowCount = BigInt.asIntN(64, BigInt(e.value));
      return;
    case 'columnCount':
      m.columnCount = e.value;
      return;
    case 'fileMeta':
      m.meta = setMeta(m.meta, e.key, e.value);
      return;
    case 'columnMeta':
      if (col) col.meta = setMeta(col.meta, e.key, e.value);
      return;
    case 'column':
      if (!col) return;
      if (e.action === 'drop') m.columns.splice(e.column, 1);
      else if (e.action === 'duplicate') m.columns.splice(e.column + 1, 0, structuredClone(col));
      else if (m.columns[e.other]) [m.columns[e.column], m.columns[e.other]] = [m.columns[e.other]!, col];
      return;
    case 'blockCount':
      if (col) col.blockCount = e.value;
      return;
    case 'descriptor':
      if (block) block[e.field] = e.value;
      return;
    case 'block':
      if (!col || !block) return;
      if (e.action === 'drop') col.blocks.splice(e.block, 1);
      else col.blocks.splice(e.block + 1, 0, structuredClone(block));
      return;
    case 'blockData':
      if (block && block.data.length) block.data[e.at % block.data.length]! ^= e.xor;
      return;
  }
}

/** Applies a Trevni edit; a file that does not parse is returned unchanged. */
export function applyTrevni(src: Uint8Array, m: TrevniMutation): Uint8Array {
  const model = parseTrevni(src);
  if (!model) return src.slice();
  edit(model, m.edit);
  return writeTrevni(model);
}

const COUNTS = ['0', '1', '2', '-1', '255', '65536', '16777216', '2147483647', '2147483648', '4294967296', '1099511627776', '9007199254740991', '9223372036854775807'];
const TYPES = ['null', 'boolean', 'int', 'long', 'fixed32', 'fixed64', 'float', 'double', 'string', 'bytes', 'INT', 'unknown'];
const CODECS = ['null', 'deflate', 'snappy', 'bzip2', 'zstd', 'lz4'];
const LEVELS = ['0', '1', '2', '255', '256', '-1', '65536', 'x', '1e3'];
const NUMBERS = [0, 1, -1, 2, 7, 255, 4096, 65536, 1 << 24, 2 ** 31 - 1, -(2 ** 31)];

/** Avro schemas that lie about the columns, nest deep, or are not schemas at all. */
function avroSchemaText(rng: Rng, old: string | undefined): string {
  const deep = (n: number, leaf: string) => {
    let s = leaf;
    for (let i = 0; i < n; i++) s = `{"type":"array","items":${s}}`;
    return s;
  };
  const choices = [
    () => deep(rng.pick([2, 50, 3000, 6000]), '"int"'),
    () => '{"type":"record","name":"r","fields":[{"name":"a","type":"int"},{"name":"a","type":"string"}]}',
    () => '{"type":"record","name":"r","fields":[{"name":"__proto__","type":"long"}]}',
    () => '{"type":"record","name":"r","fields":[{"name":"x","type":"r"}]}',
    () => '{"type":"enum","name":"e","symbols":[]}',
    () => '["null","int","null"]',
    () => '{"type":"map","values":"bytes"}',
    () => 'not json',
    () => '',
    () => (old ?? '').replace(/"(int|long|string|bytes|float|double|boolean|null)"/, () => `"${rng.pick(['int', 'long', 'string', 'bytes', 'float', 'double', 'boolean', 'null', 'fixed'])}"`),
    () => (old ?? '').slice(0, rng.int((old ?? '').length + 1)),
  ];
  return rng.pick(choices)();
}

/** One random structured edit of a Trevni file, or undefined when the file does not parse. */
export function randomTrevniMutation(rng: Rng, bytes: Uint8Array): TrevniMutation | undefined {
  const model = parseTrevni(bytes);
  if (!model) return undefined;
  const edit = ((): TrevniEdit | undefined => {
    const cols = model.columns;
    const ci = cols.length ? rng.int(cols.length) : -1;
    const col = cols[ci];
    const bi = col && col.blocks.length ? rng.int(col.blocks.length) : -1;
    const r = rng.next();
    if (r < 0.12) return { op: 'rowCount', value: rng.next() < 0.5 ? rng.pick(COUNTS) : String(model.rowCount + BigInt(rng.pick([-1, 1, 2, 1000]))) };
    if (r < 0.2) return { op: 'columnCount', value: rng.pick([0, cols.length - 1, cols.length + 1, 2 ** 31 - 1, -1]) };
    if (r < 0.32) {
      const key = rng.pick([KEY.codec, KEY.checksum, 'avro.schema', 'avro.schema', 'x', KEY.name, DRAFT_KEY.dialect]);
      const old = model.meta.find((e) => e.key === key);
      const value = rng.next() < 0.15 ? null
        : key === 'avro.schema' ? avroSchemaText(rng, old && new TextDecoder().decode(old.value))
        : key === KEY.codec ? rng.pick(CODECS) : key === KEY.checksum ? rng.pick(['null', 'crc32', 'md5'])
        : key === DRAFT_KEY.dialect ? rng.pick([DREMEL_DIALECT, 'trevni', '']) : 'v';
      return { op: 'fileMeta', key, value };
    }
    if (!col) return undefined;
    if (r < 0.5) {
      const key = rng.pick([KEY.name, KEY.type, KEY.array, KEY.parent, KEY.values, KEY.codec, KEY.checksum, DRAFT_KEY.maxDefinition, DRAFT_KEY.maxRepetition]);
      const other = cols[rng.int(cols.length)]!;
      const otherName = new TextDecoder().decode(other.meta.find((e) => e.key === KEY.name)?.value);
      const value = rng.next() < 0.25 ? null
        : key === KEY.name ? rng.pick([otherName, '', '__proto__', 'a.b', 'x'])
        : key === KEY.type ? rng.pick(TYPES)
        : key === KEY.parent ? rng.pick([otherName, 'nope', ''])
        : key === KEY.codec ? rng.pick(CODECS) : key === KEY.checksum ? rng.pick(['null', 'crc32'])
        : key === DRAFT_KEY.maxDefinition || key === DRAFT_KEY.maxRepetition ? rng.pick(LEVELS) : '';
      return { op: 'columnMeta', column: ci, key, value };
    }
    if (r < 0.58) return { op: 'column', action: rng.pick(['drop', 'duplicate', 'swap'] as const), column: ci, other: rng.int(cols.length) };
    if (r < 0.64) return { op: 'blockCount', column: ci, value: rng.pick([0, col.blocks.length + 1, col.blocks.length - 1, 2 ** 31 - 1, -1]) };
    if (bi < 0) return undefined;
    const b = col.blocks[bi]!;
    if (r < 0.82) {
      const field = rng.pick(['rows', 'uncompressed', 'compressed'] as const);
      const old = b[field];
      return { op: 'descriptor', column: ci, block: bi, field, value: rng.pick([old + 1, old - 1, old * 2, old >> 1, rng.pick(NUMBERS)]) | 0 };
    }
    if (r < 0.9) return { op: 'block', action: rng.pick(['drop', 'duplicate'] as const), column: ci, block: bi };
    return { op: 'blockData', column: ci, block: bi, at: rng.int(Math.max(1, b.data.length)), xor: rng.next() < 0.5 ? 1 << rng.int(8) : 1 + rng.int(255) };
  })();
  return edit && { kind: 'trevni', edit };
}
