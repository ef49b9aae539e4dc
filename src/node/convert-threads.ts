/**
 * The threads the CLI's `convert` runs on when `--threads` is not given.
 *
 * Two (the main thread reading, one worker encoding: csv-parallel.ts) for a
 * CSV or TSV file of `CSV_TWO_THREADS_FROM` bytes or more to Parquet, when a
 * second core is idle as the conversion starts; one otherwise. The output is
 * the same bytes either way. Measured on two cores (BENCHMARKS.md, "Worker
 * threads"): two threads beat one from about 40 MB of CSV, and lose below it
 * (the worker's start and its cold code outweigh what it takes over) and
 * when the other core is busy (each thread of the pipeline waits for a core
 * in turn). Text output stays on one thread: there a worker costs more CPU
 * than it saves.
 */
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** Bytes of CSV from which the two-thread pipeline took less wall time than one thread (BENCHMARKS.md, "Worker threads"). */
export const CSV_TWO_THREADS_FROM = 40_000_000;

/** Readings of /proc/loadavg taken, a millisecond apart: one may catch this process's own compiler thread. */
const READINGS = 3;

export interface ConvertJob {
  from: string;
  to: string;
  /** The input's path (`-`: stdin, whose size is not known). */
  path: string;
}

/** What the choice reads of the machine. */
export interface MachineLoad {
  /** The cores this process may use: its CPUs, fewer where a cgroup's CPU quota (a container's) allows less. */
  cores(): number;
  /** Runnable tasks at a few instants, the caller among them (undefined: the system does not tell). */
  runnable(): Promise<number[] | undefined>;
  /** The last minute's load average. */
  load(): number;
}

const thisMachine: MachineLoad = {
  cores: () => Math.min(availableParallelism(), Math.floor(cgroupQuota(readText) ?? Infinity)),
  runnable: runnableTasks,
  load: () => loadavg()[0]!,
};

export async function defaultConvertThreads(job: ConvertJob, machine: MachineLoad = thisMachine): Promise<number> {
  if ((job.from !== 'csv' && job.from !== 'tsv') || job.to !== 'parquet' || job.path === '-') return 1;
  let size: number;
  try {
    const st = statSync(job.path);
    size = st.isFile() ? st.size : 0;
  } catch {
    return 1; // not a local file (an S3 address), or not there: the conversion says why
  }
  if (size < CSV_TWO_THREADS_FROM) return 1;
  return spareCore(machine.cores(), await machine.runnable(), machine.load()) ? 2 : 1;
}

/**
 * Whether a core besides the calling thread's is idle: by the fewest tasks
 * runnable in `runnable` (Linux's count at an instant, the caller among
 * them), else by the last minute's load average (`load`; 0 on Windows,
 * which keeps none).
 */
export function spareCore(cores: number, runnable: readonly number[] | undefined, load: number): boolean {
  if (cores < 2) return false;
  if (runnable && runnable.length > 0) return Math.min(...runnable) < cores;
  return load <= cores - 1;
}

/**
 * The CPUs' worth of time a cgroup's quota gives this process (Linux: a
 * container's `--cpus`), from v2's cpu.max or v1's CFS quota and period as
 * `read` gives the files; undefined where none is set or none can be read.
 */
export function cgroupQuota(read: (path: string) => string | undefined): number | undefined {
  const v2 = read('/sys/fs/cgroup/cpu.max')?.trim().split(/\s+/);
  const [quota, period] = v2 ? [v2[0] === 'max' ? -1 : Number(v2[0]), Number(v2[1])] : [Number(read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us')), Number(read('/sys/fs/cgroup/cpu/cpu.cfs_period_us'))];
  return quota > 0 && period > 0 ? quota / period : undefined;
}

/** A file's text, or undefined when it cannot be read. */
function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The kernel's count of runnable tasks, a few readings (Linux's /proc/loadavg), or undefined where there is none. */
async function runnableTasks(): Promise<number[] | undefined> {
  const out: number[] = [];
  for (let i = 0; i < READINGS; i++) {
    if (i > 0) await sleep(1);
    let text: string;
    try {
      text = await readFile('/proc/loadavg', 'utf8');
    } catch {
      return undefined;
    }
    const n = Number(/^\S+ \S+ \S+ (\d+)\//.exec(text)?.[1]);
    if (!Number.isSafeInteger(n) || n < 1) return undefined;
    out.push(n);
  }
  return out;
}
