/** Encode entry points for the parquet.thrift structs, from the tables of tables.ts (the writer's side of codec.ts). */
import type { ByteWriter } from '../../bytes/writer.js';
import { encodeStruct } from '../thrift/encode.js';
import * as tables from './tables.js';
import type { BloomFilterHeader, ColumnIndex, ColumnMetaData, FileCryptoMetaData, FileMetaData, OffsetIndex, PageHeader } from './types.js';

export function encodeFileMetaData(m: FileMetaData, w: ByteWriter): void {
  encodeStruct(tables.FileMetaData, m, w);
}

export function encodePageHeader(h: PageHeader, w: ByteWriter): void {
  encodeStruct(tables.PageHeader, h, w);
}

export function encodeColumnIndex(ci: ColumnIndex, w: ByteWriter): void {
  encodeStruct(tables.ColumnIndex, ci, w);
}

export function encodeOffsetIndex(oi: OffsetIndex, w: ByteWriter): void {
  encodeStruct(tables.OffsetIndex, oi, w);
}

export function encodeBloomFilterHeader(h: BloomFilterHeader, w: ByteWriter): void {
  encodeStruct(tables.BloomFilterHeader, h, w);
}

export function encodeFileCryptoMetaData(m: FileCryptoMetaData, w: ByteWriter): void {
  encodeStruct(tables.FileCryptoMetaData, m, w);
}

export function encodeColumnMetaData(m: ColumnMetaData, w: ByteWriter): void {
  encodeStruct(tables.ColumnMetaData, m, w);
}
