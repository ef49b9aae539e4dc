/**
 * The worker threads that write pieces of a Parquet file's row groups as
 * CSV or JSON Lines (src/convert/text-columns.ts), on the shared pool
 * (worker-pool.ts).
 */
import type { TextBatch } from '../convert/output.js';
import type { TextPieceJob, TextWriters } from '../convert/text-columns.js';
import { startPool } from './worker-pool.js';

export const textWriters: TextWriters = {
  start(count, setup) {
    const pool = startPool('text-worker', count);
    pool.setup(setup);
    return { write: (job: TextPieceJob) => pool.run<TextBatch[]>(job), close: () => pool.close() };
  },
};
