/**
 * The worker threads that read a CSV input's blocks and encode its row
 * groups (src/convert/csv-parallel.ts), on the shared pool (worker-pool.ts).
 */
import type { CsvBlockJob, CsvBlockResult } from '../convert/csv-block-read.js';
import type { CsvBlockPool, CsvBlockReaders } from '../convert/csv-parallel.js';
import { builtBuffers } from '../convert/column-builders.js';
import type { RowGroupJob } from '../convert/row-groups.js';
import type { EncodedRowGroup } from '../parquet/write/writer.js';
import { startPool } from './worker-pool.js';

export const csvWorkers: CsvBlockReaders = {
  start(count: number): CsvBlockPool {
    const pool = startPool('csv-worker', count);
    return {
      setup: (setup, rowGroups) => pool.setup({ setup, rowGroups }),
      // The block's bytes are handed over, and back with the result: not copied either way.
      read: (job: CsvBlockJob) => pool.run<CsvBlockResult>({ read: job }, [job.bytes.buffer as ArrayBuffer]),
      encode(job: RowGroupJob) {
        // A lent block is copied (it goes on into the next row group); the others are handed over.
        const lent = job.lent ? job.columns.at(-1) : undefined;
        return pool.run<EncodedRowGroup>({ encode: job }, builtBuffers(job.columns.filter((c) => c !== lent).flat()));
      },
      close: () => pool.close(),
    };
  },
};
