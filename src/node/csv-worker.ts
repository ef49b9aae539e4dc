/**
 * A worker thread of a parallel CSV conversion (csv-workers.ts): blocks to
 * read (answered with their rows in columns) and row groups to encode
 * (answered with their column chunks), in order.
 */
import { builtBuffers } from '../convert/column-builders.js';
import { CsvBlockReader, type CsvBlockJob, type CsvBlockSetup } from '../convert/csv-block-read.js';
import { registerNodeCodecs } from './codecs.js';
import { addRowGroup, ownBuffers, rowGroupEncoder, type RowGroupJob, type RowGroupSetup } from '../convert/row-groups.js';
import type { ParquetWriter } from '../parquet/write/writer.js';
import { serveJobs } from './worker-pool.js';

// The main thread's codecs (the native ones where they load): a row group compresses the same here as there.
registerNodeCodecs();

serveJobs((s: { setup: CsvBlockSetup; rowGroups: RowGroupSetup | undefined }) => {
  const reader = new CsvBlockReader(s.setup);
  /** The thread's encoder, opened at the first row group. */
  let encoder: Promise<ParquetWriter> | undefined;
  /**
   * A buffer was handed over (detached) by this thread. The first detach
   * throws away every function V8 has compiled here that reads a typed array
   * (its ArrayBufferDetaching protector), to be compiled again with checks:
   * a thread that only encodes copies its row groups back instead (about
   * 40 MB for 100 MB of CSV), 0.15-0.2 s less CPU in all (BENCHMARKS.md).
   */
  let detached = false;
  return async (m: { read: CsvBlockJob } | { encode: RowGroupJob }) => {
    if ('encode' in m) {
      const writer = await (encoder ??= rowGroupEncoder(s.rowGroups!));
      await addRowGroup(writer, m.encode);
      const group = writer.encodeRowGroup()!;
      // Views cut out of larger buffers either way: a copy then copies their bytes, not their whole buffers.
      const own = ownBuffers(group);
      return [group, detached ? own : []];
    }
    const result = reader.read(m.read);
    result.bytes = m.read.bytes;
    detached = true;
    return [result, [m.read.bytes.buffer as ArrayBuffer, ...builtBuffers(result.columns)]];
  };
});
