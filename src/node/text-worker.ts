/**
 * A worker thread of a Parquet to CSV or JSON Lines conversion
 * (text-workers.ts): pieces of row groups, each answered with its text, in
 * order. A piece it fails the calling thread writes itself, and meets the
 * error as one thread would.
 */
import { TextPieceWriter, type TextPieceJob, type TextPieceSetup } from '../convert/text-columns.js';
import { serveJobs } from './worker-pool.js';

serveJobs((setup: TextPieceSetup) => {
  const writer = new TextPieceWriter(setup);
  return (job: TextPieceJob) => {
    const batches = writer.write(job);
    return [batches, batches.map((b) => b.bytes.buffer as ArrayBuffer)];
  };
});
