/**
 * The timing loop the child-process benchmarks share, in plain JavaScript
 * so a worker can run it without a TypeScript loader in the timed process
 * (bench/arrow-worker.mjs); bench/harness.ts re-exports it.
 */

/**
 * A cold run, then `runs` timed runs, a forced GC before each (needs --expose-gc, which `spawnWorker` passes).
 * @template A
 * @param {() => Promise<A>} run
 * @param {number} runs
 * @returns {Promise<import('./timed-runs.mjs').Timed<A>>}
 */
export async function timedRuns(run, runs) {
  const gc = /** @type {{ gc?: () => void }} */ (globalThis).gc;
  let answer = await run();
  const times = [];
  for (let i = 0; i < runs; i++) {
    gc?.();
    const t = performance.now();
    answer = await run();
    times.push(performance.now() - t);
  }
  return { times, answer, rssMB: process.resourceUsage().maxRSS / 1024 };
}
