/**
 * Worker threads that read a CSV input's blocks and encode its row groups
 * (src/convert/csv-parallel.ts): a job goes to the thread with the fewest
 * waiting, each answers its own in order.
 */
import { availableParallelism, loadavg } from 'node:os';
import { IOError } from '../errors.js';
import { startWorker } from './worker-start.js';
import type { CsvBlockJob, CsvBlockResult, CsvBlockSetup } from '../convert/csv-block-read.js';
import type { CsvBlockPool, CsvBlockReaders } from '../convert/csv-parallel.js';
import { builtBuffers } from '../convert/column-builders.js';
import type { RowGroupJob, RowGroupSetup } from '../convert/row-groups.js';

/**
 * Worker threads `convert` reads and encodes a CSV input with by default:
 * the cores the load average leaves idle, rounded, 1 to 4 (2 on an idle
 * 2-core machine; with 1 the main thread does it all). On a busy machine
 * threads only add their own cost (heaps, start-up, passing buffers).
 */
export function defaultCsvThreads(): number {
  return Math.min(4, Math.max(1, Math.round(availableParallelism() - loadavg()[0]!)));
}

export const csvWorkers: CsvBlockReaders = {
  start(count: number, setup: CsvBlockSetup, rowGroups: RowGroupSetup | undefined): CsvBlockPool {
    const pending = new Map<number, { resolve: (r: never) => void; reject: (e: unknown) => void; worker: number }>();
    const waiting = new Array<number>(count).fill(0);
    let failure: unknown;
    const fail = (e: unknown) => {
      failure ??= e;
      for (const p of pending.values()) p.reject(e);
      pending.clear();
    };
    const workers = Array.from({ length: count }, () => {
      const w = startWorker('csv-worker');
      w.on('message', (m: { id: number; result?: never; error?: unknown }) => {
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        waiting[p.worker]!--;
        if (m.error !== undefined) p.reject(m.error);
        else p.resolve(m.result!);
      });
      w.on('error', fail);
      w.on('exit', (code) => {
        if (pending.size > 0) fail(new IOError(`a CSV worker thread exited (code ${code}) with blocks unread`));
      });
      w.postMessage({ setup, rowGroups });
      return w;
    });
    let next = 0;
    /** Posts a job to the thread with the fewest waiting, its buffers handed over. */
    const post = <T>(job: object, transfer: ArrayBuffer[]): Promise<T> => {
      if (failure !== undefined) return Promise.reject(failure);
      const id = next++;
      let worker = 0;
      for (let i = 1; i < count; i++) if (waiting[i]! < waiting[worker]!) worker = i;
      waiting[worker]!++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (r: never) => void, reject, worker });
        workers[worker]!.postMessage({ id, ...job }, transfer);
      });
    };
    return {
      // The block's bytes are handed over, and back with the result: not copied either way.
      read: (job: CsvBlockJob) => post<CsvBlockResult>({ job }, [job.bytes.buffer as ArrayBuffer]),
      encode(job: RowGroupJob) {
        // A lent block is copied (it goes on into the next row group); the others are handed over.
        const lent = job.lent ? job.columns.at(-1) : undefined;
        return post({ encode: job }, builtBuffers(job.columns.filter((c) => c !== lent).flat()));
      },
      async close() {
        await Promise.all(workers.map((w) => w.terminate()));
      },
    };
  },
};
