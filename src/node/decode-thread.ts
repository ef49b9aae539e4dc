/**
 * Node's decode thread (parquet/decode-ahead.ts): a pool of one worker
 * thread per read (worker-pool.ts), which keeps the process alive only while
 * it owes an answer, closed by the read when it ends, stops early or fails.
 */
import { startPool } from './worker-pool.js';
import type { DecodeChunk, DecodeThread, StartDecodeThread } from '../parquet/decode-ahead.js';
import type { ColumnChunkData } from '../shred/column-data.js';

export const startDecodeThread: StartDecodeThread = async (schema, options) => {
  const pool = startPool('decode-worker', 1);
  pool.setup({ schema, options });
  // Answered once the worker has loaded its decoders; until then the read decodes the row groups it reaches. A worker that fails here decodes nothing.
  const live = await pool.run<boolean>({ warm: true }).catch(() => false);
  return {
    decode(buffer: ArrayBuffer, chunks: DecodeChunk[]): Promise<ColumnChunkData[] | undefined> {
      // A job the worker fails (or loses) the read decodes itself, and meets the error as one thread would.
      return live ? pool.run<ColumnChunkData[]>({ buffer, chunks }, [buffer]).catch(() => undefined) : Promise.resolve(undefined);
    },
    close() {
      void pool.close();
    },
  } satisfies DecodeThread;
};
