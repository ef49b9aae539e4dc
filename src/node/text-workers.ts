/**
 * Worker threads that write pieces of a Parquet file's row groups as CSV or
 * JSON Lines (src/convert/text-columns.ts): jobs go to them in turn, each
 * answers its own, in order.
 */
import { startWorker } from './worker-start.js';
import type { TextBatch } from '../convert/output.js';
import type { TextPieceJob, TextPieceSetup, TextWriterPool, TextWriters } from '../convert/text-columns.js';

export const textWriters: TextWriters = {
  start(count: number, setup: TextPieceSetup): TextWriterPool {
    // A job a worker does not answer (it failed, or exited) is written by the calling thread: undefined here.
    const pending = new Map<number, (batches: TextBatch[] | undefined) => void>();
    const dead = new Array<boolean>(count).fill(false);
    const workers = Array.from({ length: count }, (_, index) => {
      const w = startWorker('text-worker');
      w.on('message', (m: { id: number; batches?: TextBatch[] }) => {
        pending.get(m.id)?.(m.batches);
        pending.delete(m.id);
      });
      const lost = () => {
        dead[index] = true;
        for (const [id, done] of pending) {
          if (id % count !== index) continue;
          done(undefined);
          pending.delete(id);
        }
      };
      w.on('error', lost);
      w.on('exit', lost);
      w.postMessage({ setup });
      return w;
    });
    let next = 0;
    return {
      write(job: TextPieceJob): Promise<TextBatch[]> {
        const id = next++;
        return new Promise((resolve, reject) => {
          const done = (batches: TextBatch[] | undefined) => (batches ? resolve(batches) : reject(new Error('no text from the worker')));
          if (dead[id % count]) return done(undefined);
          pending.set(id, done);
          workers[id % count]!.postMessage({ id, job });
        });
      },
      async close() {
        await Promise.all(workers.map((w) => w.terminate()));
      },
    };
  },
};
