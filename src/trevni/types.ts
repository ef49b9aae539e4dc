/**
 * Trevni's value types and the shapes the reader and writer share.
 *
 * Values in memory: `null`; `boolean`; `int` and `fixed32` as numbers;
 * `long` and `fixed64` as bigints (lossless); `float` and `double` as numbers
 * (a float widened exactly); `string` as a string; `bytes` as a Uint8Array.
 */
import { typedArray } from '../bytes/small-arrays.js';

export const TREVNI_TYPES = ['null', 'boolean', 'int', 'long', 'fixed32', 'fixed64', 'float', 'double', 'string', 'bytes'] as const;

export type TrevniType = (typeof TREVNI_TYPES)[number];

export type TrevniValue = null | boolean | number | bigint | string | Uint8Array;

/** One metadata pair, in file order. Keys are text; values are bytes (often UTF-8 text). */
export interface MetaEntry {
  key: string;
  value: Uint8Array;
  /** File offset of the value (its length prefix), for entries read from a file: errors about the value point there. */
  offset?: number;
}

/** The reserved metadata keys. */
export const KEY = {
  codec: 'trevni.codec',
  checksum: 'trevni.checksum',
  name: 'trevni.name',
  type: 'trevni.type',
  values: 'trevni.values',
  parent: 'trevni.parent',
  array: 'trevni.array',
} as const;

/** A column as the file describes it. */
export interface TrevniColumn {
  /** Position in the file's column list. */
  index: number;
  /** `trevni.name`, exactly as stored. */
  name: string;
  type: TrevniType;
  /** `trevni.array`: each row (or each parent value) holds a sequence of values. */
  array: boolean;
  /** `trevni.parent`: the name of the (preceding, array) column whose lengths this column follows. */
  parent: string | null;
  /** Index of the parent column, or -1. */
  parentIndex: number;
  /** Indexes of the columns whose parent this is, in file order. */
  children: number[];
  /** `trevni.values`: each block descriptor holds the block's first value. */
  hasIndexValues: boolean;
  /** The effective codec name: the column's `trevni.codec`, else the file's, else "null". */
  codec: string;
  /** The effective checksum name, chosen the same way. */
  checksum: string;
  /** All of the column's metadata, in file order (reserved keys included). */
  metadata: MetaEntry[];
  /** Absolute offset of the column (its block count). */
  start: number;
}

/** One block of a column, from its descriptor. */
export interface TrevniBlock {
  /** Rows of the file this block covers. */
  numRows: number;
  /** The first of those rows. */
  firstRow: number;
  uncompressedSize: number;
  compressedSize: number;
  /** Absolute offset of the (compressed) block data; its checksum follows it. */
  offset: number;
  /** Bytes of checksum after the data (0 or 4). */
  checksumSize: number;
  /** The block's first value, when the column has `trevni.values`. */
  firstValue?: TrevniValue;
}

/**
 * Whether a column's rows take bytes: every column but a null one without
 * array, whose value is always null, so its block holds nothing and its
 * row count is a claim nothing backs.
 */
export function holdsData(col: TrevniColumn): boolean {
  return col.type !== 'null' || col.array;
}

export function isTrevniType(s: string): s is TrevniType {
  return (TREVNI_TYPES as readonly string[]).includes(s);
}

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** UTF-8 bytes of `s`; a short ASCII string's in a shared slab (each column of a wide table has its name and type as metadata). */
export function textBytes(s: string): Uint8Array {
  const small = typedArray(Uint8Array, s.length);
  return utf8.encodeInto(s, small).read === s.length ? small : utf8.encode(s);
}

/** The value as UTF-8 text, or null when it is not valid UTF-8. */
export function metaText(value: Uint8Array): string | null {
  try {
    return strictUtf8.decode(value);
  } catch {
    return null;
  }
}

/** The first entry with `key`, as in Java's LinkedHashMap (a later duplicate replaces the value, keeping the position). */
export function metaGet(meta: readonly MetaEntry[], key: string): Uint8Array | undefined {
  let found: Uint8Array | undefined;
  for (const e of meta) if (e.key === key) found = e.value;
  return found;
}
