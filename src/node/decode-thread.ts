/**
 * Node's decode thread (parquet/decode-ahead.ts): a worker thread per read,
 * unreferenced, so that a read abandoned without being closed never keeps
 * the process alive; closed by the read when it ends, stops early or fails.
 */
import { startWorker } from './worker-start.js';
import type { DecodeChunk, DecodeThread, StartDecodeThread } from '../parquet/decode-ahead.js';
import type { ColumnChunkData } from '../shred/column-data.js';

export const startDecodeThread: StartDecodeThread = async (schema, options) => {
  const worker = startWorker('decode-worker');
  worker.unref();
  const pending = new Map<number, (data: ColumnChunkData[] | undefined) => void>();
  let dead = false;
  const lost = () => {
    dead = true;
    for (const done of pending.values()) done(undefined);
    pending.clear();
  };
  worker.on('message', (m: { id: number; data?: ColumnChunkData[] }) => {
    pending.get(m.id)?.(m.data);
    pending.delete(m.id);
  });
  worker.on('error', lost);
  worker.on('exit', lost);
  worker.postMessage({ schema, options });
  let next = 0;
  return {
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
};
