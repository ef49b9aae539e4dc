/**
 * The worker thread of a JSON Lines conversion with threads (json-workers.ts):
 * lines past the sample, job after job, read into blocks as the main thread
 * would read them (JsonLineBlocks), answered with the blocks they complete.
 */
import { builtBuffers } from '../convert/column-builders.js';
import { JsonLineBlocks, JsonLineReader } from '../convert/json-columns.js';
import type { JsonLinesJob, JsonLinesSetup } from '../convert/json-tail.js';
import { buildSchema } from '../schema/tree.js';
import { serveJobs } from './worker-pool.js';

serveJobs((s: JsonLinesSetup) => {
  const reader = JsonLineReader.of(buildSchema(s.elements));
  // The main thread sets a worker up only for a schema it reads from bytes itself.
  if (!reader) throw new Error('a JSON Lines worker was set up for a schema not read from bytes');
  const blocks = new JsonLineBlocks(reader, s.first);
  return (job: JsonLinesJob) => {
    const out = 'bytes' in job ? blocks.lines(job.bytes) : [blocks.end()];
    return [out, out.flatMap((b) => [b.lines.buffer as ArrayBuffer, ...builtBuffers(b.columns)])];
  };
});
