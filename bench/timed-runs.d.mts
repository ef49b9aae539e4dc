export interface Timed<A> {
  times: number[];
  /** What the last run returned. */
  answer: A;
  /** Peak RSS of the process (cold run included), MiB. */
  rssMB: number;
}

/** A cold run, then `runs` timed runs, a forced GC before each (needs --expose-gc, which `spawnWorker` passes). */
export function timedRuns<A>(run: () => Promise<A>, runs: number): Promise<Timed<A>>;
