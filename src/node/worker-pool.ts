/**
 * Worker threads for one job of a conversion (reading and encoding a CSV
 * input's blocks, writing a Parquet file's text) or of a read (decoding
 * ahead, decode-thread.ts), both sides of them: the
 * calling thread's pool (start, setup, dispatch, failure, shutdown) and the
 * worker's loop (`serveJobs`). A job goes to the live thread with the fewest
 * waiting and is answered by it in order; its promise settles with the
 * answer, or rejects with the worker's error (cloned), or an IOError when the
 * thread is lost. What each job is, and what to do with a rejection, is the
 * caller's. A thread keeps the process alive only while it owes an answer.
 */
import { parentPort } from 'node:worker_threads';
import { IOError } from '../errors.js';
import { startWorker } from './worker-start.js';

export interface WorkerPool {
  /** What every job needs, sent once to every thread before the first job (the threads may start before it is known, to load meanwhile). */
  setup(data: unknown): void;
  /** Job `job` on a thread, `transfer`'s buffers handed over (not copied): its answer. */
  run<T>(job: unknown, transfer?: readonly ArrayBuffer[]): Promise<T>;
  /** Ends the threads, whatever they owe. */
  close(): Promise<void>;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/** `count` threads of the worker module `name` (src/node/`name`.ts, whose jobs `serveJobs` answers). */
export function startPool(name: 'csv-worker' | 'text-worker' | 'decode-worker', count: number): WorkerPool {
  const threads = Array.from({ length: count }, () => {
    const worker = startWorker(name);
    const thread = { worker, pending: new Map<number, Pending>(), lost: undefined as unknown };
    const settle = (id: number) => {
      const p = thread.pending.get(id);
      thread.pending.delete(id);
      if (thread.pending.size === 0) worker.unref();
      return p;
    };
    worker.on('message', (m: { id: number; result?: unknown; error?: unknown }) => {
      const p = settle(m.id);
      if (m.error !== undefined) p?.reject(m.error);
      else p?.resolve(m.result);
    });
    const lose = (error: unknown) => {
      thread.lost ??= error;
      for (const id of [...thread.pending.keys()]) settle(id)!.reject(thread.lost);
    };
    worker.on('error', lose);
    worker.on('exit', (code) => lose(new IOError(`a ${name} thread exited (code ${code}) with work unanswered`)));
    // Idle until a job is posted: a pool left open (a failure elsewhere) does not hold the process. After
    // the listeners: a 'message' listener refs the thread again.
    worker.unref();
    return thread;
  });
  let next = 0;
  return {
    setup(data) {
      for (const t of threads) t.worker.postMessage({ setup: data });
    },
    run<T>(job: unknown, transfer: readonly ArrayBuffer[] = []): Promise<T> {
      let t: (typeof threads)[number] | undefined;
      for (const u of threads) if (u.lost === undefined && (!t || u.pending.size < t.pending.size)) t = u;
      if (!t) return Promise.reject(threads[0]!.lost);
      const id = next++;
      const thread = t;
      return new Promise<T>((resolve, reject) => {
        if (thread.pending.size === 0) thread.worker.ref();
        thread.pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
        thread.worker.postMessage({ id, job }, transfer as ArrayBuffer[]);
      });
    },
    async close() {
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}

/** A job's answer and the buffers to hand back with it. */
export type JobAnswer = readonly [result: unknown, transfer: readonly ArrayBuffer[]];

/**
 * The worker's side: `begin` makes the job handler from the setup; jobs are
 * answered one at a time, in the order they came (an asynchronous one
 * finishes before the next starts). A failure is answered as the job's error.
 */
export function serveJobs<S, J>(begin: (setup: S) => (job: J) => JobAnswer | Promise<JobAnswer>): void {
  const port = parentPort!;
  let handle: ((job: J) => JobAnswer | Promise<JobAnswer>) | undefined;
  let failed: unknown;
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: { setup: S } | { id: number; job: J }) => {
    if ('setup' in m) {
      try {
        handle = begin(m.setup);
      } catch (e) {
        failed = e;
      }
      return;
    }
    queue = queue.then(async () => {
      try {
        if (!handle) throw failed;
        const [result, transfer] = await handle(m.job);
        port.postMessage({ id: m.id, result }, transfer as ArrayBuffer[]);
      } catch (e) {
        answerError(m.id, e);
      }
    });
  });
}

/** An error goes back cloned; one that cannot be cloned (a function in a field) as its message. */
function answerError(id: number, e: unknown): void {
  try {
    parentPort!.postMessage({ id, error: e ?? new Error('no error') });
  } catch {
    parentPort!.postMessage({ id, error: new Error(e instanceof Error ? e.message : String(e)) });
  }
}
