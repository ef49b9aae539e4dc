/**
 * Fuzz child process (pool.ts). Given the seed files once, it makes each case
 * it is sent by number (cases.ts), or takes the input it is sent, has the
 * case's surface read it (surfaces/), and reports each outcome at once, with
 * the case's peak RSS: the kernel's high-water mark, reset before each case,
 * which counts native buffers (codecs, Buffers) that the V8 heap does not.
 */
import { buildCase, SeedSet, type CaseSpec } from './cases.js';
import { peakMb, resetPeak } from './pool.js';
import { limitsFor } from './read.js';
import { saveCase } from './save.js';
import type { CaseInput, SeedFile } from './surface.js';
import { SURFACES } from './surfaces/index.js';

export interface WorkerInit {
  type: 'init';
  seed: number;
  files: SeedFile[];
  memoryMb: number;
}

/** A case by number (made here), by spec (built here, and saved as `save.name` in `save.dir` when asked), or given whole. */
export type WorkItem = { id: number } | { id: number; spec: CaseSpec; save?: { dir: string; name: string } } | ({ id: number } & CaseInput);

async function inputOf(item: WorkItem): Promise<CaseInput> {
  if ('bytes' in item) return item;
  if (!('spec' in item)) return (await seeds.makeCase(init!.seed, item.id)).input;
  const input = await buildCase(item.spec, seeds.byName(item.spec.source)!);
  if (item.save) saveCase(input, item.save.dir, item.save.name);
  return input;
}

let init: WorkerInit | undefined;
let seeds = new SeedSet([]);

async function run(item: WorkItem): Promise<void> {
  const t0 = performance.now();
  const input = await inputOf(item);
  resetPeak();
  const outcome = await SURFACES[input.format].run(input, limitsFor(init!.memoryMb));
  // Sent before the next case starts, so a case that hangs the process is never blamed on this one.
  await new Promise((sent) => process.send!({ type: 'done', outcome: { ...outcome, id: item.id, surface: input.format, ms: performance.now() - t0, peakMb: peakMb() } }, sent));
}

process.on('message', (msg: WorkerInit | { type: 'run'; items: WorkItem[] }) => {
  if (msg.type === 'init') {
    init = msg;
    seeds = new SeedSet(msg.files ?? []);
    process.send!({ type: 'ready' });
    return;
  }
  void (async () => {
    for (const item of msg.items) {
      await run(item);
      // A case that grew the heap leaves RSS high, which would count against the next ones: start afresh.
      if (process.memoryUsage.rss() > init!.memoryMb * 0.5 * 1024 * 1024) process.exit(0);
    }
  })();
});
