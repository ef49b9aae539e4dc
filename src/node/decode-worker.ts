/**
 * The decode thread of a read (decode-thread.ts): given a file's schema and
 * chunk options, then jobs of fetched chunk bytes, it answers each with the
 * decoded chunks, their buffers transferred.
 */
import { parentPort } from 'node:worker_threads';
import { registerNodeCodecs } from './codecs.js';
import { buildSchema, type LeafNode, type SchemaElementLike } from '../schema/tree.js';
import { decoding, loadDecoders, type FileChunkOptions } from '../parquet/chunk-reads.js';
import type { DecodeChunk } from '../parquet/decode-ahead.js';
import type { ColumnChunkData } from '../shred/column-data.js';

registerNodeCodecs();

let leaves: LeafNode[] = [];
let options: FileChunkOptions;

type Message = { schema: SchemaElementLike[]; options: FileChunkOptions } | { id: number; buffer: ArrayBuffer; chunks: DecodeChunk[] };

parentPort!.on('message', (m: Message) => {
  if ('schema' in m) {
    leaves = buildSchema(m.schema).leaves;
    options = m.options;
    // Ready once the decoders are loaded: until then the calling thread decodes the row groups it reaches.
    void decoding().then(() => parentPort!.postMessage({ ready: true }));
    return;
  }
  decode(m.buffer, m.chunks).then(
    (data) => parentPort!.postMessage({ id: m.id, data }, transferList(data)),
    // The calling thread decodes the job itself, and meets the error as one thread would.
    () => parentPort!.postMessage({ id: m.id }),
  );
});

async function decode(buffer: ArrayBuffer, chunks: DecodeChunk[]): Promise<ColumnChunkData[]> {
  await loadDecoders(chunks);
  const { decodeColumnChunk, withPageEncodings } = await decoding();
  const bytes = new Uint8Array(buffer);
  return withPageEncodings(() => chunks.map((c) => decodeColumnChunk(bytes.subarray(c.byteOffset, c.byteOffset + c.length), c.base, c.meta, leaves[c.columnIndex]!, options, c.ctx)));
}

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
