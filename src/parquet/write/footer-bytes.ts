import { ByteWriter } from '../../bytes/writer.js';
import { type FileMetaData } from '../metadata/index.js';
import { encodeFileMetaData } from '../metadata/encode.js';

/** "PAR1" as bytes: the first and last four bytes of every plaintext Parquet file. */
export const PARQUET_MAGIC = Uint8Array.of(0x50, 0x41, 0x52, 0x31);

/** The end of a Parquet file: the FileMetaData, its length (u32 LE) and the magic. */
export function footerBytes(meta: FileMetaData): Uint8Array {
  const w = new ByteWriter(4096);
  encodeFileMetaData(meta, w);
  const length = w.length;
  w.u32le(length);
  w.bytes(PARQUET_MAGIC);
  return w.finish();
}
