/**
 * Node's decode thread (parquet/decode-ahead.ts): a worker thread per read,
 * unreferenced, so that a read abandoned without being closed never keeps
 * the process alive; closed by the read when it ends, stops early or fails.
 */
import { startWorker } from './worker-start.js';
import type { DecodeChunk, DecodeThread, StartDecodeThread } from '../parquet/decode-ahead.js';
import type { ColumnChunkData } from '../shred/column-data.js';

export const startDecodeThread: StartDecodeThread = (schema, options) => {
  const worker = startWorker('decode-worker');
  worker.unref();
  const pending = new Map<number, (data: ColumnChunkData[] | undefined) => void>();
  let dead = false;
  let next = 0;
  let lost = () => {};
  const thread: DecodeThread = {
    decode(buffer: ArrayBuffer, chunks: DecodeChunk[]): Promise<ColumnChunkData[] | undefined> {
      if (dead) return Promise.resolve(undefined);
      const id = next++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        worker.postMessage({ id, buffer, chunks }, [buffer]);
      });
    },
    close() {
      lost();
      void worker.terminate();
    },
  };
  // Resolved when the worker has loaded its decoders, or is gone (then it decodes nothing).
  return new Promise((ready) => {
    lost = () => {
      dead = true;
      for (const done of pending.values()) done(undefined);
      pending.clear();
      ready(thread);
    };
    worker.on('message', (m: { ready?: true; id: number; data?: ColumnChunkData[] }) => {
      if (m.ready) return ready(thread);
      pending.get(m.id)?.(m.data);
      pending.delete(m.id);
    });
    worker.on('error', () => lost());
    worker.on('exit', () => lost());
    worker.postMessage({ schema, options });
  });
};
