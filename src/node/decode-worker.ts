/**
 * The decode thread of a read (decode-thread.ts): given a file's schema and
 * chunk options, then jobs of fetched chunk bytes, it answers each with the
 * decoded chunks, their buffers transferred. Its first job only loads the
 * decoders.
 */
import { registerNodeCodecs } from './codecs.js';
import { serveJobs } from './worker-pool.js';
import { buildSchema, type SchemaElementLike } from '../schema/tree.js';
import { decoding, loadDecoders, type FileChunkOptions } from '../parquet/chunk-reads.js';
import type { DecodeChunk } from '../parquet/decode-ahead.js';
import type { ColumnChunkData } from '../shred/column-data.js';

registerNodeCodecs();

serveJobs((setup: { schema: SchemaElementLike[]; options: FileChunkOptions }) => {
  const leaves = buildSchema(setup.schema).leaves;
  return async (job: { warm: true } | { buffer: ArrayBuffer; chunks: DecodeChunk[] }) => {
    const { decodeColumnChunk, withPageEncodings } = await decoding();
    if ('warm' in job) return [true, []];
    await loadDecoders(job.chunks);
    const bytes = new Uint8Array(job.buffer);
    const data = await withPageEncodings(() => job.chunks.map((c) => decodeColumnChunk(bytes.subarray(c.byteOffset, c.byteOffset + c.length), c.base, c.meta, leaves[c.columnIndex]!, setup.options, c.ctx)));
    return [data, transferList(data)];
  };
});

/** Every buffer the decoded chunks' arrays lie in, once: moved, not copied. */
function transferList(data: ColumnChunkData[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const add = (a: ArrayBufferView | null | undefined) => {
    if (a) out.add(a.buffer as ArrayBuffer);
  };
  for (const c of data) {
    add(c.def);
    add(c.rep);
    add(c.indices);
    for (const v of [c.values, c.dictionary]) {
      if (v && 'offsets' in v) {
        add(v.data);
        add(v.offsets);
      } else add(v);
    }
  }
  return [...out];
}
