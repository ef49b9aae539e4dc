/** Files for the recovery tests: multi-row-group, nested, page-indexed, written by our writer. */
import { ByteWriter } from '../../src/bytes/writer.js';
import { type FileMetaData } from '../../src/parquet/metadata/index.js';
import { encodeFileMetaData } from '../../src/parquet/metadata/encode.js';
import { BufferSink, ParquetWriter, defineSchema, field, type WriterOptions } from '../../src/index.js';

export const schema = defineSchema({
  id: field.int64().required(),
  name: field.string(),
  tags: field.list(field.string()),
  s: field.struct({ a: field.int32(), b: field.list(field.int32()) }),
});

export function record(i: number): Record<string, unknown> {
  return {
    id: BigInt(i),
    name: i % 7 === 0 ? null : `name-${i % 50}`,
    tags: i % 5 === 0 ? null : Array.from({ length: i % 4 }, (_, k) => `t${(i + k) % 13}`),
    s: i % 11 === 0 ? null : { a: i % 3 === 0 ? null : i * 3, b: Array.from({ length: i % 3 }, (_, k) => i + k) },
  };
}

export async function writeFile(options: WriterOptions = {}, rows = 3000): Promise<Uint8Array> {
  const sink = new BufferSink();
  const w = await ParquetWriter.open<unknown>(sink, schema, { rowGroupRows: 1000, pageRowLimit: 100, ...options });
  for (let i = 0; i < rows; i++) await w.write(record(i));
  await w.close();
  return sink.bytes();
}

/** `bytes` with its footer replaced by `meta` after `edit` (the footer starts at `footerOffset`). */
export function withFooter(bytes: Uint8Array, edit: (m: FileMetaData) => void, meta: FileMetaData, footerOffset: number): Uint8Array {
  const m = structuredClone(meta);
  edit(m);
  const w = new ByteWriter(4096);
  encodeFileMetaData(m, w);
  const f = w.finish();
  const out = new Uint8Array(footerOffset + f.length + 8);
  out.set(bytes.subarray(0, footerOffset));
  out.set(f, footerOffset);
  new DataView(out.buffer).setUint32(footerOffset + f.length, f.length, true);
  out.set([0x50, 0x41, 0x52, 0x31], footerOffset + f.length + 4);
  return out;
}
