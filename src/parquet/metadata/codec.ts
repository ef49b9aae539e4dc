/**
 * Decode entry points for the parquet.thrift structs. Each is the compiled
 * table of tables.ts; the decoders are built once, at module load. Encoding
 * is encode.ts, which a read does not load.
 */

import { ByteCursor } from '../../bytes/cursor.js';
import { compileStruct, decodeStruct } from '../thrift/codec.js';
import type { StructCodec } from '../thrift/codec.js';
import * as tables from './tables.js';
import type {
  BloomFilterHeader,
  ColumnChunk,
  ColumnIndex,
  ColumnMetaData,
  FileCryptoMetaData,
  FileMetaData,
  OffsetIndex,
  PageHeader,
} from './types.js';

export const fileMetaDataCodec: StructCodec<FileMetaData> = compileStruct(tables.FileMetaData);
export const pageHeaderCodec: StructCodec<PageHeader> = compileStruct(tables.PageHeader);
export const columnIndexCodec: StructCodec<ColumnIndex> = compileStruct(tables.ColumnIndex);
export const offsetIndexCodec: StructCodec<OffsetIndex> = compileStruct(tables.OffsetIndex);
export const bloomFilterHeaderCodec: StructCodec<BloomFilterHeader> = compileStruct(tables.BloomFilterHeader);
export const fileCryptoMetaDataCodec: StructCodec<FileCryptoMetaData> = compileStruct(tables.FileCryptoMetaData);
export const columnMetaDataCodec: StructCodec<ColumnMetaData> = compileStruct(tables.ColumnMetaData);
export const columnChunkCodec: StructCodec<ColumnChunk> = compileStruct(tables.ColumnChunk);

/**
 * Decodes the footer's FileMetaData from `buf` (the footer bytes, starting
 * at the struct). `base` is the absolute file offset of buf[0], for error
 * messages. Bytes after the struct are ignored (a plaintext footer of an
 * encrypted file is followed by its signature); use decodeFileMetaDataAt to
 * learn where the struct ended.
 */
export function decodeFileMetaData(buf: Uint8Array, base = 0): FileMetaData {
  return decodeStruct(fileMetaDataCodec, new ByteCursor(buf, 0, buf.length, base));
}

/** Decodes a FileMetaData at the cursor, advancing it past the struct. */
export function decodeFileMetaDataAt(cursor: ByteCursor): FileMetaData {
  return decodeStruct(fileMetaDataCodec, cursor);
}

/**
 * Decodes a page header at the cursor and advances it: afterwards
 * `cursor.pos` is the first byte of the page's data.
 */
export function decodePageHeader(cursor: ByteCursor): PageHeader {
  return decodeStruct(pageHeaderCodec, cursor);
}

export function decodeColumnIndex(cursor: ByteCursor): ColumnIndex {
  return decodeStruct(columnIndexCodec, cursor);
}

export function decodeOffsetIndex(cursor: ByteCursor): OffsetIndex {
  return decodeStruct(offsetIndexCodec, cursor);
}

/** Decodes a bloom filter header; afterwards `cursor.pos` is the first byte of the bitset. */
export function decodeBloomFilterHeader(cursor: ByteCursor): BloomFilterHeader {
  return decodeStruct(bloomFilterHeaderCodec, cursor);
}

/** The FileCryptoMetaData at the start of an encrypted-footer file's footer. */
export function decodeFileCryptoMetaData(cursor: ByteCursor): FileCryptoMetaData {
  return decodeStruct(fileCryptoMetaDataCodec, cursor);
}

/** A ColumnMetaData on its own (ColumnChunk.encrypted_column_metadata, once decrypted). */
export function decodeColumnMetaData(cursor: ByteCursor): ColumnMetaData {
  return decodeStruct(columnMetaDataCodec, cursor);
}
