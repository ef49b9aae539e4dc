/**
 * A worker thread of a Parquet to CSV or JSON Lines conversion
 * (text-workers.ts): given the setup, then pieces of row groups, it answers
 * each with its text, in order.
 */
import { parentPort } from 'node:worker_threads';
import { TextPieceWriter, type TextPieceJob, type TextPieceSetup } from '../convert/text-columns.js';

let writer: TextPieceWriter | undefined;

parentPort!.on('message', (m: { setup: TextPieceSetup } | { id: number; job: TextPieceJob }) => {
  try {
    if ('setup' in m) {
      writer = new TextPieceWriter(m.setup);
      return;
    }
    const batches = writer!.write(m.job);
    parentPort!.postMessage({ id: m.id, batches }, batches.map((b) => b.bytes.buffer as ArrayBuffer));
  } catch {
    // The calling thread writes the piece itself, and meets the error as one thread would.
    if ('id' in m) parentPort!.postMessage({ id: m.id });
  }
});
