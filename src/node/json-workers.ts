/** The worker thread that reads a JSON Lines input past its sample (src/convert/json-tail.ts), on the shared pool (worker-pool.ts). */
import type { JsonBlock } from '../convert/json-columns.js';
import type { JsonLineReaders, JsonLinesJob } from '../convert/json-tail.js';
import { startPool } from './worker-pool.js';

export const jsonWorkers: JsonLineReaders = {
  start() {
    const pool = startPool('json-worker', 1);
    return {
      setup: (setup) => pool.setup(setup),
      // The lines' buffer is handed over, not copied.
      read: (job: JsonLinesJob) => pool.run<JsonBlock[]>(job, 'bytes' in job ? [job.bytes.buffer as ArrayBuffer] : []),
      close: () => pool.close(),
    };
  },
};
