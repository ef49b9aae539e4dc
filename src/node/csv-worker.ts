/**
 * A worker thread of a parallel CSV conversion (csv-workers.ts): given the
 * setup, then blocks, it answers each with its rows in columns, in order.
 */
import { parentPort } from 'node:worker_threads';
import { builtBuffers } from '../convert/column-builders.js';
import { CsvBlockReader, type CsvBlockJob, type CsvBlockSetup } from '../convert/csv-block-read.js';

let reader: CsvBlockReader | undefined;

parentPort!.on('message', (m: { setup: CsvBlockSetup } | { id: number; job: CsvBlockJob }) => {
  if ('setup' in m) {
    reader = new CsvBlockReader(m.setup);
    return;
  }
  try {
    const result = reader!.read(m.job);
    parentPort!.postMessage({ id: m.id, result }, [result.lines.buffer as ArrayBuffer, ...builtBuffers(result.columns)]);
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: e });
  }
});
