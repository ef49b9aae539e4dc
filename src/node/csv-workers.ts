/**
 * Worker threads that read a CSV input's blocks (src/convert/csv-parallel.ts):
 * jobs go to them in turn, each answers its own in order.
 */
import { availableParallelism, loadavg } from 'node:os';
import { IOError } from '../errors.js';
import { startWorker } from './worker-start.js';
import type { CsvBlockJob, CsvBlockResult, CsvBlockSetup } from '../convert/csv-block-read.js';
import type { CsvBlockPool, CsvBlockReaders } from '../convert/csv-parallel.js';

/**
 * Threads `convert` reads a CSV input with by default (the main thread, which
 * writes, among them): the cores the load average leaves idle, rounded, 1 to
 * 4. Workers on a busy machine only add their own cost (passing the columns
 * between threads): measured 1.3x the CPU of one thread.
 */
export function defaultCsvThreads(): number {
  return Math.min(4, Math.max(1, Math.round(availableParallelism() - loadavg()[0]!)));
}

export const csvWorkers: CsvBlockReaders = {
  start(count: number, setup: CsvBlockSetup): CsvBlockPool {
    const pending = new Map<number, { resolve: (r: CsvBlockResult) => void; reject: (e: unknown) => void }>();
    let failure: unknown;
    const fail = (e: unknown) => {
      failure ??= e;
      for (const p of pending.values()) p.reject(e);
      pending.clear();
    };
    const workers = Array.from({ length: count }, () => {
      const w = startWorker('csv-worker');
      w.on('message', (m: { id: number; result?: CsvBlockResult; error?: unknown }) => {
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (m.error !== undefined) p.reject(m.error);
        else p.resolve(m.result!);
      });
      w.on('error', fail);
      w.on('exit', (code) => {
        if (pending.size > 0) fail(new IOError(`a CSV worker thread exited (code ${code}) with blocks unread`));
      });
      w.postMessage({ setup });
      return w;
    });
    let next = 0;
    return {
      read(job: CsvBlockJob): Promise<CsvBlockResult> {
        if (failure !== undefined) return Promise.reject(failure);
        const id = next++;
        return new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject });
          workers[id % workers.length]!.postMessage({ id, job });
        });
      },
      async close() {
        await Promise.all(workers.map((w) => w.terminate()));
      },
    };
  },
};
